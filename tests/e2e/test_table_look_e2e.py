"""End-to-end: the table as a player sees it (issue 10's look and layout), in JupyterLab and Notebook 7.

Any width (every column and the stock reachable: shrunk, compact faces, the felt scrolling sideways,
never clipped), focus drawn inside the widget, the keyboard cursor, the legal targets and the picked-up
cards told apart, refusals marked on the table and in the status line, the stock drawn unavailable, the
turn-over, the felt sized to its content, the win as an overlay that leaves the table where it is, and the
dead-end banner's Undo as the toolbar's. Screenshots of each state go to ``test-artifacts/``;
``SPIDERETTE_README_SCREENSHOT=1`` also writes the picture of the README and of the site (docs/play.md),
``docs/screenshot.png``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import jupyter_harness as H
import pytest

from spiderette import Game
from spiderette.notebook.view import view

pytestmark = pytest.mark.e2e

LAB_FILE_BROWSER = """() => window.jupyterapp.commands.execute('filebrowser:activate')"""

# Every pile of widget `index`: made visible by scrolling the felt (only the felt: never the page
# sideways), then its box inside the felt's visible box, the widget's box and the window.
REACH = """async (root) => {
  const felt = root.querySelector('.sp-table');
  const box = (e) => e.getBoundingClientRect();
  const out = {scrollWidth: felt.scrollWidth, clientWidth: felt.clientWidth, piles: {}};
  felt.scrollLeft = 0;
  const f0 = box(felt);
  out.leftOfFelt = [...root.querySelectorAll('[data-pile]')]
    .filter((p) => box(p).left < f0.left - 0.5).map((p) => p.dataset.pile);
  for (const p of root.querySelectorAll('[data-pile]')) {
    const b0 = box(p);
    const f = box(felt);
    if (b0.left < f.left) felt.scrollLeft -= f.left - b0.left;
    else if (b0.right > f.right) felt.scrollLeft += b0.right - f.right;
    await new Promise((r) => requestAnimationFrame(r));
    const b = box(p);
    const r = box(root);
    const fv = box(felt);
    out.piles[p.dataset.pile] = {
      inFelt: b.left >= fv.left - 0.5 && b.right <= fv.right + 0.5,
      inWidget: b.left >= r.left - 0.5 && b.right <= r.right + 0.5,
      inWindow: b.left >= -0.5 && b.right <= innerWidth + 0.5,
      width: b.width,
    };
  }
  felt.scrollLeft = 0;
  const output = root.closest('.jp-OutputArea-output, .jp-OutputArea') || root.parentElement;
  const o = box(output);
  const r = box(root);
  out.widgetInOutput = r.left >= o.left - 0.5 && r.right <= o.right + 0.5;
  out.compact = root.classList.contains('sp-compact');
  out.cardW = parseFloat(root.style.getPropertyValue('--card-w'));
  return out;
}"""


def assert_reachable(page, columns: int, runs: int, name: str) -> dict:
    r = H.root(page).evaluate(REACH)
    expected = {"stock"} | {f"tableau-{i}" for i in range(columns)} | {f"foundation-{i}" for i in range(runs)}
    assert set(r["piles"]) == expected
    assert r["leftOfFelt"] == [], "nothing lies left of the felt, where no scrolling reaches"
    bad = {k: v for k, v in r["piles"].items() if not (v["inFelt"] and v["inWidget"] and v["inWindow"])}
    assert not bad, f"piles that cannot be brought into view: {bad}"
    assert r["widgetInOutput"], "the widget fits its output area"
    assert r["cardW"] >= 28 and all(v["width"] >= 28 for v in r["piles"].values()), "cards stay readable"
    H.screenshot(page, name)
    return r


def toolbar_rows(page) -> dict:
    """How many controls the toolbar shows, in how many rows (controls whose middles are 8 px apart or less
    share a row)."""
    return H.root(page).evaluate("""(root) => {
      const mids = [...root.querySelectorAll('.sp-bar button, .sp-bar select, .sp-bar label')]
        .filter((e) => e.getClientRects().length > 0)  // (drawn: not hidden, not folded behind More)
        .map((e) => { const b = e.getBoundingClientRect(); return b.top + b.height / 2; }).sort((a, b) => a - b);
      const rows = mids.filter((m, i) => i === 0 || m - mids[i - 1] > 8).length;
      return {controls: mids.length, rows};
    }""")


def narrow_lab(lab, request, width: int, cells: list[str]) -> None:
    lab.page.set_viewport_size({"width": width, "height": 900})
    lab.open(request.node.name, cells)
    lab.page.evaluate(LAB_FILE_BROWSER)
    lab.page.wait_for_function("() => document.querySelector('#filebrowser') && "
                               "document.querySelector('#filebrowser').getBoundingClientRect().width > 100")
    H.wait_settled(lab.page)  # (the resize reaches the widget)


# ---------------------------------------------------------------------------------------------- 1. any width
def test_spiderette_at_500px_with_the_file_browser(lab, request):
    """500 px window, file browser open: a very narrow output. Compact cards, and the felt scrolls sideways
    to every column and the stock; the keyboard cursor scrolls it too; the toolbar wraps in rows."""
    narrow_lab(lab, request, 500, [f"{H.IMPORT}\nw = Widget(seed=7)\nw"])
    page = lab.page
    r = assert_reachable(page, 7, 4, "narrow-500-spiderette.png")
    assert r["compact"], "the smallest cards show compact faces"
    assert r["scrollWidth"] > r["clientWidth"], "too narrow even for compact cards: the felt scrolls"

    # the keyboard cursor brings its column into view
    H.root(page).focus()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    seen = H.root(page).evaluate("""(root) => {
      const felt = root.querySelector('.sp-table').getBoundingClientRect();
      const p = root.querySelector('[data-pile="tableau-6"]').getBoundingClientRect();
      return [p.left >= felt.left - 0.5 && p.right <= felt.right + 0.5, root.querySelector('.sp-table').scrollLeft];
    }""")
    assert seen[0] and seen[1] > 0, seen

    # the toolbar (a very narrow output: about one card wide): the controls played with in a few rows,
    # the others folded behind More
    rows = toolbar_rows(page)
    assert rows["rows"] <= 3, rows
    bar = H.root(page).locator(".sp-bar")
    for action in ("new", "undo", "redo", "hint"):
        assert bar.locator(f'[data-action="{action}"]').is_visible(), action
    more = bar.locator('[data-control="more"]')
    variant = bar.locator('[data-control="variant"]')
    assert more.is_visible() and more.get_attribute("aria-expanded") == "false"
    assert not variant.is_visible() and not bar.locator('[data-action="restart"]').is_visible()
    more.click()
    assert more.get_attribute("aria-expanded") == "true"
    assert variant.is_visible() and bar.locator('[data-action="stats"]').is_visible()
    assert toolbar_rows(page)["controls"] > rows["controls"]
    H.screenshot(page, "narrow-500-more.png")
    more.click()
    assert not variant.is_visible() and toolbar_rows(page) == rows
    # a move still plays (the compact card is the card under the pointer)
    H.card(page, "6H").click(position={"x": 8, "y": 5})
    t = H.wait_table(page, lambda t: t["status"].get("moves") == "1" and t.get("pending") in (None, "0"))
    assert t["cols"] == H.cols_of_view(view(_played("bd")))


def _played(*moves: str, seed: int = 7, **kw) -> Game:
    g = Game(seed=seed, **kw)
    for m in moves:
        g.apply(m)
    return g


def test_spider_at_800px_with_the_file_browser(lab, request):
    narrow_lab(lab, request, 800, [f"{H.IMPORT}\nw = Widget(variant='spider', suits=2, seed=3)\nw"])
    assert_reachable(lab.page, 10, 8, "narrow-800-spider.png")
    assert toolbar_rows(lab.page)["rows"] <= 3, "the toolbar wraps in a few full rows"
    more = H.root(lab.page).locator('[data-control="more"]')
    assert not more.is_visible(), "wide enough for every control: nothing folded behind More"


def test_notebook7_at_500px(nb7, request):
    nb7.page.set_viewport_size({"width": 500, "height": 900})
    nb7.open(request.node.name, [f"{H.IMPORT}\nw = Widget(variant='spider', seed=3)\nw"])
    H.wait_settled(nb7.page)
    assert_reachable(nb7.page, 10, 8, "narrow-500-notebook7-spider.png")


# ---------------------------------------------------------------------------------------------- 4. focus
FOCUS = """(root) => {
  const cs = getComputedStyle(root);
  const r = root.getBoundingClientRect();
  const w = parseFloat(cs.outlineWidth) || 0;
  const off = parseFloat(cs.outlineOffset) || 0;
  const reach = off + w; // how far the outline reaches outside the border box (<= 0: inside)
  const o = (root.closest('.jp-OutputArea-output') || root.parentElement).getBoundingClientRect();
  const alpha = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); const p = m ? m[1].split(',') : [];
                         return p.length > 3 ? parseFloat(p[3]) : 1; };
  return {
    focused: document.activeElement === root, style: cs.outlineStyle, width: w, reach,
    alpha: alpha(cs.outlineColor),
    inside: r.left - reach >= o.left - 0.5 && r.right + reach <= o.right + 0.5 &&
            r.top - reach >= o.top - 0.5 && r.bottom + reach <= o.bottom + 0.5,
    kbd: root.classList.contains('sp-kbd'),
  };
}"""

KEYS = """(root) => ({
  cursor: root.querySelector('[aria-current="true"]').dataset.card,
  selected: [...root.querySelectorAll('.sp-selected')].map((e) => e.dataset.card),
  targets: [...root.querySelectorAll('.sp-target')].map((e) => e.dataset.pile),
})"""

MARKS = """(root) => {
  const cs = (sel) => { const e = root.querySelector(sel); return e ? getComputedStyle(e) : null; };
  const ring = root.querySelector('.sp-cursor-ring');
  const rb = ring && ring.getBoundingClientRect();
  const cur = root.querySelector('[aria-current="true"]');
  const col = cur && cur.closest('[data-pile]');
  const top = col && [...col.querySelectorAll('.sp-card')].pop();
  const c = cs('.sp-cursor-ring'), s = cs('.sp-selected');
  const te = root.querySelector('.sp-target');
  const t = te && getComputedStyle(te, te.classList.contains('sp-col') ? '::after' : null);
  return {
    ring: c && {display: c.display, style: c.borderTopStyle, color: c.borderTopColor, z: Number(c.zIndex),
                encloses: !!cur && !!top && rb.top <= cur.getBoundingClientRect().top &&
                          rb.bottom >= top.getBoundingClientRect().bottom},
    target: t && {style: t.outlineStyle, color: t.outlineColor},
    selected: s && {translate: s.translate, shadow: s.boxShadow},
  };
}"""


def test_focus_is_drawn_inside_the_widget_and_the_marks_differ(seed7):
    page = seed7.page
    r = H.root(page)
    # a mouse click: the table has the keyboard, and shows it (but no keyboard cursor)
    H.card(page, "JC").click(position={"x": 12, "y": 8})  # fits nowhere: nothing moves
    f = r.evaluate(FOCUS)
    assert f["focused"] and not f["kbd"]
    assert f["style"] != "none" and f["width"] >= 2 and f["alpha"] > 0.3, f
    assert f["reach"] <= 0 and f["inside"], f"the focus ring lies inside the widget: {f}"
    assert r.evaluate(MARKS)["ring"]["display"] == "none", "no keyboard cursor after a click"
    H.screenshot(page, "focus-after-click.png")

    # the keyboard: a thicker ring, still inside, and the cursor
    page.keyboard.press("ArrowRight")
    f = r.evaluate(FOCUS)
    assert f["kbd"] and f["width"] >= 3 and f["reach"] <= 0 and f["inside"], f
    m = r.evaluate(MARKS)
    assert m["ring"]["display"] == "block" and m["ring"]["encloses"], m

    # pick 6H up (column b; the cursor is on column d): cursor, target (column d) and picked-up card,
    # three different treatments
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    m = r.evaluate(MARKS)
    assert r.evaluate(KEYS) == {"cursor": "7C", "selected": ["6H"], "targets": ["tableau-3"]}
    assert m["ring"]["display"] == "block" and m["ring"]["style"] == "solid"
    assert m["ring"]["z"] > 100, "the cursor ring lies over the cards"
    assert m["target"]["style"] == "dashed"
    assert m["selected"]["translate"] not in ("none", "0px", ""), "the picked-up card is lifted"
    colours = {m["ring"]["color"], m["target"]["color"], m["selected"]["shadow"].split(")")[0] + ")"}
    assert len(colours) == 3, f"three colours: {colours}"
    H.screenshot(page, "marks-cursor-target-selected.png")
    page.keyboard.press("Escape")

    # on a group (deal 2 after bd: JH TH on column d), the ring goes round the group, not across it
    H.kernel_eval(page, "w.new_game(seed=2); w.apply('bd')")
    H.wait_table(page, lambda t: t["cols"] == H.cols_of_view(view(_played("bd", seed=2))))
    r.focus()
    col = "(root) => Number(root.querySelector('[aria-current=\"true\"]').dataset.col)"
    for _ in range(7):
        if r.evaluate(col) == 3:
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    m = r.evaluate(MARKS)
    assert r.evaluate("(root) => root.querySelector('[aria-current=\"true\"]').dataset.card") == "JH"
    assert m["ring"]["encloses"], m
    H.screenshot(page, "cursor-on-a-group.png")


# ---------------------------------------------------------------------------------------------- 5. refusals
WATCH_REFUSALS = """(root) => {
  // Every element marked as refused from now on (the mark lasts a moment only).
  window.__refused = [];
  if (window.__refusalWatch) window.__refusalWatch.disconnect();
  window.__refusalWatch = new MutationObserver((records) => {
    for (const r of records) {
      const e = r.target;
      if (r.attributeName === 'data-refused' && e.getAttribute('data-refused') === 'true')
        window.__refused.push([e.dataset.card || e.dataset.pile, e.classList.contains('sp-refused')]);
      if (r.type === 'childList') for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        for (const x of [n, ...n.querySelectorAll('[data-refused]')])
          if (x.getAttribute && x.getAttribute('data-refused') === 'true')
            window.__refused.push([x.dataset.card || x.dataset.pile, x.classList.contains('sp-refused')]);
      }
    }
  });
  window.__refusalWatch.observe(root, {subtree: true, childList: true, attributes: true,
                                        attributeFilter: ['data-refused']});
}"""


def refused(page) -> list:
    return page.evaluate("window.__refused")


def tone(page) -> str:
    return H.root(page).locator('[data-status="message"]').get_attribute("data-tone")


def wait_tone(page, want: str, timeout: float = 5.0) -> str:
    """The status line's tone once it is ``want`` (a busy machine draws the view a frame later), or the last."""
    deadline = time.monotonic() + timeout
    while (t := tone(page)) != want and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return t


