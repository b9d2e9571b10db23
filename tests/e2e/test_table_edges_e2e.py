"""End-to-end: the table's edges (issue 26, item 7).

- A long message never covers the felt (the stock and the foundations stay in view), at every width, nor
  moves it (issue 42: the status line is two lines tall); a long hint plan can be read in full (opened over
  the felt).
- The drag auto-scroll zone follows the felt's size: on a small felt a pointer a quarter of the felt's
  height from its edge does not scroll it (a drop there lands where it was aimed); at the edge it does.
- The banners fit a 500 px window: their words and buttons lie inside them, and they inside the felt.
- The replay keeps its current move in view in its list, at 900 px high.
- axe-core finds nothing to report on the table and on the replay.
"""

from __future__ import annotations

import json

import jupyter_harness as H
import pytest
from test_replay_e2e import LINE as REPLAY_LINE
from test_replay_e2e import open_replay
from test_table_fits_e2e import GRAB, SCROLL, open_table, play_long_game
from test_table_fits_e2e import LINE as LONG_LINE

from spiderette import Game

pytestmark = pytest.mark.e2e

# Deal 2 after these moves: the Hint button's plan is long (over 400 characters, longer than the status line's
# two lines).
LONG_PLAN_SEED = 2
LONG_PLAN_LINE = "bd1 eb1 da2 ce1 cb1 de1 d fc1 gf1 gb1 d"
AXE = H.REPO / "node_modules" / "axe-core" / "axe.min.js"


def file_browser(page) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.wait_for_function("() => document.querySelector('#filebrowser') && "
                           "document.querySelector('#filebrowser').getBoundingClientRect().width > 100")


def open_at(lab, request, width: int, height: int, cells: list[str], files: bool) -> None:
    lab.page.set_viewport_size({"width": width, "height": height})
    lab.open(request.node.name, cells)
    if files:
        file_browser(lab.page)


# Where the status line lies against the felt's piles: boxes (what is drawn of its text: within the status
# line's two lines), and whether its text is whole in the DOM.
MESSAGE_PLACE = """(root) => {
  const b = (e) => { const r = e.getBoundingClientRect();
                     return {x: r.left, y: r.top, w: r.width, h: r.height, right: r.right, bottom: r.bottom}; };
  const msg = root.querySelector('[data-status="message"]');
  const text = msg.querySelector('.sp-message-text');
  const piles = [...root.querySelectorAll('[data-pile="stock"], [data-pile^="foundation-"]')].map(b);
  const meet = (a, c) => a.x < c.right - 0.5 && c.x < a.right - 0.5 && a.y < c.bottom - 0.5 && c.y < a.bottom - 0.5;
  const news = msg.closest('.sp-news') || msg;  // (the status line and its button: two lines tall)
  const clip = b(news);
  const shown = (e) => { const r = b(e); const top = Math.max(r.y, clip.y), bottom = Math.min(r.bottom, clip.bottom);
                         return {...r, y: top, bottom, h: Math.max(0, bottom - top)}; };
  const boxes = [...root.querySelectorAll('[data-status="message"] .sp-message-text, [data-control="plan"]')]
    .filter((e) => e.getClientRects().length > 0).map(shown).filter((r) => r.h > 0);
  return {
    message: clip, felt: b(root.querySelector('.sp-table')),
    covered: piles.filter((p) => boxes.some((m) => meet(m, p))).length,
    piles: piles.length,
    longer: text.offsetHeight > news.clientHeight + 1,   // (the rest behind the button)
    text: text.textContent,
  };
}"""

PLAN = """(root) => {
  const news = root.querySelector('.sp-news');
  if (!news.classList.contains('sp-open')) return null;
  const box = news.querySelector('.sp-news-box');
  return {text: box.innerText.replace(/\\s+/g, ' '),
          cut: box.scrollHeight > box.clientHeight + 1 && !/auto|scroll/.test(getComputedStyle(box).overflowY)};
}"""

FELT = "(root) => { const b = root.querySelector('.sp-table').getBoundingClientRect(); return [b.x, b.y]; }"


def message_clear_of_the_felt(page, name: str) -> dict:
    r = H.root(page)
    place = r.evaluate(MESSAGE_PLACE)
    H.screenshot(page, name)
    assert place["piles"] > 1 and place["covered"] == 0, \
        f"the status line covers no pile of the felt: {json.dumps(place)}"
    assert place["message"]["bottom"] <= place["felt"]["y"] + 0.5, f"the status line ends above the felt: {place}"
    toggle = r.locator('[data-control="plan"]')
    assert not place["longer"] or toggle.is_visible(), f"a message longer than its two lines opens whole: {place}"
    return place


