"""The faults that fuzzing found (issue 20), each as a regression test: bad input gets a TypeError or a
ValueError subclass that names the argument and quotes a bounded piece of the value, and changes nothing;
files are written through symbolic links, never over pipes, and leave no stale temporary file behind."""

from __future__ import annotations

import itertools
import os
import threading
import time
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spiderette import Game, Replay, Widget, analyse, hint, hints, solve, solve_async, stats
from spiderette.notebook.view import click_move, view
from spiderette.players.planner import plan

HUGE = 10**400   # a whole number too large for a float


def deep_list(n: int) -> list:
    x: list = []
    for _ in range(n):
        x = [x]
    return x


@pytest.mark.parametrize("call", [
    lambda: hint(None), lambda: hints("x"), lambda: click_move(None, 0), lambda: solve_async(None),
    lambda: hint(None, method="search"), lambda: view(5), lambda: plan(None), lambda: solve(None),
], ids=["hint", "hints", "click_move", "solve_async", "hint-search", "view", "plan", "solve"])
def test_what_takes_a_game_says_so(call):
    with pytest.raises(TypeError, match="takes a Game, not"):
        call()


def test_cancel_must_be_an_event():
    g = Game(seed=1)
    for call in (lambda: solve(g, cancel=True), lambda: analyse(g, cancel=1), lambda: plan(g, cancel="x")):
        with pytest.raises(TypeError, match="cancel must be a threading.Event or None"):
            call()
    assert solve(g, node_limit=100, cancel=threading.Event()).nodes > 0


def test_numbers_too_large_for_a_float_are_refused():
    g = Game(seed=1)
    before = g.position()
    w = Widget(seed=1, record=False)
    shown = dict(w.view)
    for call, name in ((lambda: solve(g, time_limit=HUGE), "time_limit"),
                       (lambda: hint(g, method="search", time_limit=HUGE), "time_limit"),
                       (lambda: solve_async(g, time_limit=HUGE), "time_limit"),
                       (lambda: w.play("bd", delay=HUGE), "delay"),
                       (lambda: Replay(g, delay=HUGE), "delay"),
                       (lambda: w.wait(timeout=HUGE), "timeout")):
        with pytest.raises(ValueError, match=name) as e:
            call()
        assert len(str(e.value)) < 150 and "401 digits" in str(e.value)
    assert g.position() == before and w.view == shown


def test_an_endless_sequence_is_refused_not_read_forever():
    g = Game(seed=7)
    with pytest.raises(ValueError, match="at most 100,000 moves"):
        g.play(itertools.repeat("bd"))
    assert g.move_count == 0 and g.history == []
    w = Widget(seed=7, record=False)
    with pytest.raises(ValueError, match="at most 100,000 moves"):
        w.play(itertools.repeat("bd"), delay=0)
    assert w.game.move_count == 0


@pytest.mark.parametrize("value", ["no", "false", 1, [0], None])
def test_widget_flags_are_true_or_false(value):
    with pytest.raises(TypeError, match="winnable must be True or False"):
        Widget(seed=1, record=False, winnable=value)
    with pytest.raises(TypeError, match="four_colour must be True or False"):
        Widget(seed=1, record=False, four_colour=value)
    w = Widget(seed=1, record=False)
    with pytest.raises(TypeError, match="winnable must be True or False"):
        w.winnable = value
    assert w.winnable is False and w.view["winnable"] is None


def test_deep_lists_are_refused_without_a_recursion_error():
    with pytest.raises(TypeError, match="four_colour must be True or False"):
        Widget(seed=1, record=False, four_colour=deep_list(5000))
    with pytest.raises(TypeError, match="four_colour must be True or False"):
        Replay(Game(seed=1), four_colour=deep_list(5000))


def test_on_move_takes_a_function():
    w = Widget(seed=7, record=False)
    with pytest.raises(TypeError, match="callback must be a function"):
        w.on_move(5)
    with pytest.raises(ValueError, match="was not added"):
        w.on_move(print, remove=True)
    w.move(1, 3)   # no callback was kept: the move is made and said normally
    assert w.view["message"].startswith("Moved") and "went wrong" not in w.view["message"]


def test_replay_delay_is_checked_as_a_number_of_seconds():
    r = Replay(Game(seed=1))
    for bad, error in (("x", TypeError), (True, TypeError), (100, ValueError), (float("nan"), ValueError)):
        with pytest.raises(error, match="delay"):
            r.play(delay=bad)
        assert r.playing is False
    r.play(delay=0.5)
    assert r.delay == 0.5


