"""The widget's background play and threads: a Future that can be cancelled, checks before anything plays,
every other action stopping a running play first, and a game that stays whole when scripted from two threads.
"""

from __future__ import annotations

import concurrent.futures
import random
import sys
import threading
import time
from collections import Counter

import pytest
from spiderette_testkit import send

from spiderette import Game, IllegalMoveError, Move, NotationError
from spiderette.engine.cards import card_code, make_deck
from spiderette.engine.move import DEAL
from spiderette.notebook.widget import Widget

#: The pause between steps of the plays that are stopped. A stopped play wakes at once, so this costs time
#: only when a play is not stopped (a failure); it is long so the main thread acts well within one pause.
DELAY = 0.5
PLAY_THREAD = "spiderette-play"



def background(w: Widget, moves, delay: float = DELAY):
    """Start ``w.play(moves, wait=False)``; return the future and the thread that runs it."""
    before = set(threading.enumerate())
    f = w.play(moves, delay=delay, wait=False)
    new = [t for t in threading.enumerate() if t not in before and t.name == PLAY_THREAD]
    assert len(new) <= 1
    return f, (new[0] if new else None)


def wait_for(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def finish(thread: threading.Thread | None, steps: int = 4) -> None:
    """Wait until the play thread has ended (a stopped one ends at once, a running one after its steps)."""
    if thread is not None:
        thread.join(timeout=steps * DELAY + 5)
        assert not thread.is_alive()


def prepared() -> Widget:
    """Deal 7 with "bd ea d d" played and both deals taken back (a redo list of two deals)."""
    w = Widget(seed=7)
    w.play("bd ea d d", delay=0)
    w.undo()
    w.undo()
    assert w.game.history == [Move.parse("bd1"), Move.parse("ea1")] and w.game.redo_list == [DEAL, DEAL]
    return w


def a_move(w: Widget) -> Move:
    """A legal move (not a deal) on the table now."""
    moves = [m for m in w.game.legal_moves() if m.kind == "move"]
    assert moves
    return moves[0]


# ---------------------------------------------------------------------------------------- the Future
def test_play_without_waiting_returns_a_future_of_the_moves():
    w = Widget(seed=7)
    f, thread = background(w, "bd ea d", delay=0.01)
    assert isinstance(f, concurrent.futures.Future)
    assert f.result(timeout=10) == [Move.parse("bd1"), Move.parse("ea1"), DEAL]
    assert f.done() and not f.cancelled() and f.exception() is None
    assert f.played == [Move.parse("bd1"), Move.parse("ea1"), DEAL]
    assert w.game.history == f.played and w.view["moves"] == 3
    finish(thread)
    assert not f.cancel() and not f.cancelled()          # a finished play cannot be cancelled
    assert not w.stop()                                   # nothing runs


def test_a_running_play_can_be_cancelled_between_steps():
    w = Widget(seed=7)
    f, thread = background(w, "bd ea d d")
    wait_for(lambda: len(f.played) == 1)
    assert not f.done()
    with pytest.raises(concurrent.futures.TimeoutError):
        f.result(timeout=0.01)
    assert f.cancel() is True
    assert f.cancelled() and f.done()
    finish(thread)
    assert f.played == [Move.parse("bd1")] and w.game.history == [Move.parse("bd1")]
    with pytest.raises(concurrent.futures.CancelledError):
        f.result(timeout=1)
    assert not w.stop()


def test_stop_says_whether_it_stopped_a_play():
    w = Widget(seed=7)
    assert w.stop() is False
    f, thread = background(w, "bd ea d d")
    wait_for(lambda: len(f.played) == 1)
    assert w.stop() is True
    finish(thread)
    assert f.cancelled() and w.game.history == [Move.parse("bd1")]
    assert w.stop() is False


def test_a_play_that_fails_part_way_sets_the_exception():
    w = Widget(seed=7)
    with w.game.lock:               # the play is checked and started, but cannot step until this is released
        f, thread = background(w, "df d", delay=0)
        w.game.apply("d")           # straight on the game (which does not stop the play): now "df" is illegal
    finish(thread)
    e = f.exception(timeout=5)
    assert isinstance(e, IllegalMoveError) and (e.move.src, e.move.dst) == (3, 5), repr(e)
    assert "Not allowed" in w.view["message"] and not f.cancelled()
    assert w.game.history == [DEAL] and f.played == []


# ---------------------------------------------------------------------------------------- checks first
@pytest.mark.parametrize("wait", [True, False])
@pytest.mark.parametrize("moves", [["d", 5], ["d", None], "d zz", ["d", "qq"], 42, None, b"d"],
                         ids=["int", "None", "bad-token", "bad-token-in-list", "not-moves", "no-moves", "bytes"])
def test_bad_notation_is_refused_before_anything_plays(moves, wait):
    w = prepared()
    before = (w.game.to_dict(), w.game.history, w.game.redo_list)
    threads = set(threading.enumerate())
    with pytest.raises((NotationError, TypeError, ValueError)):
        w.play(moves, delay=0, wait=wait)
    assert (w.game.to_dict(), w.game.history, w.game.redo_list) == before
    assert not [t for t in threading.enumerate() if t not in threads and t.name == PLAY_THREAD]
    assert w.view["moves"] == 2


@pytest.mark.parametrize("wait", [True, False])
@pytest.mark.parametrize("delay", [float("nan"), float("inf"), -float("inf"), -1, -0.001, True, False, "1", None,
                                   [0.1]], ids=repr)
def test_a_bad_delay_is_refused_before_anything_plays(delay, wait):
    w = prepared()
    before = (w.game.to_dict(), w.game.history, w.game.redo_list)
    with pytest.raises(ValueError, match="delay"):
        w.play("d d", delay=delay, wait=wait)
    assert (w.game.to_dict(), w.game.history, w.game.redo_list) == before


@pytest.mark.parametrize("wait", ["yes", 1, None])
def test_a_bad_wait_is_refused_before_anything_plays(wait):
    w = prepared()
    before = w.game.to_dict()
    with pytest.raises(TypeError, match="wait"):
        w.play("d", delay=0, wait=wait)
    assert w.game.to_dict() == before


@pytest.mark.parametrize("wait", [True, False])
def test_an_illegal_move_later_in_the_sequence_is_refused_before_anything_plays(wait):
    w = Widget(seed=7)
    v = w.view["version"]
    threads = set(threading.enumerate())
    with pytest.raises(IllegalMoveError, match="move 2") as info:
        w.play(["d", "ag7"], delay=0, wait=wait)
    assert info.value.index == 2 and info.value.move == Move.parse("ag7")
    assert "Not allowed" in w.view["message"] and w.view["version"] > v
    assert w.game.history == [] and w.view["moves"] == 0
    assert not [t for t in threading.enumerate() if t not in threads and t.name == PLAY_THREAD]


# ---------------------------------------------------------------------------------------- any action stops it
def _new_game(w):
    w.new_game()
    assert w.game.history == []


def _restart(w):
    w.restart()
    assert w.game.history == []


def _undo(w):
    n = len(w.game.history)
    assert w.undo() is not None and len(w.game.history) == n - 1


def _redo(w):
    n = len(w.game.history)
    assert w.redo() == DEAL and len(w.game.history) == n + 1


def _move(w):
    m = a_move(w)
    assert w.move(m.src, m.dst, m.count) == m


def _apply(w):
    m = a_move(w)
    assert w.apply(str(m)) == m


def _deal(w):
    assert w.deal() == DEAL


def _another_play(w):
    m = a_move(w)
    assert w.play([m], delay=0) == [m]


def _another_background_play(w):
    m = a_move(w)
    f = w.play([m], delay=0, wait=False)
    assert f.result(timeout=5) == [m]


def _intent(action):
    def act(w):
        n, v = len(w.game.history), w.view["version"]
        send(w, action=action)
        assert w.view["version"] > v and not w.view["message"].startswith("Something went wrong")
        want = {"new": 0, "restart": 0, "undo": n - 1, "redo": n + 1, "deal": n + 1}[action]
        assert len(w.game.history) == want, w.view["message"]
    act.__name__ = f"intent_{action}"
    return act


def _intent_move(w):
    m = a_move(w)
    send(w, action="move", src=m.src, dst=m.dst, count=m.count)
    assert w.game.history[-1] == m, w.view["message"]


def _intent_click(w):
    m = a_move(w)
    n = len(w.game.history)
    send(w, action="click", src=m.src)
    assert len(w.game.history) == n + 1, w.view["message"]


ACTIONS = [_new_game, _restart, _undo, _redo, _move, _apply, _deal, _another_play, _another_background_play,
           _intent("new"), _intent("restart"), _intent("undo"), _intent("redo"), _intent("deal"), _intent_move,
           _intent_click]


@pytest.mark.parametrize("act", ACTIONS, ids=[a.__name__.strip("_") for a in ACTIONS])
def test_any_other_action_stops_a_running_play_before_it_acts(act):
    w = prepared()
    f, thread = background(w, "d d d")          # the first deal takes one of the two redo deals
    wait_for(lambda: len(f.played) == 1)
    act(w)
    game, history = w.game, w.game.history
    finish(thread)                                # once the thread is gone nothing more can come
    assert f.cancelled() and f.played == [DEAL]
    assert w.game is game and w.game.history == history, "the old play went on after the action"
    assert w.view["moves"] == len(history)


def test_a_hint_does_not_stop_a_running_play():
    w = Widget(seed=7)
    f, thread = background(w, "bd ea d", delay=0.05)
    wait_for(lambda: len(f.played) == 1)
    send(w, action="hint")
    assert w.view["hint"] is not None or "No useful move" in w.view["message"]
    assert f.result(timeout=10) == [Move.parse("bd1"), Move.parse("ea1"), DEAL]
    assert not f.cancelled() and w.game.history == f.played
    finish(thread)


# ---------------------------------------------------------------------------------------- thread safety
def deck_of(g: Game) -> Counter:
    return Counter(card_code(c) for c in make_deck(g.rules.decks, g.suits))


def check_cards(d: dict, deck: Counter) -> None:
    cards = [c.lstrip("|") for col in d["tableau"] for c in col] + d["stock"] + [c for r in d["foundations"]
                                                                                 for c in r]
    assert len(cards) == sum(deck.values()) and Counter(cards) == deck


def check_whole(g: Game) -> None:
    """The cards are the deck, and the game is what its history makes of its start."""
    d = g.to_dict()
    check_cards(d, deck_of(g))
    start = g.copy()
    start.restart()
    again = Game.from_dict(start.to_dict())
    again.play(g.history)
    assert again.to_dict() == d
    undone = g.copy()
    while undone.undo() is not None:
        pass
    assert undone.to_dict() == start.to_dict()


def random_walk(g: Game, rng: random.Random, steps: int) -> list[Move]:
    out = []
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        m = rng.choice(moves)
        g.apply(m)
        out.append(m)
    return out


def test_scripting_the_game_while_the_table_plays_keeps_it_whole():
    rng = random.Random(20240611)
    w = Widget(seed=11)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for round_ in range(100):
            if round_ % 8 == 0:
                w.new_game(seed=rng.randrange(10_000))
            deck = deck_of(w.game)
            seq = random_walk(w.game.copy(), rng, 30)
            f = w.play(seq, delay=0, wait=False)
            ops = 0
            while ops < 10 or (not f.done() and ops < 300):   # act while the play runs
                ops += 1
                g = w.game
                op = rng.random()
                try:
                    if op < 0.15:          # script the game straight, as a notebook cell would
                        moves = g.legal_moves()
                        if moves:
                            g.apply(rng.choice(moves))
                    elif op < 0.25:        # several steps as one, holding the game's lock
                        with g.lock:
                            moves = g.legal_moves()
                            if moves:
                                g.apply(rng.choice(moves))
                                check_cards(g.to_dict(), deck)
                    elif op < 0.35:
                        g.undo()
                    elif op < 0.6:         # a copy is taken whole, under the lock
                        check_cards(g.copy().to_dict(), deck)
                    else:
                        check_cards(g.to_dict(), deck)
                except IllegalMoveError:   # the game changed under one side: fine
                    pass
            try:
                f.result(timeout=10)
            except IllegalMoveError:
                pass
            check_whole(w.game)
    finally:
        sys.setswitchinterval(old)
