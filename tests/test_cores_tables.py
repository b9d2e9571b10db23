"""The compiled search core (``src/spiderette/engine/_ccore.c``, issue 44) held to the pure-Python core, its
reference, table by table: skipped where the compiled core is not built (``pip install -e .`` builds it, and so
does ``python benchmarks/core_speed.py --build``).

1. On random walks of every built-in variant and number of suits (and designs that build in suit or alternate
   colours or move one card at a time, and finished runs sent by hand), under each way of pruning the searches
   use: the C generator and applier give the pure core's children (``Core.expander``), move for move, in the
   same order, with the same tables, cards dealt, runs finished and cards turned over.
2. The compact key: it decodes to its table, and two tables have one key exactly when the pure search's keys
   (the table while cards are left to deal, else its columns sorted) are equal.
3. The C solver search expands the same tables as the pure one: the same outcome, tables, best table and line.
"""

from __future__ import annotations

import random

import pytest

from spiderette import Game
from spiderette.engine.core import EVERY_MOVE, Core, columns_of
from spiderette.engine.variants import BUILT_IN, RULES, Rules
from spiderette.players import solver
from spiderette.players.solver import COMPLETE, EAGER_STREAMLINER, STREAMLINER

pytest.importorskip("spiderette.engine._ccore", reason="the compiled core is not built here (pip install -e .)")

from spiderette.engine.ccore import compiled_core as make_ccore
from spiderette.engine.ccore import pure_python, step_of

SPIDERETTE = (1, 2, 3, 4, 5, 6, 7)
KINDS = [(name, s, None) for name in BUILT_IN for s in RULES[name].suit_options] + [
    ("spiderette", 4, False),   # finished runs wait to be sent
    ("spider", 2, False),
    (Rules("proto_in_suit", "Proto In Suit", 1, SPIDERETTE, build="suit"), 2, None),
    (Rules("proto_alternate", "Proto Alternate", 1, SPIDERETTE, build="alternate", suit_options=(4, 2)), 4, None),
    (Rules("proto_one_card", "Proto One Card", 1, SPIDERETTE, group="card"), 1, None),
]
IDS = [f"{v if isinstance(v, str) else v.name}-{s}{'-by-hand' if a is False else ''}" for v, s, a in KINDS]
PRUNINGS = {"every": EVERY_MOVE, "complete": COMPLETE, "streamliner": STREAMLINER, "eager": EAGER_STREAMLINER}


def pure_search(space, g, cap):
    """The solver's search of ``space`` from ``g``'s table on the pure-Python core."""
    with pure_python():
        return solver._best_first(space, space.root(g), cap, None)


def pure_key(state: tuple, stock: int) -> tuple:
    cols, dealt, runs = state
    return state if dealt < stock else (tuple(sorted(cols)), runs)


@pytest.mark.parametrize("pruning", PRUNINGS, ids=list(PRUNINGS))
@pytest.mark.parametrize(("variant", "suits", "auto"), KINDS, ids=IDS)
def test_the_children_and_keys_are_the_pure_cores(variant, suits, auto, pruning):
    rng = random.Random(f"{IDS[[k[:3] for k in KINDS].index((variant, suits, auto))]}-{pruning}")
    for seed in rng.sample(range(1, 10_000), 3):
        keys: dict[tuple, bytes] = {}   # (a key leaves out what the deal's root table tells: one deal's keys)
        g = Game(variant, seed=seed, suits=suits, auto_remove=auto)
        core = Core(g, PRUNINGS[pruning])
        expand = core.expander()
        cc = make_ccore(g, PRUNINGS[pruning])
        stock = len(g.stock)
        state = (columns_of(g), 0, g.runs_completed)
        for _ in range(120):
            pure = expand(state)
            got = cc.children(*state)
            assert [(step_of(m), cols, dealt, runs, turned) for m, cols, dealt, runs, turned in pure] == got
            for _, cols, dealt, runs, _ in pure:
                child = (cols, dealt, runs)
                key, order = cc.key(*child)
                assert cc.decode(key, order) == child
                assert keys.setdefault(pure_key(child, stock), key) == key
            if not pure:
                break
            _, *child, _ = rng.choice(pure)
            state = tuple(child)
        assert len(set(keys.values())) == len(keys)   # one key a table: none shared by two


@pytest.mark.parametrize(("variant", "suits", "seed"), [("spiderette", 4, 1), ("spiderette", 1, 3),
                                                      ("spiderette", 2, 5), ("will_o_the_wisp", 4, 2),
                                                      ("red_black_spiderette", 4, 4), ("spider", 1, 6),
                                                      ("spider", 2, 2), ("spider", 4, 1),
                                                      (KINDS[-2][0], 4, 3), (KINDS[-1][0], 1, 4),
                                                      # (won within the budget)
                                                      ("spiderette", 1, 5), ("spiderette", 2, 12),
                                                      ("red_black_spiderette", 4, 27)])
def test_the_c_search_expands_the_pure_searchs_tables(variant, suits, seed):
    g = Game(variant, seed=seed, suits=suits)
    space = solver._Search(g)
    w = space.w
    outcome, line, nodes, best, still = pure_search(space, g, (None, 8000, None))
    res = make_ccore(g, COMPLETE).search(0, g.runs_completed, (w.hidden, w.buried, w.out_of_order, w.off_suit,
                                                               w.in_stock, w.empty_column, w.finished_run, w.path),
                                         8000, 0, 0.0)
    assert (res["outcome"], res["nodes"], res["best"], res["open"]) == (outcome, nodes, best, still)
    assert [tuple(s) for s in res["line"]] == [step_of(m) for m in line]


