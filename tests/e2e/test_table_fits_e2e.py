"""End-to-end: the whole table in view (issue 18, item 3).

Once the widget is scrolled into view, the felt never needs the page to scroll: it is at most the visible
height of the notebook area less the widget's own chrome, its columns compressed to fit (down to a
readable strip, and then the felt scrolls inside itself). The question bar and the Statistics panel lie
over the felt; no empty strip above it. A drag near an edge of a felt that scrolls scrolls it.

At 1280 x 900 (JupyterLab), 1024 x 768 (Notebook 7), 800 and 500 px wide (JupyterLab, the file browser
open), after 60 moves of a long game (Spider, 2 suits, deal 32, played by the greedy hint: a column of 24
cards), every card's strip is inside the visible area, or reachable by the felt's own scroll during a drag.
"""

from __future__ import annotations

import json

import jupyter_harness as H
import pytest

from spiderette import Game
from spiderette.notebook.view import view
from spiderette.players.ranking import greedy_move

pytestmark = pytest.mark.e2e

SEED = 32
CELL = f"{H.IMPORT}\nw = Widget(variant='spider', suits=2, seed={SEED})\nw"


def long_line(n: int = 60) -> list[str]:
    g, seen = Game(variant="spider", suits=2, seed=SEED), set()
    line = []
    while len(line) < n and (m := greedy_move(g, seen)) is not None:
        g.apply(m)
        line.append(str(m))
    assert len(line) == n
    return line


LINE = long_line()


def played(k: int = len(LINE)) -> Game:
    g = Game(variant="spider", suits=2, seed=SEED)
    g.play(LINE[:k])
    return g


# The widget scrolled into view in its notebook area (JupyterLab's and Notebook 7's scroller, else the
# window): where the felt and every card's strip (its top 12 px, what a fanned card shows) lie.
FITS = """(root) => {
  root.scrollIntoView({block: 'start'});
  const sc = root.closest('.jp-WindowedPanel-outer, .jp-Notebook');
  const b = (e) => e.getBoundingClientRect();
  const s = sc ? b(sc) : {top: 0, bottom: innerHeight, left: 0, right: innerWidth};
  const vis = {top: Math.max(0, s.top), bottom: Math.min(innerHeight, sc ? s.top + sc.clientHeight : s.bottom)};
  const felt = root.querySelector('.sp-table');
  const f = b(felt);
  const cs = getComputedStyle(felt);
  const down = felt.scrollHeight > felt.clientHeight + 1;
  const sideways = felt.scrollWidth > felt.clientWidth + 1;
  const out = [];
  for (const c of root.querySelectorAll('[data-pile^="tableau-"] .sp-card')) {
    const r = b(c);
    const strip = {top: r.top, bottom: r.top + Math.min(12, r.height)};
    // seen: within the visible area and the felt's box; or reachable by the felt's own scroll
    const seenY = strip.top >= vis.top - 0.5 && strip.bottom <= vis.bottom + 0.5 &&
                  strip.top >= f.top - 0.5 && strip.bottom <= f.bottom + 0.5;
    const seenX = (r.left >= f.left - 0.5 && r.right <= f.right + 0.5) || sideways;
    if (!((seenY || down) && seenX)) out.push([c.dataset.card || 'back', Math.round(r.top), Math.round(r.left)]);
  }
  const stage = root.querySelector('.sp-stage');
  const msg = root.querySelector('[data-status="message"]');
  return {
    visTop: vis.top, visBottom: vis.bottom, feltTop: f.top, feltBottom: f.bottom, down, sideways,
    scrollsDown: down && /auto|scroll/.test(cs.overflowY),
    notSeen: out, cards: root.querySelectorAll('[data-pile^="tableau-"] .sp-card').length,
    // the room between the status line and the felt (the status line is two lines tall whatever it says,
    // so that a message never moves the felt: issue 42)
    strip: b(stage).top - b(msg.closest('.sp-news') || msg).bottom,
    cardW: parseFloat(root.style.getPropertyValue('--card-w')),
  };
}"""


def fits(f: dict) -> bool:
    return (f["feltTop"] >= f["visTop"] - 0.5 and f["feltBottom"] <= f["visBottom"] + 0.5
            and not f["notSeen"] and (f["scrollsDown"] or not f["down"]))


