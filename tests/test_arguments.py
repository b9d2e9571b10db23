"""Arguments with one meaning (issue 26, item 6): each of the fuzzer's reproductions, refused as documented.

Each method of ``hint`` takes only its own arguments; a wrong type is a ``TypeError`` and a wrong value a
``ValueError`` in every entry point; budgets are capped; reprs stay short; an ``*_async`` function checks
every argument before it makes the Future; ``analyse``'s budget bounds the planner's pass too.
"""

from __future__ import annotations

import pytest

from spiderette import Game, PlannerStrategy, RandomStrategy, SolverStrategy, hint, hints, simulate, solve, solve_async
from spiderette.players.analysis import analyse, analyse_async
from spiderette.players.limits import MAX_TABLES
from spiderette.players.planner import DEFAULT_TURNS, plan

LOOP = ("bg1 ad1 ca1 cf1 df2 db1 de1 d ec1 fd1 gc1 ac1 fa3 d ba1 fb1 cb1 ca4 cd1 ed1 ab4 ae2 ae4 ea8 ec1 da3 ae11"
        " eg12 da2 bd7 eb1 eb1 fb1 bf5 fc6 gb2 ag2 gc3 fa1 ge1 gc1 gb1 d ga1 df1 da8 ba1 fb2 be5 ab11 ea6 ec1"
        " fa1 fc1 cf1 fb2 gb1 ga1")


@pytest.fixture
def g() -> Game:
    return Game(seed=7)


@pytest.mark.parametrize("method, kwargs, named", [
    ("planner", {"node_limit": 1, "time_limit": 0.001, "samples": 3}, ["node_limit", "time_limit", "samples"]),
    ("ranked", {"budget": object()}, ["budget"]),
    ("ranked", {"seed": 3}, ["seed"]),
    ("search", {"budget": 500}, ["budget"]),
    ("solver", {"samples": 4, "seed": 1}, ["samples", "seed"]),
])
def test_each_method_of_hint_refuses_the_arguments_of_the_others(g, method, kwargs, named):
    with pytest.raises(TypeError) as e:
        hint(g, method=method, **kwargs)
    said = str(e.value)
    assert said.startswith(f"hint(method={method!r}) takes ") and all(k in said for k in named), said
    assert "is an argument of method=" in said   # and which method it belongs to


def test_hints_takes_a_budget_for_the_planner_only(g):
    with pytest.raises(TypeError, match=r"hints\(method='ranked'\) takes no other argument, not budget"):
        hints(g, method="ranked", budget=5)
    assert hints(g, method="planner", budget=300)[0].move in g.legal_moves()


@pytest.mark.parametrize("seed", [float("nan"), 1.5, "1", True])
def test_the_search_seed_is_a_whole_number(g, seed):
    with pytest.raises(TypeError, match="seed must be a whole number"):
        hint(g, method="search", seed=seed, samples=2, node_limit=100)


def test_the_same_search_seed_gives_the_same_answer(g):
    first = hint(g, method="search", seed=5, samples=3, node_limit=300)
    assert hint(g, method="search", seed=5, samples=3, node_limit=300) == first


def test_the_planner_memory_is_a_set_of_visible_tables(g):
    with pytest.raises(TypeError, match="seen must be a set of visible tables"):
        plan(g, seen=0)
    with pytest.raises(TypeError, match="seen must be a set of visible tables"):
        plan(g, seen=[((0, b""),) * 7])
    with pytest.raises(ValueError, match="seen must hold visible tables"):
        plan(g, seen={1})
    assert plan(g, seen=set()) is not None


