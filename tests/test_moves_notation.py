"""Moves and their notation, ``play``, undo / redo, and bad input of every kind."""

from __future__ import annotations

import pickle

import pytest
from spiderette_testkit import game, tableau

from spiderette import Game, IllegalMoveError, Move, NotationError
from spiderette.engine.variants import VARIANTS


def snapshot(g: Game):
    return g.to_dict(), g.history, g.can_redo, g.status, g.score, g.move_count


def walk(g: Game, steps: int) -> list[Game]:
    """Play a fixed, varied sequence of legal moves; returns copies of the positions passed."""
    seen = [g.copy()]
    for i in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(moves[(i * 7) % len(moves)])
        seen.append(g.copy())
    return seen


# ---------------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize("text,kind,src,dst,count", [
    ("ab", "move", 0, 1, None),
    ("ab3", "move", 0, 1, 3),
    ("cg2", "move", 2, 6, 2),
    ("ja12", "move", 9, 0, 12),
    ("d", "deal", None, None, None),
    ("sc", "send", 2, None, None),
    ("  AB3 ", "move", 0, 1, 3),
    ("D", "deal", None, None, None),
])
def test_parse(text, kind, src, dst, count):
    m = Move.parse(text)
    assert (m.kind, m.src, m.dst, m.count) == (kind, src, dst, count)
    assert Move.parse(str(m)) == m
    assert eval(repr(m), {"Move": Move}) == m


@pytest.mark.parametrize("text", ["zz", "a", "ab0", "abc", "", "  ", "aa", "ak", "ka", "s", "sk", "d1", "dd",
                                  "ab100", "ab-1", "a b", "ab 3", "ab3x", "b", "1", "é", "ab03", "sab"])
def test_garbage_notation_names_the_token(text):
    with pytest.raises(NotationError) as e:
        Move.parse(text)
    assert isinstance(e.value, ValueError)
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("thing", [None, 5, b"ab", ["ab"], Move.parse("ab")])
def test_parse_takes_only_text(thing):
    with pytest.raises(NotationError, match="string"):
        Move.parse(thing)


def test_move_values():
    m = Move("move", 0, 1, 3)
    assert m == Move.parse("ab3") and hash(m) == hash(Move.parse("ab3"))
    assert m != Move.parse("ab") and m != Move.parse("ab2") and m != "ab3"
    assert len({Move.parse("d"), Move("deal"), Move.parse("sb"), Move("send", 1)}) == 2
    with pytest.raises(AttributeError):
        m.count = 2
    assert pickle.loads(pickle.dumps(m)) == m
    assert Move.parse("d").is_deal and not m.is_deal
    for bad in (lambda: Move("jump", 0, 1), lambda: Move("move", 0, 0, 1), lambda: Move("move", 0, 1, 0),
                lambda: Move("move", 0, 1, True), lambda: Move("move", 0, 10), lambda: Move("move", -1, 1),
                lambda: Move("send", 1, 2), lambda: Move("deal", 0), lambda: Move("move", "a", 1)):
        with pytest.raises(NotationError):
            bad()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_move_round_trips_through_notation(variant):
    for seed in (0, 5, 11):
        for g in walk(Game(variant, seed=seed), 40):
            moves = g.legal_moves()
            assert len(set(moves)) == len(moves)
            for m in moves:
                assert Move.parse(str(m)) == m
                assert eval(repr(m), {"Move": Move}) == m
                short = g.notation(m)
                assert len(short) <= len(str(m))
                assert g.parse_move(short) == m
                assert g.parse_move(str(m)) == m


def test_notation_is_short_only_when_it_means_the_same():
    g = game("spiderette", [["*", "9S", "8H", "7H", "6H"], ["8C"], [], ["|2C", "9D"]])
    assert g.notation(Move("move", 0, 1, 2)) == "ab"      # the one group that fits on 8C
    assert g.notation(Move("move", 0, 2, 3)) == "ac"      # the longest group onto an empty column
    assert g.notation(Move("move", 0, 2, 1)) == "ac1"
    assert g.notation(Move("move", 0, 3, 3)) == "ad"
    assert g.notation(Move("deal")) == "d"