def assert_whole_table(page, name: str, strip: bool = True) -> dict:
    """Wait for the table to settle (a resize reaches the widget late on a loaded machine); then check."""
    r = H.root(page)
    try:
        page.wait_for_function(f"(root) => ({FITS})(root).notSeen.length === 0 && "
                               f"(({FITS})(root).feltBottom <= ({FITS})(root).visBottom + 0.5)",
                               arg=r.element_handle(), timeout=10_000, polling=200)
    except Exception:  # noqa: BLE001 - the assertion below says what is wrong
        pass
    f = r.evaluate(FITS)
    H.screenshot(page, name)
    assert f["feltBottom"] <= f["visBottom"] + 0.5, f"the felt ends within the visible area: {json.dumps(f)}"
    assert fits(f), f"every card's strip is in view, or the felt scrolls to it: {json.dumps(f)}"
    assert f["cardW"] >= 28
    assert not strip or f["strip"] < 30, f"no empty strip above the felt: {f}"
    return f


def play_long_game(page) -> None:
    H.kernel_eval(page, f"w.play({' '.join(LINE)!r}, delay=0)")
    g = played()
    H.wait_table(page, lambda t: t["status"].get("moves") == "60" and t["cols"] == H.cols_of_view(view(g)),
                 timeout=30)


# A movable card at the top of a column, whose strip is seen in the felt: the point to press.
GRAB = """(root) => {
  const felt = root.querySelector('.sp-table').getBoundingClientRect();
  for (const c of root.querySelectorAll('[data-pile^="tableau-"] .sp-card.sp-movable')) {
    const r = c.getBoundingClientRect();
    if (r.left >= felt.left + 2 && r.right <= felt.right - 50 &&
        r.top >= felt.top + 2 && r.top + 12 <= felt.bottom - 60)
      return {card: c.dataset.card, x: r.left + r.width / 2, y: r.top + 6};
  }
  return null;
}"""

SCROLL = "(root) => { const f = root.querySelector('.sp-table'); return [f.scrollLeft, f.scrollTop]; }"


def drag_to_edge(page, edge: str) -> None:
    """Press a movable card, hold it near the felt's `edge` (bottom or right): the felt scrolls that way,
    and the card stays under the pointer; released there, it goes home."""
    r = H.root(page)
    r.evaluate("(root) => { const f = root.querySelector('.sp-table'); f.scrollLeft = 0; f.scrollTop = 0; }")
    grab = r.evaluate(GRAB)
    assert grab, "a movable card to drag"
    felt = r.locator(".sp-table").bounding_box()
    x, y = (grab["x"], felt["y"] + felt["height"] - 6) if edge == "bottom" else \
        (felt["x"] + felt["width"] - 6, grab["y"])
    page.mouse.move(grab["x"], grab["y"])
    page.mouse.down()
    page.mouse.move(grab["x"] + 8, grab["y"] + 8, steps=2)
    page.mouse.move(x, y, steps=8)
    axis = 1 if edge == "bottom" else 0
    page.wait_for_function(f"(root) => ({SCROLL})(root)[{axis}] > 40", arg=r.element_handle(), timeout=10_000)
    box = r.locator(f'.sp-dragging[data-card="{grab["card"]}"]').bounding_box()
    assert box is not None, "the card is dragged"
    assert box["x"] - 2 <= x <= box["x"] + box["width"] + 2 and box["y"] - 2 <= y <= box["y"] + box["height"] + 2, \
        f"the dragged card follows the felt's scroll, under the pointer {(x, y)}: {box}"
    page.mouse.up()
    page.wait_for_function("(root) => !root.querySelector('.sp-dragging')", arg=r.element_handle())


CURSOR_IN_VIEW = """(root) => {
  const f = root.querySelector('.sp-table').getBoundingClientRect();
  const c = root.querySelector('.sp-cursor').getBoundingClientRect();
  return c.left >= f.left - 1 && c.right <= f.right + 1 && c.top >= f.top - 1 && c.top + 12 <= f.bottom + 1;
}"""


def keyboard_reveals(page) -> None:
    """With the keyboard, the felt scrolls to the card under the cursor, down and sideways."""
    r = H.root(page)
    r.evaluate("(root) => { const f = root.querySelector('.sp-table'); f.scrollLeft = 0; f.scrollTop = 0; }")
    r.focus()
    columns = r.evaluate("(root) => root.querySelectorAll('[data-pile^=\"tableau-\"]').length")
    for i in range(columns):
        page.keyboard.press("ArrowRight")
        assert r.evaluate(CURSOR_IN_VIEW), f"the cursor's card is in view after {i + 1} presses"
    page.keyboard.press("Escape")


def open_table(page_fixture, request, width: int, height: int, file_browser: bool) -> None:
    page = page_fixture.page
    page.set_viewport_size({"width": width, "height": height})
    page_fixture.open(request.node.name, [CELL])
    if file_browser:
        page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
        page.wait_for_function("() => document.querySelector('#filebrowser') && "
                               "document.querySelector('#filebrowser').getBoundingClientRect().width > 100")


