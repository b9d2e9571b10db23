"""``spiderette lab``: the play notebook copied into a folder, and JupyterLab started on it, quietly.

JupyterLab runs as a child process; a SIGTERM or SIGHUP sent to the command is passed on to it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from importlib import resources
from pathlib import Path

#: The name of the play notebook that ``spiderette lab`` puts in the folder it serves.
NOTEBOOK_NAME = "spiderette-play.ipynb"
#: The play notebook in the repository (``notebooks/``) and in the wheel (``spiderette/notebooks/``).
PLAY_NOTEBOOK = "01-play.ipynb"
LAB_MISSING = 'JupyterLab is not installed: pip install "spiderette[lab]"'


def play_notebook() -> bytes:
    """The play notebook shipped with the package (in a source checkout: ``notebooks/01-play.ipynb``)."""
    packaged = resources.files("spiderette") / "notebooks" / PLAY_NOTEBOOK
    if packaged.is_file():
        return packaged.read_bytes()
    checkout = Path(__file__).resolve().parents[3] / "notebooks" / PLAY_NOTEBOOK
    return checkout.read_bytes()


def lab_command(folder: Path, no_browser: bool = False, port: int | None = None) -> list[str]:
    """The command line that starts JupyterLab serving ``folder``, opening its play notebook."""
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}",
           f"--LabApp.default_url=/lab/tree/{NOTEBOOK_NAME}"]  # (also in the URLs it prints)
    if no_browser:
        cmd.append("--no-browser")
    if port is not None:
        cmd.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # Jupyter refuses to run as root without it (containers often are root)
    return cmd


#: JupyterLab's page settings for ``spiderette lab`` (a ``labconfig/page_config.json`` in a folder put first on
#: ``JUPYTER_CONFIG_PATH``; the user's own ``~/.jupyter`` still wins): no build check. The table needs no
#: JupyterLab build (anywidget's front end is prebuilt), and the check runs Node's yarn when Node is on the PATH,
#: whose failures fill the terminal with minified JavaScript.
LAB_PAGE_CONFIG = {"buildCheck": False, "buildAvailable": False}
#: A line of JupyterLab's output longer than this is cut (a line of minified JavaScript in a Node error: its
#: yarn configuration is read when ``jupyterlab`` is imported, which no setting turns off).
LONG_LINE = 400


def lab_environment(config_dir: Path) -> dict[str, str]:
    """The environment JupyterLab runs in: this one, with ``config_dir`` (where :data:`LAB_PAGE_CONFIG` is
    written) first on ``JUPYTER_CONFIG_PATH``."""
    labconfig = config_dir / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(json.dumps(LAB_PAGE_CONFIG), encoding="utf-8")
    env = dict(os.environ)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in (str(config_dir), env.get("JUPYTER_CONFIG_PATH")) if p)
    return env


def shorten_line(line: str, limit: int = LONG_LINE) -> str:
    """``line`` as is, or its start and how much was cut when it is longer than ``limit`` characters.

    >>> shorten_line("short")
    'short'
    >>> shorten_line("var a=1;" * 100, limit=20)
    'var a=1;var a=1;var  [780 characters cut]'
    """
    body = line.rstrip("\r\n")
    if len(body) <= limit:
        return line
    return f"{body[:limit]} [{len(body) - limit} characters cut]" + line[len(body):]


def _pass_on_shortened(source, sink) -> None:
    """Copy the lines of ``source`` (a binary pipe) to ``sink`` (a text stream), long lines cut, until its end."""
    with source:
        for raw in iter(source.readline, b""):
            try:
                sink.write(shorten_line(raw.decode("utf-8", "replace")))
                sink.flush()
            except (OSError, ValueError):  # a closed or broken terminal: drain the pipe, so JupyterLab never blocks
                pass


def run_jupyter(cmd: list[str], cwd: Path) -> int:
    """Run JupyterLab until it stops, and return its exit code.

    Ctrl+C is left to it (it asks before shutting down). A SIGTERM or SIGHUP sent to this process (a
    service manager stopping it, a closed terminal) is passed on to JupyterLab, which then shuts down its
    kernels, so that nothing is left running. It starts quietly: without its build check
    (:data:`LAB_PAGE_CONFIG`), and with any line of its log longer than :data:`LONG_LINE` cut.
    """
    proc: subprocess.Popen | None = None
    early: list[int] = []  # signals that came before JupyterLab started

    def forward(signum: int, _frame: object) -> None:
        if proc is None:
            early.append(signum)
        else:
            proc.send_signal(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            previous[sig] = signal.signal(sig, forward)
        except ValueError:  # (not the main thread: signals cannot be caught there)
            break
    config_dir = Path(tempfile.mkdtemp(prefix="spiderette-lab-"))
    relay = None
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=lab_environment(config_dir), stderr=subprocess.PIPE)
        relay = threading.Thread(target=_pass_on_shortened, args=(proc.stderr, sys.stderr), daemon=True)
        relay.start()
        for signum in early:
            proc.send_signal(signum)
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                continue
    finally:
        if relay is not None:
            relay.join(timeout=5)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        shutil.rmtree(config_dir, ignore_errors=True)


def cmd_lab(args: argparse.Namespace) -> int:
    """``spiderette lab``: copy the play notebook into the folder (never over a file) and start JupyterLab."""
    if importlib.util.find_spec("jupyterlab") is None:
        print(LAB_MISSING, file=sys.stderr)
        return 1
    folder = (args.notebook_dir or Path.cwd()).resolve()
    if not folder.is_dir():
        args.command_parser.error(f"no such folder: {args.notebook_dir}")
    notebook = folder / NOTEBOOK_NAME
    if notebook.exists():
        print(f"Opening {notebook} (already there: kept as it is)")
    else:
        try:
            with open(notebook, "xb") as f:  # "x": never over a file that appeared meanwhile
                f.write(play_notebook())
        except OSError as e:
            print(f"spiderette lab: cannot write {notebook}: {e.strerror or e}", file=sys.stderr)
            return 1
        print(f"Wrote {notebook}, a copy of the play notebook")
    sys.stdout.flush()
    return run_jupyter(lab_command(folder, args.no_browser, args.port), folder)
