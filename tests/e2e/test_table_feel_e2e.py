"""End-to-end: the table as a player wants it (issue 10), in JupyterLab and Chromium.

No key or click throws a game in progress away (a question is asked first); the status line speaks in
cards, not notation; the game timer and the deal number; and the instant response: a click is drawn
before the kernel answers, and Python's view confirms or corrects it.

Deal 7 of spiderette: a 4H, b 6H, c JC, d 7C, e 3S, f 8H, g AS (the top cards); legal: b->d, d->f, e->a.
"""

from __future__ import annotations

import json
import re

import jupyter_harness as H
import pytest
from expected import cols, game, moves_are

from spiderette import Game
from spiderette.engine.cards import RANKS

pytestmark = pytest.mark.e2e

NOTATION = re.compile(r"\b[a-j][a-j]\d*\b")
CODE = re.compile(r"\b[A2-9TJQK][SHDC]\b")
TEN = re.compile(r"\bT[SHDC\u2660\u2665\u2666\u2663]")

RUN = [r + "S" for r in reversed(RANKS)]
NEAR_WON = {"variant": "spiderette", "suits": 4, "stock": [], "moves": 120, "score": 680,
            "tableau": [RUN[:-1], ["AS"], [], [], [], [], []],
            "foundations": [[r + s for r in reversed(RANKS)] for s in "HDC"]}


def message(page) -> str:
    return H.table(page)["status"]["message"]


def assert_no_notation(text: str) -> None:
    assert text
    assert not NOTATION.search(text), f"move notation in {text!r}"
    assert not CODE.search(text), f"a card code in {text!r}"
    assert not TEN.search(text), f"'T' for ten in {text!r}"


def question(page):
    return H.root(page).locator(".sp-confirm")


def slow_answers(page, seconds: float) -> None:
    """Make the widget ``w`` wait ``seconds`` before it answers each intent (0: answer at once again), and
    longer while a :class:`jupyter_harness.Hold` is held."""
    H.kernel_eval(page, H.hold_wait_code() + f"""
if not hasattr(w, "_fast_dispatch"):
    w._fast_dispatch = w._intents.dispatch
w._intents.dispatch = ((lambda content: (_time.sleep({seconds}), _hold_wait(), w._fast_dispatch(content)))
                       if {seconds} else w._fast_dispatch)
""")


# ---------------------------------------------------------------------------------------------- no game thrown away
def test_n_and_the_buttons_ask_before_a_game_in_progress_is_given_up(seed7):
    page = seed7.page
    r = H.root(page)
    q = question(page)
    assert q.is_hidden()
    # a fresh deal is not a game in progress: N starts the next one at once
    r.focus()
    page.keyboard.press("n")
    H.wait_table(page, lambda t: "new game" in t["status"]["message"].lower())
    assert q.is_hidden()
    seed = H.kernel_json(page, "w.game.seed")
    start = cols(Game(seed=seed))
    H.pile(page, "stock").click()
    H.wait_table(page, moves_are(1))
    played = H.table(page)["cols"]

    # N on a game in progress: the question, and nothing else happens
    r.focus()
    page.keyboard.press("n")
    q.wait_for(state="visible")
    assert q.get_attribute("data-confirm") == "new" and q.get_attribute("role") == "alertdialog"
    assert q.locator(".sp-confirm-text").inner_text() == "Abandon this game?"
    assert q.locator('[data-confirm-action="confirm"]').inner_text() == "New game"
    assert q.locator('[data-confirm-action="keep"]').inner_text() == "Keep playing"
    assert page.evaluate("document.activeElement.dataset.confirmAction") == "keep", "the safe answer has focus"
    H.kernel_caught_up(page)  # (an intent the key had sent would be answered by now)
    assert H.kernel_json(page, "[w.game.seed, w.game.move_count]") == [seed, 1]
    # Keep playing keeps it (Enter on the focused button), and the table keeps the keyboard
    page.keyboard.press("Enter")
    q.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.classList.contains('spiderette')")
    assert H.table(page)["cols"] == played and H.kernel_json(page, "w.game.move_count") == 1
    # Escape keeps it too; U still undoes (the game was never thrown away)
    page.keyboard.press("n")
    q.wait_for(state="visible")
    page.keyboard.press("Escape")
    q.wait_for(state="hidden")
    page.keyboard.press("u")
    t = H.wait_table(page, moves_are(0))
    assert t["cols"] == start and "took back" in t["status"]["message"].lower()
    page.keyboard.press("r")
    H.wait_table(page, moves_are(1))

    # the New game button asks too; confirming replaces the game
    r.locator('[data-action="new"]').click()
    q.wait_for(state="visible")
    q.locator('[data-confirm-action="confirm"]').click()
    t = H.wait_table(page, lambda t: t["status"]["moves"] == "0" and "new game" in t["status"]["message"].lower())
    assert q.is_hidden()
    seed2 = H.kernel_json(page, "w.game.seed")
    assert seed2 != seed and t["cols"] == cols(Game(seed=seed2))

    # Restart on a game in progress asks (its own words), Keep playing keeps it, confirming restarts
    H.pile(page, "stock").click()
    H.wait_table(page, moves_are(1))
    r.locator('[data-action="restart"]').click()
    q.wait_for(state="visible")
    assert q.get_attribute("data-confirm") == "restart"
    assert q.locator('[data-confirm-action="confirm"]').inner_text() == "Restart"
    q.locator('[data-confirm-action="keep"]').click()
    q.wait_for(state="hidden")
    assert H.kernel_json(page, "w.game.move_count") == 1
    r.locator('[data-action="restart"]').click()
    q.locator('[data-confirm-action="confirm"]').click()
    t = H.wait_table(page, moves_are(0))
    assert t["cols"] == cols(Game(seed=seed2)) and H.kernel_json(page, "w.game.seed") == seed2
    # a new game from a script needs no question (and closes one left open)
    H.pile(page, "stock").click()
    H.wait_table(page, moves_are(1))
    r.locator('[data-action="new"]').click()
    q.wait_for(state="visible")
    H.kernel_eval(page, "w.new_game(seed=8)")
    H.wait_table(page, lambda t: t["cols"] == cols(Game(seed=8)))
    q.wait_for(state="hidden")
    assert seed7.widget_problems() == []


