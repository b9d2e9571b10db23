"""``lite/build.py``'s parts that decide what the browser site serves: the lessons' first cell, which loads
their packages or says which the site lacks; and, with ``--pyodide-fallback-url``, the lock that sends the
packages the site does not carry to that address. The built site in a browser: ``tests/e2e/test_lite_e2e.py``."""

from __future__ import annotations

import builtins
import contextlib
import importlib.util
import io
import json
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("lite_build", REPO / "lite" / "build.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["lite_build"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["lite_build"]


def run_cell(source: str, blocked: set[str] = frozenset()) -> str:
    """What ``source`` prints, with the modules ``blocked`` not importable (as in a site that lacks them)."""
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, *args, **kwargs)

    out = io.StringIO()
    builtins.__import__ = fake
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<cell>", "exec"), {})
    finally:
        builtins.__import__ = real
    return out.getvalue()


def test_every_lesson_is_on_the_site_with_a_first_cell_that_loads_its_packages(build):
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("0*.ipynb"))
    assert sorted([*build.NOTEBOOKS, *build.LESSONS]) == notebooks, "every notebook is on the site"
    for name, needs in build.LESSONS.items():
        original = json.loads((REPO / "notebooks" / name).read_text())
        site = build.lesson_for_the_site(REPO / "notebooks" / name, needs)
        assert site["metadata"]["kernelspec"]["name"] == "python", "the site's kernel: none to choose"
        first, rest = site["cells"][0], site["cells"][1:]
        assert first["metadata"]["tags"] == ["lite"] and first["cell_type"] == "code"
        assert ["".join(c["source"]) for c in rest] == ["".join(c["source"]) for c in original["cells"]]
        assert all(c["outputs"] == [] for c in rest if c["cell_type"] == "code")
        source = "".join(first["source"])
        for package in needs:   # a plain import statement: what the kernel reads to load a package
            assert f"\n    import {package}\n" in source


def test_the_first_cell_loads_every_optional_package_a_lesson_uses(build):
    """The packages a lesson's cells ask for (``needs("numpy", ...)``), and matplotlib where it plots, are among
    those its first cell loads: else a site that serves them would still skip the cell."""
    import re

    for name, listed in build.LESSONS.items():
        cells = json.loads((REPO / "notebooks" / name).read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        used = {n for call in re.findall(r"\bneeds\(([^)]*)\)", code)
                for n in re.findall(r'"(\w+)"', call.split("instead=")[0])}
        if re.search(r"\.plot\(|new_figure\(", code):
            used.add("matplotlib")
        assert used <= set(listed), f"{name} uses {sorted(used - set(listed))}, not loaded by its first cell"


def test_the_first_cell_says_which_packages_the_site_does_not_serve(build):
    source = build.loading_cell(["numpy", "matplotlib", "gymnasium"])
    assert run_cell(source) == "Ready: every package this lesson uses is loaded.\n"
    said = run_cell(source, blocked={"numpy", "gymnasium"})
    assert said.startswith("Not served by this copy of the site: numpy, gymnasium. The cells that need them say so")
    assert "--pyodide-fallback-url" in said


def wheel(path: Path, name: str, version: str, requires: list[str]) -> Path:
    file = path / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(file, "w") as z:
        meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
            f"Requires-Dist: {r}\n" for r in requires)
        z.writestr(f"{name}-{version}.dist-info/METADATA", meta)
        z.writestr(f"{name}/__init__.py", "")
    return file


LOCK = {"info": {}, "packages": {
    "numpy": {"name": "numpy", "version": "2.4.6", "depends": [], "imports": ["numpy"], "sha256": "0" * 64,
              "file_name": "numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl"},
    "cloudpickle": {"name": "cloudpickle", "version": "3.1.2", "file_name": "cloudpickle-3.1.2-py3-none-any.whl",
                    "depends": [], "imports": ["cloudpickle"], "sha256": "1" * 64},
}}


def test_with_a_fallback_the_packages_the_site_lacks_load_from_there(build, tmp_path):
    gym = wheel(tmp_path, "gymnasium", "1.4.0", ["numpy>=1.22", "cloudpickle"])
    pickle = wheel(tmp_path, "cloudpickle", "3.1.2", [])
    assert not build.pure(LOCK, "numpy") and build.pure(LOCK, "cloudpickle")
    with pytest.raises(SystemExit, match="gymnasium needs numpy"):   # no fallback: the site must serve it
        build.check_closure(LOCK, {"cloudpickle"}, {"gymnasium": gym}, "3.14", set())
    build.check_closure(LOCK, {"cloudpickle"}, {"gymnasium": gym}, "3.14", set(), fallback=True)

    url = "https://cdn.example.org/pyodide/v314.0.6/full/"
    cut = build.cut_lock(LOCK, {"cloudpickle"}, {"cloudpickle": pickle}, {"gymnasium": gym}, "3.14", url)
    assert cut["packages"]["numpy"]["file_name"] == url + LOCK["packages"]["numpy"]["file_name"]
    assert cut["packages"]["cloudpickle"]["file_name"] == pickle.name, "served by the site itself"
    assert cut["packages"]["gymnasium"]["file_name"] == f"../../pypi/{gym.name}"
    assert cut["packages"]["gymnasium"]["depends"] == ["cloudpickle", "numpy"]
    assert "numpy" not in build.cut_lock(LOCK, {"cloudpickle"}, {"cloudpickle": pickle}, {}, "3.14", None)["packages"]
