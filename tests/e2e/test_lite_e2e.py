"""The JupyterLite site (``lite/build.py``) in Chromium, with no network but the local server: the play
notebook runs in the browser's own Python (Pyodide), and the table plays a move, a deal, Undo and a hint,
and takes a move scripted from a cell; a game is played to its end with hints, and its record (and an
unfinished game) outlive a reload of the page.

The site is ``$SPIDERETTE_LITE_SITE`` when set (a folder built by ``python lite/build.py
--expose-app-in-browser``), else built here into a temporary folder, which needs jupyterlite-core and
jupyterlite-pyodide-kernel in this Python (the ``lite`` extra) and npm. Every request that is not to the
local server is refused, and the test fails if one was made.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import jupyter_harness as H
import pytest
from expected import cols, game, message_has, moves_are

from spiderette import Game

#: (a Pyodide kernel in Chromium plays a game to its end: its waits may add up beyond the default timeout)
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(1800)]

KERNEL_READY = f"""() => {{
  try {{ return !!window.jupyterapp && {H.KERNEL}.status === 'idle'; }} catch (e) {{ return false; }}
}}"""
TABLE_DRAWN = "() => document.querySelectorAll('.spiderette [data-pile=\"stock\"]').length >= 1"
# The outputs of the notebook's cells written to stderr (a traceback, a warning), as text
STDERR = """() => [...document.querySelectorAll(
  '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')].map((e) => e.textContent.slice(-800))"""


@pytest.fixture(scope="module")
def lite_site(tmp_path_factory) -> Path:
    given = os.environ.get("SPIDERETTE_LITE_SITE")
    if given:
        site = Path(given)
        if not (site / "jupyter-lite.json").exists():
            pytest.fail(f"SPIDERETTE_LITE_SITE={given} is not a built site", pytrace=False)
        return site
    missing = [m for m in ("jupyterlite_core", "jupyterlite_pyodide_kernel") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (the lite extra); or set SPIDERETTE_LITE_SITE")
    site = tmp_path_factory.mktemp("lite") / "site"
    subprocess.run([sys.executable, str(H.REPO / "lite" / "build.py"), "--output", str(site),
                    "--expose-app-in-browser"], check=True, cwd=H.REPO)
    return site


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def lite_server(lite_site):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(lite_site)))
    thread = threading.Thread(target=server.serve_forever, name="lite-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def lite_page(browser, lite_server, request):
    context = browser.new_context(viewport=H.VIEWPORT)
    context.set_default_timeout(60_000)
    refused: list[str] = []

    def only_local(route) -> None:
        url = route.request.url
        if url.startswith(lite_server + "/"):
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    page.refused = refused
    yield page
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        path = H.ARTIFACTS / "failures" / f"{request.node.name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
    context.close()


def test_the_play_notebook_plays_in_the_browser_with_no_network(lite_page, lite_server):
    """A move, a deal, Undo, a hint and scripted moves on deal 7; then a one-suit game to its end with hints."""
    page = lite_page
    started = time.monotonic()
    page.goto(f"{lite_server}/lab/index.html?path=01-play.ipynb", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_READY, timeout=180_000, polling=100)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(TABLE_DRAWN, timeout=180_000, polling=50)
    drawn = time.monotonic() - started
    t = H.wait_table(page, lambda t: t["cols"] == cols(game()), timeout=30)
    print(f"from opening the notebook to a drawn table: {drawn:.1f} s")
    page.wait_for_function(KERNEL_READY, timeout=180_000, polling=100)   # every cell has run
    assert page.evaluate(STDERR) == [], "every cell of the play notebook runs in the browser, quietly"
    assert H.kernel_json(page, "__import__('sys').platform") == "emscripten"
    assert t["status"]["moves"] == "0"

    # a move on the table: 6H has no 7H to go on, so a click sends it onto 7C (column b to d)
    H.card(page, "6H").click()
    t = H.wait_table(page, moves_are(1), timeout=60)
    assert t["cols"] == cols(game("bd"))
    # a deal
    H.pile(page, "stock").click()
    t = H.wait_table(page, moves_are(2), timeout=60)
    assert t["cols"] == cols(game("bd", "d")) and t["status"]["deals"] == "3"
    # Undo, from the toolbar
    H.root(page).locator('[data-action="undo"]').click()
    t = H.wait_table(page, moves_are(1), timeout=60)
    assert t["cols"] == cols(game("bd"))
    # a hint: said on the table, and the table unchanged
    H.root(page).locator('[data-action="hint"]').click()
    t = H.wait_table(page, message_has("hint"), timeout=120)
    assert t["cols"] == cols(game("bd"))
    assert H.kernel_json(page, "w.view['hint']['kind']") == "move"
    # a move scripted from a cell, drawn on the table
    H.kernel_eval(page, "w.play('ea')")
    t = H.wait_table(page, moves_are(2), timeout=60)
    assert t["cols"] == cols(game("bd", "ea"))
    # the background play without threads: steps from the kernel's event loop, then its result
    H.kernel_eval(page, "f = w.play('d', delay=0.2, wait=False)")
    t = H.wait_table(page, moves_are(3), timeout=60)
    assert t["cols"] == cols(game("bd", "ea", "d"))
    assert H.kernel_json(page, "[str(m) for m in f.result()]") == ["d"]

    # a game to its end with hints: deal 7 in one suit (won in 56 moves following the hint, in CPython)
    counted = play_to_the_end_with_hints(page)

    # the records are kept in the browser's storage (JupyterLite's drive): after a reload of the page, the
    # statistics still count the game, and an unfinished game is offered again
    H.kernel_eval(page, "w.new_game(seed=3, suits=2)\nw.play([w.game.legal_moves()[0]], delay=0)")
    unfinished = H.kernel_json(page, "[str(m) for m in w.game.history]")
    assert len(unfinished) == 1
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_READY, timeout=180_000, polling=100)
    H.kernel_eval(page, "import spiderette")   # (a new kernel: Pyodide loads a package on its import statement)
    assert H.kernel_json(page, "str(spiderette.stats().path)") == "/drive/.spiderette/stats.json"
    assert H.kernel_json(page, "dict(spiderette.stats()['spiderette', 1])") == counted
    H.kernel_eval(page, "w2 = spiderette.Widget(resume=True)")
    assert H.kernel_json(page, "[w2.game.seed, w2.game.suits, [str(m) for m in w2.game.history]]") \
        == [3, 2, unfinished]
    assert page.refused == [], "nothing but the local server was asked for anything"


def play_to_the_end_with_hints(page) -> dict:
    """Deal 7 in one suit on the notebook's table: Hint clicked on the table and its move played, three times,
    then the hints followed from a cell until the game is won (or no hint is left: then given up, lost); the
    table drawn is the game's, and the statistics count it: their row for one suit."""
    H.kernel_eval(page, "w.winnable = False\nw.new_game(seed=7, suits=1)")   # (no search after each move)
    H.wait_table(page, lambda t: t["status"].get("moves") == "0" and t.get("pending") in (None, "0"), timeout=60)
    for n in range(1, 4):
        H.root(page).locator('[data-action="hint"]').click()
        H.wait_table(page, message_has("hint"), timeout=60)
        text = H.kernel_json(page, "w.view['hint']['text']")
        H.kernel_eval(page, f"w.play({text!r}, delay=0)")
        H.wait_table(page, moves_are(n), timeout=60)
    H.kernel_eval(page, "\n".join([
        "n = 0",
        "while not w.game.is_won and n < 300:",
        "    m = w.hint()",
        "    if m is None:",
        "        break",
        "    w.play([m], delay=0)",
        "    n += 1",
        "won = w.game.is_won",
        "if not won:",
        "    w.resign()",
    ]), timeout=300_000)
    won, history = H.kernel_json(page, "[won, [str(m) for m in w.game.history]]")
    g = Game(seed=7, suits=1)
    g.play(history)
    assert g.is_won == won
    t = H.wait_table(page, moves_are(len(history)), timeout=60)
    assert t["cols"] == cols(g), "the table drawn is the game played"
    assert message_has("You won")(t) if won else message_has("recorded as a loss")(t), t["status"]
    row = H.kernel_json(page, "dict(spiderette.stats()['spiderette', 1])")
    assert row["played"] == 1 and row["won"] == int(won)
    print(f"deal 7 in one suit, following the hints: {'won' if won else 'lost'} in {len(history)} moves")
    return row


