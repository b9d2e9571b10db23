"""The table as a player wants it (issue 10), Python side: messages in cards, the game timer, the deal number,
and the ``answer`` id the front end's predictions wait for."""

from __future__ import annotations

import json
import re

import pytest
from spiderette_testkit import build, send

from spiderette import Game, IllegalMoveError, SaveFileError
from spiderette.engine.cards import RANKS, card_text, code_text, rank_of
from spiderette.engine.savefile import document
from spiderette.notebook.clock import GameClock, clock_text
from spiderette.notebook.intents import deal_number
from spiderette.notebook.widget import Widget
from spiderette.notebook.wording import refusal

# Move notation (ab, ec1, bd12) and card codes (TH, 9D): neither belongs in what the table says.
NOTATION = re.compile(r"\b[a-j][a-j]\d*\b")
CODE = re.compile(r"\b[A2-9TJQK][SHDC]\b")
TEN = re.compile(r"\bT[SHDC\u2660\u2665\u2666\u2663]")


def assert_cards_in_words(message: str) -> None:
    assert message, "a message was shown"
    assert not NOTATION.search(message), f"move notation in {message!r}"
    assert not CODE.search(message), f"a card code in {message!r}"
    assert not TEN.search(message), f"'T' for ten in {message!r}"


RUN = [r + "S" for r in reversed(RANKS)]
#: One move from a win: A♠ onto 2♠ completes the last run (three runs are home already).
NEAR_WON = {"variant": "spiderette", "suits": 4, "stock": [], "moves": 120, "score": 680,
            "tableau": [RUN[:-1], ["AS"], [], [], [], [], []],
            "foundations": [[r + s for r in reversed(RANKS)] for s in "HDC"]}


def fake_clock(w: Widget) -> list[float]:
    """Drive the widget's timer by hand: returns the clock's 'now' (a one-element list, in seconds)."""
    now = [1000.0]
    w._clock._now = lambda: now[0]
    return now


# ---------------------------------------------------------------------------------------------- wording
def test_card_text_writes_ten_as_10_with_suit_symbols():
    assert [code_text(c) for c in ("TH", "9D", "AS", "KC", "QH")] == ["10♥", "9♦", "A♠", "K♣", "Q♥"]
    assert card_text(Game(seed=7).top_card(1)) == "6♥"


def test_move_undo_redo_deal_messages_speak_in_cards():
    w = Widget(seed=7, record=False)
    said = []
    for msg, expect in [
        ({"action": "move", "src": 1, "dst": 3, "count": 1}, "Moved 6♥ onto 7♣"),
        ({"action": "undo"}, "Took back 6♥ from 7♣ (back to column b)"),
        ({"action": "redo"}, "Moved 6♥ onto 7♣ again"),
        ({"action": "click", "src": 4, "count": 1}, "Moved 3♠ onto 4♥"),
        ({"action": "deal"}, "Dealt a row (3 deals left)"),
        ({"action": "undo"}, "Took back a deal"),
        ({"action": "redo"}, "Dealt a row again (3 deals left)"),
    ]:
        v = send(w, **msg)
        assert v["message"] == expect
        said.append(v["message"])
    for m in said:
        assert_cards_in_words(m)
    assert w.game.history[-1].kind == "deal"


def test_a_group_and_an_empty_column_are_named_by_their_cards():
    w = Widget(seed=2, record=False)
    send(w, action="move", src=1, dst=3, count=1)
    v = send(w, action="move", src=3, dst=5, count=2)      # J♥ 10♥ onto Q♥
    assert v["message"] == "Moved J♥–10♥ onto Q♥"
    v = send(w, action="undo")
    assert v["message"] == "Took back J♥–10♥ from Q♥ (back to column d)"
    g = Game.from_dict(build("spiderette", [["|KD", "8S"], ["9H"], [], ["*"]], stock_size=3))
    w = Widget(game=g, record=False)
    v = send(w, action="move", src=1, dst=2, count=1)
    assert v["message"] == "Moved 9♥ to the empty column c"
    assert send(w, action="undo")["message"] == "Took back 9♥ from column c (back to column b)"