def test_refusals_register_on_the_table(seed7):
    page = seed7.page
    r = H.root(page)
    r.evaluate(WATCH_REFUSALS)
    # an illegal drop: 8H onto 4H
    H.drag(page, H.card(page, "8H"), H.card(page, "4H"))
    H.wait_table(page, lambda t: "cannot go on" in t["status"]["message"])
    page.wait_for_function("() => window.__refused.length > 0")
    assert refused(page)[0] == ["8H", True], "the refused card is marked"
    assert wait_tone(page, "refusal") == "refusal"
    H.screenshot(page, "refused-drop.png")
    # the moment passes; an ordinary message has the plain tone
    page.wait_for_function("(root) => !root.querySelector('[data-refused]')", arg=r.element_handle())
    H.card(page, "6H").click()
    H.wait_table(page, lambda t: t["status"].get("moves") == "1" and t.get("pending") in (None, "0"))
    assert wait_tone(page, "plain") == "plain"

    # 4H onto 5S leaves column a empty: the stock is drawn unavailable, with the reason
    stock = H.pile(page, "stock")
    H.expect(stock).to_have_attribute("data-available", "true")
    H.card(page, "4H").click()
    H.wait_table(page, lambda t: t["status"].get("moves") == "2" and t.get("pending") in (None, "0"))
    # (the moves count may be drawn a frame before the stock: each is waited for)
    H.expect(stock).to_have_attribute("data-available", "false", timeout=10_000)
    H.expect(stock).to_have_attribute("title", "no deal while column a is empty")
    H.expect(stock).to_have_attribute("aria-label", re.compile("no deal while column a is empty"))
    H.expect(stock.locator(".sp-no-deal")).to_have_count(1)
    H.screenshot(page, "stock-unavailable.png")
    # a press on it anyway: Python refuses, the stock is marked, the status line has the refusal tone
    r.evaluate(WATCH_REFUSALS)
    stock.click()
    H.wait_table(page, lambda t: "no deal while column a is empty" in t["status"]["message"])
    page.wait_for_function("() => window.__refused.length > 0")
    assert refused(page)[0] == ["stock", True]
    assert wait_tone(page, "refusal") == "refusal"
    H.screenshot(page, "refused-deal.png")
    # reduced motion: the mark is still there (a red flash, no shake)
    page.emulate_media(reduced_motion="reduce")
    r.evaluate(WATCH_REFUSALS)
    stock.click()
    page.wait_for_function("() => window.__refused.length > 0")
    assert H.root(page).evaluate("(root) => getComputedStyle(root.querySelector('[data-pile=\"stock\"]'))"
                                 ".animationName") == "none"
    # filling the column makes the stock available again
    H.kernel_eval(page, "w.move(2, 0)")
    H.wait_table(page, lambda t: t["status"].get("moves") == "3" and t.get("pending") in (None, "0"))
    H.expect(stock).to_have_attribute("data-available", "true", timeout=10_000)


