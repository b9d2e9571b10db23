"""The searches bounded in memory (issue 42): ``Limit.held`` is kept by the solver and the analysis as well as
the proof pass, a bounded search says "unknown" and never a wrong verdict, the table's searches pass their
bounds (:data:`~spiderette.players.limits.SOLVER_HELD`, :data:`~spiderette.players.limits.PROOF_HELD`), a long
search gives its memory back, and the table's searches count in tables alone when asked (no clock)."""

from __future__ import annotations

import pytest
from spiderette_testkit import build, run

from spiderette import Game, Limit, analyse, solve
from spiderette.engine import ccore, platform
from spiderette.players import limits, proof, solver
from spiderette.players.limits import DEFAULT_SECONDS, PROOF_HELD, SOLVER_HELD, budget_of
from spiderette.players.solver import MEMORY_BOUND

ONE_FROM_WON = build("spiderette", [run("S", 13, 2), ["AS"]], foundations=["H", "D", "C"])
#: The most tables a search expands between two looks at what it holds, times the most children of a table:
#: what a search bounded by ``held`` may hold beyond it.
SLACK = 256 * 60


def test_the_solver_stops_at_its_memory_bound_with_unknown_never_a_wrong_verdict():
    """Deal 80 is lost (its proof: some 23,000 tables expanded). Bounded below what the proof holds, the solver
    says "unknown" for want of memory, holding no more than the bound (and one step's slack); bounded above
    it, it proves the loss as before. A deal it wins is won within a bound too."""
    free = solve(Game(seed=80), Limit(tables=200_000))
    assert free.result == "loss"
    for held in (2_000, 10_000):
        res = solve(Game(seed=80), Limit(tables=200_000, held=held))
        assert (res.result, res.reason) == ("unknown", MEMORY_BOUND), "never a loss it did not prove"
        assert res.open_tables is not None and 0 < res.open_tables <= held + SLACK
        assert res.nodes < free.nodes and "memory bound reached" in str(res)
    assert solve(Game(seed=80), Limit(tables=200_000, held=5_000_000)).result == "loss"
    assert solve(Game(seed=12), node_limit=20_000, max_held=200_000).result == "win"


def test_held_is_a_field_of_the_solvers_budget_and_its_shorthand_max_held():
    g = Game(seed=80)
    assert solve(g, Limit(tables=50_000, held=3_000)).reason == solve(g, node_limit=50_000, max_held=3_000).reason
    with pytest.raises(ValueError, match="max_held must be"):
        solve(g, max_held=0)
    shorthands = {"time_limit": (None, None), "node_limit": (None, None), "max_held": (None, None)}
    default = Limit(seconds=DEFAULT_SECONDS)   # (held alone: the default seconds, and the bound kept)
    assert budget_of("solve", Limit(held=5), shorthands, default=default) == Limit(seconds=10.0, held=5)


def test_the_analysis_passes_its_bound_to_every_solve(monkeypatch):
    g = Game(seed=80)
    g.play(g.legal_moves()[:1])
    held = []
    real = solver.solve

    def spy(position, limit=None, **kw):
        held.append(limit.held)
        return real(position, limit, **kw)

    from spiderette.players import analysis
    monkeypatch.setattr(analysis, "solve", spy)
    bounded = analyse(g, Limit(tables=30_000, held=2_000), planner=False, max_solves=2)
    assert held and set(held) == {2_000}
    assert {s.verdict for s in bounded.steps} == {"unknown"}, "stopped for memory: nothing decided, nothing wrong"
    held.clear()
    assert analyse(g, node_limit=30_000, max_held=2_000, planner=False, max_solves=2).steps == bounded.steps
    assert set(held) == {2_000}


def test_the_tables_searches_pass_their_memory_bounds(monkeypatch):
    """The post-mortem's solves and the Winnable? rounds hold at most SOLVER_HELD tables, the proof pass
    PROOF_HELD: some 240 MiB each."""
    pytest.importorskip("anywidget")
    from spiderette.notebook import postmortem, winnable
    from spiderette.notebook.widget import Widget

    compiled = ccore.COMPILED   # (the bytes a table held on the core the searches run on)
    solver_bytes = limits.COMPILED_SOLVER_TABLE_BYTES if compiled else limits.SOLVER_TABLE_BYTES
    proof_bytes = limits.COMPILED_PROOF_TABLE_BYTES if compiled else limits.PROOF_TABLE_BYTES
    assert SOLVER_HELD * solver_bytes <= limits.TABLE_SEARCH_BYTES < (SOLVER_HELD + 1) * solver_bytes
    assert PROOF_HELD * proof_bytes <= limits.TABLE_SEARCH_BYTES < (PROOF_HELD + 1) * proof_bytes
    seen = []
    real_analyse = postmortem.analyse
    monkeypatch.setattr(postmortem, "analyse", lambda g, **kw: seen.append(("analyse", kw["max_held"])) or
                        real_analyse(g, **kw))
    monkeypatch.setattr(winnable, "solve", lambda g, limit, cancel=None: seen.append(("solve", limit.held)) or
                        solver.solve(g, Limit(tables=10), cancel=cancel))
    monkeypatch.setattr(winnable, "prove", lambda g, limit, cancel=None: seen.append(("prove", limit.held)) or
                        proof.prove(g, Limit(tables=10), cancel=cancel))
    w = Widget(seed=80, record=False, winnable=True)   # (10 tables a round: undecided, searched on)
    assert w.wait(60)
    w.where_did_it_go_wrong(wait=True)
    assert w.wait(120)
    assert ("solve", SOLVER_HELD) in seen and ("prove", PROOF_HELD) in seen and ("analyse", SOLVER_HELD) in seen
    assert all(held == {"prove": PROOF_HELD}.get(kind, SOLVER_HELD) for kind, held in seen)
    w.close()


def test_a_long_search_gives_its_memory_back(monkeypatch):
    given = []
    monkeypatch.setattr(solver, "give_back", lambda: given.append("solve"))
    monkeypatch.setattr(proof, "give_back", lambda: given.append("prove"))
    solve(Game(seed=80), node_limit=limits.GIVE_BACK_AFTER - 1_000)
    proof.prove(Game(seed=80), node_limit=1_000)
    assert given == [], "a short search: nothing to give back"
    solve(Game(seed=80), node_limit=200_000)                  # (its proof: more tables than that)
    proof.prove(Game(seed=80))
    assert given == ["solve", "prove"]
    limits.give_back()   # (the real one: a collection, and malloc_trim where there is one)


def test_the_tables_searches_count_in_tables_alone_when_asked(monkeypatch):
    """With SPIDERETTE_TABLES_ONLY set (as in every test), the Winnable? rounds have no seconds: the same
    verdict on any machine, however busy; without it, their seconds as well."""
    pytest.importorskip("anywidget")
    from spiderette.notebook import winnable
    from spiderette.notebook.widget import Widget

    budgets = []
    monkeypatch.setattr(winnable, "solve", lambda g, limit, cancel=None: budgets.append(limit) or
                        solver.solve(g, limit, cancel=cancel))
    for value, seconds in (("1", None), ("0", winnable.WINNABLE_TIME_LIMIT)):
        monkeypatch.setenv(platform.TABLES_ONLY, value)
        w = Widget(game=Game.from_dict(ONE_FROM_WON), record=False, winnable=True)
        assert w.wait(60) and w.view["winnable"] == {"state": "win", "moves": 1}
        assert budgets[-1] == Limit(tables=winnable.WINNABLE_TABLES, seconds=seconds, held=SOLVER_HELD)
        w.close()
