"""One budget value (issue 41, part 5): :class:`spiderette.Limit`, as python-chess passes one ``chess.engine.Limit``.

Every search takes it as its one positional argument after the game (or first, where there is no game), and
gives the same answer as with the keyword shorthands it stands for (``node_limit``, ``budget``: tables;
``time_limit``: seconds; ``max_held``: held). A budget given twice and differently is a ``ValueError``; a
budget passed by position the old way (a number) is a ``TypeError`` that says to pass a Limit or keywords.
"""

from __future__ import annotations

import inspect

import pytest

import spiderette
from spiderette import Game, Limit, PlannerStrategy, SearchStrategy, SolverStrategy, hint, hints, solve, solve_async
from spiderette.engine.errors import quote
from spiderette.players import limits
from spiderette.players.analysis import analyse, analyse_async
from spiderette.players.limits import DEFAULT_SECONDS, MAX_TABLES, budget_of
from spiderette.players.planner import plan
from spiderette.players.proof import prove


def played() -> Game:
    g = Game(seed=12)
    g.play("ef cb")
    return g


def said(result: object) -> object:
    """What a search answered, without the seconds it took (the only part that may differ between two runs)."""
    if isinstance(result, spiderette.SolveResult):
        return result.result, result.moves, result.nodes, result.reason, result.open_tables
    if isinstance(result, spiderette.Analysis):
        return [s.verdict for s in result.steps], result.turning_point, result.tables, result.summary
    if isinstance(result, list):
        return [said(h) for h in result]
    if isinstance(result, spiderette.Hint):
        return result.move, result.reason, result.line
    if hasattr(result, "outcome"):   # a Proof
        return result.outcome, result.tables, result.still, result.layers, result.peak, result.stopped
    return result


# ---------------------------------------------------------------------- the value
def test_a_limit_is_public_and_its_repr_reads_back():
    assert spiderette.Limit is limits.Limit and "Limit" in spiderette.__all__
    for limit in (Limit(), Limit(tables=200_000), Limit(seconds=2.5), Limit(tables=6_000_000, held=2_500_000),
                  Limit(tables=1, seconds=1, held=1)):
        assert eval(repr(limit), {"Limit": Limit}) == limit
    assert repr(Limit(tables=6_000_000, held=2_500_000)) == "Limit(tables=6000000, held=2500000)"
    assert repr(Limit()) == "Limit()"


def test_a_limit_is_frozen_hashable_and_takes_keywords_only():
    limit = Limit(tables=500, seconds=2)
    assert limit == Limit(seconds=2.0, tables=500) and hash(limit) == hash(Limit(seconds=2.0, tables=500))
    assert isinstance(limit.seconds, float) and limit.time == limit.seconds   # (chess.engine.Limit's word too)
    with pytest.raises(AttributeError):
        limit.tables = 1
    with pytest.raises(TypeError):
        Limit(500)   # which of tables, seconds, held? Named, always


@pytest.mark.parametrize("field, bad, error, told", [
    ("tables", 0, ValueError, f"tables must be a whole number from 1 to {MAX_TABLES} or None, not 0"),
    ("tables", MAX_TABLES + 1, ValueError, f"tables must be a whole number from 1 to {MAX_TABLES} or None, not"),
    ("tables", 2.5, TypeError, f"tables must be a whole number from 1 to {MAX_TABLES} or None, not 2.5"),
    ("tables", True, TypeError, f"tables must be a whole number from 1 to {MAX_TABLES} or None, not True"),
    ("tables", 10**400, ValueError, "tables must be a whole number from 1 to 1000000000 or None, not a whole number"),
    ("held", -1, ValueError, f"held must be a whole number from 1 to {MAX_TABLES} or None, not -1"),
    ("held", "many", TypeError, f"held must be a whole number from 1 to {MAX_TABLES} or None, not 'many'"),
    ("seconds", 0, ValueError, "seconds must be a number of seconds > 0 or None, not 0"),
    ("seconds", float("nan"), ValueError, "seconds must be a number of seconds > 0 or None, not nan"),
    ("seconds", "5", TypeError, "seconds must be a number of seconds > 0 or None, not '5'"),
    ("seconds", 1e10, ValueError, "seconds must be at most 1,000,000,000 seconds, not 10000000000.0"),
])
def test_a_limit_is_checked_when_made_in_the_words_of_its_field(field, bad, error, told):
    with pytest.raises(error) as e:
        Limit(**{field: bad})
    assert type(e.value) is error and str(e.value).startswith(told)