# ---------------------------------------------------------------------------------------------- 6. faces
def test_a_card_turning_over_and_the_faces(seed7):
    page = seed7.page
    r = H.root(page)
    r.evaluate("""(root) => {
      window.__turned = [];
      // (a drawing adds the cards that changed, or a whole column, or the whole table; the mark may come
      // with the card or be put on it after)
      const seen = (e) => { if (!window.__turned.includes(e.dataset.card)) window.__turned.push(e.dataset.card); };
      new MutationObserver((rs) => rs.forEach((x) => {
        if (x.type === 'attributes' && x.target.matches('.sp-turn')) seen(x.target);
        for (const n of x.addedNodes) if (n.nodeType === 1) {
          if (n.matches('.sp-turn')) seen(n);
          n.querySelectorAll('.sp-turn').forEach(seen); } }))
        .observe(root, {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
    }""")
    H.card(page, "6H").click()  # onto 7C: 5S turns over in column b
    H.wait_table(page, lambda t: t["status"].get("moves") == "1" and t.get("pending") in (None, "0"))
    assert page.evaluate("window.__turned") == ["5S"]
    faces = r.evaluate("""(root) => Object.fromEntries([...root.querySelectorAll('[data-pile^="tableau-"] [data-card]')]
      .map((e) => [e.dataset.card, {art: !!e.querySelector('.sp-art') &&
         getComputedStyle(e.querySelector('.sp-art')).maskImage.startsWith('url('),
         court: !!e.querySelector('.sp-court-rank'), label: e.getAttribute('aria-label')}]))""")
    assert faces["JC"]["court"] and faces["JC"]["art"] and faces["JC"]["label"] == "jack of clubs, column c"
    assert faces["AS"]["art"] and not faces["AS"]["court"] and faces["AS"]["label"] == "ace of spades, column g"
    assert faces["8H"]["art"] and faces["8H"]["label"] == "eight of hearts, column f"


