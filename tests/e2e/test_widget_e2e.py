"""End-to-end: the spiderette widget played in JupyterLab (and Notebook 7) in Chromium.

Every test runs cells of its own (in the module's notebook, see conftest.py) showing a numbered deal, plays
it the way a player does (pointer, keyboard, buttons, scripted from a cell) and checks what the player would
notice on the page, and that the kernel's game agrees. The expected positions are computed with the engine in the test
process: ``Game(seed=7)`` is the same deal as ``Widget(seed=7)`` in the kernel.

Deal 7 of spiderette: a 4H, b 6H, c JC, d 7C, e 3S, f 8H, g AS (the top cards); legal: b->d, d->f, e->a.
"""

from __future__ import annotations

import json
import re
import time

import jupyter_harness as H
import pytest
from expected import cols, game, message_has, moves_are

from spiderette import Game
from spiderette.notebook.view import view

pytestmark = pytest.mark.e2e

RANKS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
         "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def assert_kernel_agrees(page, index: int = 0, var: str = "w") -> dict:
    """The table drawn by view ``index`` is the kernel's ``w.view`` (cards, score, moves, deals)."""
    view = H.kernel_json(page, f"{var}.view")
    t = H.wait_table(page, lambda t: t["status"].get("moves") == str(view["moves"]), index)
    assert t["cols"] == H.cols_of_view(view)
    assert t["status"]["score"] == str(view["score"])
    assert t["status"]["deals"] == str(view["deals_left"])
    assert t["foundations"][:len(view["foundations"])] == view["foundations"]
    return view


def hidden_codes(position: dict) -> set[str]:
    """Face-down (``|XX``) and stock cards of a ``Game.to_dict()``."""
    down = {c[1:] for col in position["tableau"] for c in col if c.startswith("|")}
    return down | set(position["stock"])


def card_name(code: str) -> str:
    return f"{RANKS[code[0]]} of {SUITS[code[1]]}"


def press(page, key: str, check, index: int = 0) -> dict:
    """Press ``key``; wait until Python has answered and the table passes ``check``."""
    page.keyboard.press(key)
    return H.wait_table(page, lambda t: check(t) and t.get("pending") in (None, "0"), index)


# ---------------------------------------------------------------------------------------------- drawing
def test_table_renders_the_deal(seed7):
    page = seed7.page
    t = H.table(page)
    assert len(t["cols"]) == 7, "seven tableau piles"
    assert t["foundations"] == [None] * 4, "four empty foundation slots"
    assert t["stock"]
    assert t["cards"] == 7 and t["down"] == 21, "7 face-up and 21 face-down cards"
    assert t["cols"] == cols(game())
    assert t["status"]["score"] == "500"
    assert t["status"]["moves"] == "0"
    assert t["status"]["deals"] == "4"
    assert t["status"]["runs"].startswith("0")
    assert t["banner"] is None
    assert t["buttons"]["undo"] is False and t["buttons"]["redo"] is False
    assert t["buttons"]["new"] and t["buttons"]["hint"] and t["buttons"]["restart"]
    assert H.root(page).locator('[data-control="variant"]').input_value() == "spiderette"
    assert H.root(page).locator('[data-control="suits"]').input_value() == "4"

    # every face-up card says where it lies, and is the card a pointer reaches at its visible strip
    placed = page.evaluate("""() => [...document.querySelectorAll('.spiderette [data-pile^="tableau-"] [data-card]')]
        .map((e) => [e.dataset.card, Number(e.dataset.col), Number(e.dataset.index),
                     e.closest('[data-pile]').dataset.pile])""")
    expect = [[c["up"][0], i, c["down"], f"tableau-{i}"] for i, c in enumerate(view(game())["tableau"])]
    assert sorted(placed) == sorted(expect)
    for code, *_ in expect:
        x, y = H.grab_point(H.card(page, code))
        assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('[data-card]')?.dataset.card",
                             [x, y]) == code, f"{code} is covered"
    # the piles are laid out left to right, one card wide, and the cards sit in their pile
    boxes = [H.pile(page, f"tableau-{i}").bounding_box() for i in range(7)]
    assert all(a["x"] + a["width"] <= b["x"] + 1 for a, b in zip(boxes, boxes[1:]))
    for i, c in enumerate(view(game())["tableau"]):
        cb = H.card(page, c["up"][0]).bounding_box()
        assert boxes[i]["x"] - 1 <= cb["x"] and cb["x"] + cb["width"] <= boxes[i]["x"] + boxes[i]["width"] + 1
        assert cb["height"] > cb["width"] > 30, "cards are drawn at a readable size"
    shot = H.screenshot(page, "table.png")
    assert shot.stat().st_size > 5000


def test_page_console_is_clean(seed7):
    """Opening the table logs no error or warning from the widget (anywidget included)."""
    H.pile(seed7.page, "stock").click()
    H.wait_table(seed7.page, moves_are(1))
    assert seed7.widget_problems() == []



def test_cards_and_piles_are_labelled_for_screen_readers(seed7):
    """What a screen reader (and the keyboard) gets: the focusable root, labelled cards and piles,
    column letters, the stock's count, and a live region that repeats the status line."""
    page = seed7.page
    r = H.root(page)
    assert r.get_attribute("tabindex") == "0"
    assert r.get_attribute("role") == "group" and r.get_attribute("aria-roledescription") == "solitaire"
    assert r.locator('[aria-live="polite"]').count() == 1
    assert r.locator(".sp-letter").all_inner_texts() == list("abcdefg")
    for i, c in enumerate(cols(game())):
        letter = "abcdefg"[i]
        pile = H.pile(page, f"tableau-{i}")
        assert pile.get_attribute("aria-label") == f"column {letter}: {c['down']} face-down, 1 face-up"
        ups = pile.locator("[data-card]").evaluate_all("(es) => es.map((e) => e.getAttribute('aria-label'))")
        assert ups == [f"{card_name(code)}, column {letter}" for code in c["up"]]
        downs = pile.locator('[data-face="down"]').evaluate_all(
            "(es) => es.map((e) => [e.getAttribute('aria-label'), e.textContent, e.hasAttribute('data-card')])")
        assert downs == [[f"face-down card, column {letter}", "", False]] * c["down"]
    stock = H.pile(page, "stock")
    assert stock.inner_text().strip() == "4" and stock.locator("[data-card]").count() == 0
    assert stock.get_attribute("aria-label") == "stock: 4 deals left. Deal (D)"
    assert r.locator('[data-status="runs"]').inner_text() == "0/4"
    assert [H.pile(page, f"foundation-{i}").get_attribute("aria-label") for i in range(4)] == ["empty foundation"] * 4

    stock.click()
    t = H.wait_table(page, moves_are(1))
    assert t["status"]["message"]
    assert r.locator('[aria-live="polite"]').inner_text().strip() == t["status"]["message"]
    assert stock.get_attribute("aria-label") == "stock: 3 deals left. Deal (D)"


SUIT_COLOURS = """(root) => Object.fromEntries(['S', 'H', 'D', 'C'].map((s) => {
  const card = root.querySelector(`[data-pile^="tableau-"] [data-card$="${s}"] .sp-corner`);
  return [s, getComputedStyle(card).color.match(/\\d+/g).map(Number)];
}))"""