@pytest.mark.parametrize("width,height", [(1280, 900), (800, 600), (500, 600)])
def test_the_whole_table_in_jupyterlab(lab, request, width, height):
    open_table(lab, request, width, height, file_browser=width < 1280)
    page = lab.page
    assert_whole_table(page, f"fits-{width}x{height}-fresh.png", strip=False)
    play_long_game(page)
    f = assert_whole_table(page, f"fits-{width}x{height}-60-moves.png")
    if f["down"]:
        drag_to_edge(page, "bottom")
    if f["sideways"]:
        drag_to_edge(page, "right")
    if f["down"] or f["sideways"]:
        keyboard_reveals(page)
    assert H.table(page)["status"]["moves"] == "60", "nothing was played by the drags"
    assert lab.widget_problems() == []


def test_the_whole_table_in_notebook7(nb7, request):
    open_table(nb7, request, 1024, 768, file_browser=False)
    page = nb7.page
    assert_whole_table(page, "fits-notebook7-fresh.png", strip=False)
    play_long_game(page)
    f = assert_whole_table(page, "fits-notebook7-60-moves.png")
    if f["down"]:
        drag_to_edge(page, "bottom")
    assert H.table(page)["status"]["moves"] == "60", "nothing was played by the drag"
    # (issue 42) a long hint, and its whole plan opened: the felt stays where it is, its bottom in the window
    r = H.root(page)
    r.locator('.sp-bar [data-action="hint"]').click()
    H.wait_table(page, lambda t: t["status"].get("message", "").startswith("Hint 1 of"), timeout=30)
    hinted = r.evaluate(FITS)
    assert [hinted["feltTop"], hinted["feltBottom"]] == [f["feltTop"], f["feltBottom"]], \
        f"a long hint does not move the felt: {f} -> {hinted}"
    r.locator('[data-control="plan"]').click()
    page.wait_for_function("(root) => root.querySelector('.sp-news').classList.contains('sp-open')",
                           arg=r.element_handle())
    opened = r.evaluate(FITS)
    assert [opened["feltTop"], opened["feltBottom"]] == [f["feltTop"], f["feltBottom"]], \
        f"the whole plan opened does not move the felt: {f} -> {opened}"
    assert opened["feltBottom"] <= opened["visBottom"] + 0.5 and opened["visBottom"] <= 768


PLACE = """(root) => { const a = root.getBoundingClientRect(), b = root.querySelector('.sp-table')
  .getBoundingClientRect(); return [Math.round(b.top - a.top), Math.round(b.height)]; }"""

INSIDE = """([root, sel]) => { const f = root.querySelector('.sp-stage').getBoundingClientRect(),
  e = root.querySelector(sel).getBoundingClientRect();
  return e.height > 0 && e.top >= f.top - 0.5 && e.left >= f.left - 0.5 && e.right <= f.right + 0.5; }"""


def test_the_question_and_the_statistics_lie_over_the_felt(lab, request):
    open_table(lab, request, 1280, 900, file_browser=False)
    page = lab.page
    r = H.root(page)
    H.kernel_eval(page, f"w.play({' '.join(LINE[:5])!r}, delay=0)")
    H.wait_table(page, lambda t: t["status"].get("moves") == "5" and t.get("pending") in (None, "0"))
    placed = r.evaluate(PLACE)
    # New game on a game in progress: "Abandon this game?" over the felt, which stays where it was
    r.locator('.sp-bar [data-action="new"]').click()
    r.locator(".sp-confirm").wait_for(state="visible")
    assert r.evaluate(PLACE) == placed, "the question does not push the felt down"
    assert page.evaluate(INSIDE, [r.element_handle(), ".sp-confirm"])
    H.screenshot(page, "fits-question-over-felt.png")
    page.keyboard.press("Escape")
    r.locator(".sp-confirm").wait_for(state="hidden")
    # the Statistics panel
    r.locator('.sp-bar [data-action="stats"]').click()
    r.locator('[data-panel="stats"]').wait_for(state="visible")
    assert r.evaluate(PLACE) == placed, "the Statistics panel does not push the felt down"
    assert page.evaluate(INSIDE, [r.element_handle(), '[data-panel="stats"]'])
    H.screenshot(page, "fits-stats-over-felt.png")
    r.locator('[data-panel-action="close"]').click()
    r.locator('[data-panel="stats"]').wait_for(state="hidden")
    assert r.evaluate(PLACE) == placed
