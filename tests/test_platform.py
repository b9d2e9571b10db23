"""The path without threads (a browser tab, :mod:`spiderette.engine.platform`), run here in CPython with
``THREADS`` switched off: background work is a callback of the event loop, or done at once without one;
``result()`` and ``Widget.wait()`` do the work still waiting; ``w.play(wait=False)`` steps from the loop.
The browser itself: ``tests/e2e/test_lite_e2e.py``."""

from __future__ import annotations

import asyncio
import threading

import pytest

from spiderette import Game, Widget, solve_async
from spiderette.engine import platform
from spiderette.players.background import BackgroundTask, run_in_thread


@pytest.fixture
def no_threads(monkeypatch):
    """``THREADS`` off, and any thread the package would start recorded instead of started. Yields a runner:
    ``run(body)`` calls ``body()`` in a thread of the test's own, where no event loop runs (a browser tab's
    kernel is alone in its thread; here a test process may keep one running in its main thread, as
    Playwright's sync API does for the browser tests)."""
    monkeypatch.setattr(platform, "THREADS", False)
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self.name))

    def run(body):
        failed = []

        def call():
            try:
                body()
            except BaseException as e:   # (raised again in the test's thread)
                failed.append(e)

        t = threading.Thread(target=call, name="test body")
        start(t)
        t.join(300)
        assert not t.is_alive(), "the test's body did not end"
        if failed:
            raise failed[0]

    yield run
    assert started == [], f"threads were started: {started}"


def test_without_a_loop_the_work_is_done_at_once(no_threads):
    def body():
        f = run_in_thread(lambda stop: 6 * 7, "answer")
        assert f.done() and f.result() == 42
        task, seen = BackgroundTask(threading.RLock()), []
        assert task.start(lambda stop: 42, "answer", seen.append).result() == 42
        assert seen == [42] and task.running is None
        assert str(solve_async(Game(seed=12), node_limit=50_000).result()).startswith("winnable")

    no_threads(body)


def test_in_a_loop_the_work_waits_for_it_and_result_does_it_now(no_threads):
    def body():
        async def main():
            f = run_in_thread(lambda stop: 6 * 7, "answer")
            assert not f.done() and f.waiting   # the message being handled ends first
            g = run_in_thread(lambda stop: 1, "later")
            await asyncio.sleep(0.01)
            assert g.done() and g.result() == 1, "the loop runs it"
            assert f.result() == 42   # (already run by the loop too, or now)
            h = run_in_thread(lambda stop: pytest.fail("a cancelled task never runs"), "cancelled")
            assert h.cancel()
            await asyncio.sleep(0.01)
            assert h.cancelled()
            k = run_in_thread(lambda stop: 2, "asked")
            assert k.result() == 2 and not k.waiting, "result() does the work still waiting"

        asyncio.run(main())

    no_threads(body)


def test_a_table_plays_thinks_and_judges_without_threads(no_threads):
    def body():
        w = Widget(seed=12, record=False, winnable=True)
        assert w.wait(60) and w.view["winnable"]["state"] == "win"
        hint = w.think(budget=2_000)
        assert hint is not None
        moves = w.game.legal_moves()[:1]

        async def main():
            f = w.play(moves, delay=0.01, wait=False)
            assert not f.done()
            await asyncio.sleep(0.2)
            return f

        f = asyncio.run(main())
        assert f.done() and f.result() == moves and w.game.history == moves
        w.undo()
        f = w.play(moves, delay=0.01, wait=False)   # (no loop here: played at once)
        assert f.result() == moves and w.wait(5)
        w.close()

    no_threads(body)


