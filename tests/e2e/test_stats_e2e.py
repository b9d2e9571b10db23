"""End-to-end: the Statistics panel and the Resume button in JupyterLab (Chromium).

The notebook points ``SPIDERETTE_HOME`` at a folder of the test's own, so the other tests' games (the
server's kernels share one temp folder) do not count here.
"""

from __future__ import annotations

import jupyter_harness as H
import pytest

from spiderette import Game
from spiderette.notebook.view import view

pytestmark = pytest.mark.e2e

def stat(page, field: str, key: str = "spiderette:4") -> str:
    return H.root(page).locator(f'[data-panel="stats"] tr[data-stats-row="{key}"] td[data-stat="{field}"]').inner_text()


def restart_kernel_and_run_all(page) -> None:
    """Restart the notebook's kernel as JupyterLab does (no dialog), then run all cells again."""
    page.evaluate("window.jupyterapp.shell.currentWidget.sessionContext.restartKernel()")
    page.wait_for_function(H.KERNEL_IDLE, timeout=60_000, polling=100)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")


@pytest.mark.fresh_kernel  # (it restarts the kernel, and points the kernel at a statistics folder of its own)
def test_statistics_panel_and_resume_after_a_kernel_restart(lab, tmp_path):
    page = lab.page
    lab.open("stats_resume", [f"import os\nos.environ['SPIDERETTE_HOME'] = {str(tmp_path)!r}\n"
                              f"{H.IMPORT}\nw = Widget(seed=7)\nw"])
    r = H.root(page)
    panel = r.locator('[data-panel="stats"]')
    assert panel.is_hidden() and r.locator('[data-action="resume"]').is_hidden()

    # a move, then New game: the first game counts as played (and lost)
    H.card(page, "6H").click()
    H.wait_table(page, lambda t: t["status"].get("moves") == "1" and t.get("pending") in (None, "0"))
    r.locator('[data-action="new"]').click()
    r.locator('.sp-confirm [data-confirm-action="confirm"]').click()   # a game in progress: asked first
    H.wait_table(page, lambda t: t["status"].get("moves") == "0" and t.get("pending") in (None, "0"))
    r.locator('[data-action="stats"]').click()
    panel.wait_for(state="visible")
    assert r.locator('[data-action="stats"]').get_attribute("aria-expanded") == "true"
    page.wait_for_function("() => document.querySelector('[data-panel=\"stats\"] [data-stats-row]')")
    assert [stat(page, f) for f in ("played", "won", "win_rate", "streak", "best_score", "fewest_moves")] == \
        ["1", "0", "0%", "0", "499", "\u2014"]
    row = panel.locator('tr[data-stats-row="spiderette:4"]')
    assert row.get_attribute("aria-current") == "true"
    panel.locator('[data-panel-action="close"]').click()
    panel.wait_for(state="hidden")

    # the second game: a deal, saved after the move; then the kernel restarts
    seed = H.kernel_json(page, "w.game.seed")
    H.pile(page, "stock").click()
    H.wait_table(page, lambda t: t["status"].get("moves") == "1" and t.get("pending") in (None, "0"))
    assert (tmp_path / "resume.json").exists()
    restart_kernel_and_run_all(page)

    # the fresh Widget(seed=7) offers the saved game; Resume brings it back
    resume = r.locator('[data-action="resume"]')
    resume.wait_for(state="visible", timeout=60_000)
    t = H.wait_table(page, lambda t: t["status"].get("moves") == "0" and t.get("pending") in (None, "0"))
    assert t["cols"] == H.cols_of_view(view(Game(seed=7)))
    assert f"deal {seed}, 1 move" in resume.get_attribute("title")
    resume.click()
    expected = Game(seed=seed)
    expected.deal()
    t = H.wait_table(page, lambda t: t["status"].get("moves") == "1" and t.get("pending") in (None, "0"))
    assert t["cols"] == H.cols_of_view(view(expected))
    assert "Resumed the saved game" in t["status"]["message"]
    resume.wait_for(state="hidden")
    assert H.kernel_json(page, "w.game.position()") == expected.position()

    # nothing more was counted: the fresh deal was never played, the resumed game goes on
    r.locator('[data-action="stats"]').click()
    panel.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('[data-panel=\"stats\"] [data-stats-row]')")
    assert stat(page, "played") == "1"
    assert lab.widget_problems() == []
