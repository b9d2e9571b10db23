"""Drive the widget harness (js/dev/harness.html) in headless Chromium and check the front end.

Run from anywhere, after `npm run build`:

    python js/dev/check_harness.py [--shots DIR] [--chromium PATH]

It serves the repository on 127.0.0.1 (a free port), opens the harness with Playwright, checks the DOM
contract, pointer drag and drop, clicks, the stock, keyboard play, banners, four colours, several views,
identity leaks, animations and render time, and saves screenshots (default /tmp/js-shots/).
Not part of pytest: it prints what it verified and exits non-zero on the first failure.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
RANK = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
        "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
SUIT = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"

checked: list[str] = []


def ok(what: str) -> None:
    checked.append(what)
    print(f"  ok  {what}")


def check(cond: bool, what: str, detail: object = "") -> None:
    if not cond:
        print(f"FAIL  {what}  {detail}")
        raise SystemExit(1)
    ok(what)


def name(code: str) -> str:
    return f"{RANK[code[0]]} of {SUIT[code[1]]}"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: D401
        pass


def serve() -> tuple[ThreadingHTTPServer, int]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(REPO)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, srv.server_address[1]


def open_harness(page: Page, base: str, query: str = "") -> None:
    page.goto(f"{base}/js/dev/harness.html?{query}")
    page.wait_for_function("window.harnessReady === true")
    page.evaluate("window.sent = []")


def view(page: Page) -> dict:
    return page.evaluate("window.model.get('view')")


def sent(page: Page) -> list[dict]:
    return page.evaluate("window.sent")


def center(page: Page, selector: str, dy_frac: float = 0.5) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * dy_frac


def top_strip(page: Page, selector: str) -> tuple[float, float]:
    """A point on the visible top strip of a (possibly covered) card."""
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.08


def drag(page: Page, frm: tuple[float, float], to: tuple[float, float], during=None) -> None:
    page.mouse.move(*frm)
    page.mouse.down()
    page.mouse.move(frm[0] + 6, frm[1] + 6, steps=2)
    page.mouse.move(*to, steps=8)
    if during:
        during()
    page.mouse.up()


def check_dom_contract(page: Page, root: str = "#mount0 .spiderette") -> None:
    v = view(page)
    n = v["columns"]
    check(page.locator(root).count() == 1, "one root element .spiderette per view")
    check(page.locator(root).get_attribute("tabindex") == "0", "root has tabindex=0")
    check(page.locator(f'{root} [data-pile="stock"]').count() == 1, "stock pile [data-pile=stock]")
    for i in range(n):
        assert page.locator(f'{root} [data-pile="tableau-{i}"]').count() == 1, i
    check(page.locator(f'{root} [data-pile^="tableau-"]').count() == n,
          f"{n} tableau piles tableau-0..{n - 1}")
    rt = v["runs_total"]
    check(page.locator(f'{root} [data-pile^="foundation-"]').count() == rt, f"{rt} foundation slots")
    for i in range(rt):
        cards = page.locator(f'{root} [data-pile="foundation-{i}"] [data-card]')
        if i < len(v["foundations"]):
            assert cards.count() == 1 and cards.get_attribute("data-card") == v["foundations"][i], i
        else:
            assert cards.count() == 0, i
    ok("filled foundation slots show the run's king, empty ones nothing")
    for i, col in enumerate(v["tableau"]):
        pile = f'{root} [data-pile="tableau-{i}"]'
        downs = page.locator(f"{pile} [data-face=down]")
        assert downs.count() == col["down"], (i, downs.count(), col["down"])
        ups = page.locator(f"{pile} [data-card]")
        info = ups.evaluate_all(
            "els => els.map(e => [e.dataset.card, e.dataset.col, e.dataset.index, e.getAttribute('aria-label')])")
        want = [[c, str(i), str(col["down"] + j), f"{name(c)}, column {LETTERS[i]}"] for j, c in enumerate(col["up"])]
        assert info == want, (i, info, want)
        dinfo = downs.evaluate_all(
            "els => els.map(e => [e.getAttribute('aria-label'), e.textContent, e.hasAttribute('data-card')])")
        assert all(d == [f"face-down card, column {LETTERS[i]}", "", False] for d in dinfo), dinfo
    check(True, "every column: face-down count, face-up codes in order with data-col/data-index/aria-label")
    stock = page.locator(f'{root} [data-pile="stock"]')
    check(stock.locator("[data-card]").count() == 0 and stock.inner_text().strip() == str(v["deals_left"]),
          "stock shows card backs and the deals left, no card identity", stock.inner_text())
    for a in ["new", "restart", "undo", "redo", "hint"]:
        assert page.locator(f'{root} [data-action="{a}"]').count() == 1, a
    check(True, "buttons data-action=new|restart|undo|redo|hint, one each")
    check(page.locator(f'{root} [data-action="undo"]').is_disabled() == (not v["can_undo"])
          and page.locator(f'{root} [data-action="redo"]').is_disabled() == (not v["can_redo"]),
          "undo/redo disabled per can_undo/can_redo")
    opts = page.locator(f'{root} select[data-control="variant"] option').evaluate_all("e => e.map(o => o.value)")
    check(opts == ["spiderette", "red_black_spiderette", "will_o_the_wisp", "spider"], "variant chooser options", opts)
    opts = page.locator(f'{root} select[data-control="suits"] option').evaluate_all("e => e.map(o => o.value)")
    check(opts == ["4", "2", "1"], "suits chooser options", opts)
    check(page.locator(f'{root} select[data-control="variant"]').input_value() == v["variant"]
          and page.locator(f'{root} select[data-control="suits"]').input_value() == str(v["suits"]),
          "choosers show the current game")
    status = {k: page.locator(f'{root} [data-status="{k}"]').inner_text() for k in
              ["score", "moves", "deals", "runs", "message"]}
    want = {"score": str(v["score"]), "moves": str(v["moves"]), "deals": str(v["deals_left"]),
            "runs": f"{v['runs']}/{v['runs_total']}", "message": v["message"]}
    check(status == want, "status score/moves/deals/runs/message", status)
    letters = page.locator(f"{root} .sp-letter").all_inner_texts()
    check(letters == list(LETTERS[:n]), "column letters", letters)
    check(page.locator(f"{root} [data-banner]").count() == 0, "no banner while playing")
    check(page.locator(f'{root} [aria-live="polite"]').count() >= 1, "an aria-live=polite region")


def check_no_leak(page: Page) -> None:
    v = view(page)
    hidden = page.evaluate("window.hiddenCodes()")
    visible = {c for col in v["tableau"] for c in col["up"]} | set(v["foundations"])
    hidden = [c for c in hidden if c not in visible]
    html = page.locator("#mounts").evaluate("e => e.outerHTML")
    text = page.locator("#mounts").inner_text()
    shown = set(page.locator("#mounts [data-card]").evaluate_all("e => e.map(x => x.dataset.card)"))
    check(shown == visible, "data-card values are exactly the face-up cards and completed kings")
    leaks = [c for c in hidden if re.search(rf"\b{c}\b", html) or name(c) in html or name(c) in text]
    check(not leaks and len(hidden) > 0, f"none of the {len(hidden)} hidden cards appears in the page", leaks)


def check_pointer(page: Page, base: str) -> None:
    open_harness(page, base)
    v = view(page)
    # drag 8S (b) onto 9S (c): legal
    src = '[data-pile="tableau-1"] [data-card="8S"]'
    highlighted: dict = {}

    def during():
        highlighted["targets"] = page.locator(".sp-target").evaluate_all("e => e.map(x => x.dataset.pile)")
        highlighted["dragging"] = page.locator(".sp-dragging").count()

    drag(page, center(page, src), center(page, '[data-pile="tableau-2"] [data-card="9S"]'), during)
    check(highlighted["targets"] == ["tableau-2"] and highlighted["dragging"] == 1,
          "while dragging, only the legal destination is highlighted (.sp-target)", highlighted)
    check(sent(page) == [{"action": "move", "src": 1, "dst": 2, "count": 1, "version": v["version"]}],
          "drag b -> c sends the move intent", sent(page))
    cards = page.locator('[data-pile="tableau-2"] [data-card]').evaluate_all("e => e.map(x => x.dataset.card)")
    check(cards[-1] == "8S" and page.locator('[data-pile="tableau-1"] [data-card="8S"]').count() == 0,
          "the DOM shows the new view right after the answer (no waiting for animations)")
    # multi-card drag: 6S 5S (a) onto 7S (f)
    page.evaluate("window.sent = []")
    v = view(page)
    drag(page, top_strip(page, '[data-card="6S"]'), center(page, '[data-pile="tableau-5"] [data-card="7S"]'))
    check(sent(page) == [{"action": "move", "src": 0, "dst": 5, "count": 2, "version": v["version"]}],
          "grabbing the 2nd card from the top drags 2 cards (count=2)", sent(page))
    # illegal drop: 3C (d) onto a (top 4S? no: 5S) -> still sends, Python answers with the reason
    page.evaluate("window.sent = []")
    v = view(page)
    drag(page, center(page, '[data-card="3C"]'), center(page, '[data-pile="tableau-0"] [data-card="KH"]'))
    check(sent(page) == [{"action": "move", "src": 3, "dst": 0, "count": 1, "version": v["version"]}],
          "an illegal drop on a pile also sends the move intent", sent(page))
    check(page.locator('[data-status="message"]').inner_text() == "that move is not allowed (harness)",
          "the refusal reason shows in the status line")
    page.wait_for_timeout(400)
    t = page.locator('[data-card="3C"]').evaluate("e => [e.dataset.col, getComputedStyle(e).transform]")
    check(t[0] == "3" and t[1] in ("none", "matrix(1, 0, 0, 1, 0, 0)"), "the card springs back home", t)
    # drop on own column / on nothing: no intent
    page.evaluate("window.sent = []")
    x, y = center(page, '[data-card="3C"]')
    drag(page, (x, y), (x + 5, y + 40))
    drag(page, (x, y), (x, 5))
    check(sent(page) == [], "dropping on the own column or on nothing sends nothing")
    page.wait_for_timeout(400)
    check(page.locator(".sp-dragging").count() == 0 and page.locator(".sp-target").count() == 0,
          "no drag state is left behind")
    # a non-movable card cannot be dragged
    page.evaluate("window.sent = []")
    qc = top_strip(page, '[data-card="QC"]')
    drag(page, qc, center(page, '[data-pile="tableau-4"]'))
    check(sent(page) == [] and page.locator(".sp-dragging").count() == 0,
          "a face-up card deeper than `movable` is not dragged")
    # clicks
    v = view(page)
    page.mouse.click(*center(page, '[data-card="3C"]'))
    check(sent(page)[-1] == {"action": "click", "src": 3, "count": 1, "version": v["version"]},
          "a click on a movable card sends click", sent(page)[-1:])
    cursor_outline = "() => getComputedStyle(document.querySelector('.sp-cursor')).outlineStyle"
    check(page.evaluate("document.activeElement.classList.contains('spiderette')")
          and page.evaluate(cursor_outline) == "none",
          "a mouse click focuses the widget without showing the keyboard cursor")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    check(page.evaluate(cursor_outline) != "none", "an arrow key then shows the cursor")
    page.evaluate("window.sent = []")
    v = view(page)
    page.mouse.click(*top_strip(page, '[data-card="QC"]'))
    k = len(v["tableau"][2]["up"]) - v["tableau"][2]["up"].index("QC")
    check(k > v["tableau"][2]["movable"]
          and sent(page) == [{"action": "click", "src": 2, "count": k, "version": v["version"]}],
          "a click on a non-movable card also sends click (Python explains)", sent(page))
    page.evaluate("window.sent = []")
    v = view(page)
    page.mouse.dblclick(*center(page, '[data-pile="tableau-3"] [data-card]:last-child'))
    check(all(m["action"] == "click" for m in sent(page)) and 1 <= len(sent(page)) <= 2,
          "a double-click sends at most two clicks (a stale one is refused by Python)", sent(page))
    # the stock
    page.evaluate("window.sent = []")
    v = view(page)
    page.locator('[data-pile="stock"]').click()
    check(sent(page) == [{"action": "deal", "version": v["version"]}], "a click on the stock sends deal")
    # buttons
    for a in ["hint", "undo", "restart"]:
        page.evaluate("window.sent = []")
        v = view(page)
        page.locator(f'[data-action="{a}"]').click()
        assert sent(page) == [{"action": a, "version": v["version"]}], (a, sent(page))
        if a == "hint":
            h = view(page)["hint"]
            srcs = page.locator(f'[data-pile="tableau-{h["src"]}"] .sp-hint-src').count()
            dst = page.locator(f'[data-pile="tableau-{h["dst"]}"].sp-hint-dst').count()
            check(srcs == h["count"] and dst == 1, "hint: source cards .sp-hint-src, destination .sp-hint-dst")
            check(page.locator('[data-status="message"]').inner_text() == view(page)["message"],
                  "hint reason in the message line")
    ok("hint / undo / restart buttons send their intents")
    page.evaluate("window.sent = []")
    v = view(page)
    page.select_option('select[data-control="variant"]', "spider")
    page.select_option('select[data-control="suits"]', "2")
    check(sent(page) == [], "changing the choosers alone sends nothing")
    page.locator('[data-action="new"]').click()
    check(sent(page) == [{"action": "new", "variant": "spider", "suits": 2, "version": v["version"]}],
          "New game sends variant and suits", sent(page))
    check(page.locator('[data-pile^="tableau-"]').count() == 10
          and page.locator('[data-pile^="foundation-"]').count() == 8,
          "a new spider game redraws 10 columns and 8 foundation slots")
    check_dom_contract(page)


def check_touch(page: Page, base: str) -> None:
    open_harness(page, base, "respond=0")
    v = view(page)
    cdp = page.context.new_cdp_session(page)
    x0, y0 = center(page, '[data-pile="tableau-1"] [data-card="8S"]')
    x1, y1 = center(page, '[data-pile="tableau-2"] [data-card="9S"]')

    def touch(kind: str, x: float, y: float) -> None:
        pts = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    touch("touchStart", x0, y0)
    for i in range(1, 11):
        touch("touchMove", x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    touch("touchEnd", x1, y1)
    page.wait_for_timeout(50)
    check(sent(page) == [{"action": "move", "src": 1, "dst": 2, "count": 1, "version": v["version"]}],
          "a touch drag (pointer events, touch-action:none) sends the move", sent(page))
    page.wait_for_timeout(800)  # unanswered legal drop: the card waits 600 ms, then goes home
    check(page.locator('[data-pile="tableau-1"] [data-card="8S"]').evaluate("e => getComputedStyle(e).transform")
          in ("none", "matrix(1, 0, 0, 1, 0, 0)"), "an unanswered drop goes home after a while")
    page.evaluate("window.sent = []")
    touch("touchStart", x0, y0)
    touch("touchEnd", x0, y0)
    page.wait_for_timeout(50)
    check(sent(page) == [{"action": "click", "src": 1, "count": 1, "version": v["version"]}],
          "a tap sends click", sent(page))


def check_keyboard(page: Page, base: str, shots: Path) -> None:
    open_harness(page, base, "respond=0")
    v = view(page)
    ver = v["version"]
    page.keyboard.press("Tab")  # into the widget
    check(page.evaluate("document.activeElement.classList.contains('spiderette')"), "Tab focuses the root")
    outline = page.locator(".spiderette").evaluate("e => getComputedStyle(e).outlineStyle")
    check(outline != "none", "focus is visible on the root (:focus-visible outline)", outline)
    keys = [("u", {"action": "undo"}), ("Control+z", {"action": "undo"}), ("Control+u", {"action": "undo"}),
            ("r", {"action": "redo"}), ("Control+Shift+z", {"action": "redo"}),
            ("Control+y", {"action": "redo"}), ("h", {"action": "hint"}), ("d", {"action": "deal"}),
            ("n", {"action": "new", "variant": "spiderette", "suits": 4})]
    for key, msg in keys:
        page.evaluate("window.sent = []")
        page.keyboard.press(key)
        assert sent(page) == [{**msg, "version": ver}], (key, sent(page))
    check(True, "keys U, Ctrl+Z, Ctrl+U, R, Ctrl+Shift+Z, Ctrl+Y, H, D, N send their intents")
    page.evaluate("window.sent = []")
    cur = page.locator('[aria-current="true"]')
    check(cur.count() == 1 and cur.get_attribute("data-card") == "5S", "cursor starts on column a's top card")
    page.keyboard.press("ArrowRight")
    check(page.locator('[aria-current="true"]').get_attribute("data-card") == "8S", "ArrowRight moves to column b")
    page.keyboard.press("Enter")
    sel = page.locator(".sp-selected").evaluate_all("e => e.map(x => x.dataset.card)")
    tg = page.locator(".sp-target").evaluate_all("e => e.map(x => x.dataset.pile)")
    check(sel == ["8S"] and tg == ["tableau-2"], "Enter picks up (.sp-selected) and shows targets", (sel, tg))
    page.keyboard.press("ArrowRight")
    page.screenshot(path=str(shots / "keyboard-selected.png"))
    page.keyboard.press("Enter")
    check(sent(page) == [{"action": "move", "src": 1, "dst": 2, "count": 1, "version": ver}],
          "arrows + Enter drop: move b -> c", sent(page))
    check(page.locator(".sp-selected").count() == 0, "selection cleared after the drop")
    page.evaluate("window.sent = []")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    check(page.locator(".sp-selected").count() == 0 and sent(page) == [], "Escape cancels a pick-up")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # column a: 6S 5S movable
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # clamped to movable = 2
    check(page.locator('[aria-current="true"]').get_attribute("data-card") == "6S",
          "ArrowUp moves over movable cards only (clamped)")
    page.keyboard.press("Space")
    check(page.locator(".sp-selected").count() == 2, "Space picks up the 2-card group")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    check(sent(page) == [{"action": "move", "src": 0, "dst": 5, "count": 2, "version": ver}],
          "keyboard move of 2 cards a -> f", sent(page))
    page.evaluate("window.sent = []")
    page.keyboard.press("Tab")
    check(page.locator('[aria-current="true"]').get_attribute("data-card") == "JS"
          and page.evaluate("document.activeElement.classList.contains('spiderette')"),
          "Tab moves the cursor to the next column")
    page.keyboard.press("Tab")
    check(not page.evaluate("document.activeElement.classList.contains('spiderette')"),
          "Tab on the last column lets focus leave (no keyboard trap)")
    page.evaluate("window.setView({...window.model.get('view'), version: 99, message: 'hello there'})")
    check(page.locator('[aria-live="polite"]').inner_text() == "hello there", "aria-live region mirrors the message")


def check_states(page: Page, base: str) -> None:
    open_harness(page, base, "respond=0")
    texts = {"won": "You won!", "lost": "No moves left: the game is lost",
             "dead_end": "Dead end: no deal can ever be made; undo to go back"}
    for status, text in texts.items():
        page.evaluate(f"window.setView({{...window.model.get('view'), status: '{status}'}})")
        b = page.locator("[data-banner]")
        assert b.count() == 1 and b.get_attribute("data-banner") == status and text in b.inner_text(), status
    check(True, "banners for won / lost / dead_end with the exact texts")
    page.evaluate("window.setView({...window.model.get('view'), status: 'playing'})")
    check(page.locator("[data-banner]").count() == 0, "banner gone when playing again")
    colour = "e => getComputedStyle(e.querySelector('.sp-corner')).color"
    red = page.locator('[data-card="KD"]').evaluate(colour)
    page.evaluate("window.setFour(true)")
    blue = page.locator('[data-card="KD"]').evaluate(colour)
    green = page.locator('[data-card="QC"]').evaluate(colour)
    black = page.locator('[data-card="KS"]').evaluate(colour)
    check(red == "rgb(196, 29, 29)" and blue == "rgb(20, 83, 184)" and green == "rgb(19, 119, 42)"
          and black == "rgb(26, 26, 26)", "four_colour: diamonds blue, clubs green (red/black otherwise)",
          (red, blue, green, black))
    page.evaluate("window.setFour(false)")
    # hint of kind deal / send
    page.evaluate("window.setView({...window.model.get('view'), hint: {kind: 'deal', reason: 'deal'}})")
    check(page.locator('[data-pile="stock"].sp-hint-dst').count() == 1, "a deal hint highlights the stock")
    # empty / odd views do not break the drawing
    page.evaluate("window.setView({})")
    check(page.locator('[data-pile^="tableau-"]').count() == 7, "an empty view draws an empty table")
    page.evaluate("window.setView(window.sample('spider'))")
    check(page.locator('[data-pile^="tableau-"]').count() == 10, "back to a full view")


def check_views_and_cleanup(page: Page, base: str) -> None:
    open_harness(page, base, "views=2")
    drag(page, center(page, '#mount0 [data-card="8S"]'),
         center(page, '#mount0 [data-pile="tableau-2"] [data-card="9S"]'))
    a = page.locator("#mount0 [data-card]").evaluate_all("e => e.map(x => x.dataset.card + x.dataset.col)")
    b = page.locator("#mount1 [data-card]").evaluate_all("e => e.map(x => x.dataset.card + x.dataset.col)")
    check(a == b and "8S2" in a, "two views of one model stay in step")
    check_dom_contract(page, "#mount1 .spiderette")
    before = page.evaluate("window.model.listenerCount()")
    page.evaluate("window.cleanups[1]()")
    after = page.evaluate("window.model.listenerCount()")
    check(before - after == 2 and page.locator("#mount1 .spiderette").count() == 0,
          "cleanup removes the model listeners and the view", (before, after))
    page.evaluate("window.setView(window.sample('spider'))")
    check(page.locator("#mount0 [data-pile^='tableau-']").count() == 10, "the other view still works")


def check_animation(page: Page, base: str) -> None:
    open_harness(page, base)
    drag(page, center(page, '[data-card="8S"]'), center(page, '[data-pile="tableau-2"] [data-card="9S"]'))
    n = page.evaluate("document.getAnimations().length")
    check(n >= 1, "a move animates (FLIP from the drop point)", n)
    open_harness(page, base, "respond=0")
    n = page.evaluate("""() => {
        const v = JSON.parse(JSON.stringify(window.model.get('view')));
        const pool = window.hiddenCodes();
        v.tableau.forEach((c, i) => c.up.push(pool[i]));
        window.setView({...v, version: v.version + 1, last: {kind: 'deal', count: 7}});
        return document.getAnimations().length;
    }""")
    check(n == 7, "a deal flies one card from the stock to each column", n)
    page.wait_for_timeout(300)
    n = page.evaluate("""() => {
        window.setView({...window.sample('spiderette'), version: 50, last: {kind: 'new'}});
        return document.getAnimations().length;
    }""")
    check(n == 0, "a new game does not fly the old cards around", n)
    page.emulate_media(reduced_motion="reduce")
    open_harness(page, base)
    drag(page, center(page, '[data-card="8S"]'), center(page, '[data-pile="tableau-2"] [data-card="9S"]'))
    n = page.evaluate("document.getAnimations().length")
    check(n == 0, "prefers-reduced-motion: no animation", n)
    page.emulate_media(reduced_motion="no-preference")


def check_perf(page: Page, base: str) -> None:
    open_harness(page, base, "variant=spider&respond=0")
    times = page.evaluate("""() => {
        const out = [];
        const v = window.model.get('view');
        for (let i = 0; i < 30; i++) out.push(window.timeRender({...v, version: v.version + i + 1}));
        return out.sort((a, b) => a - b);
    }""")
    median = times[len(times) // 2]
    check(median < 16, f"full redraw of a 10-column table: median {median:.2f} ms, max {times[-1]:.2f} ms (< 16)")


def screenshots(page: Page, base: str, shots: Path) -> None:
    shots.mkdir(parents=True, exist_ok=True)
    for q, fname in [("", "spiderette-light"), ("dark=1", "spiderette-dark"),
                     ("variant=spider", "spider-light"), ("variant=spider&dark=1", "spider-dark"),
                     ("four=1", "spiderette-four-colour"), ("width=430", "spiderette-narrow"),
                     ("variant=spider&width=520&dark=1", "spider-narrow-dark")]:
        open_harness(page, base, q)
        page.wait_for_timeout(100)
        page.locator("#mount0").screenshot(path=str(shots / f"{fname}.png"))
    # long columns: the fan is compressed to fit, the top strips stay readable
    open_harness(page, base, "variant=spider&respond=0")
    page.evaluate("""() => {
        const v = JSON.parse(JSON.stringify(window.model.get('view')));
        const run = [...'KQJT98765432A'].map((r) => r + 'H');
        v.tableau[0] = {down: 5, up: ['9C', '8C', ...run], movable: 13};
        v.tableau[6] = {down: 4, up: [...run.slice(0, 12), '4S', '3S', '2S'], movable: 3};
        v.sendable = [0];
        window.setView({...v, version: v.version + 1});
    }""")
    page.locator("#mount0").screenshot(path=str(shots / "spider-long-columns.png"))
    open_harness(page, base, "respond=0")
    frm = top_strip(page, '[data-card="6S"]')
    to = center(page, '[data-pile="tableau-5"] [data-card="7S"]')
    page.mouse.move(*frm)
    page.mouse.down()
    page.mouse.move(to[0] - 20, to[1] + 10, steps=6)
    page.locator("#mount0").screenshot(path=str(shots / "drag.png"))
    page.mouse.up()
    open_harness(page, base)
    page.locator('[data-action="hint"]').click()
    page.locator("#mount0").screenshot(path=str(shots / "hint.png"))
    page.evaluate("window.setView({...window.model.get('view'), status: 'won', message: 'You won!'})")
    page.wait_for_timeout(300)
    page.locator("#mount0").screenshot(path=str(shots / "won.png"))
    open_harness(page, base, "dark=1")
    page.evaluate("window.setView({...window.model.get('view'), status: 'dead_end'})")
    page.wait_for_timeout(300)
    page.locator("#mount0").screenshot(path=str(shots / "dead-end-dark.png"))
    ok(f"screenshots in {shots}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", default="/tmp/js-shots")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    for f in ["widget.js", "widget.css"]:
        if not (REPO / "src/spiderette/static" / f).exists():
            sys.exit(f"src/spiderette/static/{f} is missing: run `npm run build` first")
    srv, port = serve()
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1020, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: m.type == "error" and "favicon" not in (m.location or {}).get("url", "")
                    and errors.append(m.text))
            print("DOM contract (spiderette sample)")
            open_harness(page, base)
            check_dom_contract(page)
            check_no_leak(page)
            print("DOM contract (spider sample)")
            open_harness(page, base, "variant=spider")
            check_dom_contract(page)
            print("pointer")
            check_pointer(page, base)
            print("touch")
            check_touch(page, base)
            print("keyboard")
            check_keyboard(page, base, Path(args.shots))
            print("states")
            check_states(page, base)
            print("several views, cleanup")
            check_views_and_cleanup(page, base)
            print("animation")
            check_animation(page, base)
            print("performance")
            check_perf(page, base)
            print("screenshots")
            screenshots(page, base, Path(args.shots))
            check(not errors, "no page errors", errors)
            browser.close()
    finally:
        srv.shutdown()
    print(f"{len(checked)} checks passed")


if __name__ == "__main__":
    main()
