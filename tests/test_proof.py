"""The layered proof pass (players/proof.py): it visits every table the engine can reach, each once, and
its verdicts agree with the solver's complete search."""

from __future__ import annotations

import contextvars
import random
import threading
from unittest.mock import ANY

import pytest
from spiderette_testkit import reachable

from spiderette import Game
from spiderette.engine import ccore
from spiderette.engine.core import columns_of
from spiderette.players.proof import PRUNINGS, Outcome, Proof, prove
from spiderette.players.solver import solve

# A two-suit position with the stock dealt out: 740 tables reachable, none won.
SMALL_LOSS = ("spiderette:2 4H3H6S/8s2STH8HKS/th6h5S7S/9has4hTS6S9S8S7H6H5H/qskhjs2s4S8H9H3S2HAH/"
              "qhasqs3s2hTS3HAHKHQHJH/5h9s7s4s7h5sJHJSKS - - 25 475 33")


@pytest.fixture(autouse=True, params=["pure", "compiled"])
def core(request):
    """Every test here on both cores: the pure-Python pass (the reference) and the compiled one."""
    if request.param == "pure":
        with ccore.pure_python():
            yield request.param
    elif not ccore.COMPILED:
        pytest.skip(f"the compiled core is not here ({ccore.WHY_PURE})")
    else:
        yield request.param


def sorted_once_dealt(x: Game) -> tuple:
    """A table's name, its columns sorted once the stock is empty (they are then interchangeable)."""
    cols = columns_of(x)
    return x.stock_count, (cols if x.stock_count else tuple(sorted(cols))), x.runs_completed


@pytest.mark.parametrize("start", [SMALL_LOSS, 80], ids=["stock dealt out", "deal 80 from its start"])
def test_a_proof_of_loss_visits_every_table_the_engine_reaches_once(start):
    g = Game.from_position(start) if isinstance(start, str) else Game(seed=start)
    before = g.to_dict()
    p = prove(g)
    assert p.outcome == Outcome.LOST and p.still == 0
    assert p.tables == reachable(g, sorted_once_dealt)   # 740; 22,382 for deal 80, through its four deals
    assert p.peak < p.tables, "finished layers are forgotten"
    assert g.to_dict() == before
    assert str(p).startswith(f"proven lost: every one of {p.tables:,} reachable tables visited")


def positions(n: int) -> list[Game]:
    """Positions of every suit count, some along a solver's winning line and some after random moves."""
    rng = random.Random(5)
    out = []
    for seed in range(1, n + 1):
        g = Game(seed=seed, suits=rng.choice([1, 2, 4]))
        if seed % 2:
            line = solve(g, node_limit=20_000).moves
            g.play(line[: len(line) * 3 // 4])
        for _ in range(rng.randint(0, 40)):
            moves = g.legal_moves()
            if not moves:
                break
            g.apply(rng.choice(moves))
        out.append(g)
    return out


def test_the_verdicts_agree_with_the_solvers_complete_search():
    decided = 0
    for g in positions(24):
        p = prove(g, node_limit=30_000)
        if p.outcome == Outcome.OPEN:
            assert p.tables == 30_000 and p.still > 0
            continue
        decided += 1
        full = solve(g, time_limit=None, node_limit=None)
        assert (p.outcome, full.result) in {("lost", "loss"), ("won", "win")}, g.position()
    assert decided >= 12


def test_a_table_one_move_from_the_win_is_won():
    g = Game(seed=12)
    line = solve(g, node_limit=20_000).moves
    g.play(line[:-1])
    assert prove(g).outcome == Outcome.WON


def test_the_budget_and_the_cancel_stop_it_with_the_work_left_counted():
    g = Game(seed=3)
    p = prove(g, node_limit=2_000)
    assert (p.outcome, p.tables, p.stopped, p.cancelled) == ("open", 2_000, "node limit", False)
    assert p.still > 0 and str(p).endswith(f"at least {p.still:,} more to visit")
    assert str(p).startswith("no proof yet (node limit): 2,000 tables visited")
    again = prove(Game(seed=3), node_limit=2_000)
    assert (again.tables, again.still, again.layers, again.peak) == (p.tables, p.still, p.layers, p.peak), \
        "the same answer again"
    held = prove(g, max_held=5_000)
    assert (held.outcome, held.stopped, held.peak) == ("open", "memory limit", 5_000)
    stop = threading.Event()
    stop.set()
    p = prove(g, cancel=stop)
    assert p.outcome == "open" and p.cancelled and p.tables < 256
    assert prove(g, time_limit=0.2).outcome == "open"


def test_a_cancel_set_from_another_thread_stops_a_long_pass():
    stop, out, here = threading.Event(), [], contextvars.copy_context()   # (the core chosen here, in the thread)
    worker = threading.Thread(target=lambda: out.append(here.run(prove, Game(seed=180), cancel=stop)))
    worker.start()
    threading.Timer(0.3, stop.set).start()
    worker.join(60)
    assert not worker.is_alive() and out[0].outcome == "open" and out[0].cancelled and 0 < out[0].tables


@pytest.mark.parametrize("most", [1, 10, 1_000])
def test_the_pass_never_holds_more_tables_than_max_held(most):
    p = prove(Game(seed=3), max_held=most)
    assert (p.outcome, p.stopped, p.peak) == ("open", "memory limit", most)
    assert p.still > 0 and str(p).startswith("no proof yet (memory limit)")


def test_the_peak_is_exact_a_bound_of_the_peak_is_enough_and_one_less_is_not():
    full = prove(Game(seed=80))
    assert prove(Game(seed=80), max_held=full.peak) == Proof(**{**vars(full), "seconds": ANY})
    short = prove(Game(seed=80), max_held=full.peak - 1)
    assert (short.outcome, short.stopped, short.peak) == ("open", "memory limit", full.peak - 1)
    assert short.tables < full.tables


def test_a_pruning_is_given_by_value_or_by_name():
    for name, pruning in PRUNINGS.items():
        assert prove(Game(seed=12), node_limit=3_000, pruning=name) == \
            Proof(**{**vars(prove(Game(seed=12), node_limit=3_000, pruning=pruning)), "seconds": ANY})
    with pytest.raises(ValueError, match="pruning must be a Pruning or one of 'complete', 'every_move', "
                                         "'streamliner', 'planner_moves', not 'x'"):
        prove(Game(seed=1), pruning="x")


@pytest.mark.parametrize(("call", "error"), [
    (lambda: prove("deal 7"), TypeError),
    (lambda: prove(Game(seed=1), node_limit=0), ValueError),
    (lambda: prove(Game(seed=1), time_limit=-1), ValueError),
    (lambda: prove(Game(seed=1), cancel=True), TypeError),
    (lambda: prove(Game(seed=1), max_held=0), ValueError),
    (lambda: prove(Game(seed=1), pruning="x"), ValueError),
    (lambda: prove(Game(seed=1), pruning=3), ValueError),
])
def test_bad_arguments_are_refused_by_name(call, error):
    with pytest.raises(error):
        call()