def test_the_caps_are_the_caps_of_every_budget():
    assert Limit(tables=MAX_TABLES, held=MAX_TABLES).tables == MAX_TABLES
    assert type(DEFAULT_SECONDS) is float   # a plain number: no marker class stands for "the default"


# ---------------------------------------------------------------------- the same search, either way
#: Each search, called with a Limit and with the shorthands it stands for.
SAME = {
    "solve": (lambda: solve(Game(seed=7), Limit(tables=3_000)), lambda: solve(Game(seed=7), node_limit=3_000)),
    "solve both": (lambda: solve(Game(seed=7), Limit(tables=3_000, seconds=60)),
                   lambda: solve(Game(seed=7), node_limit=3_000, time_limit=60)),
    "solve_async": (lambda: solve_async(Game(seed=7), Limit(tables=3_000)).result(timeout=60),
                    lambda: solve_async(Game(seed=7), node_limit=3_000).result(timeout=60)),
    "prove": (lambda: prove(Game(seed=12), Limit(tables=3_000, held=2_000)),
              lambda: prove(Game(seed=12), node_limit=3_000, max_held=2_000)),
    "analyse": (lambda: analyse(played(), Limit(tables=2_000), planner=False),
                lambda: analyse(played(), node_limit=2_000, planner=False)),
    "analyse_async": (lambda: analyse_async(played(), Limit(tables=2_000), planner=False).result(timeout=60),
                      lambda: analyse_async(played(), node_limit=2_000, planner=False).result(timeout=60)),
    "hint": (lambda: hint(Game(seed=7), Limit(tables=300)), lambda: hint(Game(seed=7), budget=300)),
    "hint search": (lambda: hint(Game(seed=7), Limit(tables=200), method="search", samples=2, seed=1),
                    lambda: hint(Game(seed=7), method="search", samples=2, seed=1, node_limit=200)),
    "hint solver": (lambda: hint(Game(seed=7), Limit(tables=500), method="solver"),
                    lambda: hint(Game(seed=7), method="solver", node_limit=500)),
    "hints": (lambda: hints(Game(seed=7), Limit(tables=300)), lambda: hints(Game(seed=7), budget=300)),
    "plan": (lambda: plan(Game(seed=7), Limit(tables=300)), lambda: plan(Game(seed=7), budget=300)),
    "PlannerStrategy": (lambda: PlannerStrategy(Limit(tables=300))(Game(seed=7)),
                        lambda: PlannerStrategy(budget=300)(Game(seed=7))),
    "SearchStrategy": (lambda: SearchStrategy(Limit(tables=200), samples=2)(Game(seed=7)),
                       lambda: SearchStrategy(samples=2, node_limit=200)(Game(seed=7))),
    "SolverStrategy": (lambda: SolverStrategy(Limit(tables=3_000))(Game(seed=7)),
                       lambda: SolverStrategy(node_limit=3_000)(Game(seed=7))),
}


@pytest.mark.parametrize("name", sorted(SAME))
def test_each_search_takes_a_limit_and_answers_as_with_the_shorthands(name):
    with_limit, with_keywords = SAME[name]
    assert said(with_limit()) == said(with_keywords())


