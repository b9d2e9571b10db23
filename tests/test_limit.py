"""One budget, checked once: every search that takes ``time_limit`` and ``node_limit`` refuses a bad one through
:class:`spiderette.players.limits.Limit`, in the same words (a wrong type a ``TypeError``, a wrong value or a
budget above the cap a ``ValueError``), and refuses it at once (before a search starts, so also before a
background thread does)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spiderette import Game, SearchStrategy, SolverStrategy, hint, solve, solve_async
from spiderette.engine.errors import quote
from spiderette.players.analysis import analyse, analyse_async
from spiderette.players.limits import MAX_TABLES, Limit
from spiderette.players.search import search_hint

SRC = Path(__file__).resolve().parents[1] / "src" / "spiderette"

#: Every entry point, as a call of (game, keyword arguments), and whether ``node_limit=None`` means "no limit".
ENTRIES = {
    "solve": (lambda g, **kw: solve(g, **kw), True),
    "solve_async": (lambda g, **kw: solve_async(g, **kw), True),
    "hint-solver": (lambda g, **kw: hint(g, method="solver", **kw), True),
    "search_hint": (lambda g, **kw: search_hint(g, **kw), False),
    "hint-search": (lambda g, **kw: hint(g, method="search", **kw), False),
    "SolverStrategy": (lambda g, **kw: SolverStrategy(**kw), True),
    "SearchStrategy": (lambda g, **kw: SearchStrategy(**kw), False),
    "analyse": (lambda g, **kw: analyse(g, **kw), False),
    "analyse_async": (lambda g, **kw: analyse_async(g, **kw), False),
    "Limit.of": (lambda g, **kw: Limit.of(**kw), True),
}
TIMED = {"solve", "solve_async", "hint-solver", "search_hint", "hint-search", "SolverStrategy", "Limit.of"}


@pytest.mark.parametrize("name", sorted(TIMED))
@pytest.mark.parametrize("bad", [0, -1, "5", float("nan"), True, 10**400])
def test_a_bad_time_limit_is_refused_alike_everywhere(name, bad):
    call = ENTRIES[name][0]
    error = TypeError if isinstance(bad, (str, bool)) else ValueError   # a wrong type, or a wrong value
    with pytest.raises(error) as e:
        call(Game(seed=1), time_limit=bad)
    assert type(e.value) is error and str(e.value).startswith("time_limit must be ")


@pytest.mark.parametrize("name", sorted(ENTRIES))
@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "many", MAX_TABLES + 1, 10**400])
def test_a_bad_node_limit_is_refused_alike_everywhere(name, bad):
    """A wrong type is a TypeError and a wrong value a ValueError, in the same words everywhere; a budget
    above the documented cap is refused at once (it used to overflow inside the search, or in the Future)."""
    call, none = ENTRIES[name]
    error = ValueError if isinstance(bad, int) and not isinstance(bad, bool) else TypeError
    told = f"node_limit must be a whole number from 1 to {MAX_TABLES}{' or None' if none else ''}, not {quote(bad)}"
    with pytest.raises(error) as e:
        call(Game(seed=1), node_limit=bad)
    assert type(e.value) is error and str(e.value) == told


def test_a_limit_is_a_checked_frozen_value():
    assert Limit.of(time_limit=2, node_limit=500) == Limit(seconds=2.0, tables=500)
    assert Limit().seconds is None and Limit().tables is None and isinstance(Limit(seconds=1).seconds, float)
    assert Limit.of(node_limit=MAX_TABLES).tables == MAX_TABLES
    with pytest.raises(AttributeError):
        Limit().seconds = 1  # frozen: checked once, then trusted
    with pytest.raises(TypeError, match=f"node_limit must be a whole number from 1 to {MAX_TABLES}, not None"):
        Limit.of(node_limit=None, none=False)


def test_the_budget_is_checked_in_one_place():
    # a check of either limit (a validator named after it, or its words) outside the validators' own examples
    check = re.compile(r'(seconds|whole|is_whole)\([^()]*"(time_limit|node_limit)"|(time_limit|node_limit) must be')
    said = [p.relative_to(SRC).as_posix() for p in sorted(SRC.rglob("*.py"))
            if p.name != "errors.py" and check.search(p.read_text(encoding="utf-8"))]
    assert said == ["players/limits.py"]
