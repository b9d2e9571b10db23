"""MkDocs hook: the notebooks of ``notebooks/`` become pages of the site, run by the build.

The notebooks live at the top of the repository (``spiderette lab`` copies ``01-play.ipynb``; the tests run
them there), not under ``docs/``, so this hook adds each ``notebooks/*.ipynb`` to the site's files as
``notebooks/<name>.ipynb`` before mkdocs-jupyter turns them into pages and executes them. Their kernels
inherit this process's environment: a scratch ``SPIDERETTE_HOME`` (the tables a notebook makes keep
their statistics there, not in yours), ``src/`` first on ``PYTHONPATH`` (this tree's spiderette) and the
Agg backend for matplotlib (pictures, no window). On POSIX they talk to the build over local sockets (IPC),
not TCP, as ipykernel asks (it warns of a kernel "running over TCP without encryption" otherwise).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"


def on_config(config):
    os.environ["SPIDERETTE_HOME"] = tempfile.mkdtemp(prefix="spiderette-docs-home-")
    if os.name == "posix":
        kernel_over_ipc()
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "src"), os.environ.get("PYTHONPATH")) if p)
    os.environ["MPLBACKEND"] = "Agg"
    return config


@event_priority(100)  # before mkdocs-jupyter's on_files, which turns .ipynb files into pages
def on_files(files: Files, config) -> Files:
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        files.append(File(f"notebooks/{path.name}", str(REPO), config["site_dir"], config["use_directory_urls"]))
    return files


def kernel_over_ipc() -> Path:
    """Have the kernels that run the notebooks use IPC transport: a ``jupyter_nbconvert_config.json`` (which
    mkdocs-jupyter's nbconvert reads) in a scratch folder put first on ``JUPYTER_CONFIG_PATH``, its sockets in
    that folder. Returns the folder."""
    folder = Path(tempfile.mkdtemp(prefix="spiderette-docs-jupyter-"))
    settings = {"KernelManager": {"transport": "ipc", "ip": str(folder / "kernel")}}
    (folder / "jupyter_nbconvert_config.json").write_text(json.dumps(settings), encoding="utf-8")
    os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (str(folder), os.environ.get("JUPYTER_CONFIG_PATH")) if p)
    return folder
