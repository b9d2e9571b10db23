"""One move generator decides every move (issue 41): the refusals, the table's click and the legal moves all
read the search core's moves of the table (:meth:`spiderette.engine.core.Core.moves`), and the game keeps its
table as the core's columns.

* the click (``click_move``) chooses among ``Game.legal_moves()`` and still sends every group where the
  algorithm before did (copied here as the reference) on random positions of every variant;
* a core that leaves a legal move out, or lists an illegal one, changes what ``Game.refusal`` and the click
  say: nothing else decides;
* the core is asked once a table, however often the game asks its legal moves;
* ``Game.packed`` is the table as the core reads it, and undo puts back the very table before the move.
"""

from __future__ import annotations

import pickle
import random

import pytest
from spiderette_testkit import VARIANT_SUITS, VS_IDS

from spiderette import Game, IllegalMoveError, Move
from spiderette.engine.core import Core, columns_of
from spiderette.engine.errors import is_whole, quote
from spiderette.engine.game import a_game
from spiderette.engine.move import move_table
from spiderette.engine.refusals import Refusal
from spiderette.notebook.view import click_move


def reference_click(g: Game, src: int, count: int | None = None) -> Move:
    """``click_move`` as it was before it read the legal moves (its own copy of "a group fits onto a card")."""
    n = a_game(g, "click_move").columns
    if not is_whole(src) or not 0 <= src < n:
        raise IllegalMoveError(f"column {quote(src)} does not exist (columns 0-{n - 1})")
    with g.locked():
        col = g.column(src)
        if not col:
            raise IllegalMoveError(Refusal("empty-column", src, count=count))
        if count is not None:
            if not is_whole(count) or count < 1:
                raise IllegalMoveError(f"count must be a whole number from 1, not {quote(count)}")
            why = g.group_refusal(src, count)
            if why:
                raise IllegalMoveError(why)
        best = None
        fits = g.rules.fits   # (one rank higher; in suit or alternate colours where the variant builds so)
        for k in ([count] if count is not None else range(g.movable(src), 0, -1)):
            moving = col[-k]
            whole_column = k == len(col)  # a whole column moved to an empty one changes nothing
            for d in range(n):
                top = g.top_card(d)
                if d == src or (top is not None and not fits(top, moving)) or (
                        top is None and whole_column):
                    continue
                rank = (2 if top is None else 0 if top == moving + 1 else 1, -k, d)
                if best is None or rank < best[0]:
                    best = (rank, Move("move", src, d, k))
        if best is None:
            k = count or g.movable(src)
            raise IllegalMoveError(Refusal("nowhere-to-go", src, (col[-k], col[-1]) if k > 1 else (col[-1],),
                                           count=k))
        return best[1]


def outcome(click, g: Game, src, count) -> tuple:
    """What a click says: the move, or the error's type and words."""
    try:
        return ("move", click(g, src, count))
    except (IllegalMoveError, TypeError, ValueError) as e:
        return (type(e).__name__, str(e))


def positions(variant: str, suits: int, seed: int, rng: random.Random, every: int = 3, moves: int = 90):
    """Positions of a random walk from deal ``seed`` (runs leaving by themselves or sent by hand), one in
    ``every``: the walk plays a random legal move, taking one back now and then (to reach empty columns and
    long groups as well as dead ends)."""
    g = Game(variant, seed=seed, suits=suits, auto_remove=bool(seed % 2))
    for i in range(moves):
        if i % every == 0:
            yield g
        legal = g.legal_moves()
        if not legal:
            break
        if g.can_undo and rng.random() < 0.1:
            g.undo()
        else:
            g.apply(rng.choice(legal))
    yield g


@pytest.mark.parametrize(("variant", "suits"), VARIANT_SUITS, ids=VS_IDS)
def test_click_move_sends_every_group_where_it_did(variant, suits):
    rng = random.Random(f"{variant}-{suits}")
    compared = moved = 0
    for seed in range(1, 9):
        for g in positions(variant, suits, seed, rng):
            for src in range(-1, g.columns + 1):
                counts = [None, 0, True, *range(1, g.movable(src) + 2)] if 0 <= src < g.columns else [None]
                for count in counts:
                    new, old = outcome(click_move, g, src, count), outcome(reference_click, g, src, count)
                    assert new == old, (g.position(), src, count)
                    compared += 1
                    moved += new[0] == "move"
    assert compared > 2000 and moved > 300, (compared, moved)   # (many clicks, a good share of them moves)


def test_click_move_goes_only_where_the_core_lists(monkeypatch):
    g = Game(seed=7)
    assert click_move(g, 1) == Move.parse("bd1")   # 6H onto 7D (column d)
    real = Core.moves
    monkeypatch.setattr(Core, "moves", lambda self, cols, stock_left: tuple(
        m for m in real(self, cols, stock_left) if m.dst != 3))   # (a generator that never builds on d)
    h = Game(seed=7)
    with pytest.raises(IllegalMoveError, match="nowhere to go"):
        click_move(h, 1)


def test_refusals_follow_the_core(monkeypatch):
    g = Game(seed=7)
    legal, illegal = Move.parse("bd1"), Move.parse("ec1")
    assert g.refusal(legal) is None and g.refusal(illegal).code == "does-not-fit"
    real = Core.moves
    monkeypatch.setattr(Core, "moves", lambda self, cols, stock_left: tuple(
        m for m in real(self, cols, stock_left) if m != legal) + (move_table(self.n)[4][2][1],))
    h = Game(seed=7)
    assert h.refusal(illegal) is None   # the core lists it: legal, whatever the rules of the refusals say
    h.apply(illegal)
    h.undo()
    with pytest.raises(AssertionError, match="no rule says why"):   # left out: refused, and no reason
        h.refusal(legal)
    assert legal not in h.legal_moves()


def test_the_core_is_asked_once_a_table(monkeypatch):
    calls = []
    real = Core.moves
    monkeypatch.setattr(Core, "moves", lambda self, cols, stock_left: calls.append(cols) or real(
        self, cols, stock_left))
    rng = random.Random(41)
    for variant, suits in VARIANT_SUITS:
        g = Game(variant, seed=3, suits=suits, auto_remove=False)
        for step in range(1, 41):
            if g.status != "playing":
                break
            legal = g.legal_moves()
            g.can_deal(), g.sendable(), g.deal_error()
            m = rng.choice(legal)
            assert g.refusal(m) is None and g.why_illegal(m) is None
            g.apply(m)
            assert len(calls) == step, (variant, suits)   # the one table's answer served every question
        assert step >= 10
        calls.clear()


@pytest.mark.parametrize(("variant", "suits"), VARIANT_SUITS, ids=VS_IDS)
def test_packed_is_the_cores_table_and_undo_puts_it_back(variant, suits):
    rng = random.Random(5)
    g = Game(variant, seed=11, suits=suits)
    start = g.position()
    tables = [g.packed()]
    for _ in range(120):
        legal = g.legal_moves()
        if not legal:
            break
        g.apply(rng.choice(legal))
        assert g.packed() == columns_of(g)
        tables.append(g.packed())
    h = pickle.loads(pickle.dumps(g))   # (a game unpickled tells its legal moves afresh)
    assert h.legal_moves() == g.legal_moves() and all(h.refusal(m) is None for m in h.legal_moves())
    while g.can_undo:
        tables.pop()
        g.undo()
        assert g.packed() is tables[-1]   # the table before the move itself: nothing rebuilt
    assert g.position() == start