@pytest.mark.parametrize("width,files", [(1280, False), (800, True), (500, True)])
def test_a_long_message_never_covers_the_felt(lab, request, width, files):
    open_at(lab, request, width, 900, [f"{H.IMPORT}\nw = Widget(seed={LONG_PLAN_SEED})\nw"], files)
    page = lab.page
    r = H.root(page)
    H.kernel_eval(page, f"w.play({LONG_PLAN_LINE!r}, delay=0)")
    H.wait_table(page, lambda t: t["status"].get("moves") == "11", timeout=30)
    # the Hint button: a long plan
    r.locator('.sp-bar [data-action="hint"]').click()
    H.wait_table(page, lambda t: t["status"].get("message", "").startswith("Hint 1 of"), timeout=30)
    reason = H.kernel_json(page, "w.view['hint']['reason']")
    assert len(reason) > 400, "a long plan"
    place = message_clear_of_the_felt(page, f"edges-{width}-hint.png")
    assert place["text"] == H.kernel_json(page, "w.view['message']"), "the whole message is in the DOM"
    assert reason in place["text"], "the whole plan is in the message (issue 42: up to 1000 characters)"
    felt = r.evaluate(FELT)
    # the whole plan, in words, for the player who opens it: over the top of the felt, which stays put
    toggle = r.locator('[data-control="plan"]')
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert r.evaluate(PLAN) is None
    toggle.click()
    page.wait_for_function(f"(root) => ({PLAN})(root) !== null", arg=r.element_handle())
    plan = r.evaluate(PLAN)
    assert reason in plan["text"] and not plan["cut"], plan
    assert toggle.get_attribute("aria-expanded") == "true"
    assert r.evaluate(FELT) == felt, "the plan opened does not move the felt"
    H.screenshot(page, f"edges-{width}-plan.png")
    toggle.click()
    page.wait_for_function(f"(root) => ({PLAN})(root) === null", arg=r.element_handle())
    # a refusal quoting a long input, in the refusal's own look
    H.send_intent(page, {"action": "new", "seed": "x" * 150, "version": H.model_view(page)["version"]})
    t = H.wait_table(page, lambda t: t["status"].get("message", "").startswith("Refused"))
    page.wait_for_function("(root) => root.querySelector('[data-status=\"message\"]').dataset.tone === 'refusal'",
                           arg=r.element_handle())
    assert message_clear_of_the_felt(page, f"edges-{width}-refusal.png")["text"] == t["status"]["message"]
    assert r.evaluate(FELT) == felt, "a refusal does not move the felt"
    assert lab.widget_problems() == []


# ---------------------------------------------------------------------------------------------- 2. auto-scroll
FRAMES = """(n) => new Promise((done) => { let k = 0;
  const step = () => (++k >= n ? done(k) : requestAnimationFrame(step)); requestAnimationFrame(step); })"""