# ---------------------------------------------------------------------------------------------- words
def test_the_status_line_speaks_in_cards(seed7):
    page = seed7.page
    H.card(page, "6H").click()
    t = H.wait_table(page, moves_are(1))
    assert t["status"]["message"] == "Moved 6\u2665 onto 7\u2663"
    H.root(page).locator('[data-action="undo"]').click()
    t = H.wait_table(page, moves_are(0))
    assert t["status"]["message"] == "Took back 6\u2665 from 7\u2663 (back to column b)"
    said = [t["status"]["message"]]
    H.root(page).locator('[data-action="redo"]').click()
    said.append(H.wait_table(page, moves_are(1))["status"]["message"])
    # a refused drop: 8H onto 4H
    H.drag(page, H.card(page, "8H"), H.card(page, "4H"))
    t = H.wait_table(page, lambda t: t["status"]["message"].startswith("Not allowed"))
    assert t["status"]["message"] == ("Not allowed: 8\u2665 cannot go on 4\u2665: a card goes only on a card"
                                      " one rank higher")
    said.append(t["status"]["message"])
    # a group that cannot move together: 7C 6H
    H.card(page, "7C").click(position={"x": 20, "y": 8})
    t = H.wait_table(page, lambda t: "not one suit" in t["status"]["message"])
    said.append(t["status"]["message"])
    assert "7\u2663 and 6\u2665" in t["status"]["message"]
    # a card with nowhere to go, a hint, a deal
    H.card(page, "JC").click()
    said.append(H.wait_table(page, lambda t: "nowhere" in t["status"]["message"])["status"]["message"])
    H.root(page).locator('[data-action="hint"]').click()
    said.append(H.wait_table(page, lambda t: t["status"]["message"].startswith("Hint"))["status"]["message"])
    H.pile(page, "stock").click()
    said.append(H.wait_table(page, moves_are(2))["status"]["message"])
    for text in said:
        assert_no_notation(text)
    assert H.root(page).locator('[aria-live="polite"]').inner_text().strip() == said[-1]
    # (the cards keep their names for a screen reader)
    assert H.card(page, "6H").get_attribute("aria-label") == "six of hearts, column d"


# ---------------------------------------------------------------------------------------------- timer and deal number
def clock(page) -> str:
    return H.root(page).locator('[data-status="time"]').inner_text()