# ---------------------------------------------------------------------------------------------- 7. size
FELT = """(root) => {
  root.scrollIntoView({block: 'start'});
  const felt = root.querySelector('.sp-table').getBoundingClientRect();
  const panel = root.closest('.jp-WindowedPanel-outer, .jp-Notebook, .jp-NotebookPanel-notebook') || document.body;
  const cards = [...root.querySelectorAll('[data-pile^="tableau-"] .sp-card')].map((e) => e.getBoundingClientRect());
  const cardH = cards.length ? cards[0].height : 0;
  return {feltBottom: felt.bottom, panelBottom: panel.getBoundingClientRect().bottom,
          lowestCard: Math.max(...cards.map((b) => b.bottom)), cardH};
}"""


def long_spider_column() -> Game:
    """Spider, 2 suits: column a holds 5 face-down and 20 face-up cards (no complete run)."""
    deck = {r + s: 4 for r in "A23456789TJQK" for s in "SH"}
    up = [r + "SH"[i % 2] for i, r in enumerate("KQJT98765432A" + "KQJT987")]
    for c in up:
        deck[c] -= 1
    rest = [c for c, n in deck.items() for _ in range(n)]
    cols = [["|" + c for c in rest[:5]] + up]
    rest = rest[5:]
    size = len(rest) // 9
    for i in range(9):
        chunk = rest[i * size:(i + 1) * size] if i < 8 else rest[i * size:]
        cols.append(["|" + c for c in chunk[:-1]] + [chunk[-1]])
    return Game.from_dict({"variant": "spider", "suits": 2, "stock": [], "tableau": cols,
                           "foundations": [], "moves": 5})