# ---------------------------------------------------------------------------------------- resolving
def test_ab_resolves_the_one_group_that_fits():
    g = game("spiderette", [["*", "9S", "8H", "7H", "6H"], ["8C"], [], ["9D"], ["7S"], ["|4C", "KD"]])
    assert g.parse_move("ab") == Move("move", 0, 1, 2)
    assert g.parse_move("ad") == Move("move", 0, 3, 3)
    assert g.parse_move("ae") == Move("move", 0, 4, 1)
    assert g.parse_move("ac") == Move("move", 0, 2, 3)       # empty column: the longest movable group
    assert g.parse_move("ac2") == Move("move", 0, 2, 2)
    assert g.parse_move("ab2") == Move("move", 0, 1, 2)
    for text in ("af", "ab3", "ab1"):
        with pytest.raises(IllegalMoveError):
            g.parse_move(text)
    before = snapshot(g)
    assert g.move(0, 1) == Move("move", 0, 1, 2)
    assert tableau(g)[1] == ["8C", "7H", "6H"]
    g.undo()
    assert snapshot(g)[0] == before[0]
    g.apply("ab")
    assert g.history == [Move("move", 0, 1, 2)]  # the history holds the resolved move


def play_position():
    return game("spiderette", [["*", "5H"], ["6S"], ["|KH", "7D"], ["+"], ["+"], ["+"], ["+"]],
                stock=["2C", "3C", "6D", "4C", "JC", "QC", "8C"], stock_size=10)


def test_play_a_line_of_moves():
    g = play_position()
    played = g.play("ab d cg2")
    assert played == [Move("move", 0, 1, 1), Move("deal"), Move("move", 2, 6, 2)]
    assert g.history == played
    assert tableau(g)[6][-3:] == ["8C", "7D", "6D"]
    assert tableau(g)[2] == ["KH"]
    assert (g.move_count, g.score, g.deals_left) == (5, 495, 1)  # two deals were made before: 2 + 3 moves
    assert g.play("") == [] and g.move_count == 5
    # the same as a list of Moves, or of tokens, on a fresh copy
    for seq in (played, ["ab", "d", "cg2"], [Move.parse("ab"), "d", Move.parse("cg")]):
        h = play_position()
        assert h.play(seq) == played
        assert h.to_dict() == g.to_dict()
    assert play_position().play("ab,d,cg2") == played


def test_play_is_all_or_nothing():
    g = play_position()
    g.play("ab")
    g.undo()  # leave something in the redo list too
    before = snapshot(g)
    with pytest.raises(IllegalMoveError, match=r"move 2 \(bc1?\)") as e:
        g.play("ab bc d")
    assert "6S-5H is not one suit" in str(e.value)
    assert snapshot(g) == before
    assert g.redo() == Move("move", 0, 1, 1)
    g.undo()
    for bad, err, token in (("ab d zz", NotationError, "'zz'"), (["ab", 42], NotationError, "42"),
                            (["ab", "d", "d", "d"], IllegalMoveError, "move 4 (d): the stock is empty"),
                            ([Move.parse("ab"), Move.parse("ab")], IllegalMoveError, "move 2")):
        with pytest.raises(err) as e:
            g.play(bad)
        assert token in str(e.value)
        assert snapshot(g) == before
    with pytest.raises(NotationError):
        g.play(42)
    assert snapshot(g) == before


def test_replaying_the_history_gives_the_same_position():
    for variant in VARIANTS:
        g = Game(variant, seed=21)
        walk(g, 60)
        h = Game(variant, seed=21)
        h.play(g.history)
        assert h.to_dict() == g.to_dict()
        # the same in short notation, written as the game went
        k, text = Game(variant, seed=21), []
        for m in g.history:
            text.append(k.notation(m))
            k.apply(m)
        h = Game(variant, seed=21)
        h.play(" ".join(text))
        assert h.to_dict() == g.to_dict() and h.history == g.history


# ---------------------------------------------------------------------------------------- undo / redo
def test_undo_redo_and_a_new_move_clears_redo():
    g = Game(seed=7)
    start = g.to_dict()
    assert g.undo() is None and g.redo() is None and not g.can_undo and not g.can_redo
    walk(g, 8)
    end, hist = g.to_dict(), g.history
    assert len(hist) == 8
    while g.can_undo:
        g.undo()
    assert g.to_dict() == start and g.history == []
    while g.can_redo:
        g.redo()
    assert g.to_dict() == end and g.history == hist
    g.undo()
    g.undo()
    g.apply(hist[-2])  # the move that was undone: the redo list keeps the rest
    assert g.can_redo and g.redo() == hist[-1] and g.to_dict() == end
    g.undo()
    other = [m for m in g.legal_moves() if m != hist[-1]]
    g.apply(other[0])
    assert not g.can_redo