@pytest.mark.parametrize("call", [
    lambda g: solve(g, node_limit="x"), lambda g: solve(g, time_limit="x"), lambda g: solve_async(g, node_limit="x"),
    lambda g: hint(g, method="solver", node_limit="x"), lambda g: hint(g, method="search", node_limit="x"),
    lambda g: hint(g, method="search", samples="x"), lambda g: hint(g, budget="x"), lambda g: hint(g, method=3),
    lambda g: hints(g, method=3), lambda g: hints(g, budget=2.0), lambda g: plan(g, budget="x"),
    lambda g: analyse(g, node_limit="x"), lambda g: analyse(g, max_solves=2.0), lambda g: analyse(g, planner="yes"),
    lambda g: analyse_async(g, planner="yes"), lambda g: analyse_async(g, node_limit="x"),
    lambda g: SolverStrategy(node_limit="x"), lambda g: PlannerStrategy(budget="x"),
    lambda g: simulate(RandomStrategy(), deals=[1], seed=1.5, progress=False),
    lambda g: simulate(RandomStrategy(), deals=[1], progress="no"),
], ids=lambda c: "")
def test_a_wrong_type_is_a_type_error_everywhere(g, call):
    with pytest.raises(TypeError):
        call(g)


@pytest.mark.parametrize("call", [
    lambda g: solve(g, node_limit=10**400), lambda g: analyse(g, node_limit=10**400),
    lambda g: hint(g, method="solver", node_limit=10**400), lambda g: solve_async(g, node_limit=10**400),
    lambda g: analyse_async(g, node_limit=MAX_TABLES + 1), lambda g: hint(g, budget=10**400),
    lambda g: plan(g, budget=MAX_TABLES + 1), lambda g: hints(g, budget=0), lambda g: hint(g, method="search",
                                                                                           samples=10**9),
    lambda g: hint(g, method="nope"), lambda g: analyse(g, max_solves=10**9),
    lambda g: simulate(RandomStrategy(), deals=[1], max_moves=10**400, progress=False),
    lambda g: simulate(RandomStrategy(), deals=[1], seed=2**64, progress=False),
], ids=lambda c: "")
def test_a_wrong_value_or_a_budget_above_the_cap_is_a_value_error_at_once(g, call):
    """(``node_limit=10**400`` used to overflow inside the search, and ``solve_async`` raised it only from its
    Future: the call itself refuses it now.)"""
    with pytest.raises(ValueError) as e:
        call(g)
    assert not isinstance(e.value, (TypeError, OverflowError))


def test_an_async_function_checks_every_argument_before_the_future(g):
    with pytest.raises(TypeError, match="planner must be True or False, not 'yes'"):
        analyse_async(g, planner="yes")   # it used to fail only at result()
    with pytest.raises(ValueError, match="max_solves"):
        analyse_async(g, max_solves=1)


def test_reprs_quote_long_values_briefly():
    with pytest.raises(ValueError, match="budget must be a whole number from 1 to 1000000000"):
        PlannerStrategy(budget=10**5000)   # its repr used to raise: the value is refused when made
    long = RandomStrategy(name="x" * 10_000)
    assert len(repr(long)) < 200 and "10000 characters" in repr(long)
    assert repr(PlannerStrategy(budget=500)) == f"PlannerStrategy(budget=500, value='learned', turns={DEFAULT_TURNS})"


def test_the_analysis_budget_bounds_the_planner_pass_too():
    """``analyse(game, node_limit=2000, max_solves=2)`` of a 658-move game took 47 s in its planner pass: the
    pass is paid from the same budget now, so the tables spent stay within it and the summary says how far
    the planner's choice was checked."""
    g = Game(seed=400793632, suits=1)
    g.play(LOOP)
    for _ in range(60):
        g.play("ac1 ca1")
    small = analyse(g, node_limit=2000, max_solves=2)
    assert small.tables <= small.budget == 4000
    assert all(s.planner is None for s in small.steps) and "planner's choice was not checked" in small.summary
    some = analyse(g, node_limit=20_000, max_solves=2)
    marked = [s.planner for s in some.steps if s.planner is not None]
    assert some.tables <= some.budget and 0 < len(marked) < len(g.history)
    assert f"checked for {len(marked)} moves of {len(g.history)}" in some.summary
    assert marked == [s.planner for s in some.steps][:len(marked)]   # from the first move on
