"""The two search cores give the same answers (issue 44): the solver, its short search and their budgets, run on
the compiled core and on the pure-Python reference from random positions of every variant and suit count.

The same answer means the whole result: the verdict, the winning line (or none), the tables expanded, the
reason it stopped and the tables left open; at equal budgets in tables, so on any machine. (The move
generator, the keys and the proof pass are compared table by table in ``test_cores_tables.py``.)
"""

from __future__ import annotations

import random
import threading

import pytest

from spiderette import Game, Limit, solve
from spiderette.engine import ccore
from spiderette.engine.variants import BUILT_IN, RULES
from spiderette.players.solver import MEMORY_BOUND, search_line

pytestmark = pytest.mark.skipif(not ccore.COMPILED, reason=f"the compiled search core is not here ({ccore.WHY_PURE})")

KINDS = [(name, s) for name in BUILT_IN for s in RULES[name].suit_options]
IDS = [f"{v}-{s}" for v, s in KINDS]


def position(variant: str, suits: int, seed: int, steps: int, auto_remove: bool | None = None) -> Game:
    """Deal ``seed``, then up to ``steps`` random legal moves (the deal among them)."""
    rng = random.Random(f"{variant}-{suits}-{seed}-{steps}")
    g = Game(variant, seed=seed, suits=suits, auto_remove=auto_remove)
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves or g.is_won:
            break
        g.apply(rng.choice(moves))
    return g


def both(run):
    """``run()`` on the compiled core, then on the pure-Python one."""
    compiled = run()
    with ccore.pure_python():
        pure = run()
    return compiled, pure


def essentials(res) -> tuple:
    return res.result, [str(m) for m in res.moves], res.nodes, res.reason, res.open_tables


@pytest.mark.parametrize(("variant", "suits"), KINDS, ids=IDS)
def test_the_solver_gives_the_same_answer_on_both_cores(variant, suits):
    for seed, steps in ((3, 0), (11, 25), (29, 60)):
        g = position(variant, suits, seed, steps)
        compiled, pure = both(lambda g=g: solve(g, node_limit=6_000))
        assert essentials(compiled) == essentials(pure), (variant, suits, seed, steps)


@pytest.mark.parametrize(("variant", "suits", "seed"), [("spiderette", 1, 5), ("spiderette", 2, 12),
                                                      ("spiderette", 4, 12), ("red_black_spiderette", 4, 27),
                                                      ("spider", 1, 3)])
def test_a_win_is_the_same_line_on_both_cores(variant, suits, seed):
    g = Game(variant, seed=seed, suits=suits)
    compiled, pure = both(lambda: solve(g, node_limit=200_000))
    assert compiled.result == "win"
    assert essentials(compiled) == essentials(pure)
    h = g.copy()
    h.play(compiled.moves)
    assert h.is_won


def test_runs_sent_by_hand_and_a_memory_bound_agree():
    g = position("spiderette", 4, 8, 30, auto_remove=False)
    compiled, pure = both(lambda: solve(g, node_limit=8_000))
    assert essentials(compiled) == essentials(pure)
    g = Game(seed=80)   # (lost; its proof holds more than 5,000 tables)
    compiled, pure = both(lambda: solve(g, Limit(tables=100_000, held=5_000)))
    assert essentials(compiled) == essentials(pure)
    assert (compiled.result, compiled.reason) == ("unknown", MEMORY_BOUND)


def test_a_lost_deal_is_proven_lost_by_both_with_the_same_count():
    g = Game(seed=80)
    compiled, pure = both(lambda: solve(g, node_limit=100_000))
    assert compiled.result == "loss"
    assert essentials(compiled) == essentials(pure)


@pytest.mark.parametrize("deals", [True, False])
def test_the_short_search_gives_the_same_line(deals):
    for seed in (2, 7):
        g = position("spiderette", 4, seed, 10)
        compiled, pure = both(lambda g=g: search_line(g, 3_000, deals=deals))
        assert compiled == pure


def test_a_cancelled_compiled_search_stops_and_says_so():
    stop = threading.Event()
    stop.set()
    res = solve(Game(seed=180), node_limit=10_000_000, cancel=stop)
    assert (res.result, res.reason) == ("unknown", "cancelled")
    assert res.nodes < 20_000   # (it reads the event every 4,096 tables)
