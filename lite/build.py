"""Build the JupyterLite site: the table and the lessons in a browser tab, nothing installed.

    python lite/build.py                      # the site into site/lite (serve it: python -m http.server -d site/lite)
    python lite/build.py --output DIR --wheel dist/spiderette-0.1.0-py3-none-any.whl

Run it with a Python that has the ``lite`` extra (``pip install -e ".[lite]"``: jupyterlite-core,
jupyterlite-pyodide-kernel, anywidget, jupyterlab_widgets), plus npm on the PATH. Everything the site needs
is served by the site itself, so it works from a plain local HTTP server with no network:

- the Pyodide runtime from the npm ``pyodide`` package (the version the kernel expects), its lock file cut
  down to the packages the kernel and spiderette need, each a pure-Python wheel fetched from PyPI with the
  exact version the lock names (its sha256 rewritten to the file's);
- the package's own wheel (built from this tree unless ``--wheel`` names one) and its dependencies that
  Pyodide does not carry (anywidget, psygnal, ipywidgets, comm, jupyterlab_widgets, filelock), served to
  the kernel by piplite, with the fall-back to PyPI switched off;
- the front ends of anywidget and of the Jupyter widgets, taken from those same wheels (so the browser's and
  the kernel's halves are of one version), and the Pyodide kernel's own, from this environment;
- the notebooks ``01-play`` and ``02-scripting``, and the lessons (:data:`LESSONS`), each of which runs from
  top to bottom without numpy, pandas, matplotlib and Gymnasium.

``--pyodide-fallback-url URL`` keeps the rest of Pyodide's packages (numpy, pandas, matplotlib...) in the
lock, loaded from ``URL`` (the standard Pyodide location of the same version, when the site is deployed);
without it they are left out and the site needs nothing but itself.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ("01-play.ipynb", "02-scripting.ipynb")

#: The lessons, and the optional packages each uses where they are there (directly, or through spiderette:
#: ``plot()`` draws with matplotlib): the site's copy of a lesson opens with a cell that imports them, so that
#: the kernel loads them (Pyodide loads a package of its lock on an ``import`` statement in a cell, not on one
#: inside a module), and says which this site lacks. Every lesson runs without them: its plots are drawn as SVG,
#: and a cell that needs one says so in one line (``spiderette.players.extras.needs``).
LESSONS = {"03-strategy.ipynb": ("numpy", "matplotlib", "gymnasium"),
           "04-the-ladder.ipynb": ("pandas", "matplotlib"),
           "05-learning.ipynb": ("numpy", "matplotlib", "gymnasium"),
           "06-what-the-expert-learned.ipynb": ("pandas", "matplotlib")}

#: Packages of Pyodide's lock the site always serves although nothing imports them at once (pure Python):
#: the studies' progress bars.
LOCK_EXTRAS = ("tqdm",)

#: Pure-Python wheels served by piplite only with ``--pyodide-fallback-url`` (they need numpy, from there):
#: the Gymnasium environment of lessons 03 and 05.
FALLBACK_PIPLITE = {"gymnasium": "1.4.0", "farama-notifications": "0.0.6"}

#: Pure-Python wheels the kernel installs with piplite (not in Pyodide's lock), and their versions: the front
#: ends of anywidget and of the Jupyter widgets are taken from these same wheels.
PIPLITE = {"anywidget": "0.11.0", "psygnal": "0.16.1", "ipywidgets": "8.1.9", "comm": "0.2.3",
           "jupyterlab_widgets": "3.0.17", "filelock": "4.3.2"}

#: What the Pyodide kernel itself loads from the lock (micropip, then piplite installs ipython and jedi).
KERNEL_NEEDS = ("micropip", "ipython", "jedi")

#: The front ends bundled from the piplite wheels above.
EXTENSION_WHEELS = ("anywidget", "jupyterlab_widgets")

#: The browser's platform, for the markers of the wheels' requirements.
EMSCRIPTEN = {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
              "platform_machine": "wasm32", "implementation_name": "cpython",
              "platform_python_implementation": "CPython"}


def log(text: str) -> None:
    print(f"[lite] {text}", flush=True)


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    log(" ".join(str(c) for c in cmd))
    subprocess.run(cmd, cwd=cwd, check=True, env=env)


def canonical(name: str) -> str:
    from packaging.utils import canonicalize_name

    return str(canonicalize_name(name))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pip_download(specs: Iterable[str], dest: Path, python: str) -> None:
    """Pure-Python wheels (py3-none-any) of ``specs``, without their dependencies, into ``dest``."""
    specs = list(specs)
    if specs:
        dest.mkdir(parents=True, exist_ok=True)
        run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--only-binary=:all:", "--implementation", "py", "--abi", "none", "--platform", "any",
             "--python-version", python, "--dest", str(dest), *specs])


def wheel_requirements(wheel: Path, python: str) -> tuple[str, list[str]]:
    """The wheel's project name and the names it requires in the browser (markers evaluated there)."""
    from packaging.requirements import Requirement

    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        msg = Parser().parsestr(z.read(meta).decode())
    env = dict(EMSCRIPTEN, python_version=python, python_full_version=f"{python}.0", extra="")
    needs = []
    for line in msg.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            needs.append(canonical(req.name))
    return canonical(msg["Name"]), needs