def test_the_scripting_notebook_runs_in_the_browser(lite_page, lite_server):
    """02-scripting: w.play with a delay in the kernel's turn, save and load in the browser's files, and the
    play in the background (without threads: from the event loop) whose result() ends the notebook."""
    page = lite_page
    page.goto(f"{lite_server}/lab/index.html?path=02-scripting.ipynb", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_READY, timeout=180_000, polling=100)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(TABLE_DRAWN, timeout=180_000, polling=50)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-InputArea-prompt')].every((e) => !e.textContent.includes('*'))"
        " && document.querySelectorAll('.jp-InputArea-prompt').length > 0", timeout=120_000, polling=200)
    page.wait_for_function(KERNEL_READY, timeout=60_000, polling=100)
    assert page.evaluate(STDERR) == [], "every cell of the scripting notebook runs in the browser, quietly"
    assert H.kernel_json(page, "[str(m) for m in f.result()]") == ["bd1", "ea1", "d", "fa1"]
    assert page.refused == []


# Run the notebook's cell number ``i`` (as Shift+Enter would) and return its kind and outputs, once run
RUN_CELL = """async (i) => {
  const app = window.jupyterapp, nb = app.shell.currentWidget.content;
  nb.activeCellIndex = i;
  await app.commands.execute('notebook:run-cell');
  const cell = nb.widgets[i];
  return {type: cell.model.type, source: cell.model.sharedModel.getSource(),
          outputs: cell.model.type === 'code' ? cell.model.outputs.toJSON() : []};
}"""