def test_in_a_browser_tab_the_indicator_searches_once_with_the_small_budget(no_threads):
    """Without threads the kernel waits while the indicator searches: it spends the browser's budget once, says
    the odds of that search, and never searches on (deal 3 is undecided at 40,000 tables)."""

    def body():
        from spiderette.notebook import winnable
        from spiderette.players.odds import odds_for

        w = Widget(seed=3, record=False, winnable=True)
        assert w.wait(60)
        odds = odds_for("spiderette", 4, winnable.WINNABLE_BROWSER_TABLES, 45)
        assert w.view["winnable"] == {"state": "unknown", "odds": odds.short(), "probably_lost": odds.probably_lost,
                                      "searching": False}
        w.play("d")
        w.undo()
        assert w.view["winnable"]["searching"] is False and w.wait(0)
        w.close()

    no_threads(body)

def test_in_a_browser_tab_think_plans_with_the_smaller_budget_and_says_so(no_threads, monkeypatch):
    """Think runs in the kernel's turn there (the page waits): the browser's budget, and the table says so."""
    def body():
        from spiderette.notebook import hintbuttons

        budgets, real = [], hintbuttons.planner_hint
        monkeypatch.setattr(hintbuttons, "planner_hint", lambda game, budget, *a, **k: budgets.append(budget)
                            or real(game, budget, *a, **k))
        w = Widget(seed=12, record=False)

        async def main():   # (in the browser's kernel an event loop runs the work after the click's answer)
            f = w.think()
            assert w.view["message"] == f"Thinking {platform.SMALLER_BUDGET}\u2026" and not f.done()
            return f

        f = asyncio.run(main())
        assert f.result() is not None and w.wait(5)
        assert budgets == [platform.BROWSER_THINK_TABLES] and platform.BROWSER_THINK_TABLES < hintbuttons.THINK_BUDGET
        assert w.view["message"].startswith("Think 1 of 5 (thought with a smaller budget in the browser): "), \
            w.view["message"]
        assert w.view["hint"]["source"] == "think"
        w.think(budget=3_000, wait=True)   # a budget asked for is spent as asked, and nothing is said of it
        assert budgets[-1] == 3_000 and "smaller budget" not in w.view["message"]
        w.close()
    no_threads(body)


def test_in_a_browser_tab_the_post_mortem_searches_less_and_says_so(no_threads, monkeypatch):
    def body():
        from spiderette.notebook import postmortem
        from spiderette.players.analysis import ANALYSIS_NODES, ANALYSIS_SOLVES

        asked, real = [], postmortem.analyse
        monkeypatch.setattr(postmortem, "analyse", lambda game, **k: asked.append(
            (k["node_limit"], k["max_solves"])) or real(game, **k))
        w = Widget(seed=12, record=False)
        w.play("ef cb")

        async def main():
            f = w.where_did_it_go_wrong()
            assert w.view["message"].endswith(f"(the solver sees every card, {platform.SMALLER_BUDGET})")
            return f

        a = asyncio.run(main()).result()
        assert asked == [(platform.BROWSER_ANALYSIS_TABLES, platform.BROWSER_ANALYSIS_SOLVES)]
        assert platform.BROWSER_ANALYSIS_TABLES * platform.BROWSER_ANALYSIS_SOLVES < ANALYSIS_NODES * ANALYSIS_SOLVES
        assert a.last_winnable == 2 and w.view["message"].endswith("(searched with a smaller budget in the browser)")
        w.close()
    no_threads(body)


def test_with_threads_the_budgets_are_the_full_ones(monkeypatch):
    monkeypatch.setattr(platform, "THREADS", True)
    assert platform.budget(20_000, platform.BROWSER_THINK_TABLES) == 20_000
    monkeypatch.setattr(platform, "THREADS", False)
    assert platform.budget(20_000, platform.BROWSER_THINK_TABLES) == platform.BROWSER_THINK_TABLES
    assert platform.budget(1_000, platform.BROWSER_THINK_TABLES) == 1_000   # (never more than asked)