def test_the_c_search_stops_at_the_held_bound_where_the_pure_one_does():
    g = Game(seed=80)
    space = solver._Search(g)
    w = space.w
    outcome, line, nodes, best, still = pure_search(space, g, (None, 20_000, 5_000))
    res = make_ccore(g, COMPLETE).search(0, 0, (w.hidden, w.buried, w.out_of_order, w.off_suit, w.in_stock,
                                                w.empty_column, w.finished_run, w.path), 20_000, 5_000, 0.0)
    assert outcome == "held"
    assert (res["outcome"], res["nodes"], res["best"], res["open"]) == (outcome, nodes, best, still)
    assert [tuple(s) for s in res["line"]] == [step_of(m) for m in line]


@pytest.mark.parametrize(("suits", "seed"), [(2, 12), (4, 1)])
def test_the_c_search_sends_finished_runs_by_hand_as_the_pure_one(suits, seed):
    g = Game(seed=seed, suits=suits, auto_remove=False)
    space = solver._Search(g)
    w = space.w
    outcome, line, nodes, best, still = pure_search(space, g, (None, 8000, None))
    res = make_ccore(g, COMPLETE).search(0, 0, (w.hidden, w.buried, w.out_of_order, w.off_suit, w.in_stock,
                                                w.empty_column, w.finished_run, w.path), 8000, 0, 0.0)
    assert (res["outcome"], res["nodes"], res["best"], res["open"]) == (outcome, nodes, best, still)
    assert [tuple(s) for s in res["line"]] == [step_of(m) for m in line]
    assert outcome == "win" or suits == 4   # (deal 12 of two suits is won, its runs sent by hand)


@pytest.mark.parametrize(("variant", "suits", "seed", "tables", "held"),
                         [("spiderette", 4, 12, 5000, None), ("spiderette", 4, 80, 60_000, None),   # (80: lost)
                          ("spiderette", 4, 80, 60_000, 5000), ("spiderette", 1, 3, 20_000, None),
                          ("spiderette", 2, 5, 20_000, None), ("will_o_the_wisp", 4, 2, 10_000, None),
                          ("red_black_spiderette", 4, 4, 10_000, None), ("spider", 2, 2, 5000, None),
                          ("spider", 4, 3, 5000, None)])
def test_the_c_proof_pass_visits_the_pure_ones_tables(variant, suits, seed, tables, held):
    """The layers in the pure pass's order (a layer's tables sorted as Python sorts its keys, the same layer's
    new tables last in, first out), to the same counts at a budget, a held bound or the end."""
    from spiderette import Limit
    from spiderette.engine.ccore import pure_python
    from spiderette.players.proof import prove

    g = Game(variant, seed=seed, suits=suits)
    with pure_python():
        p = prove(g, Limit(tables=tables, held=held))
    r = make_ccore(g, COMPLETE).prove(g.runs_completed, tables, held or 0, 0.0)
    assert (r["outcome"], r["tables"], r["still"], r["layers"], r["peak"], r["stopped"]) == \
        (p.outcome, p.tables, p.still, p.layers, p.peak, p.stopped)
    assert (p.outcome, p.stopped) != ("open", "") and (seed != 80 or p.outcome == "lost" or p.stopped == "memory limit")


def mid_game(variant: str, suits: int, seed: int, quarters: int) -> Game:
    """A position ``quarters`` quarters of the way along the solver's winning line (0: just after its last deal,
    where the columns are interchangeable: the keys sorted, two decks' twin cards and columns among them)."""
    g = Game(variant, seed=seed, suits=suits)
    line = solver.solve(g, node_limit=20_000).moves
    g.play(line[: len(line) * quarters // 4] if quarters else line[: max(i for i, m in enumerate(line)
                                                                           if m.kind == "deal") + 1])
    return g


@pytest.mark.parametrize(("variant", "suits", "seed", "quarters", "pruning", "tables", "held"),
                         [("spiderette", 4, 12, 3, "complete", 20_000, None),   # (a run finished, 3 cards to deal)
                          ("spiderette", 2, 9, 2, "every_move", 20_000, None),
                          ("spiderette", 2, 5, 3, "streamliner", 20_000, None),   # (the stock dealt out)
                          ("spiderette", 4, 12, 2, "planner_moves", 20_000, 3_000),
                          ("will_o_the_wisp", 1, 5, 2, "complete", 20_000, None),
                          ("red_black_spiderette", 4, 6, 3, "every_move", 10_000, None),
                          ("spiderette", 4, 12, 0, "complete", 20_000, None),
                          ("spider", 1, 3, 0, "complete", 20_000, None),   # (three runs finished)
                          ("spider", 2, 3, 0, "every_move", 10_000, 5_000),
                          ("will_o_the_wisp", 1, 5, 0, "complete", None, None)])   # (won after 79,293 tables)
def test_prove_gives_the_pure_passs_answer_on_the_compiled_core(variant, suits, seed, quarters, pruning, tables,
                                                                held):
    """``prove()`` routed to the compiled core from a position mid-game (cards dealt, runs finished), by each
    pruning's name: the pure pass's outcome, tables, tables still to visit, layers, peak and reason."""
    from spiderette import Limit
    from spiderette.engine.ccore import in_use, pure_python
    from spiderette.players.proof import prove

    g = mid_game(variant, suits, seed, quarters)
    assert in_use()
    c = prove(g, Limit(tables=tables, held=held), pruning=pruning)
    with pure_python():
        p = prove(g, Limit(tables=tables, held=held), pruning=pruning)
    assert vars(c) == {**vars(p), "seconds": c.seconds}
    assert tables or c.outcome == "won"
