"""The widget's Think button (the planner, strong setting, in the background) and its Winnable? indicator
(the solver)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import Future

import pytest
from spiderette_testkit import build, hidden_codes, run, send

from spiderette import Game, Move
from spiderette.notebook.widget import Widget
from spiderette.notebook.wording import hint_text

# Three runs home and the fourth one move from done: AS (column b) onto 2S wins at once.
ONE_FROM_WON = build("spiderette", [run("S", 13, 2), ["AS"]], foundations=["H", "D", "C"])
# Winnable (KS to the empty column g, then everything follows), but AS (column f) into the empty column g
# leaves seven columns with nothing to move: the game is lost.
ONE_FROM_LOST = build("spiderette", [["|QS", "KS"], ["|TS", "JS"], ["|8S", "9S"], ["|6S", "7S"], ["|4S", "5S"],
                                     ["|2S", "3S", "AS"]], foundations=["H", "D", "C"])


def settle(w: Widget) -> None:
    """Wait until the table's background work (here: the Winnable? check) is done and its answer drawn."""
    assert w.wait(timeout=60)


def join_thinkers() -> None:
    """Wait for every think thread to end (a cancelled one ends at its next check of the stop)."""
    for t in threading.enumerate():
        if t.name == "spiderette-think":
            t.join(timeout=60)
            assert not t.is_alive()


@pytest.fixture
def slow(monkeypatch):
    """A planner that thinks until it is cancelled (at most a minute): time to act while it runs."""
    import spiderette.notebook.hintbuttons

    def planner_hint(g, budget, name, seen=None, cancel=None):
        cancel.wait(60)
        return None
    monkeypatch.setattr(spiderette.notebook.hintbuttons, "planner_hint", planner_hint)


def test_think_returns_a_future_and_shows_a_hint():
    w = Widget(seed=7)
    f = w.think(budget=500)
    assert isinstance(f, Future)
    h = f.result(timeout=60)
    v = w.view
    assert h is not None and h.move in w.game.legal_moves()
    assert v["thinking"] is False
    words = hint_text(h)   # the reason with the cards in words ("6♥", not "6H")
    n = 1 + len(h.alternatives)
    assert v["hint"] == {"kind": h.move.kind, "src": h.move.src, "dst": h.move.dst, "count": h.move.count,
                         "text": str(h.move), "reason": words, "index": 1, "of": n, "source": "think"}
    assert v["message"] == f"Think 1 of {n}: {words}"   # Think's answer is told apart from Hint's
    assert h.line[0] == h.move and "turns over a card" in words and "♥" in words
    assert w.game.move_count == 0, "thinking changes nothing"


def test_think_intent_says_thinking_then_answers():
    w = Widget(seed=7)
    v = send(w, action="think")
    assert v["thinking"] is True and v["message"] == "Thinking\u2026"
    f = w._hints.running
    h = f.result(timeout=60)
    assert w.view["thinking"] is False and w.view["hint"]["text"] == str(h.move)


def test_think_with_wait_returns_the_hint():
    w = Widget(seed=7)
    h = w.think(wait=True, budget=300)
    assert w.view["hint"]["text"] == str(h.move)


def test_a_move_while_thinking_cancels_it_and_no_stale_hint_appears(slow):
    w = Widget(seed=7)
    f = w.think()        # thinks until cancelled
    assert w.view["thinking"] is True
    v = send(w, action="move", src=1, dst=3, count=1)
    assert f.cancelled()
    assert v["thinking"] is False and v["hint"] is None and v["moves"] == 1
    join_thinkers()
    assert w.view["hint"] is None and w.view["thinking"] is False
    assert "6♥" in w.view["message"]
    assert w.game.history == [Move.parse("bd1")]


@pytest.mark.parametrize("action", ["deal", "undo", "restart", "new"])
def test_other_changes_cancel_thinking(action, slow):
    w = Widget(seed=7)
    w.move(1, 3)
    f = w.think()
    send(w, action=action)
    assert f.cancelled() and w.view["thinking"] is False
    join_thinkers()
    assert w.view["hint"] is None


def test_stop_thinking(slow):
    w = Widget(seed=7)
    send(w, action="think")
    f = w._hints.running
    v = send(w, action="stop_thinking")
    assert f.cancelled() and v["thinking"] is False and v["message"] == "Stopped thinking"
    join_thinkers()
    assert w.view["hint"] is None
    assert send(w, action="stop_thinking")["message"] == "Not thinking"
    assert w.stop_thinking() is False


def test_cancelling_the_future_stops_thinking(slow):
    w = Widget(seed=7)
    f = w.think()
    assert f.cancel()
    join_thinkers()
    assert w.view["thinking"] is False and w.view["hint"] is None
    assert w.view["message"] == "Stopped thinking"