def test_four_colour_deck(seed7):
    """``w.four_colour = True`` from the kernel: diamonds turn blue and clubs green; back again."""
    page = seed7.page
    H.pile(page, "stock").click()  # a diamond comes up (6D)
    H.wait_table(page, moves_are(1))
    two = H.root(page).evaluate(SUIT_COLOURS)
    assert two["H"] == two["D"] and two["S"] == two["C"], "two colours: red hearts and diamonds, black the rest"
    assert two["H"][0] > two["H"][2] and two["S"] != two["H"]

    H.kernel_eval(page, "w.four_colour = True")
    page.wait_for_function("() => document.querySelector('.spiderette').classList.contains('sp-four')")
    four = H.root(page).evaluate(SUIT_COLOURS)
    assert four["H"] == two["H"] and four["S"] == two["S"], "hearts and spades keep their colours"
    r, g, b = four["D"]
    assert b > r and b > g, f"diamonds are blue: rgb{tuple(four['D'])}"
    r, g, b = four["C"]
    assert g > r and g > b, f"clubs are green: rgb{tuple(four['C'])}"

    H.kernel_eval(page, "w.four_colour = False")
    page.wait_for_function("() => !document.querySelector('.spiderette').classList.contains('sp-four')")
    assert H.root(page).evaluate(SUIT_COLOURS) == two


RECORD_FLIGHTS = """() => {
  // Every card of the widget that is animated (Element.animate) from now on.
  window.__flown = [];
  if (window.__flightsRecorded) return;
  window.__flightsRecorded = true;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.closest && this.closest('.spiderette') && this.dataset.card) window.__flown.push(this.dataset.card);
    // a back dealt before Python's view says which card it is (the table's prediction of a deal)
    else if (this.closest && this.closest('.spiderette') && this.dataset.coming) {
      window.__flown.push(`back ${this.dataset.col}`);
    }
    return animate.apply(this, args);
  };
}"""


def flown(page) -> list[str]:
    return sorted(page.evaluate("window.__flown"))