def test_a_strategy_made_with_a_limit_shows_the_shorthands_in_its_repr():
    assert repr(PlannerStrategy(Limit(tables=500))) == repr(PlannerStrategy(budget=500))
    assert repr(SearchStrategy(Limit(tables=500))) == repr(SearchStrategy(node_limit=500))
    assert repr(SolverStrategy(Limit(tables=5_000, seconds=3))) == repr(SolverStrategy(node_limit=5_000, time_limit=3))
    assert repr(SolverStrategy(Limit(seconds=3))) == repr(SolverStrategy(time_limit=3))   # a field left out: default


def test_the_widget_thinks_with_a_limit_as_with_a_budget():
    pytest.importorskip("anywidget")
    from spiderette import Widget

    w = Widget(seed=7)
    assert said(w.think(Limit(tables=300), wait=True)) == said(w.think(wait=True, budget=300))
    with pytest.raises(ValueError, match="think counts only tables"):
        w.think(Limit(seconds=2))


# ---------------------------------------------------------------------- one budget, said once
def test_a_limit_and_a_shorthand_that_differ_are_refused():
    g = Game(seed=7)
    calls = [lambda: solve(g, Limit(tables=5_000), node_limit=6_000),
             lambda: solve(g, Limit(seconds=2), time_limit=3),
             lambda: prove(g, Limit(held=100), max_held=200),
             lambda: plan(g, Limit(tables=300), budget=400),
             lambda: hint(g, Limit(tables=300), budget=400),
             lambda: analyse(g, Limit(tables=300), node_limit=400),
             lambda: SolverStrategy(Limit(tables=300), node_limit=None)]
    for call in calls:
        with pytest.raises(ValueError, match="got two budgets that differ: Limit"):
            call()


def test_a_shorthand_that_agrees_or_adds_to_the_limit_is_taken():
    assert repr(SolverStrategy(Limit(tables=5_000), node_limit=5_000)) == repr(SolverStrategy(node_limit=5_000))
    assert repr(SolverStrategy(Limit(tables=5_000), time_limit=3)) == repr(SolverStrategy(node_limit=5_000,
                                                                                            time_limit=3))


@pytest.mark.parametrize("call, told", [
    (lambda g: plan(g, Limit(seconds=2)), "plan counts only tables (no seconds), not Limit(seconds=2.0)"),
    (lambda g: analyse(g, Limit(tables=9, seconds=2)), "analyse counts only tables and held (no seconds)"),
    (lambda g: hint(g, Limit(seconds=1, held=9), method="search"), "hint counts only tables and seconds (no held)"),
    (lambda g: PlannerStrategy(Limit(held=9)), "PlannerStrategy counts only tables (no held)"),
])
def test_a_limit_a_search_cannot_keep_is_refused_not_ignored(call, told):
    with pytest.raises(ValueError) as e:
        call(Game(seed=7))
    assert str(e.value).startswith(told)


def test_the_ranked_hints_take_no_limit():
    with pytest.raises(TypeError, match="takes no other argument, not limit"):
        hint(Game(seed=7), Limit(tables=5), method="ranked")


# ---------------------------------------------------------------------- the old positional order
#: Calls in the old positional orders: solve(g, time_limit, node_limit) and prove(g, node_limit, time_limit)
#: read the same numbers the other way round; they are refused, never read either way.
OLD = {
    "solve(g, 10)": (lambda g: solve(g, 10), 10),
    "solve(g, 10.5)": (lambda g: solve(g, 10.5), 10.5),
    "solve_async(g, 10)": (lambda g: solve_async(g, 10), 10),
    "prove(g, 5_000)": (lambda g: prove(g, 5_000), 5_000),
    "analyse(g, 20_000)": (lambda g: analyse(g, 20_000), 20_000),
    "analyse_async(g, 20_000)": (lambda g: analyse_async(g, 20_000), 20_000),
    "plan(g, 500)": (lambda g: plan(g, 500), 500),
    "hint(g, 'solver')": (lambda g: hint(g, "solver"), "solver"),
    "hints(g, 'ranked')": (lambda g: hints(g, "ranked"), "ranked"),
    "PlannerStrategy(500)": (lambda g: PlannerStrategy(500), 500),
    "SolverStrategy(1000)": (lambda g: SolverStrategy(1_000), 1_000),
    "SearchStrategy(4)": (lambda g: SearchStrategy(4), 4),
    "solve(g, True)": (lambda g: solve(g, True), True),
}