def test_a_new_think_replaces_the_running_one(monkeypatch):
    import spiderette.notebook.hintbuttons

    real = spiderette.notebook.hintbuttons.planner_hint

    def planner_hint(g, budget, name, seen=None, cancel=None):   # the first think searches until cancelled
        if budget > 10**6:
            cancel.wait(60)
            return None
        return real(g, budget, name, seen, cancel=cancel)
    monkeypatch.setattr(spiderette.notebook.hintbuttons, "planner_hint", planner_hint)
    w = Widget(seed=7, record=False)
    first = w.think(budget=10**9)
    second = w.think(budget=300)
    assert first.cancelled()
    h = second.result(timeout=60)
    assert w.wait(timeout=60)   # the answer is drawn
    join_thinkers()
    assert w.view["hint"]["text"] == str(h.move) and w.view["thinking"] is False


def test_winnable_is_off_by_default_and_publishes_verdicts():
    w = Widget(game=Game.from_dict(ONE_FROM_WON))
    assert w.winnable is False and w.view["winnable"] is None
    v = send(w, action="winnable", on=True)
    assert w.winnable is True and v["winnable"] is not None
    settle(w)
    assert w.view["winnable"] == {"state": "win", "moves": 1}
    w.move(1, 0)
    settle(w)
    assert w.game.status == "won" and w.view["winnable"] == {"state": "win", "moves": 0}
    w.undo()
    settle(w)
    assert w.view["winnable"] == {"state": "win", "moves": 1}
    send(w, action="winnable", on=False)
    assert w.winnable is False and w.view["winnable"] is None
    w.winnable = True
    settle(w)
    assert w.view["winnable"] == {"state": "win", "moves": 1}
    w.winnable = False
    assert w.view["winnable"] is None


def test_wait_for_the_background_work():
    w = Widget(game=Game.from_dict(ONE_FROM_WON), record=False)
    assert w.wait(timeout=0) is True            # nothing running
    w.winnable = True
    assert w.wait(timeout=60) is True and w.view["winnable"] == {"state": "win", "moves": 1}
    for bad in (-1, float("nan"), "1", True, 10**400):
        with pytest.raises((TypeError, ValueError), match="timeout must be"):
            w.wait(timeout=bad)


def test_winnable_refuses_a_bad_intent():
    w = Widget(game=Game.from_dict(ONE_FROM_WON))
    v = send(w, action="winnable", on="yes")
    assert v["message"].startswith("Refused: 'on' must be true or false") and w.winnable is False


def test_winnable_says_not_winnable_and_offers_the_undo():
    w = Widget(game=Game.from_dict(ONE_FROM_LOST), winnable=True)
    start = w.game.move_count
    settle(w)
    assert w.view["winnable"]["state"] == "win"
    assert w.view["undo_to_winnable"] is None
    w.move(5, 6)   # AS into the empty column: nothing can move any more
    settle(w)
    v = w.view
    assert w.game.status == "lost" and v["winnable"] == {"state": "loss"}
    assert v["undo_to_winnable"] == start
    v = send(w, action="undo_to_winnable")
    assert w.game.move_count == start and w.game.history == [] and w.game.status == "playing"
    assert "winnable position" in v["message"] and v["undo_to_winnable"] is None
    settle(w)
    assert w.view["winnable"]["state"] == "win"


def test_one_button_goes_back_when_the_indicator_and_the_analysis_both_know_the_way():
    w = Widget(game=Game.from_dict(ONE_FROM_LOST), winnable=True)
    start = w.game.move_count
    settle(w)
    w.move(5, 6)   # the losing move: the indicator proves the loss and knows the position before it
    settle(w)
    assert w.view["undo_to_winnable"] == start
    w.where_did_it_go_wrong(wait=True)
    v = w.view
    assert v["analysis"]["state"] == "done" and v["analysis"]["to"] == "turning"
    # the turning point's button alone (it goes back as far and says which move lost): not two buttons
    assert v["analysis"]["undo"] == 1 and v["undo_to_winnable"] is None
    send(w, action="undo_to_turning")
    assert w.game.move_count == start and w.game.history == []


def test_undo_to_winnable_without_a_winnable_position_changes_nothing():
    w = Widget(game=Game.from_dict(ONE_FROM_LOST))
    w.move(5, 6)
    assert w.view["undo_to_winnable"] is None   # the indicator is off: nothing was proven
    v = send(w, action="undo_to_winnable")
    assert len(w.game.history) == 1 and v["message"] == "No earlier position was proven winnable"


def test_no_hidden_card_in_the_state_while_thinking_and_checking():
    w = Widget(seed=7, winnable=True)
    f = w.think(budget=300)
    state = json.dumps(w.get_state())
    f.result(timeout=60)
    settle(w)
    hidden = hidden_codes(w.game)
    for s in (state, json.dumps(w.get_state())):
        assert not [c for c in hidden if f'"{c}"' in s]
    assert w.view["winnable"]["state"] in ("win", "loss", "unknown")
    assert set(w.view["winnable"]) <= {"state", "moves"}