def test_the_drag_auto_scroll_zone_follows_the_felts_size(lab, request):
    """500 px wide, the file browser open, a long game: a small felt (about 116 px across) that scrolls
    sideways. The pointer resting a quarter of the felt's width and height inside its bottom right corner
    (over the cards) leaves it still, so a drop lands where it was aimed; at the edge it scrolls."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # (the e2e extra: not at collection)

    open_table(lab, request, 500, 600, file_browser=True)
    page = lab.page
    r = H.root(page)
    play_long_game(page)
    felt = r.locator(".sp-table")
    page.wait_for_function("(root) => { const f = root.querySelector('.sp-table'); "
                           "return f.scrollWidth > f.clientWidth + 1; }", arg=r.element_handle())
    r.evaluate("(root) => { root.scrollIntoView({block: 'start'}); const f = root.querySelector('.sp-table'); "
               "f.scrollLeft = 0; f.scrollTop = 0; }")
    box = felt.bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"], f"the felt is in view: {box}"
    assert min(box["width"], box["height"]) < 200, f"a small felt: {box}"
    for attempt in range(3):   # (a loaded machine may still be laying the table out: press again)
        # (and wait for a movable card to be laid out where it can be pressed)
        page.wait_for_function(f"(root) => !!({GRAB})(root)", arg=r.element_handle())
        grab = r.evaluate(GRAB)
        assert grab, "a movable card to drag"
        page.mouse.move(grab["x"], grab["y"])
        page.mouse.down()
        page.mouse.move(grab["x"] + 8, grab["y"] + 8, steps=2)
        page.mouse.move(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.75, steps=6)
        try:
            page.wait_for_function("(root) => !!root.querySelector('.sp-dragging')", arg=r.element_handle(),
                                   timeout=10_000)
            break
        except PlaywrightTimeout:
            page.mouse.up()
            assert attempt < 2, f"no drag started from the movable card at {grab}"
            r.evaluate("(root) => { const f = root.querySelector('.sp-table'); f.scrollLeft = 0; f.scrollTop = 0; }")
    page.evaluate(FRAMES, 40)  # (the pointer rests there for 40 frames)
    assert r.evaluate(SCROLL) == [0, 0], "a quarter of the felt inside its edges: the felt stays still"
    # at the edges it scrolls (the card under the pointer)
    page.mouse.move(box["x"] + box["width"] - 3, box["y"] + box["height"] - 3, steps=4)
    page.wait_for_function(f"(root) => ({SCROLL})(root)[0] > 10", arg=r.element_handle(), timeout=10_000)
    page.mouse.up()
    page.wait_for_function("(root) => !root.querySelector('.sp-dragging')", arg=r.element_handle())
    assert H.table(page)["status"]["moves"] in ("60", "61")
    assert lab.widget_problems() == []


# ---------------------------------------------------------------------------------------------- 3. banners
WON = {"variant": "spiderette", "suits": 4, "stock": [], "moves": 120, "score": 780,
       "tableau": [[], [], [], [], [], [], []],
       "foundations": [[r + s for r in "KQJT98765432A"] for s in "HDCS"]}
DEAD_END = ("spiderette:4 KSQSJSTS9S8S7S6S5S4S3S2S/AS/3C/7C/JC/-/- AC2C4C5C6C8C9CTCQCKC "
            "KHQHJHTH9H8H7H6H5H4H3H2HAH/KDQDJDTD9D8D7D6D5D4D3D2DAD 60 640 -")

BANNER_FITS = """(root) => {
  const b = (e) => e.getBoundingClientRect();
  const banner = root.querySelector('[data-banner]');
  const stage = b(root.querySelector('.sp-stage'));
  const a = b(banner);
  const inside = (e, o) => e.left >= o.left - 0.5 && e.right <= o.right + 0.5 && e.top >= o.top - 0.5 &&
                           e.bottom <= o.bottom + 0.5;
  const parts = [...banner.querySelectorAll('.sp-banner-text, button')];
  return {
    banner: banner.dataset.banner, inStage: inside(a, stage),
    out: parts.filter((e) => !inside(b(e), a)).map((e) => e.textContent),
    cut: parts.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
    box: [a.left, a.top, a.width, a.height], stage: [stage.left, stage.top, stage.width, stage.height],
  };
}"""


@pytest.mark.parametrize("which", ["won", "dead_end"])
def test_the_banners_fit_a_500px_window(lab, request, which):
    if which == "won":
        game = f"Game.from_dict({json.dumps(WON)})"
    else:
        g = Game.from_position(DEAD_END)
        g.apply("ba")
        assert g.status == "dead_end"
        game = f"Game.from_position({g.position()!r})"
    open_at(lab, request, 500, 700,
            [f"{H.IMPORT}\nfrom spiderette import Game\nw = Widget(game={game}, record=False)\nw"], files=True)
    page = lab.page
    r = H.root(page)
    H.wait_table(page, lambda t: t["banner"] == which)
    r.locator("[data-banner] button").last.wait_for(state="visible")
    # (its entrance is a short scale animation: measured once it is over)
    page.wait_for_function("(root) => root.querySelector('[data-banner]').getAnimations()"
                           ".every((a) => a.playState === 'finished')", arg=r.element_handle())
    fit = r.evaluate(BANNER_FITS)
    H.screenshot(page, f"edges-banner-{which}-500.png")
    assert fit["inStage"], f"the banner lies inside the felt: {fit}"
    assert fit["out"] == [] and fit["cut"] == [], f"its words and buttons lie inside it, whole: {fit}"
    # its first button is pressed where it shows
    button = r.locator("[data-banner] [data-banner-action='new']")
    button.click()
    H.wait_table(page, lambda t: t["banner"] is None and t["status"]["moves"] == "0")


# ---------------------------------------------------------------------------------------------- 4. the replay
CURRENT_ROW = """(root) => {
  const list = root.querySelector('[data-replay="moves"]');
  const row = list.querySelector('[aria-current="step"]');
  const sc = root.closest('.jp-WindowedPanel-outer, .jp-Notebook');
  const l = list.getBoundingClientRect(), r = row.getBoundingClientRect();
  const s = sc ? sc.getBoundingClientRect() : {top: 0, bottom: innerHeight};
  // the part of the list the player sees: inside the list's box and inside the notebook area
  const top = Math.max(l.top, s.top, 0), bottom = Math.min(l.bottom, s.bottom, innerHeight);
  return {row: row.dataset.replayMove, inList: r.top >= l.top - 0.5 && r.bottom <= l.bottom + 0.5,
          seen: r.top >= top - 0.5 && r.bottom <= bottom + 0.5, top, bottom, rowTop: r.top, rowBottom: r.bottom,
          scroll: sc ? sc.scrollTop : scrollY};
}"""


def test_the_replay_keeps_its_current_move_in_view(lab, request):
    """A 60-move game (Spider, 2 suits) replayed in a wide window 900 px high (1800 x 900), opened at its last
    step: the current move's row lies in the part of the move list the player sees, at every step the keys go
    to."""
    lab.page.set_viewport_size({"width": 1800, "height": 900})
    n = len(LONG_LINE)
    lab.open(request.node.name, [f"from spiderette import Game, Replay\ng = Game(variant='spider', suits=2, seed=32)\n"
                                 f"g.play({' '.join(LONG_LINE)!r})\nr = Replay(g)\nr.go({n})\nr"])
    page = lab.page
    root = page.locator(".spiderette-replay")
    handle = root.element_handle()
    root.evaluate("(root) => root.scrollIntoView({block: 'start'})")

    def row_in_view(k: int) -> None:
        page.wait_for_function(f"(root) => root.dataset.replayStep === '{k}'", arg=handle)
        page.wait_for_function(f"(root) => ({CURRENT_ROW})(root).row === '{k}'", arg=handle)
        try:
            page.wait_for_function(f"(root) => ({CURRENT_ROW})(root).seen", arg=handle, timeout=3_000)
        except Exception:  # noqa: BLE001 - said below
            pass
        where = root.evaluate(CURRENT_ROW)
        assert where["seen"], f"step {k}: the current move's row is in view: {where}"

    row_in_view(n)
    H.screenshot(page, "edges-replay-900.png")
    before = root.evaluate("(root) => root.getBoundingClientRect().top")
    root.focus()
    for key, k in [("Home", 0), ("End", n)] + [("ArrowLeft", n - i) for i in range(1, 4)]:
        page.keyboard.press(key)
        row_in_view(k)
    assert root.evaluate("(root) => root.getBoundingClientRect().top") == before, "the page did not scroll"


# ---------------------------------------------------------------------------------------------- 5. axe-core
AXE_RUN = """async (root) => {
  const r = await axe.run(root, {resultTypes: ['violations']});
  return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                   nodes: v.nodes.slice(0, 5).map((n) => n.html.slice(0, 160))}));
}"""


def axe_violations(page, selector: str) -> list[dict]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.locator(selector).first.evaluate(AXE_RUN)


def test_axe_finds_nothing_on_the_table(lab, request):
    # a game in progress with an empty column, a completed run and empty foundation slots
    position = {"variant": "spiderette", "suits": 4, "stock": [], "moves": 40, "score": 660,
                "tableau": [[r + "S" for r in "KQJT98765432"], ["AS"], [], [r + "C" for r in "KQJT9876543"],
                            ["2C", "AC"], [], []],
                "foundations": [[r + s for r in "KQJT98765432A"] for s in "HD"]}
    if not AXE.exists():
        pytest.fail("axe-core is not installed: run `npm ci`", pytrace=False)
    lab.open(request.node.name, [f"{H.IMPORT}\nfrom spiderette import Game\n"
                                 f"w = Widget(game=Game.from_dict({json.dumps(position)}), record=False)\nw"])
    page = lab.page
    found = axe_violations(page, ".spiderette")
    assert found == [], json.dumps(found, indent=1)
    # a hint shown, the keyboard cursor on the table
    H.root(page).locator('.sp-bar [data-action="hint"]').click()
    H.wait_table(page, lambda t: t["status"].get("message", "").startswith("Hint"))
    found = axe_violations(page, ".spiderette")
    assert found == [], json.dumps(found, indent=1)


def test_axe_finds_nothing_on_the_replay(lab, request):
    if not AXE.exists():
        pytest.fail("axe-core is not installed: run `npm ci`", pytrace=False)
    open_replay(lab, request.node.name)
    page = lab.page
    found = axe_violations(page, ".spiderette-replay")
    assert found == [], json.dumps(found, indent=1)
    page.locator(".spiderette-replay").focus()
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('.spiderette-replay').dataset.replayStep === "
                           f"'{len(REPLAY_LINE)}'")
    found = axe_violations(page, ".spiderette-replay")
    assert found == [], json.dumps(found, indent=1)
