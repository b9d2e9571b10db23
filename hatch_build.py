"""The build hook of the compiled search core (issue 44).

hatchling calls it for each target (``[tool.hatch.build.hooks.custom]`` in pyproject.toml). For a wheel it
compiles ``src/spiderette/engine/_ccore.c`` (one translation unit: it includes its parts from ``csrc/``)
with setuptools' ``build_ext`` (the platform's compiler: gcc or clang, MSVC on Windows, the flags Python was
built with) and:

* a wheel (``python -m build``, ``pip install .``): puts the extension in the wheel, which is then
  platform-specific (``pure_python = False``, ``infer_tag``: ``cp311-cp311-linux_x86_64`` and the like);
* an editable install (``pip install -e .``): builds it in place beside its source, where the editable
  install's path finds it (``src/spiderette/engine/_ccore<EXT_SUFFIX>``, ignored by git).

Where it cannot (no compiler, no Python headers) or must not (``SPIDERETTE_PURE_PYTHON=1``), it says so in one
line and the wheel stays pure Python (``py3-none-any``): the package then runs its pure-Python core, as in the
browser site. The sdist is never changed.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("src") / "spiderette" / "engine" / "_ccore.c"
MODULE = "spiderette.engine._ccore"


def _say(text: str) -> None:
    print(f"spiderette: {text}", file=sys.stderr, flush=True)


def compile_core(root: Path, out_dir: Path) -> Path:
    """Compile the core into ``out_dir`` (as ``spiderette/engine/_ccore<EXT_SUFFIX>``); raises where it cannot."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    parts = sorted(str(p) for p in (root / SOURCE).parent.glob("csrc/*.h"))
    # (-g0: no debug information, a third of the size; Python's own flags ask for -g)
    ext = Extension(MODULE, [str(root / SOURCE)], depends=parts,
                    extra_compile_args=[] if os.name == "nt" else ["-O2", "-g0"])
    dist = Distribution({"name": "spiderette", "ext_modules": [ext]})
    cmd = build_ext(dist)
    cmd.build_lib = str(out_dir)
    with tempfile.TemporaryDirectory() as temp:
        cmd.build_temp = temp
        cmd.ensure_finalized()
        cmd.run()
    return Path(cmd.get_ext_fullpath(MODULE))


class CompiledCoreHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        if os.environ.get("SPIDERETTE_PURE_PYTHON") == "1":
            _say("SPIDERETTE_PURE_PYTHON=1: the pure-Python search core only (no compiled core built)")
            return
        root = Path(self.root)
        self._out = Path(tempfile.mkdtemp(prefix="spiderette-ccore-"))
        try:
            built = compile_core(root, self._out)
        except Exception as e:   # (no compiler, no headers: setuptools' errors vary by platform)
            _say(f"no compiled search core ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else 'failed'}):"
                 " the pure-Python core will run")
            return
        name = "_ccore" + sysconfig.get_config_var("EXT_SUFFIX")
        if version == "editable":   # (the editable install's path reaches src/: the extension goes beside its source)
            shutil.copy2(built, root / SOURCE.with_name(name))
        else:
            build_data["force_include"][str(built)] = f"spiderette/engine/{name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        _say(f"compiled search core built ({name})")

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