def test_the_felt_fits_its_content(lab, request):
    """1280 x 900: a fresh deal has little empty felt and ends within the window; a 25-card column is
    compressed (and the cards shrunk) to end within it too."""
    page = lab.page
    page.set_viewport_size({"width": 1280, "height": 900})
    g = long_spider_column()
    long = f"from spiderette import Game\nlong = Widget(game=Game.from_position({g.position()!r}))\nlong"
    lab.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=7)\nw", long], widgets=2)
    page.evaluate("window.jupyterapp.shell.collapseLeft()")
    H.wait_settled(page)
    f = H.root(page, 0).evaluate(FELT)
    assert f["feltBottom"] <= f["panelBottom"], f"the fresh table ends within the window: {f}"
    assert f["feltBottom"] - f["lowestCard"] < 1.1 * f["cardH"], f"no more than a card's height of empty felt: {f}"
    H.screenshot(page, "felt-fresh-deal.png", 0)
    f = H.root(page, 1).evaluate(FELT)
    assert f["lowestCard"] <= f["feltBottom"] <= f["panelBottom"], f"the long column ends within the window: {f}"
    H.screenshot(page, "felt-long-column.png", 1)


# ---------------------------------------------------------------------------------------------- 8. the end
ONE_FROM_WON = {"variant": "spiderette", "suits": 4, "stock": [], "moves": 120, "score": 680,
                "tableau": [[r + "S" for r in "KQJT98765432"], ["AS"], [], [], [], [], []],
                "foundations": [[r + s for r in "KQJT98765432A"] for s in "HDC"]}