@pytest.mark.parametrize("bad", [1e12, float("inf"), float("nan"), -1, "3", True])
def test_elapsed_is_a_number_of_seconds(bad, tmp_path):
    g = Game(seed=1)
    g.elapsed = 12.5
    with pytest.raises((TypeError, ValueError), match="elapsed"):
        g.elapsed = bad
    assert g.elapsed == 12.5
    g.save(tmp_path / "g.json")
    assert Game.load(tmp_path / "g.json").elapsed == 12.5   # what was saved always loads


@pytest.mark.parametrize("where", ["~no-such-user-of-spiderette/x", "x" * 5000, "{file}/inside-a-file"])
def test_a_data_folder_that_cannot_be_checked(where, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("SPIDERETTE_HOME", where.format(file=tmp_path / "file"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        w = Widget(seed=7, resume=True)     # plays on, with a warning
        w.move(1, 3)
        s = stats()
    assert w.game.move_count == 1 and len(s) == 0
    assert all(len(str(c.message)) < 400 for c in caught)
    assert len(w.view["message"]) <= 200


def test_saving_through_a_symbolic_link_writes_its_target(tmp_path):
    target = tmp_path / "real.json"
    link = tmp_path / "link.json"
    Game(seed=1).save(target)
    link.symlink_to(target)
    g = Game(seed=7)
    g.play("bd")
    g.save(link)
    assert link.is_symlink() and Game.load(target).history == g.history


def test_statistics_kept_through_a_symbolic_link(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    elsewhere = tmp_path / "elsewhere.json"
    monkeypatch.setenv("SPIDERETTE_HOME", str(home))
    for _ in range(2):
        w = Widget(seed=7)
        w.move(1, 3)
        w.new_game()   # given up: a loss
        if not (home / "stats.json").is_symlink():
            (home / "stats.json").rename(elsewhere)
            (home / "stats.json").symlink_to(elsewhere)
    assert (home / "stats.json").is_symlink()
    assert stats()["spiderette", 4]["played"] == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_never_replaced(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        Game(seed=1).save(fifo)
    assert fifo.is_fifo()
    assert not list(tmp_path.glob(".pipe.json.*.tmp"))


def test_stale_temporary_files_are_cleaned_at_the_next_write(tmp_path):
    path = tmp_path / "g.json"
    stale = tmp_path / ".g.json.killed.tmp"
    fresh = tmp_path / ".g.json.writing.tmp"
    stale.write_text("half a file")
    fresh.write_text("another writer, now")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    Game(seed=1).save(path)
    assert not stale.exists() and fresh.exists()
    assert Game.load(path).seed == 1


# ---------------------------------------------------------------------- the Game API, with arbitrary objects
ANYTHING = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**300, max_value=10**400)
    | st.floats(allow_nan=True) | st.text(max_size=30) | st.binary(max_size=8)
    | st.sampled_from(["ab", "bd", "d", "ab3", "sc", "zz", "bd ea", "", "  ", "ga", "bd1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)

CALLS = {
    "move": lambda g, a, b: g.move(a, b),
    "move-count": lambda g, a, b: g.move(1, 3, count=a),
    "send": lambda g, a, b: g.send(a),
    "apply": lambda g, a, b: g.apply(a),
    "play": lambda g, a, b: g.play(a),
    "why_illegal": lambda g, a, b: g.why_illegal(a),
    "notation": lambda g, a, b: g.notation(a),
    "resolve": lambda g, a, b: g.resolve(a),
    "column": lambda g, a, b: g.column(a),
    "face_down": lambda g, a, b: g.face_down(a),
    "movable": lambda g, a, b: g.movable(a),
    "copy": lambda g, a, b: g.copy(lock=a),
    "elapsed": lambda g, a, b: setattr(g, "elapsed", a),
    "Game": lambda g, a, b: Game(seed=a, suits=b),
    "Game-variant": lambda g, a, b: Game(a, seed=1),
    "from_dict": lambda g, a, b: Game.from_dict(a),
    "from_position": lambda g, a, b: Game.from_position(a),
    "hint": lambda g, a, b: hint(g, method=a),
    "hints": lambda g, a, b: hints(g, budget=a),
    "click_move": lambda g, a, b: click_move(g, a, b),
    "solve": lambda g, a, b: solve(g, time_limit=a, node_limit=50),
}


def snapshot(g: Game) -> tuple:
    return g.position(), list(g.history), list(g.redo_list), g.elapsed


@given(name=st.sampled_from(sorted(CALLS)), a=ANYTHING, b=ANYTHING)
def test_any_object_to_the_game_api_is_answered_or_refused_cleanly(name, a, b):
    g = Game(seed=7)
    g.play("bd ea d")
    g.undo()
    before = snapshot(g)
    try:
        CALLS[name](g, a, b)
    except (TypeError, ValueError) as e:
        assert len(str(e)) < 400, str(e)[:100]
        assert snapshot(g) == before   # a refusal changes nothing