@pytest.mark.parametrize("name", sorted(OLD))
def test_a_budget_passed_by_position_the_old_way_is_refused_with_a_way_to_say_it(name):
    call, given = OLD[name]
    with pytest.raises(TypeError) as e:
        call(Game(seed=7))
    told = str(e.value)
    assert f"takes its budget as a Limit or by keyword, not {quote(given)}: Limit(tables=..." in told


def test_the_old_three_number_calls_are_refused_by_python_itself():
    g = Game(seed=7)
    for call in (lambda: solve(g, None, 5_000), lambda: prove(g, 5_000, 2.0), lambda: plan(g, None, None)):
        with pytest.raises(TypeError, match="positional argument"):
            call()


def test_the_message_names_the_shorthands_of_each_search():
    with pytest.raises(TypeError) as e:
        prove(Game(seed=7), 5_000)
    assert str(e.value) == ("prove takes its budget as a Limit or by keyword, not 5000: Limit(tables=..., "
                            "seconds=..., held=...) or node_limit=..., time_limit=..., max_held=...")


SEARCHES = [solve, solve_async, prove, analyse, analyse_async, hint, hints, plan]
CLASSES = [PlannerStrategy, SolverStrategy, SearchStrategy]


@pytest.mark.parametrize("function", SEARCHES, ids=lambda f: f.__name__)
def test_after_the_game_the_only_positional_parameter_is_the_limit(function):
    _, limit, *rest = inspect.signature(function).parameters.values()
    assert limit.name == "limit" and limit.default is None and limit.kind is limit.POSITIONAL_OR_KEYWORD
    assert all(p.kind is p.KEYWORD_ONLY for p in rest), [p.name for p in rest if p.kind is not p.KEYWORD_ONLY]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_strategy_takes_the_limit_as_its_only_positional_parameter(cls):
    _, limit, *rest = inspect.signature(cls.__init__).parameters.values()
    assert limit.name == "limit" and all(p.kind is p.KEYWORD_ONLY for p in rest)


# ---------------------------------------------------------------------- the solver's default time
def test_the_solver_has_ten_seconds_only_when_its_budget_names_neither_tables_nor_seconds():
    """The default is resolved in one place: a budget in tables alone gets no default time, so it gives the
    same answer on any machine, however busy."""
    shorthands = {"time_limit": (None, None), "node_limit": (None, None)}
    default = Limit(seconds=DEFAULT_SECONDS)
    assert budget_of("solve", None, shorthands, default=default) == Limit(seconds=10.0)
    assert budget_of("solve", Limit(), shorthands, default=default) == Limit(seconds=10.0)
    assert budget_of("solve", Limit(tables=5_000), shorthands, default=default) == Limit(tables=5_000)
    tables_only = {"time_limit": (None, None), "node_limit": (5_000, None)}
    assert budget_of("solve", None, tables_only, default=default) == Limit(tables=5_000)
    res = solve(Game(seed=3), Limit(tables=2_000))   # a deal the solver does not decide in 2,000 tables
    assert res.result == "unknown" and res.reason == "node limit reached"


def test_the_limits_module_says_which_word_means_what():
    doc = limits.__doc__
    for word, means in (("tables", "node_limit"), ("tables", "budget"), ("seconds", "time_limit"),
                        ("held", "max_held")):
        assert f"``{word}``" in doc and f"``{means}``" in doc
    assert limits.SHORTHANDS == {"node_limit": "tables", "budget": "tables", "time_limit": "seconds",
                                 "max_held": "held"}