def run_cell_by_cell(page, server: str, notebook: str) -> list[dict]:
    """Open ``notebook`` in the site and run its cells one after the other: its code cells, run."""
    page.goto(f"{server}/lab/index.html?path={notebook}", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_READY, timeout=180_000, polling=100)
    count = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length")
    cells = []
    for i in range(count):
        cell = page.evaluate(RUN_CELL, i)
        page.wait_for_function(KERNEL_READY, timeout=300_000, polling=100)
        if cell["type"] == "code":
            cells.append(cell)
    return cells


def test_a_lesson_runs_in_the_browser_and_says_what_the_site_lacks(lite_page, lite_server, lite_site):
    """03-strategy, cell by cell, on the site that serves nothing but itself (no numpy, matplotlib or
    gymnasium): its first cell says which packages the site lacks, the hints, the solver, the replays and the
    studies run, the plot is drawn as an SVG picture, and the Gymnasium cell says in one line what it needs
    (not with a pip command): no cell fails."""
    page = lite_page
    cells = run_cell_by_cell(page, lite_server, "03-strategy.ipynb")
    said = "".join(o.get("text", "") for o in cells[0]["outputs"])
    assert said.startswith("Not served by this copy of the site: numpy, matplotlib, gymnasium.")
    failed = {c["source"]: o for c in cells for o in c["outputs"] if o["output_type"] == "error"}
    assert failed == {}, "no cell of the lesson fails in the browser"
    plot = next(c for c in cells if c["source"] == "cmp.plot()")
    svg = "".join(o["data"]["image/svg+xml"] for o in plot["outputs"] if "image/svg+xml" in o.get("data", {}))
    assert svg.startswith("<svg") and "win rate" in svg and "turn_over_first" in svg, "the plot, drawn as SVG"
    env = next(c for c in cells if "SpideretteEnv" in c["source"])
    (out,) = env["outputs"]
    skipped = "".join(out["text"])
    assert skipped.startswith("Skipped: this cell needs numpy and gymnasium") and skipped.count("\n") == 1
    assert "Pyodide's distribution" in skipped and "pip install" not in skipped
    text = "".join(o.get("text", "") for c in cells for o in c["outputs"])
    assert "winnable (line of" in text, "the solver's verdict on deal 12"
    assert "McNemar (exact binomial)" in text and "rules of thumb on 30 spiderette deals" in text
    assert page.refused == []


#: What each lesson shows at its end in the browser site (lesson 03: the test above).
LESSON_ENDS = {"04-the-ladder.ipynb": "planner on 1 spiderette deal (1 suit)",
               "05-learning.ipynb": "the agent's favourite first move on deal 7:",
               "06-what-the-expert-learned.ipynb": "sign test"}


@pytest.mark.parametrize("lesson", sorted(LESSON_ENDS))
def test_every_lesson_runs_to_its_end_in_the_browser(lite_page, lite_server, lesson):
    """Lessons 04 to 06, cell by cell, on the site that serves nothing but itself: no cell fails (Run All would
    stop there), a cell that needs a package the site lacks says so in one line, and the lesson reaches its
    end."""
    cells = run_cell_by_cell(lite_page, lite_server, lesson)
    failed = [(c["source"].splitlines()[0], o.get("evalue")) for c in cells for o in c["outputs"]
              if o["output_type"] == "error"]
    assert failed == [], f"{lesson}: cells fail in the browser"
    for c in cells:
        said = "".join("".join(o.get("text", "")) for o in c["outputs"])
        if "Skipped: " in said:
            assert said.startswith("Skipped: this cell needs ") and said.count("\n") == 1, said
    text = "".join("".join(o.get("text", "")) for c in cells for o in c["outputs"])
    assert LESSON_ENDS[lesson] in text
    assert lite_page.refused == []