def test_the_win_is_an_overlay(lab, request):
    lab.open(request.node.name, [f"{H.IMPORT}\nfrom spiderette import Game\n"
                                 f"w = Widget(game=Game.from_dict({json.dumps(ONE_FROM_WON)}))\nw"])
    page = lab.page
    r = H.root(page)
    felt = r.locator(".sp-table")
    before = felt.bounding_box()
    place = "(root) => { const a = root.getBoundingClientRect(), b = root.querySelector('.sp-table')" \
            ".getBoundingClientRect(); return [b.left - a.left, b.top - a.top, b.width, b.height]; }"
    placed = r.evaluate(place)
    H.drag(page, H.card(page, "AS"), H.card(page, "2S"))
    page.wait_for_function("() => document.querySelector('.spiderette .sp-fslot.sp-celebrate')")
    t = H.wait_table(page, lambda t: t["banner"] == "won")
    assert r.evaluate(place) == placed, "the table stays where it was, at the same size"
    before = felt.bounding_box()
    banner = r.locator('[data-banner="won"]').bounding_box()
    assert before["x"] <= banner["x"] and banner["x"] + banner["width"] <= before["x"] + before["width"]
    assert before["y"] <= banner["y"] and banner["y"] + banner["height"] <= before["y"] + before["height"], \
        "the banner lies over the felt"
    assert t["foundations"] == ["KH", "KD", "KC", "KS"]
    H.screenshot(page, "won-overlay.png")
    # Play again
    r.locator('[data-banner="won"] [data-banner-action="new"]').click()
    H.wait_table(page, lambda t: t["banner"] is None and t["status"]["moves"] == "0")
    # the first move brings Give up into the stats bar: the felt does not move for it
    fresh = r.evaluate(place)
    H.kernel_eval(page, "w.play(w.game.legal_moves()[0])")
    H.wait_table(page, lambda t: t["status"]["moves"] == "1")
    page.wait_for_function("() => !document.querySelector('.spiderette [data-action=\"resign\"]').hidden")
    # (the felt's height follows its longest column, which the first move may lengthen: its place and width
    # are what the stats bar could shift)
    assert r.evaluate(place)[:3] == fresh[:3], "Give up appearing moves nothing below it"