def test_the_drive_the_browser_keeps_is_found_only_in_a_browser_tab(monkeypatch, tmp_path):
    drive = tmp_path / "drive"
    monkeypatch.setattr(platform, "DRIVE", str(drive))
    monkeypatch.setattr(platform, "BROWSER", True)
    assert platform.browser_data_folder() is None, "no drive mounted"
    drive.mkdir()
    assert platform.browser_data_folder() == str(drive / ".spiderette")
    monkeypatch.setattr(platform, "BROWSER", False)
    assert platform.browser_data_folder() is None, "outside a browser the folder is no one's"


def test_in_a_browser_tab_the_records_live_on_the_drive(monkeypatch, tmp_path):
    """Without ``SPIDERETTE_HOME``, a browser tab keeps the statistics and the unfinished game on JupyterLite's
    drive; a file written again there is removed before the new one (whole, under its ready name) is renamed
    onto its name (a rename over a file on that drive hangs a later look at the name), and reads back whole."""
    import os

    from spiderette import stats
    from spiderette.engine import files
    from spiderette.userdata import datafolder
    from spiderette.userdata.resumefile import load_resume, save_resume

    drive = tmp_path / "drive"
    drive.mkdir()
    monkeypatch.setattr(platform, "DRIVE", str(drive))
    monkeypatch.setattr(platform, "BROWSER", True)
    monkeypatch.delenv(datafolder.ENV, raising=False)
    assert datafolder.home() == drive / ".spiderette"

    renamed, replaced, rename = [], [], os.rename

    def renaming(a, b):
        assert not os.path.lexists(b), f"a rename onto {b}, which exists"
        renamed.append(b)
        rename(a, b)

    monkeypatch.setattr(files.os, "rename", renaming)
    monkeypatch.setattr(files.os, "replace", lambda a, b: replaced.append(b))
    g = Game(seed=7)
    g.play("bd")
    save_resume(g, "abc")
    g.play("d")
    save_resume(g, "abc")   # over the first
    game, game_id = load_resume()
    assert (game_id, [str(m) for m in game.history]) == ("abc", ["bd1", "d"])
    folder = drive / ".spiderette"
    assert renamed == [folder / ".resume.json.ready", folder / "resume.json"] * 2 and replaced == []
    assert sorted(os.listdir(drive / ".spiderette")) == ["resume.json"], "no temporary file is left"
    assert stats().path == drive / ".spiderette" / "stats.json"


def test_in_a_browser_tab_a_study_plays_in_the_kernels_own_process(monkeypatch):
    """``processes=2`` starts no process in a browser tab (there are none): the games are played here, with
    the same rows as on two processes elsewhere."""
    import concurrent.futures

    from spiderette import GreedyStrategy, simulate
    from spiderette.studies import runner

    monkeypatch.setattr(platform, "PROCESSES", False)
    monkeypatch.setattr(runner, "ProcessPoolExecutor",
                        lambda *a, **k: pytest.fail("a process pool was started in a browser tab"))
    here = simulate(GreedyStrategy(), deals=range(1, 5), suits=1, processes=2, progress=False)
    monkeypatch.setattr(runner, "ProcessPoolExecutor", concurrent.futures.ProcessPoolExecutor)
    monkeypatch.setattr(platform, "PROCESSES", True)
    elsewhere = simulate(GreedyStrategy(), deals=range(1, 5), suits=1, processes=2, progress=False)
    def timeless(rows):
        return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]

    assert timeless(here.rows) == timeless(elsewhere.rows)


def test_in_a_browser_tab_a_missing_package_is_not_a_pip_command(monkeypatch):
    """There is no pip to run in a browser tab: the message says where the package comes from there."""
    from spiderette.players.extras import need

    with pytest.raises(ImportError, match=r'pip install "spiderette\[teach\]"'):
        need("plot()", "no_such_module_here")
    monkeypatch.setattr(platform, "BROWSER", True)
    with pytest.raises(ImportError, match="plot\\(\\) needs no_such_module_here") as e:
        need("plot()", "no_such_module_here")
    assert "Pyodide's distribution" in str(e.value) and "pip install" not in str(e.value)