def record_flights(page) -> None:
    """Let the cards in flight land (a card still flying would fly on from where it is), then record."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    page.evaluate(RECORD_FLIGHTS)


def test_cards_fly_to_their_new_place(seed7):
    """A moved card and the dealt cards are animated to their place; a new game and reduced motion are not."""
    page = seed7.page
    record_flights(page)
    H.card(page, "6H").click()
    H.wait_table(page, moves_are(1))
    assert flown(page) == ["6H"], "the moved card flies from column b to column d"

    record_flights(page)
    H.pile(page, "stock").click()
    t = H.wait_table(page, moves_are(2))
    assert t["cols"] == cols(game("bd", "d"))
    assert flown(page) == [f"back {i}" for i in range(7)], \
        "each dealt card flies from the stock at once (a back, face up where it lands when Python says which)"

    record_flights(page)
    H.kernel_eval(page, "w.new_game(seed=8)")
    H.wait_table(page, lambda t: t["cols"] == cols(game(seed=8)))
    assert flown(page) == [], "the cards of a new game do not fly from the old one"

    page.emulate_media(reduced_motion="reduce")
    record_flights(page)
    H.pile(page, "stock").click()
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("d", seed=8))
    assert flown(page) == [], "prefers-reduced-motion: nothing flies"


# ---------------------------------------------------------------------------------------------- pointer
def test_clicking_the_stock_deals_a_row(seed7):
    page = seed7.page
    H.pile(page, "stock").click()
    t = H.wait_table(page, moves_are(1))
    assert t["cards"] == 14 and t["down"] == 21, "seven more face-up cards"
    assert t["cols"] == cols(game("d"))
    assert t["status"]["deals"] == "3"
    assert t["status"]["score"] == "499"
    assert "dealt" in t["status"]["message"].lower()
    assert H.kernel_json(page, "w.game.deals_left") == 3
    assert_kernel_agrees(page)


def test_drag_and_drop_moves_cards(seed7):
    page = seed7.page
    H.drag(page, H.card(page, "6H"), H.card(page, "7C"))
    t = H.wait_table(page, moves_are(1))
    assert t["cols"][3]["up"] == ["7C", "6H"], "6H now lies on 7C in column d"
    assert t["cols"][1] == {"down": 0, "up": ["5S"]}, "the card under 6H was turned over"
    assert t["cols"] == cols(game("bd"))
    assert t["status"]["score"] == "499"
    assert H.kernel_json(page, "w.game.to_dict()['tableau'][3]") == ["|3C", "|7D", "|TS", "7C", "6H"]
    assert_kernel_agrees(page)

    # 7C 6H are not one suit: pulling at 7C lifts nothing, and the status line says why
    home = H.card(page, "7C").bounding_box()
    H.drag(page, H.card(page, "7C"), H.card(page, "8H"))
    t = H.wait_table(page, message_has("not one suit"))
    assert "7\u2663 and 6\u2665" in t["status"]["message"]
    assert t["cols"] == cols(game("bd")) and t["status"]["moves"] == "1"
    # (the refused cards shake for a moment, then rest where they were)
    page.wait_for_function("() => !document.querySelector('.spiderette [data-refused]')")
    assert H.card(page, "7C").bounding_box() == home
    assert H.kernel_json(page, "w.game.move_count") == 1

    # deal 2: TH dropped on the middle of column d (onto JH), then JH TH dragged as one onto QH
    H.kernel_eval(page, "w.new_game(seed=2)")
    H.wait_table(page, lambda t: t["cols"] == cols(game(seed=2)))
    H.drag(page, H.card(page, "TH"), H.pile(page, "tableau-3"))
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("bd", seed=2))
    H.drag(page, H.card(page, "JH"), H.card(page, "QH"))
    t = H.wait_table(page, moves_are(2))
    assert t["cols"][5]["up"] == ["QH", "JH", "TH"]
    assert t["cols"] == cols(game("bd", "df", seed=2))
    view = assert_kernel_agrees(page)
    assert view["last"] == {"kind": "move", "src": 3, "dst": 5, "count": 2}


MARKS = """(root) => ({
  targets: [...root.querySelectorAll('.sp-target')].map((e) => e.dataset.pile),
  dragging: [...root.querySelectorAll('.sp-dragging')].map((e) => e.dataset.card),
  hover: [...root.querySelectorAll('.sp-drop-hover')].map((e) => e.dataset.pile),
})"""


def wait_home(page, code: str, home: dict) -> None:
    """Wait (at most 10 s) until card ``code`` is back at ``home`` (its bounding box before a drag) and
    no longer drawn as dragged."""
    deadline = time.monotonic() + 10
    while True:
        box = H.card(page, code).bounding_box()
        if (abs(box["x"] - home["x"]) < 1 and abs(box["y"] - home["y"]) < 1
                and H.root(page).evaluate(MARKS)["dragging"] == []):
            return
        assert time.monotonic() < deadline, (code, box, home, H.root(page).evaluate(MARKS))
        page.wait_for_timeout(50)


def test_a_drag_shows_where_the_cards_may_go_and_can_be_called_off(seed7):
    page = seed7.page
    r = H.root(page)
    version = H.model_view(page)["version"]
    home = H.card(page, "6H").bounding_box()
    x0, y0 = H.grab_point(H.card(page, "6H"))
    x1, y1 = H.centre(H.card(page, "7C"))
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0 + 8, steps=2)
    page.mouse.move(x1, y1, steps=8)
    marks = r.evaluate(MARKS)
    assert marks == {"targets": ["tableau-3"], "dragging": ["6H"], "hover": ["tableau-3"]}, \
        "only the legal destination (column d, from view.targets) lights up"
    # back over its own column and let go: nothing is asked, nothing is left lit
    page.mouse.move(x0 + 3, y0 + 30, steps=8)
    page.mouse.up()
    assert {k: v for k, v in r.evaluate(MARKS).items() if k != "dragging"} == {"targets": [], "hover": []}
    wait_home(page, "6H", home)

    # dropped beyond the last column, over nothing: the same
    right = H.pile(page, "tableau-6").bounding_box()
    H.drag(page, H.card(page, "6H"), None, target_point=(right["x"] + right["width"] + 60, y0))
    assert {k: v for k, v in r.evaluate(MARKS).items() if k != "dragging"} == {"targets": [], "hover": []}
    wait_home(page, "6H", home)
    H.kernel_caught_up(page)  # (an intent sent by either drop would be answered by now)
    assert H.model_view(page)["version"] == version, "no intent was sent"
    assert H.table(page)["cols"] == cols(game())

    # a click on a card that cannot move with the cards on it: Python says why
    H.drag(page, H.card(page, "6H"), H.card(page, "7C"))
    H.wait_table(page, moves_are(1))
    H.card(page, "7C").click(position={"x": 20, "y": 8})
    t = H.wait_table(page, message_has("not one suit"))
    assert t["cols"] == cols(game("bd")) and t["status"]["moves"] == "1"


def touch_drag(page, points: list[tuple[float, float]]) -> None:
    """One finger down at ``points[0]``, through the others, up at the last (Chromium touch events)."""
    cdp = page.context.new_cdp_session(page)
    for i, (x, y) in enumerate(points):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove" if i else "touchStart",
                                              "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_touch_drag_and_tap(seed7):
    """On a touch screen: a finger drags 6H onto 7C, a tap moves 3S onto 4H."""
    page = seed7.page
    x0, y0 = H.grab_point(H.card(page, "6H"))
    x1, y1 = H.centre(H.card(page, "7C"))
    touch_drag(page, [(x0, y0)] + [(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10) for i in range(1, 11)])
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("bd"))
    x, y = H.grab_point(H.card(page, "3S"))
    touch_drag(page, [(x, y)])
    t = H.wait_table(page, moves_are(2))
    assert t["cols"] == cols(game("bd", "ea"))
    assert page.evaluate("document.activeElement.classList.contains('spiderette')"), "a touch focuses the table"
    assert_kernel_agrees(page)


def test_clicking_a_card_moves_it_where_it_fits(seed7):
    page = seed7.page
    H.card(page, "3S").click()
    t = H.wait_table(page, moves_are(1))
    assert t["cols"][0]["up"] == ["4H", "3S"], "3S went onto 4H in column a"
    assert t["cols"][4] == {"down": 3, "up": ["2C"]}
    assert t["cols"] == cols(game("ea"))
    assert [str(m) for m in game("ea").history] == H.kernel_json(page, "[str(m) for m in w.game.history]")
    assert_kernel_agrees(page)

    # a card that fits nowhere stays, and the status line says so
    before = t
    H.card(page, "JC").click()
    t = H.wait_table(page, message_has("nowhere"))
    assert "J\u2663" in t["status"]["message"]
    assert t["cols"] == before["cols"] and t["status"]["moves"] == "1"
    assert H.kernel_json(page, "w.game.move_count") == 1


def test_undo_redo_restart_and_hint_buttons(seed7):
    page = seed7.page
    r = H.root(page)
    H.card(page, "6H").click()  # 6H has no 7H to go on: it goes onto 7C (another suit)
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("bd"))
    assert t["buttons"]["undo"] and not t["buttons"]["redo"]

    r.locator('[data-action="undo"]').click()
    t = H.wait_table(page, moves_are(0))
    assert t["cols"] == cols(game()) and t["status"]["score"] == "500"
    assert not t["buttons"]["undo"] and t["buttons"]["redo"]
    assert H.kernel_json(page, "[w.game.move_count, w.game.can_undo, w.game.can_redo]") == [0, False, True]

    r.locator('[data-action="redo"]').click()
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("bd")) and t["status"]["score"] == "499"
    assert H.kernel_json(page, "[w.game.move_count, w.game.can_redo]") == [1, False]
    assert_kernel_agrees(page)

    r.locator('[data-action="hint"]').click()
    t = H.wait_table(page, message_has("hint"))
    assert t["cols"] == cols(game("bd")), "a hint changes nothing"
    hint = H.kernel_json(page, "w.view['hint']")
    assert hint["kind"] == "move", hint
    # the hint is shown on the table: the cards to move, and where they go
    lit = r.evaluate("""(root) => ({
      src: [...root.querySelectorAll('.sp-hint-src')]
        .map((e) => [e.closest('[data-pile]').dataset.pile, e.dataset.card]),
      dst: [...root.querySelectorAll('.sp-hint-dst')].map((e) => e.dataset.pile)})""")
    src_up = cols(game("bd"))[hint["src"]]["up"]
    assert lit == {"src": [[f"tableau-{hint['src']}", c] for c in src_up[len(src_up) - hint["count"]:]],
                   "dst": [f"tableau-{hint['dst']}"]}
    # Hint again on the same table: the next suggestion, outlined in its turn, and round the list
    n = hint["of"]
    assert n > 1 and t["status"]["message"].startswith(f"Hint 1 of {n}: ")
    r.locator('[data-action="hint"]').click()
    t = H.wait_table(page, message_has(f"hint 2 of {n}:"))
    second = H.kernel_json(page, "w.view['hint']")
    assert second["index"] == 2 and second["text"] != hint["text"]
    assert r.locator(f'[data-pile="tableau-{second["src"]}"] .sp-hint-src').count() == second["count"]
    r.focus()
    for k in [*range(3, n + 1), 1]:   # H on the table goes on round the list
        page.keyboard.press("h")
        t = H.wait_table(page, message_has(f"hint {k} of {n}:"))
    assert H.kernel_json(page, "w.view['hint']['text']") == hint["text"]

    H.pile(page, "stock").click()
    H.wait_table(page, moves_are(2))
    r.locator('[data-action="restart"]').click()   # a game in progress: the table asks first
    r.locator('.sp-confirm [data-confirm-action="confirm"]').click()
    t = H.wait_table(page, moves_are(0))
    assert t["cols"] == cols(game()) and t["status"]["deals"] == "4"
    assert not t["buttons"]["undo"] and not t["buttons"]["redo"]
    assert_kernel_agrees(page)


def test_think_and_the_winnable_indicator(seed7):
    """Think says "Thinking…" (its button turns into Stop thinking) and then shows the planner's plan;
    the Winnable? box shows the solver's verdict in the stats bar, and hides it again."""
    page = seed7.page
    r = H.root(page)
    # first a think that does not finish (a stand-in planner that waits to be cancelled): it stays
    # "Thinking…" until it is stopped
    H.kernel_eval(page, "import spiderette.notebook.hintbuttons as _sw\n_real = _sw.planner_hint\n"
                        "_sw.planner_hint = lambda g, budget, name, seen=None, cancel=None: cancel.wait(600) and None")
    r.locator('[data-action="think"]').click()
    t = H.wait_table(page, lambda t: "stop_thinking" in t["buttons"])
    assert t["status"]["message"] == "Thinking\u2026" and "think" not in t["buttons"]
    assert r.locator('[data-action="stop_thinking"]').inner_text() == "Stop thinking"
    assert H.kernel_json(page, "w.view['thinking']") is True
    r.locator('[data-action="stop_thinking"]').click()
    t = H.wait_table(page, message_has("stopped thinking"))
    assert "think" in t["buttons"] and "stop_thinking" not in t["buttons"]
    # then the ordinary think: a hint, as the Hint button shows one
    H.kernel_eval(page, "_sw.planner_hint = _real")
    r.locator('[data-action="think"]').click()
    t = H.wait_table(page, message_has("think 1 of"), timeout=60)
    assert "turns over a card" in t["status"]["message"] and "think" in t["buttons"]
    hint = H.kernel_json(page, "w.view['hint']")
    assert hint["kind"] == "move" and r.locator(".sp-hint-src").count() == hint["count"]
    assert t["cols"] == cols(game()), "thinking changes nothing"

    # Winnable? is off by default (a spoiler)
    box = r.locator('[data-control="winnable"]')
    assert not box.is_checked() and not r.locator('[data-status="winnable"]').is_visible()
    box.check()
    # (the kernel's searches count in tables alone, SPIDERETTE_TABLES_ONLY: deal 7 is won within the indicator's
    # 200,000 tables however busy the machine, never "unknown" for want of seconds)
    t = H.wait_table(page, lambda t: t["status"]["winnable"].startswith("winnable (line of"), timeout=120)
    assert H.kernel_json(page, "w.winnable") is True
    verdict = H.kernel_json(page, "w.view['winnable']")
    assert verdict["state"] == "win" and t["status"]["winnable"] == f"winnable (line of {verdict['moves']} moves)"
    assert box.is_checked() and r.locator('[data-status="winnable"]').is_visible()
    H.screenshot(page, "table-winnable.png")
    box.uncheck()
    H.wait_table(page, lambda t: t["status"]["winnable"] == "")
    assert H.kernel_json(page, "[w.winnable, w.view['winnable']]") == [False, None]
    assert not box.is_checked()
    assert seed7.widget_problems() == []