DEAD_END = ("spiderette:4 KSQSJSTS9S8S7S6S5S4S3S2S/AS/3C/7C/JC/-/- AC2C4C5C6C8C9CTCQCKC "
            "KHQHJHTH9H8H7H6H5H4H3H2HAH/KDQDJDTD9D8D7D6D5D4D3D2DAD 60 640 -")


def test_the_dead_end_banner_undo_is_the_toolbars(lab, request):
    """A dead end loaded without its history: nothing to undo, in the banner as in the toolbar (a dead end
    played into offers Undo in both: test_widget_e2e.py)."""
    g = Game.from_position(DEAD_END)
    g.apply("ba")
    assert g.status == "dead_end"
    loaded = g.position()
    lab.open(request.node.name, [f"{H.IMPORT}\nfrom spiderette import Game\n"
                                 f"w = Widget(game=Game.from_position({loaded!r}))\nw"])
    page = lab.page
    r = H.root(page)
    t = H.wait_table(page, lambda t: t["banner"] == "dead_end")
    undo = r.locator('[data-banner-action="undo"]')
    assert undo.is_disabled() and t["buttons"]["undo"] is False
    H.screenshot(page, "dead-end-without-history.png")
    # what the player does: the banner's Undo (pressed anyway), the toolbar's, the U key; none takes anything
    # back, in the page or in Python
    undo.click(force=True)
    r.locator('.sp-bar [data-action="undo"]').click(force=True)
    r.focus()
    page.keyboard.press("u")
    H.kernel_caught_up(page)  # (an intent sent by any of the three is answered by now)
    after = H.wait_table(page, lambda t: t.get("pending") in (None, "0") and t["status"]["message"])
    assert after["cols"] == t["cols"] and after["banner"] == "dead_end"
    assert after["status"]["message"] == "Nothing to undo", "the key is answered: nothing to take back"
    assert {**after["status"], "message": ""} == {**t["status"], "message": ""}, "score, moves, deals unchanged"
    assert H.kernel_json(page, "[w.game.position(), w.game.status]") == [loaded, "dead_end"]
    # the way on is the banner's New game: a fresh deal, and the banner gone
    r.locator('[data-banner] [data-banner-action="new"]').click()
    confirm = r.locator('.sp-confirm [data-confirm-action="confirm"]')
    # either the question (a game played into: asked first) or, at once, the fresh deal
    page.wait_for_function("""(root) => {
      const q = root.querySelector('.sp-confirm [data-confirm-action="confirm"]');
      const moves = root.querySelector('[data-status="moves"]');
      return (q && q.getClientRects().length > 0) || (!root.querySelector('[data-banner]') && moves
              && moves.textContent.trim() === '0');
    }""", arg=r.element_handle(), polling=20)
    if confirm.is_visible():
        confirm.click()
    t = H.wait_table(page, lambda t: t["banner"] is None and t["status"].get("moves") == "0", timeout=30)
    assert H.kernel_json(page, "[w.game.status, w.game.move_count]") == ["playing", 0]
    assert t["cols"] == H.cols_of_view(H.kernel_json(page, "w.view"))


