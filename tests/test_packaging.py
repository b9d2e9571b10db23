"""The distributions: the sdist holds what a build needs (and no built file), the wheel what a user needs.

The fast tests build both with ``python -m build`` (isolated, so hatchling comes from the index). The slow
ones (marked ``slow``: ``SPIDERETTE_SLOW=1``, as ``.ci/run`` runs them) install the sdist (npm builds the front
end from ``js/``) and the wheel into fresh virtual environments and use them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("build", reason="the build package is not installed (pip install build)")
#: (each build and install may take up to 900 s on its own: more than pyproject.toml's default timeout)
pytestmark = pytest.mark.timeout(2400)

REPO = Path(__file__).resolve().parents[1]
VERSION = "0.1.0"


def build(outdir: Path, *flags: str) -> None:
    p = subprocess.run([sys.executable, "-m", "build", *flags, "--outdir", str(outdir), str(REPO)],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build(out, "--sdist", "--wheel")
    return out


def compiler_here() -> bool:
    """Is the C compiler Python was built with on this machine?"""
    import shutil
    import sysconfig

    cc = (sysconfig.get_config_var("CC") or "").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def sdist_names(dist: Path) -> set[str]:
    [path] = dist.glob("spiderette-*.tar.gz")
    with tarfile.open(path) as t:
        return {name.split("/", 1)[1] for name in t.getnames() if "/" in name}


def wheel_names(dist: Path) -> set[str]:
    [path] = dist.glob("spiderette-*.whl")
    with zipfile.ZipFile(path) as z:
        return set(z.namelist())


def test_sdist_has_what_a_build_needs(dists):
    names = sdist_names(dists)
    for need in ("pyproject.toml", "README.md", "LICENSE", "package.json", "package-lock.json",
                 "js/widget.js", "js/widget.css", "js/replay.js", "js/replay.css", "notebooks/01-play.ipynb",
                 "src/spiderette/__init__.py", "src/spiderette/cli/__init__.py", "src/spiderette/__main__.py",
                 "src/spiderette/py.typed",
                 "tests/test_cli.py", "docs/rules.md", "docs/play.md", "docs/api.md", "mkdocs.yml",
                 "tests/test_docs.py", "PKG-INFO", "hatch_build.py", "src/spiderette/engine/_ccore.c",
                 "src/spiderette/engine/csrc/search.h"):
        assert need in names, need
    tracked = subprocess.run(["git", "ls-files", "js", "src"], cwd=REPO, capture_output=True, text=True)
    if tracked.returncode == 0:  # every source file of the package and the front end
        missing = {f for f in tracked.stdout.split() if (REPO / f).exists()} - names
        assert not missing
    assert not [n for n in names if n.startswith(("src/spiderette/static/", "node_modules/", "dist/", "build/"))
                or "__pycache__" in n or n.endswith(".pyc")]


def test_wheel_has_what_a_user_needs(dists):
    names = wheel_names(dists)
    for need in ("spiderette/__init__.py", "spiderette/cli/__init__.py", "spiderette/__main__.py",
                 "spiderette/py.typed",
                 "spiderette/engine/game.py", "spiderette/players/solver.py", "spiderette/studies/runner.py",
                 "spiderette/notebook/widget.py", "spiderette/userdata/statistics.py",
                 "spiderette/static/widget.js", "spiderette/static/widget.css", "spiderette/static/replay.js",
                 "spiderette/static/replay.css", "spiderette/notebooks/01-play.ipynb",
                 "spiderette/studies/solver-spiderette-4-suits-1-30.json", "spiderette/engine/spiderette.cardz",
                 "spiderette/players/odds.json",
                 f"spiderette-{VERSION}.dist-info/licenses/LICENSE"):
        assert need in names, need
    assert not [n for n in names if n.startswith(("tests/", "js/", "notebooks/")) or n.endswith((".pyc", ".c", ".h"))]
    # the compiled search core, built by the build itself where a C compiler is found (as here, in CI)
    [path] = dists.glob("spiderette-*.whl")
    if compiler_here():
        assert [n for n in names if n.startswith("spiderette/engine/_ccore.") and n.endswith((".so", ".pyd"))]
        assert not path.name.endswith("-py3-none-any.whl"), path.name   # (so a wheel for this platform)
    with zipfile.ZipFile(path) as z:
        meta = z.read(f"spiderette-{VERSION}.dist-info/METADATA").decode()
        entry_points = z.read(f"spiderette-{VERSION}.dist-info/entry_points.txt").decode()
        notebook = z.read("spiderette/notebooks/01-play.ipynb")
    assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
    assert "Provides-Extra: lab" in meta and "Requires-Dist: jupyterlab>=4; extra == 'lab'" in meta
    assert "spiderette = spiderette.cli:main" in entry_points
    assert notebook == (REPO / "notebooks" / "01-play.ipynb").read_bytes()


# ---------------------------------------------------------------------- installs (slow)
CHECK = """
import pathlib, spiderette
from spiderette.cli.lab import play_notebook
here = pathlib.Path(spiderette.__file__).parent
assert (here / "static" / "widget.js").is_file() and (here / "static" / "replay.js").is_file()
assert b"spiderette.Widget" in play_notebook()
w = spiderette.Widget(seed=7)
assert w.game.seed == 7
print(here)
"""


def install_and_check(target: Path, tmp: Path, core: str = "compiled (C)", **more_env: str) -> None:
    """Install ``target`` into a fresh virtual environment, use it, and check that it runs the search core
    ``core`` (and says so)."""
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | more_env
    p = subprocess.run([str(py), "-m", "pip", "install", "-q", str(target)], capture_output=True, text=True,
                       env=env, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    p = subprocess.run([str(py), "-c", CHECK], capture_output=True, text=True, env=env, cwd=tmp, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().startswith(str(env_dir))  # the installed copy, not the working tree
    p = subprocess.run([str(env_dir / "bin" / "spiderette"), "solve", "3", "--suits", "1", "--seconds", "10"],
                       capture_output=True, text=True, env=env, cwd=tmp, timeout=120)
    assert p.returncode == 0 and "verdict: win" in p.stdout, p.stdout + p.stderr
    assert f"search core: {core}" in p.stdout.splitlines(), p.stdout
    p = subprocess.run([str(env_dir / "bin" / "spiderette"), "--version"], capture_output=True, text=True, env=env,
                       cwd=tmp, timeout=120)
    assert f"search core: {core}" in p.stdout, p.stdout + p.stderr


def expected_core() -> str:
    return "compiled (C)" if compiler_here() else "pure Python (not compiled here)"


@pytest.mark.slow   # (virtual environments, npm)
def test_sdist_installs_and_builds_the_front_end(tmp_path):
    build(tmp_path / "dist", "--sdist")
    [sdist] = (tmp_path / "dist").glob("*.tar.gz")
    install_and_check(sdist, tmp_path, expected_core())


@pytest.mark.slow   # (virtual environments)
def test_wheel_installs(dists, tmp_path):
    [wheel] = dists.glob("*.whl")
    install_and_check(wheel, tmp_path, expected_core())


@pytest.mark.slow   # (virtual environments, a C compiler made unreachable)
def test_without_a_compiler_it_installs_and_runs_pure_python(tmp_path):
    """Where no C compiler is found the install goes on: a pure-Python wheel, and the package says so."""
    out = tmp_path / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"CC": "/nonexistent/cc"}
    p = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(REPO)], env=env,
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "no compiled search core" in p.stdout + p.stderr   # (the build's one line, seen with pip -v)
    [wheel] = out.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    install_and_check(wheel, tmp_path, "pure Python (not compiled here)")