def test_new_game_with_the_variant_and_suit_choosers(seed7):
    page = seed7.page
    r = H.root(page)
    r.locator('[data-control="variant"]').select_option("spider")
    r.locator('[data-control="suits"]').select_option("1")
    r.locator('[data-action="new"]').click()
    t = H.wait_table(page, lambda t: len(t["cols"]) == 10)
    assert len(t["foundations"]) == 8
    assert t["status"]["deals"] == "5" and t["status"]["moves"] == "0"
    assert {c[1] for col in t["cols"] for c in col["up"]} == {"S"}, "one suit: spades only"
    assert H.kernel_json(page, "[w.game.variant, w.game.suits]") == ["spider", 1]
    assert_kernel_agrees(page)
    H.screenshot(page, "table-spider.png")


CHOOSERS = """(root) => Object.fromEntries(['variant', 'suits'].map((c) => {
  const sel = root.querySelector(`select[data-control="${c}"]`);
  return [c, {value: sel.value, options: [...sel.options].map((o) => [o.value, o.textContent])}];
}))"""


def test_the_choosers_offer_what_python_offers(seed7):
    """The variant chooser lists ``w.variants``; the suits chooser offers the chosen variant's suit counts;
    choosing sends nothing; N and New game both start the chosen game; the title is Python's."""
    page = seed7.page
    r = H.root(page)
    variants = H.kernel_json(page, "w.variants")
    titles = {v["name"]: v["title"] for v in variants}
    suits_text = {4: "4 suits", 2: "2 suits", 1: "1 suit"}

    ch = r.evaluate(CHOOSERS)
    assert ch["variant"] == {"value": "spiderette", "options": [[v["name"], v["title"]] for v in variants]}
    assert ch["suits"] == {"value": "4", "options": [["4", "4 suits"], ["2", "2 suits"], ["1", "1 suit"]]}
    assert r.locator(".sp-title").inner_text() == f"{titles['spiderette']} \u00b7 4 suits"

    version = H.model_view(page)["version"]
    for v in variants:
        r.locator('[data-control="variant"]').select_option(v["name"])
        ch = r.evaluate(CHOOSERS)
        assert ch["suits"]["options"] == [[str(n), suits_text[n]] for n in v["suits"]], v["name"]
        assert ch["suits"]["value"] in [str(n) for n in v["suits"]]
    assert [n for v in variants if v["name"] == "red_black_spiderette" for n in v["suits"]] == [4]
    r.locator('[data-control="variant"]').select_option("red_black_spiderette")
    assert r.evaluate(CHOOSERS)["suits"] == {"value": "4", "options": [["4", "4 suits"]]}
    H.kernel_caught_up(page)  # (an intent sent by a choice would be answered by now)
    assert H.model_view(page)["version"] == version, "choosing alone sends nothing"
    assert H.table(page)["status"]["moves"] == "0" and H.kernel_json(page, "w.game.variant") == "spiderette"

    # the N key starts the chosen game
    r.focus()
    t = press(page, "n", message_has("new game"))
    assert H.kernel_json(page, "[w.game.variant, w.game.suits]") == ["red_black_spiderette", 4]
    assert t["status"]["moves"] == "0"
    H.wait_table(page, lambda t: r.locator(".sp-title").inner_text()
                 == f"{titles['red_black_spiderette']} \u00b7 4 suits")

    # and so does the New game button; the choosers then show the game being played
    r.locator('[data-control="variant"]').select_option("will_o_the_wisp")
    r.locator('[data-control="suits"]').select_option("2")
    r.locator('[data-action="new"]').click()
    H.wait_table(page, lambda t: r.locator(".sp-title").inner_text() == f"{titles['will_o_the_wisp']} \u00b7 2 suits")
    assert H.kernel_json(page, "[w.game.variant, w.game.suits]") == ["will_o_the_wisp", 2]
    ch = r.evaluate(CHOOSERS)
    assert (ch["variant"]["value"], ch["suits"]["value"]) == ("will_o_the_wisp", "2")
    assert_kernel_agrees(page)


def test_won_game_shows_the_banner(lab, request):
    """The last run completed by a drag: four runs on the foundations and the 'won' banner."""
    run = "KQJT98765432A"
    position = {"variant": "spiderette", "suits": 4, "stock": [], "moves": 120, "score": 680,
                "tableau": [[r + "S" for r in run[:-1]], ["AS"], [], [], [], [], []],
                "foundations": [[r + s for r in run] for s in "HDC"]}
    lab.open(request.node.name, [f"{H.IMPORT}\nfrom spiderette import Game\n"
                                 f"w = Widget(game=Game.from_dict({json.dumps(position)}))\nw"])
    page = lab.page
    t = H.table(page)
    assert t["banner"] is None and t["foundations"] == ["KH", "KD", "KC", None]
    H.drag(page, H.card(page, "AS"), H.card(page, "2S"))
    t = H.wait_table(page, lambda t: t["banner"] is not None)
    assert t["banner"] == "won"
    assert t["foundations"] == ["KH", "KD", "KC", "KS"]
    assert t["cards"] == 4 and t["cols"] == [{"down": 0, "up": []}] * 7
    assert t["status"]["runs"].startswith("4")
    assert "won" in t["status"]["message"].lower()
    assert H.kernel_json(page, "w.game.status") == "won"
    banner = H.root(page).locator("[data-banner]")
    assert banner.locator(".sp-banner-text").inner_text() == "You won!"
    assert banner.get_attribute("role") == "alert"
    H.screenshot(page, "table-won.png")

    # Play again: a new game of the variant and suits in the choosers
    banner.locator('[data-banner-action="new"]').click()
    t = H.wait_table(page, lambda t: t["banner"] is None)
    assert (t["cards"], t["down"], t["status"]["moves"]) == (7, 21, "0")
    assert H.kernel_json(page, "[w.game.variant, w.game.suits, w.game.status]") == ["spiderette", 4, "playing"]