def test_winnable_follows_a_known_winning_line_without_searching_again():
    w = Widget(seed=12, winnable=True, record=False)
    settle(w)
    assert w.view["winnable"]["state"] == "win"
    base, line = w._winnable.known_line
    assert base == () and len(line) == w.view["winnable"]["moves"]
    for k, m in enumerate(line[:4], start=1):
        w.apply(m)
        assert w._winnable.running is None, "no search: the game follows the line"
        assert w.view["winnable"] == {"state": "win", "moves": len(line) - k}
    w.undo()
    assert w._winnable.running is None and w.view["winnable"] == {"state": "win", "moves": len(line) - 3}
    other = next(m for m in w.game.legal_moves() if m != line[3])
    w.apply(other)   # off the line: a search again
    assert w.view["winnable"]["state"] in ("thinking", "win", "loss")
    settle(w)


def test_winnable_knows_a_game_once_lost_stays_lost():
    # Deal 166 is lost from the start (the solver proves it in a few thousand tables): every table played on
    # from it is lost too, and the indicator says so at once, without searching again. Undo back to the start
    # and away again: still known.
    w = Widget(seed=166, winnable=True, record=False)
    settle(w)
    assert w.view["winnable"] == {"state": "loss"}
    for _ in range(6):
        m = w.game.legal_moves()[0]
        w.apply(m)
        assert w._winnable.running is None, "no search: the game descends from a lost position"
        assert w.view["winnable"] == {"state": "loss"}
    while w.game.can_undo:
        w.undo()
    assert w._winnable.running is None and w.view["winnable"] == {"state": "loss"}
    w.new_game(seed=12)   # a new game forgets it
    assert w.view["winnable"]["state"] in ("thinking", "win")
    settle(w)
    assert w.view["winnable"]["state"] == "win"


def test_the_indicator_proves_a_lost_deal_while_the_player_thinks(monkeypatch):
    """Deal 80 is lost, with 22,382 tables reachable. With a small indicator budget (3,000 tables, then 30,000)
    the solver leaves it undecided; the proof pass that follows while nothing is played visits every table and
    says so; going back to the table later shows the loss at once."""
    from spiderette.notebook import winnable

    monkeypatch.setattr(winnable, "WINNABLE_TABLES", 3_000)
    monkeypatch.setattr(winnable, "WINNABLE_TIME_LIMIT", 600.0)   # (tables alone decide, however busy)
    seen = []
    w = Widget(seed=80, record=False)
    w.observe(lambda change: seen.append(change["new"]["winnable"]), names="view")
    w.winnable = True
    assert w.wait(300)
    states = [(v["state"], v.get("searching")) for v in seen if v]
    assert ("unknown", True) in states, "undecided by the solver first, and searched on"
    assert states[-1] == ("loss", None) and w.view["winnable"] == {"state": "loss"}
    w.play("d")
    assert w.view["winnable"] == {"state": "loss"} and w.wait(0), "what follows a lost table is lost"
    w.undo()
    assert w.view["winnable"] == {"state": "loss"} and w.wait(0), "known at once"
    w.close()


def test_the_post_mortem_searches_on_while_the_player_thinks(monkeypatch):
    """Deal 4 after a deal: with 2,000 tables a solve the analysis decides nothing; the table says so and
    searches on with ten times the usual tables while nothing is played; that answer (winnable all along)
    replaces the words. A move stops the longer search; taking it back starts it again."""
    from spiderette import analyse
    from spiderette.notebook import postmortem

    # (the first analysis, the one that names its number of solves, with 2,000 tables a solve: the longer one
    # keeps its own budget)
    monkeypatch.setattr(postmortem, "analyse", lambda game, **k: analyse(
        game, **({**k, "node_limit": 2_000} if "max_solves" in k else k)))
    w = Widget(seed=4, record=False)
    w.play("d")
    a = w.where_did_it_go_wrong(wait=True)
    assert [s.verdict for s in a.steps] == ["unknown", "unknown"]
    assert w.view["message"].endswith("; searching on with 10\u00d7 the tables\u2026")
    assert w.view["analysis"]["searching"] is True
    w.play("d")                        # the player acts: the longer search stops
    assert w.view["analysis"]["searching"] is False
    w.undo()                           # back to the position analysed: it searches on again
    assert w.view["analysis"]["searching"] is True
    assert w.wait(120)
    assert w.view["analysis"]["searching"] is False
    assert w.view["message"].startswith("Winnable all along")
    assert w.view["message"].endswith("(searched again with 10\u00d7 the tables)")
    w.undo()
    w.redo()                           # answered once: not searched again
    assert w.view["analysis"]["searching"] is False and w.wait(0)
    w.close()


def test_the_post_mortem_does_not_search_on_once_the_turning_point_is_known():
    w = Widget(game=Game.from_dict(ONE_FROM_LOST), record=False)
    w.move(5, 6)   # the losing move
    a = w.where_did_it_go_wrong(wait=True)
    assert a.turning_point is not None
    assert w.view["analysis"]["searching"] is False and "searching on" not in w.view["message"]
    w.close()
