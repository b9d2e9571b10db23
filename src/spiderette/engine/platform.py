"""Where the package runs, decided once: in a browser tab (Pyodide, as in JupyterLite) there are no threads.

Everything that would run in a background thread (the Winnable? check, Think, the post-mortem, ``w.play``
with ``wait=False``, ``solve_async``, ``analyse_async``) asks :data:`THREADS` here; without threads it runs
as callbacks of the kernel's event loop instead (:func:`later`), so the table is drawn before the work
starts, and a ``result()`` does at once the work still waiting.

>>> THREADS == (not BROWSER)
True
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Callable

#: Running in a browser tab (Pyodide: ``sys.platform == "emscripten"``).
BROWSER: bool = sys.platform == "emscripten"

#: Whether a thread can be started here (never in a browser tab).
THREADS: bool = not BROWSER
#: Whether other processes can be started here (never in a browser tab: ``simulate(processes=N)`` and
#: ``compare(processes=N)`` play every game in the kernel's own process there).
PROCESSES: bool = not BROWSER

#: Where JupyterLite mounts the notebooks' files in its kernel: a folder kept in the browser's storage for the
#: site, across reloads and visits (the rest of a browser tab's file system is gone when the page closes).
DRIVE = "/drive"
#: The player's data folder there (statistics, the unfinished game): hidden among the notebooks.
DRIVE_DATA = ".spiderette"


def browser_data_folder() -> str | None:
    """In a browser tab whose files the browser keeps (JupyterLite's :data:`DRIVE` mounted), the data folder
    to keep the statistics and the unfinished game in; else ``None`` (the platform's user data folder).
    :func:`spiderette.userdata.datafolder.home` asks it when ``SPIDERETTE_HOME`` is not set.

    >>> browser_data_folder() is None or BROWSER
    True
    """
    if BROWSER and os.path.isdir(DRIVE):
        return os.path.join(DRIVE, DRIVE_DATA)
    return None


#: What a browser tab says instead of a ``pip install`` (there is no pip to run there): the optional packages
#: (numpy, pandas, matplotlib) load from Pyodide's own distribution when the site is built with it.
BROWSER_PACKAGES = ("in this browser site it loads from Pyodide's distribution, which this copy of the site does"
                    " not serve (build it with lite/build.py --pyodide-fallback-url), or run the lesson in"
                    " Jupyter on your machine")


def install_advice(pip: str) -> str:
    """What to do about a missing optional package: ``pip`` (a ``pip install`` command), or in a browser tab
    :data:`BROWSER_PACKAGES`.

    >>> install_advice("pip install x") == ("pip install x" if not BROWSER else BROWSER_PACKAGES)
    True
    """
    return BROWSER_PACKAGES if BROWSER else pip


#: Without threads the table's longer searches run in the kernel's turn, and the page waits for them: there
#: they spend these smaller budgets (tables), said on the table in :data:`SMALLER_BUDGET`'s words. Think: the
#: planner's tables (20,000 with threads, about 3 s in CPython at worst; a quarter of that here).
BROWSER_THINK_TABLES = 5_000
#: Where did it go wrong?: the solves of the post-mortem, and the tables of each (12 of 40,000 with threads).
BROWSER_ANALYSIS_SOLVES = 4
BROWSER_ANALYSIS_TABLES = 20_000
#: How the table says that a search had the smaller budget.
SMALLER_BUDGET = "with a smaller budget in the browser"
#: Set in the environment (to anything but "" or "0"), the table's searches count their budgets in tables
#: alone, never in seconds: the same verdicts on any machine, however busy (the tests set it, in
#: ``conftest.py``; the Winnable? indicator's rounds are the table's one search with seconds).
TABLES_ONLY = "SPIDERETTE_TABLES_ONLY"


def tables_only() -> bool:
    """Whether the table's searches count in tables alone (:data:`TABLES_ONLY` set), read at each search.

    >>> tables_only() == (os.environ.get(TABLES_ONLY, "") not in ("", "0"))
    True
    """
    return os.environ.get(TABLES_ONLY, "") not in ("", "0")


def budget(full: int, browser: int) -> int:
    """The budget of a search of the table's: ``full`` where threads run it in the background, else
    ``browser`` (the smaller one, as the page waits for it).

    >>> budget(20_000, BROWSER_THINK_TABLES) == (20_000 if THREADS else 5_000)
    True
    """
    return full if THREADS else min(full, browser)


def later(callback: Callable[[], object], delay: float = 0.0) -> bool:
    """Call ``callback()`` from the event loop after ``delay`` seconds; ``False`` (and nothing scheduled)
    when there is no event loop to call it."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        if not BROWSER:
            return False
        try:   # (Pyodide's kernel keeps one loop, set as the current one, and runs it between messages)
            loop = asyncio.get_event_loop()
        except RuntimeError:
            return False
    loop.call_later(max(0.0, delay), callback)
    return True


def pause(stop: threading.Event, seconds: float) -> bool:
    """Wait ``seconds`` or until ``stop`` is set; whether it is set. Without threads nobody else can set it
    meanwhile: a plain sleep, then a look."""
    if THREADS:
        return stop.wait(seconds)
    if not stop.is_set():
        time.sleep(seconds)
    return stop.is_set()