def test_the_timer_runs_from_the_first_move_to_the_end(lab, request):
    lab.open(request.node.name, [f"{H.IMPORT}\nfrom spiderette import Game\n"
                                 f"w = Widget(game=Game.from_dict({json.dumps(NEAR_WON)}), record=False)\nw"])
    page = lab.page
    assert clock(page) == "0:00"
    # (time passing is what is checked here: a busy machine only lets more of it pass, never less)
    page.wait_for_timeout(1300)
    assert clock(page) == "0:00", "no move yet: the clock waits"
    H.drag(page, H.card(page, "AS"), H.pile(page, "tableau-4"))      # A♠ to an empty column: the first move
    H.wait_table(page, moves_are(121))
    page.wait_for_function("() => document.querySelector('[data-status=\"time\"]').textContent >= '0:02'",
                           timeout=5000)
    assert H.kernel_json(page, "w.view['clock']['running']") is True
    H.card(page, "AS").click()                                        # onto 2♠: won
    t = H.wait_table(page, lambda t: t["banner"] == "won")
    stopped = t["status"]["time"]
    assert stopped >= "0:02"
    page.wait_for_timeout(1500)  # (as above: more time passing on a busy machine can only show a running clock)
    assert clock(page) == stopped, "the clock stops when the game is won"
    kernel = H.kernel_json(page, "[w.view['clock'], w.game.elapsed]")
    assert kernel[0]["running"] is False and kernel[1] >= 2
    # a page opened again on the table shows the time played
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    lab.reopen()  # (the page loaded again on this notebook)
    page.wait_for_function(H.KERNEL_IDLE, timeout=60_000)
    H.wait_table(page, lambda t: t["banner"] == "won", timeout=30)
    assert clock(page) == stopped
    assert lab.widget_problems() == []


def test_the_deal_number_is_shown_and_a_chosen_one_is_dealt(seed7):
    page = seed7.page
    r = H.root(page)
    assert r.locator('[data-status="deal"]').inner_text() == "Deal 7"
    box = r.locator('[data-control="deal"]')
    box.fill("42")
    r.locator('[data-action="new"]').click()
    t = H.wait_table(page, lambda t: t["status"]["deal"] == "Deal 42")
    assert t["cols"] == cols(Game(seed=42)) and H.kernel_json(page, "w.game.seed") == 42
    assert box.input_value() == "", "the number is used up"
    # a bad number is refused, and says why; the game stays
    box.fill("12x")
    r.locator('[data-action="new"]').click()
    t = H.wait_table(page, lambda t: t["status"]["message"].startswith("Refused: a deal number"))
    assert t["status"]["deal"] == "Deal 42" and H.kernel_json(page, "w.game.seed") == 42
    assert box.input_value() == "12x"
    # Enter in the box starts the game too (with the chosen variant and suits)
    r.locator('[data-control="suits"]').select_option("2")
    box.fill("7")
    box.press("Enter")
    t = H.wait_table(page, lambda t: t["status"]["deal"] == "Deal 7")
    assert t["cols"] == cols(Game(seed=7, suits=2)) and H.kernel_json(page, "w.game.suits") == 2


# ---------------------------------------------------------------------------------------------- instant response
WATCH = f"""async () => {{
  // Timestamps: the first change of the table's drawing, and the first view that came from Python.
  const model = await ({H.MODEL_JS})(0);
  const table = document.querySelector('.spiderette .sp-table');
  window.__t = {{mutation: null, view: null}};
  const obs = new MutationObserver(() => {{
    if (window.__t.mutation === null) window.__t.mutation = performance.now();
  }});
  obs.observe(table, {{subtree: true, childList: true}});
  const onView = () => {{
    if (window.__t.view === null) window.__t.view = performance.now();
    model.off('change:view', onView);
  }};
  model.on('change:view', onView);
}}"""