# One move from a dead end: AS onto 2S completes the spades and leaves 3 cards for 7 columns, 10 in the stock.
BEFORE_DEAD_END = ("spiderette:4 KSQSJSTS9S8S7S6S5S4S3S2S/AS/3C/7C/JC/-/- AC2C4C5C6C8C9CTCQCKC "
                   "KHQHJHTH9H8H7H6H5H4H3H2HAH/KDQDJDTD9D8D7D6D5D4D3D2DAD 60 640 -")
# One move from a lost game (deal 1 played at random): AC onto 2C, and no action is left.
BEFORE_LOST = ("spiderette:4 KDQSKCQH/9S4C6D9D8S7C/4h9c2HAH6SQC4S3C2C/8djsjd2S7SQD/8h5HAC/5ckh7d6ctdJC5S9HTS/"
               "jh3s4dkstcth8C7H6H5DAD3H3D2DAS - - 22 478 1")


def test_dead_end_and_lost_banners_offer_undo(lab, request):
    """Two tables, each one move from the end: the move brings up the banner, its Undo takes it back."""
    lab.open(request.node.name, [f"{H.IMPORT}\nfrom spiderette import Game\n"
                                 f"dead = Widget(game=Game.from_position({BEFORE_DEAD_END!r}))\ndead",
                                 f"lost = Widget(game=Game.from_position({BEFORE_LOST!r}))\nlost"], widgets=2)
    page = lab.page
    for index, var, code, status, text in [
        (0, "dead", "AS", "dead_end", "Dead end: no deal can ever be made again; undo to go back"),
        (1, "lost", "AC", "lost", "No moves left: the game is lost"),
    ]:
        before = H.table(page, index)
        assert before["banner"] is None
        H.card(page, code, index).click()
        t = H.wait_table(page, lambda t: t["banner"] is not None, index)
        assert t["banner"] == status
        banner = H.root(page, index).locator("[data-banner]")
        assert banner.locator(".sp-banner-text").inner_text() == text
        assert t["buttons"]["undo"] and banner.locator('[data-banner-action="undo"]').is_enabled(), \
            "the banner's Undo is the toolbar's"
        assert H.kernel_json(page, f"{var}.game.status") == status
        banner.locator('[data-banner-action="undo"]').click()
        t = H.wait_table(page, lambda t: t["banner"] is None, index)
        assert t["cols"] == before["cols"] and t["status"]["moves"] == before["status"]["moves"]
        assert H.kernel_json(page, f"{var}.game.status") == "playing"