CONTRAST = """(root) => {
  // WCAG contrast of the status line's text on the widget's background, and the felt's colour.
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92
                                                              : ((v + 0.055) / 1.055) ** 2.4; });
                       return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const msg = root.querySelector('[data-status="message"]');
  const text = msg.querySelector('.sp-message-text') || msg;  // (the refusal's colours are on its text)
  const a = lum(getComputedStyle(text).color), b = lum(getComputedStyle(root).backgroundColor);
  const felt = getComputedStyle(root.querySelector('.sp-table')).backgroundColor;
  return {contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), felt: rgb(felt),
          tone: msg.dataset.tone, focus: getComputedStyle(root).outlineStyle};
}"""


@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
def test_light_and_dark_themes(lab, request, theme):
    """The refusal tone reads well on either theme; the felt is darker under the dark one."""
    lab.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=7)\nw"])
    page = lab.page
    light = theme.endswith("Light")
    set_theme(page, theme)
    try:
        H.card(page, "JC").click(position={"x": 12, "y": 8})  # fits nowhere: a refusal
        H.wait_table(page, lambda t: "nowhere" in t["status"]["message"])
        c = H.root(page).evaluate(CONTRAST)
        assert c["tone"] == "refusal" and c["focus"] != "none"
        assert c["contrast"] >= 4.5, c
        assert (sum(c["felt"]) > 200) == light, f"the felt is darker under a dark theme: {c}"
        H.screenshot(page, f"theme-{'light' if light else 'dark'}.png")
    finally:
        set_theme(page, "JupyterLab Light")  # (the choice is saved on the server, for the next tests too)


def set_theme(page, theme: str) -> None:
    page.evaluate("(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})", theme)
    light = str(theme.endswith("Light")).lower()
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'")
    H.wait_settled(page)  # (the theme's colours drawn, their transitions over)


def test_readme_screenshot(lab, request):
    """A game in progress in JupyterLab, a hint shown: test-artifacts/readme.png, and docs/screenshot.png
    with SPIDERETTE_README_SCREENSHOT=1."""
    page = lab.page
    page.set_viewport_size({"width": 1280, "height": 900})
    lab.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=11)\nw"])
    set_theme(page, "JupyterLab Light")
    page.evaluate("window.jupyterapp.shell.collapseLeft()")
    H.kernel_eval(page, "w.deal()\nfor _ in range(6):\n    m = w.hint()\n    if m is None:\n        break\n"
                  "    w.play([m], delay=0)\nw.hint()")
    H.wait_table(page, lambda t: "hint" in t["status"]["message"].lower())
    H.wait_settled(page)  # (the last cards land)
    page.evaluate("document.querySelector('.jp-WindowedPanel-outer').scrollTop = 0")
    H.wait_settled(page)
    H.ARTIFACTS.mkdir(exist_ok=True)
    shot = H.ARTIFACTS / "readme.png"
    page.screenshot(path=str(shot), animations="disabled")
    assert shot.stat().st_size > 20_000
    if os.environ.get("SPIDERETTE_README_SCREENSHOT"):
        shutil.copyfile(shot, H.REPO / "docs" / "screenshot.png")