def test_restart():
    g = Game("spider", seed=3)
    start = g.to_dict()
    walk(g, 20)
    g.restart()
    assert g.to_dict() == start and g.history == [] and not g.can_redo
    h = game("spiderette", [["*", "5H"], ["6S"]])
    s2 = h.to_dict()
    h.move(0, 1)
    h.restart()
    assert h.to_dict() == s2


# ---------------------------------------------------------------------------------------- bad input
@pytest.fixture
def g7():
    return Game(seed=7)


@pytest.mark.parametrize("call,err,text", [
    (lambda g: g.move(9, 0), IllegalMoveError, "column j does not exist"),
    (lambda g: g.move(7, 0), IllegalMoveError, "column h does not exist"),
    (lambda g: g.move(0, 8), IllegalMoveError, "column i does not exist"),
    (lambda g: g.move(-1, 0), NotationError, "-1"),
    (lambda g: g.move(0, 10), NotationError, "10"),
    (lambda g: g.move(0, 0), NotationError, "two different columns"),
    (lambda g: g.move(0, 1, 0), NotationError, "count"),
    (lambda g: g.move(0, 1, -2), NotationError, "count"),
    (lambda g: g.move(0, 1, 2), IllegalMoveError, "only 1 face-up card"),
    (lambda g: g.move(6, 0, 7), IllegalMoveError, "only 1 face-up card"),
    (lambda g: g.move(0, 1, 100), NotationError, "count"),
    (lambda g: g.move("a", "b"), NotationError, "'a'"),
    (lambda g: g.move(0, 1, 1.0), NotationError, "1.0"),
    (lambda g: g.apply(42), NotationError, "42"),
    (lambda g: g.apply(None), NotationError, "None"),
    (lambda g: g.apply("zz"), NotationError, "'zz'"),
    (lambda g: g.apply("ah"), IllegalMoveError, "column h does not exist"),
    (lambda g: g.send(7), IllegalMoveError, "column h does not exist"),
    (lambda g: g.send(10), NotationError, "10"),
    (lambda g: g.send(0), IllegalMoveError, "leave on their own"),
    (lambda g: g.parse_move("abc"), NotationError, "'abc'"),
    (lambda g: g.play("ab0"), NotationError, "'ab0'"),
])
def test_bad_input_is_a_clear_error_and_changes_nothing(g7, call, err, text):
    before = snapshot(g7)
    with pytest.raises(err) as e:
        call(g7)
    assert isinstance(e.value, ValueError)
    assert text in str(e.value)
    assert snapshot(g7) == before


@pytest.mark.parametrize("kwargs,text", [
    ({"variant": "klondike"}, "unknown variant 'klondike'"),
    ({"variant": None}, "unknown variant"),
    ({"suits": 3}, "not 3"),
    ({"suits": "4"}, "not '4'"),
    ({"suits": True}, "not True"),
    ({"variant": "red_black_spiderette", "suits": 2}, "red_black_spiderette is played with 4 suits"),
    ({"variant": "red_black_spiderette", "suits": 1}, "not 1"),
    ({"seed": -1}, "out of range"),
    ({"seed": 2**64}, "out of range"),
    ({"seed": "x"}, "whole number"),
    ({"seed": 1.5}, "whole number"),
    ({"seed": True}, "whole number"),
    ({"auto_remove": "yes"}, "auto_remove"),
    ({"scoring": "vegas"}, "scoring"),
])
def test_bad_game_arguments(kwargs, text):
    wrong_type = any(isinstance(v, (str, float, bool)) for k, v in kwargs.items() if k in ("suits", "seed")) \
        or "auto_remove" in kwargs
    with pytest.raises(TypeError if wrong_type else ValueError, match=text):
        Game(**kwargs)


def test_good_game_arguments():
    assert Game(variant="spider", suits=2, seed=1).suits == 2
    assert Game("will_o_the_wisp", seed=2**64 - 1).seed == 2**64 - 1
    g = Game()
    assert isinstance(g.seed, int) and 0 <= g.seed < 2**64
    assert Game(seed=g.seed).to_dict() == g.to_dict()
    assert Game(seed=7, auto_remove=False).auto_remove is False
    assert Game(seed=7, scoring="pairs").score == 0