# ---------------------------------------------------------------------------------------------- keyboard
def test_keyboard_play(seed7):
    page = seed7.page
    r = H.root(page)
    r.focus()
    press(page, "d", lambda t: t["status"]["deals"] == "3")
    press(page, "u", lambda t: t["status"]["deals"] == "4" and t["status"]["moves"] == "0")
    press(page, "Control+y", lambda t: t["status"]["deals"] == "3")
    press(page, "Control+z", lambda t: t["status"]["deals"] == "4")
    press(page, "r", lambda t: t["status"]["deals"] == "3")
    press(page, "Control+u", lambda t: t["status"]["deals"] == "4")
    assert H.kernel_json(page, "[w.game.deals_left, w.game.move_count]") == [4, 0]

    # arrows to column b, Enter picks up 6H, arrows to column d, Enter drops it on 7C
    for key in ("ArrowRight", "Enter", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    t = press(page, "Enter", moves_are(1))
    assert t["cols"] == cols(game("bd"))
    assert_kernel_agrees(page)

    t = press(page, "h", message_has("hint"))
    assert t["cols"] == cols(game("bd"))

    # D twice (JupyterLab's "delete cell" in command mode) deals twice and leaves the notebook alone
    press(page, "d", moves_are(2))
    t = press(page, "d", moves_are(3))
    assert t["cols"] == cols(game("bd", "d", "d"))
    assert page.evaluate("window.jupyterapp.shell.currentWidget.content.widgets.length") == 1
    assert page.evaluate("document.activeElement.classList.contains('spiderette')"), "focus stays on the table"

    page.keyboard.press("n")   # a game in progress: the table asks first; Enter on "New game" confirms
    r.locator('.sp-confirm').wait_for(state="visible")
    page.keyboard.press("Shift+Tab")
    t = press(page, "Enter", lambda t: t["status"]["moves"] == "0" and "new game" in t["status"]["message"].lower())
    assert t["status"]["deals"] == "4"
    assert H.kernel_json(page, "w.game.seed != 7") is True
    assert_kernel_agrees(page)



KEYBOARD = """(root) => ({
  focused: document.activeElement === root,
  cursor: [...root.querySelectorAll('[aria-current="true"]')].map((e) => e.dataset.card || e.dataset.pile),
  col: Number((root.querySelector('[aria-current="true"]') || {dataset: {}}).dataset.col),
  cursorShown: !!root.querySelector('.sp-cursor') && !!root.querySelector('.sp-cursor-ring') &&
    getComputedStyle(root.querySelector('.sp-cursor-ring')).display !== 'none',
  rootOutline: getComputedStyle(root).outlineStyle !== 'none',
  selected: [...root.querySelectorAll('.sp-selected')].map((e) => e.dataset.card),
  targets: [...root.querySelectorAll('.sp-target')].map((e) => e.dataset.pile),
  said: root.querySelector('[aria-live]').textContent,
})"""


def test_keyboard_cursor_pick_up_and_drop(seed7):
    """The keyboard cursor: shown only for keyboard focus, picks up, shows targets, cancels, moves groups,
    and lets Tab leave the table at its last column."""
    page = seed7.page
    r = H.root(page)
    kb = lambda: r.evaluate(KEYBOARD)  # noqa: E731

    # a mouse click focuses the table (its focus ring shows that it takes the keys) without showing the
    # keyboard cursor; an arrow key shows it
    H.card(page, "JC").click()  # fits nowhere: the table stays as it is
    H.wait_table(page, message_has("nowhere"))
    k = kb()
    assert k["focused"] and not k["cursorShown"] and k["rootOutline"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert kb()["cursorShown"]

    # focus from a script (as from Tab) shows the focus ring; the cursor starts on column a's top card
    page.evaluate("document.activeElement.blur()")
    r.focus()
    k = kb()
    assert k["focused"] and k["rootOutline"] and k["cursorShown"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert kb()["cursor"] == ["4H"]
    page.keyboard.press("ArrowRight")
    assert kb()["cursor"] == ["6H"]

    # Enter picks 6H up: it is marked, its one legal target (column d) lights up, a screen reader hears it
    version = H.model_view(page)["version"]
    page.keyboard.press("Enter")
    k = kb()
    assert k["selected"] == ["6H"] and k["targets"] == ["tableau-3"]
    assert k["said"].startswith("picked up six of hearts, column b")
    # Escape calls it off, and nothing was sent
    page.keyboard.press("Escape")
    k = kb()
    assert k["selected"] == [] and k["targets"] == [] and k["said"] == "cancelled"
    assert H.model_view(page)["version"] == version

    # pick up again, two columns right, drop
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert kb()["cursor"] == ["7C"], "while cards are held, the cursor is on the top card of a column"
    t = press(page, "Enter", moves_are(1))
    assert t["cols"] == cols(game("bd"))
    k = kb()
    assert k["selected"] == [] and k["targets"] == [] and k["cursor"] == ["6H"]

    # Ctrl+Shift+Z redoes
    press(page, "u", moves_are(0))
    t = press(page, "Control+Shift+z", moves_are(1))
    assert t["cols"] == cols(game("bd"))

    # Tab steps through the columns; at the last one it lets focus leave the table (no keyboard trap)
    page.keyboard.press("Tab")
    assert kb()["cursor"] == ["3S"]
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert kb()["col"] == 6 and kb()["focused"]
    page.keyboard.press("Tab")
    assert not kb()["focused"]

    # a group of two: deal 2 after bd has JH TH on column d, movable together onto QH (column f)
    H.kernel_eval(page, "w.new_game(seed=2); w.apply('bd')")
    H.wait_table(page, lambda t: t["cols"] == cols(game("bd", seed=2)))
    r.focus()
    for _ in range(7):
        if kb()["col"] == 3:
            break
        page.keyboard.press("ArrowRight")
    for _ in range(3):
        page.keyboard.press("ArrowUp")  # the cursor climbs the movable group only: two cards
    assert kb()["cursor"] == ["JH"]
    page.keyboard.press(" ")
    k = kb()
    assert k["selected"] == ["JH", "TH"] and "tableau-5" in k["targets"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    t = press(page, "Enter", moves_are(2))
    assert t["cols"] == cols(game("bd", "df", seed=2))
    assert H.kernel_json(page, "w.view['last']") == {"kind": "move", "src": 3, "dst": 5, "count": 2}


# ---------------------------------------------------------------------------------------------- two views, scripting
def test_two_views_stay_in_step(lab, request):
    lab.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=7)\nw", "w"], widgets=2)
    page = lab.page
    assert H.table(page, 0)["cols"] == H.table(page, 1)["cols"] == cols(game())
    H.drag(page, H.card(page, "6H", 0), H.card(page, "7C", 0))
    t1 = H.wait_table(page, moves_are(1), index=1)
    assert t1["cols"] == cols(game("bd"))
    H.pile(page, "stock", 1).click()
    t0 = H.wait_table(page, moves_are(2), index=0)
    t1 = H.wait_table(page, moves_are(2), index=1)
    assert t0["cols"] == t1["cols"] == cols(game("bd", "d"))
    # (the game timer ticks in each view: the two reads may fall on two sides of a second)
    untimed = [{k: v for k, v in t["status"].items() if k != "time"} for t in (t0, t1)]
    assert untimed[0] == untimed[1]
    assert_kernel_agrees(page, 0)
    assert_kernel_agrees(page, 1)

    # one view goes (its output is cleared): the other plays on, and nothing complains
    page.evaluate("window.jupyterapp.shell.currentWidget.content.widgets[1].model.outputs.clear()")
    page.wait_for_function("() => document.querySelectorAll('.spiderette').length === 1")
    H.pile(page, "stock", 0).click()
    t0 = H.wait_table(page, moves_are(3), index=0)
    assert t0["cols"] == cols(game("bd", "d", "d"))
    assert lab.widget_problems() == []


def test_a_reopened_notebook_shows_the_live_table(seed7):
    """Save, reload the page: the widget comes back from the running kernel where the game stands."""
    page = seed7.page
    H.card(page, "6H").click()
    H.wait_table(page, moves_are(1))
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    seed7.reopen()  # (the page loaded again on this notebook)
    page.wait_for_function(H.KERNEL_IDLE, timeout=60_000)
    t = H.wait_table(page, moves_are(1), timeout=30)
    assert t["cols"] == cols(game("bd"))
    H.pile(page, "stock").click()
    t = H.wait_table(page, moves_are(2))
    assert t["cols"] == cols(game("bd", "d"))
    assert_kernel_agrees(page)


WATCH_MOVES = f"""() => {{
  // Every value the moves counter shows, with the columns drawn at that moment: [moves, cols].
  const read = {H.READ_TABLE};
  window.__seen = [];
  const el = document.querySelector('.spiderette [data-status="moves"]');
  const note = () => {{
    const v = el.textContent;
    const last = window.__seen[window.__seen.length - 1];
    if (!last || last[0] !== v) window.__seen.push([v, read(0).cols]);
  }};
  note();
  if (window.__watch) window.__watch.disconnect();
  window.__watch = new MutationObserver(note);
  window.__watch.observe(el, {{childList: true, characterData: true, subtree: true}});
}}"""

# ``w.play(..., wait=False)`` returns a concurrent.futures.Future (a threading.Thread before that): is it done?
def test_scripted_play_is_drawn_step_by_step(seed7):
    page = seed7.page
    page.evaluate(WATCH_MOVES)
    H.kernel_eval(page, "w.play('bd ea', delay=0.2)")
    t = H.wait_table(page, moves_are(2))
    assert t["cols"] == cols(game("bd", "ea"))
    seen = page.evaluate("window.__seen")
    assert [v for v, _ in seen] == ["0", "1", "2"], "each scripted move is drawn"
    assert [c for _, c in seen] == [cols(game()), cols(game("bd")), cols(game("bd", "ea"))], \
        "each step is its own drawing, showing the position after that step"
    assert_kernel_agrees(page)

    # in the background (wait=False) the call returns at once, and the kernel answers while the table plays on
    page.evaluate(WATCH_MOVES)
    # (3 s a step: the kernel answers the two cells below long before the play ends, however busy the machine)
    assert H.kernel_json(page, "_play.done()", setup="_play = w.play('d d', delay=3.0, wait=False)") \
        is False, "w.play(..., wait=False) returns a Future before the play ends"
    assert H.kernel_json(page, "_play.done()") is False, "the kernel answers another cell during the play"
    t = H.wait_table(page, lambda t: t["status"]["deals"] == "2", timeout=60)
    assert [v for v, _ in page.evaluate("window.__seen")][-2:] == ["3", "4"]
    assert t["cols"] == cols(game("bd", "ea", "d", "d"))
    assert H.kernel_json(page, "[str(m) for m in _play.result(timeout=10)]") == ["d", "d"]
    assert_kernel_agrees(page)


def test_a_click_on_the_table_stops_a_background_play(seed7):
    """Any action in the browser stops a running w.play before it acts: the old moves never reach the new game."""
    page = seed7.page
    # (30 s between steps: the click stops the play long before its second step, however busy the machine)
    H.kernel_eval(page, "_play = w.play('bd ea d d', delay=30, wait=False)")
    H.wait_table(page, moves_are(1))
    H.root(page).locator('[data-action="new"]').click()
    H.root(page).locator('.sp-confirm [data-confirm-action="confirm"]').click()   # (a game in progress: asked)
    t = H.wait_table(page, lambda t: t["status"]["moves"] == "0" and t["cols"] != cols(game()))
    assert H.kernel_json(page, "_play.cancelled()") is True
    # the play's thread ends (a play that went on would have played its next step before): then nothing more
    H.wait_kernel(page, "[t.name for t in __import__('threading').enumerate() if t.name == 'spiderette-play']",
                  lambda names: names == [], timeout=30)
    assert H.kernel_json(page, "w.game.move_count") == 0 and H.table(page)["status"]["moves"] == "0"
    assert H.kernel_json(page, "[str(m) for m in _play.played]") == ["bd1"]
    assert t["cols"] == cols(Game(seed=H.kernel_json(page, "w.game.seed")))


# ---------------------------------------------------------------------------------------------- refusals
def test_refused_moves_say_why_and_change_nothing(seed7):
    page = seed7.page
    before = H.table(page)
    home = H.card(page, "8H").bounding_box()
    H.drag(page, H.card(page, "8H"), H.card(page, "4H"))
    t = H.wait_table(page, message_has("cannot go on"))
    assert "8\u2665 cannot go on 4\u2665" in t["status"]["message"]
    assert t["cols"] == before["cols"]
    assert (t["status"]["moves"], t["status"]["score"]) == ("0", "500")
    assert H.kernel_json(page, "w.game.move_count") == 0
    # the dropped card goes back to its place
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        box = H.card(page, "8H").bounding_box()
        if abs(box["x"] - home["x"]) < 1 and abs(box["y"] - home["y"]) < 1:
            break
        page.wait_for_timeout(50)
    assert abs(box["x"] - home["x"]) < 1 and abs(box["y"] - home["y"]) < 1, (box, home)

    # no deal while a column is empty: 6H onto 7C, 4H onto the 5S it uncovered, then the stock
    H.card(page, "6H").click()
    H.wait_table(page, moves_are(1))
    H.card(page, "4H").click()
    t = H.wait_table(page, moves_are(2))
    assert t["cols"] == cols(game("bd", "ab")) and t["cols"][0] == {"down": 0, "up": []}
    H.pile(page, "stock").click()
    t = H.wait_table(page, message_has("no deal while column a is empty"))
    assert t["cols"] == cols(game("bd", "ab"))
    assert (t["status"]["moves"], t["status"]["deals"]) == ("2", "4")
    assert H.kernel_json(page, "w.game.deals_left") == 4

    # a king onto a card (deal 1 has KD on top of column e)
    H.kernel_eval(page, "w.new_game(seed=1)")
    t = H.wait_table(page, lambda t: t["cols"] == cols(game(seed=1)))
    H.drag(page, H.card(page, "KD"), H.card(page, "8C"))
    t = H.wait_table(page, message_has("king can only go to an empty column"))
    assert t["cols"] == cols(game(seed=1)) and t["status"]["moves"] == "0"


def test_tampered_intents_are_refused(seed7):
    """Intents sent straight through the widget model (as a tampered front end could) change nothing."""
    page = seed7.page
    start = H.table(page)

    def send(msg, expect: str) -> dict:
        if isinstance(msg, dict) and msg.get("version") == "current":
            msg = {**msg, "version": H.model_view(page)["version"]}
        version = H.model_view(page)["version"]
        H.send_intent(page, msg)
        H.wait_table(page, lambda t: H.model_view(page)["version"] > version)
        t = H.wait_table(page, message_has(expect))
        assert t["cols"] == start["cols"] and t["status"]["moves"] == "0"
        return t

    send({"action": "move", "src": 0, "dst": 99, "count": 1, "version": "current"}, "'dst' must be")
    send({"action": "move", "src": 1, "dst": 3, "count": 5, "version": "current"}, "only 1 face-up")
    send({"action": "move", "src": 1, "dst": 3, "count": 1, "version": 0}, "older table")
    send({"action": "deal", "version": "0"}, "'version' must be")
    send({"action": "cheat", "version": "current"}, "unknown action")
    t = send({"action": "message", "text": "You won! (forged)", "version": "current"}, "refused")
    assert "forged" not in t["status"]["message"]
    send(["deal"], "must be an object")
    assert H.kernel_json(page, "w.game.move_count") == 0

    # the same channel with a good intent plays the move
    H.send_intent(page, {"action": "move", "src": 1, "dst": 3, "count": 1,
                         "version": H.model_view(page)["version"]})
    assert H.wait_table(page, moves_are(1))["cols"] == cols(game("bd"))


# ---------------------------------------------------------------------------------------------- secrecy
WORDS = """() => {
  // Everything a page shows or keeps in its markup: attribute values and text outside scripts/styles.
  const out = [];
  const skipAttr = new Set(['d', 'points', 'viewBox', 'transform', 'style', 'class', 'id', 'href', 'src']);
  const walk = (n) => {
    if (n.nodeType === 3) { out.push(n.nodeValue); return; }
    if (n.nodeType !== 1) return;
    if (n.tagName === 'SCRIPT' || n.tagName === 'STYLE') return;
    for (const a of n.attributes) if (!skipAttr.has(a.name)) out.push(a.value);
    for (const c of n.childNodes) walk(c);
    if (n.shadowRoot) walk(n.shadowRoot);
  };
  walk(document.documentElement);
  return out.join('\\n');
}"""


def assert_no_hidden_card(lab, mark: int) -> None:
    page = lab.page
    position = H.kernel_json(page, "w.game.to_dict()")
    hidden = hidden_codes(position)
    assert len(hidden) >= 24
    shown = {c for col in position["tableau"] for c in col if not c.startswith("|")}
    assert not hidden & shown, "4 suits, one deck: every code is unique"

    # not drawn, not in the page's markup or text, not named for a screen reader
    cards = set(page.evaluate("[...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card)"))
    assert not cards & hidden
    assert cards <= shown | {run[0] for run in position["foundations"]}
    words = page.evaluate(WORDS)
    widget_html = H.root(page).evaluate("(e) => e.outerHTML")
    for code in hidden:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])")
        assert not pattern.search(widget_html), f"{code} (face down) is in the widget's HTML"
        assert not pattern.search(words), f"{code} (face down) is in the page"
        assert card_name(code) not in widget_html.lower(), f"{card_name(code)} (face down) is named"

    # not synced: the kernel's widget state, the model in the page, the websocket frames
    state = H.kernel_eval(page, "import json; print(json.dumps(w.get_state(), default=str))")
    view = json.dumps(H.model_view(page))
    leaks = [c for c in hidden if f'"{c}"' in state or f'"{c}"' in view]
    assert not leaks, f"face-down cards in the synced state: {leaks}"
    for _size, v in H.comm_views(lab.frames.since(mark)):
        text = json.dumps(v)
        assert not [c for c in hidden if f'"{c}"' in text], "a face-down card went over the websocket"
    frames = [f for f in lab.frames.since(mark) if f[2] and f[2]["header"]["msg_type"].startswith("comm")]
    assert frames, "the comm traffic was recorded"
    for _d, _size, msg, _raw in frames:
        text = json.dumps(msg["content"])
        assert not [c for c in hidden if f'"{c}"' in text], f"a face-down card in {msg['header']['msg_type']}"


def test_no_hidden_card_reaches_the_page(lab, request):
    mark = lab.frames.mark()
    lab.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=7)\nw"])
    page = lab.page
    assert_no_hidden_card(lab, mark)
    mark = lab.frames.mark()
    H.card(page, "6H").click()  # onto 7C: turns 5S over
    H.wait_table(page, moves_are(1))
    H.pile(page, "stock").click()
    H.wait_table(page, moves_are(2))
    H.kernel_eval(page, "w.undo(); w.redo()")
    H.wait_table(page, lambda t: t["status"]["moves"] == "2" and "again" in t["status"]["message"].lower())
    assert_no_hidden_card(lab, mark)