def test_sends_completed_runs_and_a_won_game_are_told_in_cards():
    pos = {**NEAR_WON, "auto_remove": False, "moves": None, "score": None}
    pos = {k: v for k, v in pos.items() if v is not None}
    w = Widget(game=Game.from_dict(pos), record=False)
    send(w, action="move", src=1, dst=0, count=1)
    v = send(w, action="send", src=0)
    assert v["message"] == "Sent K♠–A♠ to the foundations; 1 run completed. You won! Score 891."
    assert v["ending"] == "You won!", "the banner's words are Python's"
    v = send(w, action="undo")
    assert v["message"] == "Took back K♠–A♠ from the foundations (back to column a)"
    assert v["ending"] == "", "no banner over a game in progress"
    w = Widget(game=Game.from_dict(NEAR_WON), record=False)
    v = send(w, action="move", src=1, dst=0, count=1)
    assert v["message"] == "Moved A♠ onto 2♠; 1 run completed. You won! Score 779."
    assert_cards_in_words(v["message"])


def test_the_hint_speaks_in_cards():
    w = Widget(seed=7, record=False)
    v = send(w, action="hint")
    said = "moving 6♥ onto 7♣ turns over a card in column b (and builds a card off suit)"
    assert v["message"] == f"Hint 1 of 3: {said}"
    assert v["hint"]["reason"] == said
    assert v["hint"]["text"] == "bd1"     # (the move in notation, for scripts: not shown)
    h = w.think(wait=True, budget=300)
    assert h is not None and w.view["message"].startswith("Think 1 of ")
    assert_cards_in_words(w.view["message"])


def refused(w: Widget, **msg) -> str:
    before = w.game.to_dict()
    v = send(w, **msg)
    assert w.game.to_dict() == before, "a refusal changes nothing"
    assert v["message"].startswith("Not allowed: "), v["message"]
    assert_cards_in_words(v["message"])
    return v["message"].removeprefix("Not allowed: ")


def test_refusals_speak_in_cards():
    w = Widget(seed=7, record=False)
    assert refused(w, action="move", src=6, dst=2, count=1) == \
        "A♠ cannot go on J♣: a card goes only on a card one rank higher"
    assert refused(w, action="move", src=4, dst=6, count=1) == "nothing goes on an ace (A♠)"
    assert refused(w, action="click", src=2, count=1) == "J♣ has nowhere to go"
    send(w, action="move", src=1, dst=3, count=1)                       # 6♥ onto 7♣: not one suit
    assert refused(w, action="move", src=3, dst=5, count=2) == \
        "7♣ and 6♥ are not one suit: only the top card of column d moves"
    assert refused(w, action="click", src=3, count=2) == \
        "7♣ and 6♥ are not one suit: only the top card of column d moves"
    w = Widget(seed=1, record=False)                                     # K♦ on top of column e
    king = next(i for i in range(7) if rank_of(w.game.column(i)[-1]) == 13)
    other = next(i for i in range(7) if i != king)
    assert refused(w, action="move", src=king, dst=other, count=1).endswith(": a king can only go to an empty column")
    # deals, and a sequence from a script: the engine's words where no card is named, cards where one is
    w = Widget(seed=7, record=False)
    w.play("bd ab", delay=0)
    assert refused(w, action="deal") == "no deal while column a is empty"
    with pytest.raises(IllegalMoveError):
        w.play("ea ca", delay=0)                                          # J♣ onto 3♠, after 3♠ onto 4♥
    assert w.view["message"] == \
        "Not allowed (move 2 of the sequence): J♣ cannot go on 3♠: a card goes only on a card one rank higher"


def test_a_column_out_of_sequence_says_which_cards_break_it():
    g = Game(seed=7)
    g.deal()
    src = next(i for i in range(7) if g.group_error(i, 2) and "in sequence" in g.group_error(i, 2))
    try:
        g.apply(f"{'abcdefg'[src]}{'abcdefg'[(src + 1) % 7]}2")
    except IllegalMoveError as e:
        words = refusal(e)
    col = g.column(src)
    assert words == (f"{card_text(col[-1])} does not follow {card_text(col[-2])} in sequence: only the top card"
                     f" of column {'abcdefg'[src]} moves")