# ---------------------------------------------------------------------------------------------- the runtime
def pyodide_runtime(version: str, cache: Path) -> Path:
    """The npm ``pyodide`` package of ``version``, unpacked in the cache: its folder."""
    folder = cache / f"pyodide-{version}"
    if (folder / "pyodide.mjs").exists():
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        run(["npm", "pack", f"pyodide@{version}", "--pack-destination", tmp, "--silent"], cwd=Path(tmp))
        tgz = next(Path(tmp).glob("pyodide-*.tgz"))
        with tarfile.open(tgz) as t:
            t.extractall(tmp, filter="data")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(Path(tmp) / "package", folder)
    return folder


def lock_closure(lock: dict, roots: Iterable[str]) -> set[str]:
    """The packages of the lock that ``roots`` need, with the lock's own dependencies."""
    packages = {canonical(k): v for k, v in lock["packages"].items()}
    seen: set[str] = set()
    todo = [canonical(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen or name not in packages:
            continue
        seen.add(name)
        todo.extend(canonical(d) for d in packages[name]["depends"])
    return seen


def top_level(wheel: Path) -> list[str]:
    """The modules a wheel installs at the top (what ``import`` names load it)."""
    with zipfile.ZipFile(wheel) as z:
        names = {n.split("/")[0].removesuffix(".py") for n in z.namelist()
                 if not n.split("/")[0].endswith((".dist-info", ".data")) and (n.count("/") or n.endswith(".py"))}
    return sorted(names)


def cut_lock(lock: dict, keep: set[str], wheels: dict[str, Path], piplite: dict[str, Path], python: str,
             fallback: str | None) -> dict:
    """The lock with only ``keep``, each pointing at its wheel (sha256 of the file served), and the piplite
    wheels (served from ``../../pypi/``) as packages of its own, so that the kernel loads them on their
    ``import``; the others dropped, or loaded from ``fallback`` when given."""
    out = dict(lock)
    out["packages"] = {}
    for key, pkg in lock["packages"].items():
        name = canonical(key)
        if name in keep:
            wheel = wheels[name]
            out["packages"][key] = dict(pkg, file_name=wheel.name, sha256=sha256(wheel))
        elif fallback:
            out["packages"][key] = dict(pkg, file_name=f"{fallback.rstrip('/')}/{pkg['file_name']}")
    served = set(keep) | set(piplite) | ({canonical(k) for k in lock["packages"]} if fallback else set())
    for name, wheel in piplite.items():
        project, needs = wheel_requirements(wheel, python)
        out["packages"][name] = {
            "name": project, "version": wheel.name.split("-")[1], "file_name": f"../../pypi/{wheel.name}",
            "install_dir": "site", "package_type": "package", "sha256": sha256(wheel),
            "imports": top_level(wheel), "depends": sorted(n for n in needs if n in served),
            "unvendored_tests": False,
        }
    return out


def pure(lock: dict, name: str) -> bool:
    """Whether the lock's package ``name`` is a pure-Python wheel (one the site can fetch from PyPI)."""
    packages = {canonical(k): v for k, v in lock["packages"].items()}
    return packages[name]["file_name"].endswith("-none-any.whl")


# ----------------------------------------------------------------------------------------------- the lessons
def loading_cell(needs: Iterable[str]) -> str:
    """The first cell of a lesson in the site: it imports the lesson's optional packages, so that the kernel
    loads them from the lock (and the fall-back location), and says which ones this site does not serve.

    >>> print(loading_cell(["numpy"]))   # doctest: +ELLIPSIS
    # In this browser tab (JupyterLite), ...
    # this cell loads ...
    missing = []
    try:
        import numpy
    except ImportError:
        missing.append("numpy")
    if missing:
    ...
    """
    lines = ["# In this browser tab (JupyterLite), a package of Pyodide's distribution loads when a cell imports "
             "it:", "# this cell loads the ones the lesson uses, and says which this copy of the site does not "
             "serve.", "missing = []"]
    for name in needs:
        lines += ["try:", f"    import {name}", "except ImportError:", f'    missing.append("{name}")']
    lines += ["if missing:",
              "    print(f\"Not served by this copy of the site: {', '.join(missing)}. The cells that need them \"",
              "          \"say so; the others run. (A site built with lite/build.py --pyodide-fallback-url \"",
              "          \"serves them.)\")",
              "else:",
              '    print("Ready: every package this lesson uses is loaded.")']
    return "\n".join(lines)


def lesson_for_the_site(path: Path, needs: Iterable[str]) -> dict:
    """The lesson at ``path`` with :func:`loading_cell` first (tagged ``lite``), its outputs cleared, for the
    site's Python kernel."""
    nb = json.loads(path.read_text())
    source = loading_cell(needs)
    cell = {"cell_type": "code", "execution_count": None, "id": "lite-packages",
            "metadata": {"tags": ["lite"]}, "outputs": [], "source": source.splitlines(keepends=True)}
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            c["outputs"], c["execution_count"] = [], None
    nb["cells"] = [cell, *nb["cells"]]
    # the site's kernel, so that JupyterLite starts it without asking which one (it has no "python3")
    nb["metadata"]["kernelspec"] = {"display_name": "Python (Pyodide)", "language": "python", "name": "python"}
    nb["metadata"].setdefault("language_info", {"name": "python"})
    return nb


# ------------------------------------------------------------------------------------------------ the wheels
def own_wheel(cache: Path) -> Path:
    """spiderette's wheel, built from this tree (the front end built by npm if static/ is missing): pure Python
    (``SPIDERETTE_PURE_PYTHON=1``: no compiled search core, which the browser could not load)."""
    dest = cache / "dist"
    shutil.rmtree(dest, ignore_errors=True)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--wheel-dir", str(dest), str(ROOT)], env={**os.environ, "SPIDERETTE_PURE_PYTHON": "1"})
    return next(dest.glob("spiderette-*.whl"))


def check_closure(lock: dict, lock_keep: set[str], piplite: dict[str, Path], python: str,
                  kernel_piplite: set[str], fallback: bool = False) -> None:
    """Every requirement of every wheel the kernel installs with piplite is served by the site (or, with a
    ``fallback``, is a package of the lock, loaded from there)."""
    in_lock = {canonical(k) for k in lock["packages"]}
    missing = []
    for name, wheel in sorted(piplite.items()):
        _, needs = wheel_requirements(wheel, python)
        for need in needs:
            if need in piplite or need in kernel_piplite or (need in in_lock and (need in lock_keep or fallback)):
                continue
            missing.append(f"{name} needs {need}")
    if missing:
        raise SystemExit("[lite] not served by the site: " + "; ".join(missing))


# -------------------------------------------------------------------------------------------------- the site
def build(output: Path, cache: Path, wheel: Path | None, fallback: str | None, expose_app: bool = False) -> None:
    from jupyterlite_pyodide_kernel import constants as K

    started = time.monotonic()
    python = K.PYODIDE_PYTHON_VERSION
    kernel_ext = Path(sys.prefix) / "share/jupyter/labextensions" / K.PYODIDE_KERNEL_NPM_NAME
    if not (kernel_ext / "package.json").exists():
        raise SystemExit(f"[lite] the Pyodide kernel's front end is not installed here: {kernel_ext}")
    kernel_piplite = {canonical(p.name.split("-")[0]) for p in (kernel_ext / "static/pypi").glob("*.whl")}

    # the wheels piplite serves: this tree's, and the pure-Python ones Pyodide does not carry
    wheel = own_wheel(cache) if wheel is None else wheel.resolve()
    versions = PIPLITE if not fallback else {**PIPLITE, **FALLBACK_PIPLITE}
    pypi = cache / "piplite"
    wanted = {canonical(n): f"{n}=={v}" for n, v in versions.items()}
    have = {canonical(p.name.split("-")[0]): p for p in pypi.glob("*.whl")} if pypi.exists() else {}
    pip_download([spec for name, spec in wanted.items()
                  if name not in have or f"-{spec.split('==')[1]}-" not in have[name].name], pypi, python)
    piplite = {}
    for p in pypi.glob("*.whl"):
        name = canonical(p.name.split("-")[0])
        if name in wanted and f"-{wanted[name].split('==')[1]}-" in p.name:
            piplite[name] = p
    piplite["spiderette"] = wheel

    # the runtime, and the lock cut to what the kernel and the wheels above need
    runtime = pyodide_runtime(K.PYODIDE_VERSION, cache)
    lock = json.loads((runtime / K.PYODIDE_LOCK).read_text())
    roots = [*KERNEL_NEEDS, *LOCK_EXTRAS]
    for w in piplite.values():
        roots.extend(wheel_requirements(w, python)[1])
    keep = {n for n in lock_closure(lock, roots) if fallback is None or pure(lock, n)}
    locked = cache / f"lock-wheels-{K.PYODIDE_VERSION}"
    packages = {canonical(k): v for k, v in lock["packages"].items()}
    lock_wheels = {name: locked / packages[name]["file_name"] for name in keep}
    pip_download([f"{packages[n]['name']}=={packages[n]['version']}" for n, p in lock_wheels.items()
                  if not p.exists()], locked, python)
    for name, p in lock_wheels.items():
        if not p.exists():
            raise SystemExit(f"[lite] PyPI has no {p.name} for the lock's {name}")
    check_closure(lock, keep, piplite, python, kernel_piplite, fallback is not None)

    with tempfile.TemporaryDirectory() as tmp:
        lite = Path(tmp)
        static = lite / "static" / K.PYODIDE
        static.mkdir(parents=True)
        for f in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json"):
            shutil.copy2(runtime / f, static / f)
        for p in lock_wheels.values():
            shutil.copy2(p, static / p.name)
        cut = cut_lock(lock, keep, lock_wheels, piplite, python, fallback)
        (static / K.PYODIDE_LOCK).write_text(json.dumps(cut, indent=1))
        (lite / "pypi").mkdir()
        for p in piplite.values():
            shutil.copy2(p, lite / "pypi" / p.name)
        files = lite / "files"
        files.mkdir()
        for nb in NOTEBOOKS:
            shutil.copy2(ROOT / "notebooks" / nb, files / nb)
        for nb, needs in LESSONS.items():
            (files / nb).write_text(json.dumps(lesson_for_the_site(ROOT / "notebooks" / nb, needs), indent=1))
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {
                "appName": "spiderette",
                **({"exposeAppInBrowser": True} if expose_app else {}),
                "litePluginSettings": {K.PYODIDE_KERNEL_PLUGIN_ID: {K.DISABLE_PYPI_FALLBACK: True}},
            },
        }, indent=2))
        (lite / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {
                "apps": ["lab", "notebooks"],
                "contents": [str(files)],
                "ignore_sys_prefix": ["federated_extensions"],
                "federated_extensions": [str(kernel_ext), *(str(piplite[canonical(n)]) for n in EXTENSION_WHEELS)],
                "no_sourcemaps": True,
            },
        }, indent=2))
        output = output.resolve()
        shutil.rmtree(output, ignore_errors=True)
        run([sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(lite),
             "--output-dir", str(output)], cwd=lite)
        shutil.rmtree(lite / ".cache", ignore_errors=True)
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    log(f"built {output} ({size / 2**20:.1f} MiB) in {time.monotonic() - started:.0f} s: Pyodide "
        f"{K.PYODIDE_VERSION} (Python {python}), {len(keep)} packages from its lock, "
        + ", ".join(f"{n} {v}" for n, v in PIPLITE.items()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=ROOT / "site" / "lite", help="the site's folder")
    parser.add_argument("--cache", type=Path, default=ROOT / ".lite-cache",
                        help="downloads kept between builds (the npm pyodide package, the wheels)")
    parser.add_argument("--wheel", type=Path, help="spiderette's wheel (default: built from this tree)")
    parser.add_argument("--pyodide-fallback-url", dest="fallback",
                        help="where the Pyodide packages the site does not carry are loaded from")
    parser.add_argument("--expose-app-in-browser", dest="expose", action="store_true",
                        help="window.jupyterapp in the page (for the browser tests)")
    args = parser.parse_args(argv)
    build(args.output, args.cache.resolve(), args.wheel, args.fallback, args.expose)


if __name__ == "__main__":
    main()