# ---------------------------------------------------------------------------------------------- notebook 7
def test_notebook7_renders_and_deals(nb7, request):
    nb7.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=7)\nw"])
    page = nb7.page
    assert "/notebooks/" in page.url
    t = H.table(page)
    assert t["cols"] == cols(game()) and t["cards"] == 7 and t["down"] == 21
    assert t["status"]["deals"] == "4"
    H.pile(page, "stock").click()
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("d")) and t["status"]["deals"] == "3"
    assert H.kernel_json(page, "w.game.deals_left") == 3
    H.screenshot(page, "table-notebook7.png")


def test_the_deal_box_refuses_bad_input_before_asking_anything(seed7):
    page = seed7.page
    r = H.root(page)
    H.pile(page, "stock").click()   # a game in progress: a good number would ask first
    H.wait_table(page, moves_are(1))
    box = r.locator('[data-control="deal"]')
    for typed, words in (("abc", "Refused: a deal number is a whole number from 0 to 18446744073709551615, not 'abc'"),
                         ("9" * 40, "Refused: deal numbers go up to 18446744073709551615, not '99999999999999999999…'"
                                    " (40 characters)")):
        box.fill(typed)
        r.locator('[data-action="new"]').click()
        t = H.wait_table(page, lambda t, w=words: t["status"]["message"].startswith(w[:40]))
        assert t["status"]["message"] == words and len(t["status"]["message"]) < 120
        assert not r.locator(".sp-confirm").is_visible(), "nothing is asked"
        assert H.kernel_json(page, "w.game.move_count") == 1, "the game goes on"
    box.fill("12")
    box.press("Enter")   # a good number: asked first (a game in progress), then dealt
    r.locator('.sp-confirm [data-confirm-action="confirm"]').click()
    t = H.wait_table(page, lambda t: t["status"]["deal"] == "Deal 12")
    assert H.kernel_json(page, "w.game.seed") == 12