# ---------------------------------------------------------------------------------------------- the timer
def test_the_timer_starts_at_the_first_move_and_stops_at_the_end():
    w = Widget(game=Game.from_dict(NEAR_WON), record=False)
    now = fake_clock(w)
    assert w.view["clock"]["elapsed"] == 0 and w.view["clock"]["running"] is False
    send(w, action="hint")
    now[0] += 50
    assert send(w, action="hint")["clock"] == {**w.view["clock"], "elapsed": 0, "running": False}, \
        "no move yet: the clock waits"
    send(w, action="move", src=1, dst=6, count=1)                         # A♠ to an empty column
    now[0] += 12.34
    v = send(w, action="hint")
    assert v["clock"]["running"] is True and v["clock"]["elapsed"] == 12.3
    send(w, action="undo")
    now[0] += 5
    v = send(w, action="move", src=1, dst=0, count=1)                     # won
    assert v["status"] == "won" and v["clock"]["running"] is False and v["clock"]["elapsed"] == 17.3
    now[0] += 100
    assert send(w, action="hint")["clock"]["elapsed"] == 17.3, "the clock stops when the game ends"
    assert w.game.elapsed == pytest.approx(17.34)
    v = send(w, action="undo")                                            # back into play: it goes on
    now[0] += 1
    assert v["clock"]["running"] is True and send(w, action="hint")["clock"]["elapsed"] == 18.3


def test_a_new_game_and_a_restart_start_the_timer_afresh():
    w = Widget(seed=7, record=False)
    now = fake_clock(w)
    send(w, action="deal")
    now[0] += 30
    assert send(w, action="restart")["clock"]["elapsed"] == 0 and w.game.elapsed == 0
    send(w, action="deal")
    now[0] += 9
    assert send(w, action="hint")["clock"]["elapsed"] == 9
    v = send(w, action="new")
    assert v["clock"] == {**v["clock"], "elapsed": 0, "running": False} and w.game.elapsed == 0


def test_the_time_is_saved_with_the_game(tmp_path):
    w = Widget(seed=7, record=False)
    now = fake_clock(w)
    w.move(1, 3)
    now[0] += 41.25
    w.deal()
    path = tmp_path / "g.json"
    w.game.save(path)
    doc = json.loads(path.read_text())
    assert doc["elapsed"] == pytest.approx(41.25)
    g = Game.load(path)
    assert g.elapsed == pytest.approx(41.25) and g.history == w.game.history
    w2 = Widget(game=g, record=False)
    assert w2.view["clock"]["elapsed"] == 41.2 and w2.view["clock"]["running"] is False, \
        "a loaded game's clock waits for the next move"
    # a file without the field (older ones) loads with no time; a bad value is a damaged file
    del doc["elapsed"]
    path.write_text(json.dumps(doc))
    assert Game.load(path).elapsed == 0 and Game(seed=7).elapsed == 0
    assert "elapsed" not in document(Game(seed=7)), "no time played: no field (files as before)"
    for bad in (-1, "12", True, None, float("inf")):
        path.write_text(json.dumps({**doc, "elapsed": bad}))
        with pytest.raises(SaveFileError, match="elapsed"):
            Game.load(path)


def test_the_time_survives_a_resume():
    w = Widget(seed=7)
    now = fake_clock(w)
    w.move(1, 3)
    now[0] += 42
    w.deal()                                  # saved to resume.json after the change, with its time
    w2 = Widget(resume=True)
    assert w2.game.history == w.game.history
    assert w2.view["clock"]["elapsed"] == 42 and w2.view["clock"]["running"] is False
    now2 = fake_clock(w2)
    w2.undo()
    now2[0] += 8
    assert send(w2, action="hint")["clock"] == {**w2.view["clock"], "elapsed": 50, "running": True}
    w3 = Widget(seed=9)
    w3.resume()
    assert w3.view["clock"]["elapsed"] >= 42