def test_a_click_is_drawn_before_the_kernel_answers(seed7):
    page = seed7.page
    slow_answers(page, 1.0)
    version = H.model_view(page)["version"]
    page.evaluate(WATCH)
    hold = H.Hold().hold()  # (Python answers when released: what is drawn before is read before it)
    H.card(page, "6H").click()
    t = H.wait_table(page, lambda t: t["cols"][3]["up"] == ["7C", "6H"])
    assert t["cols"][3]["up"] == ["7C", "6H"], "6H is drawn on 7C at once"
    assert t["cols"][1] == {"down": 1, "up": []}, "the card under it stays a back until Python says which it is"
    assert t["status"]["moves"] == "1" and t["buttons"]["undo"], "the stats and Undo follow the prediction"
    assert t["status"]["message"] == "", "the status line waits for Python's answer"
    assert H.model_view(page)["version"] == version, "Python has not answered yet"
    hold.release()
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("bd")) == H.cols_of_view(H.model_view(page))
    times = page.evaluate("window.__t")
    assert times["mutation"] < times["view"], times

    # a deal: backs land on every column at once, and turn face up when Python's view comes
    hold.hold()
    H.pile(page, "stock").click()
    t = H.wait_table(page, lambda t: t["status"].get("moves") == "2")
    H.wait_settled(page)  # (the backs landed)
    t = H.table(page)
    coming = H.root(page).locator("[data-coming]").count()
    assert coming == 7 and t["cards"] == 8, "seven backs, no new face (8 cards were face up)"
    assert [c["down"] for c in t["cols"]] == [c["down"] + 1 for c in cols(game("bd"))]
    assert H.pile(page, "stock").inner_text().strip() == "3"
    hold.release()
    t = H.wait_table(page, moves_are(2))
    assert t["cols"] == cols(game("bd", "d")) and H.root(page).locator("[data-coming]").count() == 0

    # an undo: the table before, at once
    with H.Hold():
        H.root(page).locator('[data-action="undo"]').click()
        t = H.wait_table(page, lambda t: t["status"].get("moves") == "1")
        assert t["cols"] == cols(game("bd")) and t["pending"] == "1"
    t = H.wait_table(page, moves_are(1))
    assert t["cols"] == cols(game("bd"))
    # a drag onto a legal column, then a second click made on the predicted table: played in turn
    with H.Hold():
        H.drag(page, H.card(page, "3S"), H.card(page, "4H"))
        t = H.wait_table(page, lambda t: t["cols"][0]["up"] == ["4H", "3S"])
        assert t["pending"] == "1", "drawn before Python answers"
        H.card(page, "5S").click()                                   # made on the predicted table: onto 6H
    t = H.wait_table(page, moves_are(3), timeout=15)
    slow_answers(page, 0)
    assert t["cols"] == cols(game("bd", "ea", "bd")) == H.cols_of_view(H.kernel_json(page, "w.view"))
    assert seed7.widget_problems() == []


def test_a_refused_prediction_rolls_back_to_pythons_view(seed7):
    page = seed7.page
    # the game changes behind the table's back (no refresh): the table still offers 7C onto 8H
    H.kernel_eval(page, "w.game.apply('bd')")
    slow_answers(page, 1.0)
    with H.Hold():
        H.drag(page, H.card(page, "7C"), H.card(page, "8H"))
        t = H.wait_table(page, lambda t: t["cols"][5]["up"] == ["8H", "7C"])
        assert t["pending"] == "1", "drawn at once (before Python answers), as the table showed it legal"
    # Python refuses (6H, not 7C, is on top of column d now): the table goes back to what Python says
    t = H.wait_table(page, lambda t: t["status"]["message"].startswith("Not allowed"))
    assert_no_notation(t["status"]["message"])
    slow_answers(page, 0)
    assert t["cols"] == cols(game("bd")) == H.cols_of_view(H.kernel_json(page, "w.view"))
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    box = H.card(page, "7C").bounding_box()
    pile = H.pile(page, "tableau-3").bounding_box()
    assert pile["x"] - 1 <= box["x"] <= pile["x"] + pile["width"], "7C is back in column d"
    assert H.kernel_json(page, "w.game.move_count") == 1


# A complete run of spades on column a (over a face-down 5H), sent by hand (manual: runs stay until sent).
MANUAL_RUN = ("spiderette:4+manual 5h" + "".join(RUN) + "/Ah8hAd7dKd6cQC/2h9h2d8dAc7cKC/3hTh3d9d2c8C/4hJh4dTd3c9C/"
              "6hQh5dJd4cTC/7hKh6dQd5cJC - - 4 496 -")


def test_a_run_sent_by_hand_is_drawn_before_the_kernel_answers(lab, request):
    lab.open(request.node.name, [f"{H.IMPORT}, Game\nw = Widget(game=Game.from_position({MANUAL_RUN!r}))\nw"])
    page = lab.page
    slow_answers(page, 1.0)
    with H.Hold():
        H.card(page, "AS").click()  # a complete run on top: a click sends it
        t = H.wait_table(page, lambda t: t["status"].get("moves") == "5")
        H.wait_settled(page)  # (the run's flight to the foundation is over)
        t = H.table(page)
        assert t["pending"] == "1", "Python has not answered yet"
        assert t["cols"][0] == {"down": 1, "up": []}, "the run left at once; the card under it stays a back"
        king = H.root(page).locator('[data-pile="foundation-0"] [data-card]')
        assert king.get_attribute("data-card") == "KS", "the foundation shows the run's king"
        assert t["status"]["moves"] == "5", "the stats follow the prediction"
    t = H.wait_table(page, moves_are(5))
    slow_answers(page, 0)
    assert t["cols"][0] == {"down": 0, "up": ["5H"]}, "Python's view turns the 5H over"
    assert t["cols"] == H.cols_of_view(H.kernel_json(page, "w.view"))
    assert lab.widget_problems() == []