def test_a_table_whose_kernel_is_gone_says_so(seed7):
    """The kernel shuts down: the next click gets no answer, and within a few seconds the felt says so, the
    clock stops and the table refuses input visibly (no prediction stays on the table)."""
    page = seed7.page
    r = H.root(page)
    H.pile(page, "stock").click()
    H.wait_table(page, moves_are(1))   # the clock runs
    page.evaluate(f"async () => {{ await {H.KERNEL}.shutdown(); }}")
    H.pile(page, "stock").click()      # predicted at once, never answered
    note = r.locator('[data-status="silent"]')
    note.wait_for(state="visible", timeout=15_000)
    assert "kernel is not answering" in note.inner_text() and "run the cell again" in note.inner_text()
    t = H.table(page)
    assert t["status"]["moves"] == "1" and t["status"]["deals"] == "3", "the prediction is taken back"
    assert "kernel is not answering" in t["status"]["message"]
    before = r.locator('[data-status="time"]').inner_text()
    page.wait_for_timeout(2200)  # (time passing is what is checked: a busy machine only lets more of it pass)
    assert r.locator('[data-status="time"]').inner_text() == before, "the clock has stopped"
    r.locator('[data-action="undo"]').click()   # refused visibly, nothing drawn as if played
    t = H.table(page)
    assert t["status"]["moves"] == "1" and "kernel is not answering" in t["status"]["message"]


def test_a_lost_game_asks_where_it_went_wrong(lab, request):
    """A lost game: the banner's "Where did it go wrong?" analyses it in the background, says which move lost
    a winnable game, and "Undo to the turning point" takes the game back there."""
    from spiderette_testkit import build

    start = build("spiderette", [["|QS", "KS"], ["|TS", "JS"], ["|8S", "9S"], ["|6S", "7S"], ["|4S", "5S"],
                                 ["|2S", "3S", "AS"]], foundations=["H", "D", "C"])
    lab.open(request.node.name, [
        f"{H.IMPORT}\nfrom spiderette import Game\ng = Game.from_dict({json.dumps(start)})\n"
        "g.play('fg')   # the ace into the empty column: nothing can move any more\n"
        "w = Widget(game=g, record=False)\nw"])
    page = lab.page
    r = H.root(page)
    ask = r.locator('[data-banner-action="analyse"]')
    ask.wait_for(state="visible")
    ask.click()
    t = H.wait_table(page, message_has("where it went wrong: move 1, fg"), timeout=120)
    assert "kept it winnable" in t["status"]["message"]
    button = r.locator('[data-action="undo_to_turning"]')
    assert button.is_visible() and ask.is_disabled()
    button.click()
    t = H.wait_table(page, message_has("the next move is the one that lost"))
    assert not button.is_visible() and t["status"]["moves"] == str(H.kernel_json(page, "w.game.move_count"))
    assert H.kernel_json(page, "len(w.game.history)") == 0
    assert not lab.widget_problems()


def test_the_post_mortem_is_offered_in_a_game_that_still_has_moves(lab, request):
    """Given up with legal moves left (no banner): the stats bar offers "Where did it go wrong?", which
    analyses the game in the background and says what it found."""
    from spiderette_testkit import build

    start = build("spiderette", [["|QS", "KS"], ["|TS", "JS"], ["|8S", "9S"], ["|6S", "7S"], ["|4S", "5S"],
                                 ["|2S", "3S", "AS"]], foundations=["H", "D", "C"])
    lab.open(request.node.name, [
        f"{H.IMPORT}\nfrom spiderette import Game\ng = Game.from_dict({json.dumps(start)})\n"
        "g.play('ag')\nw = Widget(game=g, record=False)\nw"])
    page = lab.page
    r = H.root(page)
    ask = r.locator('.sp-stats [data-action="analyse"]')
    assert not ask.is_visible(), "not offered while the game goes on"
    r.locator('[data-action="resign"]').click()
    r.locator('.sp-confirm[data-confirm="resign"] [data-confirm-action="confirm"]').click()   # (Give up asks)
    H.wait_table(page, message_has("given up"))
    ask.wait_for(state="visible")
    assert H.kernel_json(page, "len(w.game.legal_moves()) > 0") is True
    assert r.locator("[data-banner]").count() == 0, "no banner: the game is not over"
    ask.click()
    t = H.wait_table(page, message_has("winnable all along"), timeout=120)
    assert "hidden cards known" in t["status"]["message"]
    assert not lab.widget_problems()


def test_the_four_colour_deck_is_chosen_at_the_table(seed7):
    page = seed7.page
    r = H.root(page)
    box = r.locator('[data-control="four_colour"]')
    assert not box.is_checked() and "sp-four" not in (r.get_attribute("class") or "")
    box.check()
    page.wait_for_function("() => document.querySelector('.spiderette').classList.contains('sp-four')",
                           timeout=10_000, polling=50)
    assert H.kernel_json(page, "w.four_colour") is True
    H.kernel_eval(page, "w.four_colour = False")
    page.wait_for_function("() => !document.querySelector('.spiderette').classList.contains('sp-four')",
                           timeout=10_000, polling=50)
    assert not box.is_checked(), "the box follows Python's choice"