def test_clock_text_and_the_clock_alone():
    assert [clock_text(s) for s in (0, 59.99, 60, 3599, 3600, 86399)] == \
        ["0:00", "0:59", "1:00", "59:59", "1:00:00", "23:59:59"]
    t = [0.0]
    c = GameClock(5, now=lambda: t[0])
    assert (c.elapsed, c.running) == (5, False)
    c.follow("playing", acted=False)
    t[0] += 10
    assert c.elapsed == 5, "only a move starts it"
    c.follow("playing", acted=True)
    t[0] += 10
    c.follow("dead_end", acted=True)
    t[0] += 10
    assert (c.elapsed, c.running) == (15, False)
    c.reset(float("nan"))
    assert c.elapsed == 0


# ---------------------------------------------------------------------------------------------- the deal number
def test_the_deal_number_is_in_the_view_and_a_new_game_may_choose_it():
    w = Widget(seed=7, record=False)
    assert w.view["deal"] == "7"
    v = send(w, action="new", seed="42")
    assert w.game.seed == 42 and v["deal"] == "42" and v["message"] == "New game: Spiderette, deal 42"
    v = send(w, action="new", variant="spider", suits=1, seed=123)
    assert (w.game.variant, w.game.suits, w.game.seed) == ("spider", 1, 123)
    assert send(w, action="new", seed=" 0018446744073709551615 ")["deal"] == "18446744073709551615"
    assert send(w, action="new", seed="")["deal"] != "18446744073709551615"
    assert Widget(game=Game.from_dict(NEAR_WON), record=False).view["deal"] is None


@pytest.mark.parametrize("seed", ["-3", "1.5", "abc", "7a", "18446744073709551616", -3, 2**64, 1.0, True, [7]])
def test_a_bad_deal_number_is_refused_and_changes_nothing(seed):
    w = Widget(seed=7, record=False)
    w.move(1, 3)
    v = send(w, action="new", seed=seed)
    assert v["message"].startswith("Refused: a deal number is a whole number from 0 to 18446744073709551615"), \
        v["message"]
    assert w.game.seed == 7 and w.game.move_count == 1


def test_deal_number_parsing():
    assert [deal_number(x) for x in (None, "", "  ", "0", "007", 5)] == [None, None, None, 0, 7, 5]


# ---------------------------------------------------------------------------------------------- answers
def test_the_view_answering_an_intent_names_it():
    w = Widget(seed=7, record=False)
    assert w.view["answer"] is None
    assert send(w, action="move", src=1, dst=3, count=1, id="p1-sp1-1")["answer"] == "p1-sp1-1"
    assert send(w, action="move", src=6, dst=2, count=1, id="p1-sp1-2")["answer"] == "p1-sp1-2"  # refused too
    assert send(w, action="hint")["answer"] is None                     # no id, no answer
    assert send(w, action="deal", id="x" * 65)["answer"] is None          # too long: not echoed
    w.deal()                                                             # from a script: no answer
    assert w.view["answer"] is None
    assert len(json.dumps(w.view)) < 2048


def test_the_clock_counts_play_not_a_table_left_open():
    w = Widget(seed=7, record=False)
    now = fake_clock(w)
    w.move(1, 3)
    now[0] += 3600   # an hour away: a minute of it counts
    v = send(w, action="deal")
    assert v["clock"]["elapsed"] == 60 and v["clock"]["running"] is True
    assert v["clock"]["until"] == 120, "the table stops counting a minute after this action"
    now[0] += 20
    v = send(w, action="away")   # the page was hidden: it stops at once
    assert v["clock"]["elapsed"] == 80 and v["clock"]["running"] is False
    now[0] += 500
    assert send(w, action="hint")["clock"]["elapsed"] == 80
    v = send(w, action="undo")   # the next action starts it again
    now[0] += 5
    assert send(w, action="hint")["clock"] == {**w.view["clock"], "elapsed": 85, "running": True}
