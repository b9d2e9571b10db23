"""MkDocs hook: the notebooks of ``notebooks/`` become pages of the site, run by the build.

The notebooks live at the top of the repository (``spiderette lab`` copies ``01-play.ipynb``; the tests run
them there), not under ``docs/``, so this hook adds each ``notebooks/*.ipynb`` to the site's files as
``notebooks/<name>.ipynb`` before mkdocs-jupyter turns them into pages and executes them. Their kernels
inherit this process's environment: a scratch ``SPIDERETTE_HOME`` (the tables a notebook makes keep
their statistics there, not in yours), ``src/`` first on ``PYTHONPATH`` (this tree's spiderette) and the
Agg backend for matplotlib (pictures, no window).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"


def on_config(config):
    os.environ["SPIDERETTE_HOME"] = tempfile.mkdtemp(prefix="spiderette-docs-home-")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO / "src"), os.environ.get("PYTHONPATH")) if p)
    os.environ["MPLBACKEND"] = "Agg"
    return config


@event_priority(100)  # before mkdocs-jupyter's on_files, which turns .ipynb files into pages
def on_files(files: Files, config) -> Files:
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        files.append(File(f"notebooks/{path.name}", str(REPO), config["site_dir"], config["use_directory_urls"]))
    return files
