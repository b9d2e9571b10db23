"""A search budget as one value, :class:`Limit` (as ``chess.engine.Limit`` is python-chess's), and the caps of
every budget.

**One word per idea.** Every search counts its budget in the same three words, the fields of a :class:`Limit`:

* ``tables``: the tables (positions) a search may expand or visit, the budget that gives the same answer on
  any machine. The keyword shorthands that name it: ``node_limit`` (:func:`~spiderette.solve`,
  ``prove``, :func:`~spiderette.analyse`, :func:`~spiderette.hint`'s search and solver,
  :class:`~spiderette.SolverStrategy`, :class:`~spiderette.SearchStrategy`) and ``budget`` (the planner's:
  ``plan``, :class:`~spiderette.PlannerStrategy`, ``hint`` and ``hints``, ``Widget.think``);
* ``seconds``: the time it may take; shorthand ``time_limit``;
* ``held``: its memory, the most tables it may hold at once (on the pure-Python core some 600 bytes each in the
  solver, 400 in the proof pass: :data:`SOLVER_TABLE_BYTES`, :data:`PROOF_TABLE_BYTES`; on the compiled core
  under 100: :data:`COMPILED_SOLVER_TABLE_BYTES`); shorthand ``max_held`` (``prove``,
  :func:`~spiderette.solve` and :func:`~spiderette.analyse`, the searches that bound it).

A :class:`Limit` is checked when made (a wrong type is a ``TypeError``, a wrong value a ``ValueError``, each
naming the field), frozen, and its repr reads back:

>>> Limit(tables=200_000)
Limit(tables=200000)
>>> Limit(tables=6_000_000, held=2_500_000) == eval(repr(Limit(tables=6_000_000, held=2_500_000)))
True
>>> Limit(tables=0)
Traceback (most recent call last):
...
ValueError: tables must be a whole number from 1 to 1000000000 or None, not 0

Each search takes it as its one positional argument after the game, ``solve(g, Limit(tables=200_000))``; the
shorthands stay, keyword-only: ``solve(g, node_limit=200_000)`` is the same search. A field left out (``None``)
is as its shorthand left out: the search's default (no such limit for ``prove``; the planner's 2,000 tables;
``SolverStrategy``'s 200,000). With neither tables nor seconds, the solver takes :data:`DEFAULT_SECONDS` (and
only then: a budget in tables alone gives the same answer on any machine); see :func:`budget_of`.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from ..engine import ccore
from ..engine.errors import MAX_SECONDS, is_whole, quote, seconds, whole

#: The most tables any one budget may hold (``tables``, ``node_limit``, the planner's ``budget``, ``held``): a
#: billion tables is hours of search and gigabytes of memory; a larger number is refused, not silently cut.
MAX_TABLES = 10**9
#: The most redealt copies the honest search may sample for one move (``samples``).
MAX_SAMPLES = 100_000
#: The most seconds a ``time_limit`` may hold (about 31 years).
MAX_TIME = MAX_SECONDS
#: The seconds a solve has when its budget names neither seconds nor tables (:func:`budget_of`).
DEFAULT_SECONDS = 10.0
#: Each keyword shorthand, and the field of :class:`Limit` it gives.
SHORTHANDS = {"node_limit": "tables", "budget": "tables", "time_limit": "seconds", "max_held": "held"}


def tables(value: object, name: str = "node_limit", none: bool = False) -> int | None:
    """``value`` as a number of tables: a whole number from 1 to :data:`MAX_TABLES` (or ``None`` when ``none``).

    >>> tables(10**400, "budget")
    Traceback (most recent call last):
    ...
    ValueError: budget must be a whole number from 1 to 1000000000, not a whole number of 401 digits
    """
    if value is None and none:
        return None
    told = f"{name} must be a whole number from 1 to {MAX_TABLES}{' or None' if none else ''}, not {quote(value)}"
    if not is_whole(value):
        raise TypeError(told)
    if not 1 <= value <= MAX_TABLES:
        raise ValueError(told)
    return value


#: What a table held costs, in bytes, on the pure-Python core, measured by ``benchmarks/postmortem.py --memory``
#: and ``benchmarks/winnable.py --memory`` (the resident set's growth over the tables held): the solver's (its
#: dict of every table met, the heap of those still to expand, each new column and its cost) and the proof
#: pass's (the sets of the layers in hand and waiting).
SOLVER_TABLE_BYTES = 600
PROOF_TABLE_BYTES = 400
#: The same on the compiled core (:mod:`spiderette.engine.ccore`: a compact key, its parent and move, a slot;
#: measured by peak resident set over the tables held on deal 180, growth of its arrays included).
COMPILED_SOLVER_TABLE_BYTES = 64
COMPILED_PROOF_TABLE_BYTES = 64
#: What one of the table's background searches may hold (the Winnable? indicator's and the post-mortem's, which
#: may run at once): with both at their bound, a kernel of some 110 MiB stays under 600 MiB.
TABLE_SEARCH_BYTES = 240 * 2**20
#: The ``held`` bounds of the table's searches that keep them to :data:`TABLE_SEARCH_BYTES`: the solver's
#: (the post-mortem's solves, the Winnable? rounds) and the proof pass's (the Winnable? line's last round), on
#: the core the searches run on (the compiled one where it was built).
SOLVER_HELD = TABLE_SEARCH_BYTES // (COMPILED_SOLVER_TABLE_BYTES if ccore.COMPILED else SOLVER_TABLE_BYTES)
PROOF_HELD = TABLE_SEARCH_BYTES // (COMPILED_PROOF_TABLE_BYTES if ccore.COMPILED else PROOF_TABLE_BYTES)
#: How many times the tables the table's searches (the Winnable? rounds, the post-mortem's solves) spend on the
#: compiled core, in about the same seconds as the pure-Python core's budget: it expands ten times the tables
#: a second.
CORE_SPEEDUP = 10 if ccore.COMPILED else 1
#: A search that expanded (or visited) at least this many tables gives its memory back when it ends
#: (:func:`give_back`).
GIVE_BACK_AFTER = 20_000


def give_back() -> None:
    """Give the memory of a finished search back to the system, as far as Python lets it: a full collection,
    which also empties Python's lists of free tuples (a few thousand tuples a search freed last, each keeping
    a block of the allocator's in use: some 200 MB of a kernel kept after a search of half a million tables),
    and, with the GNU C library, ``malloc_trim`` (the larger blocks freed). It takes some milliseconds; the
    searches call it only after a search of :data:`GIVE_BACK_AFTER` tables or more.

    >>> give_back()
    """
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).malloc_trim(0)
        except (AttributeError, OSError):   # (another C library: no malloc_trim)
            pass


def samples_of(value: object) -> int:
    """``value`` as a number of sampled deals: a whole number from 1 to :data:`MAX_SAMPLES`."""
    return whole(value, "samples", 1, MAX_SAMPLES)


def seed_of(value: object, name: str = "seed", none: bool = False) -> int | None:
    """``value`` as the seed of a random choice: a whole number from 0 to 2**64 - 1 (or ``None`` when ``none``:
    fresh randomness). NaN, a float or a bool is a ``TypeError``: the same seed must give the same answer.

    >>> seed_of(float("nan"))
    Traceback (most recent call last):
    ...
    TypeError: seed must be a whole number, not nan
    """
    if value is None and none:
        return None
    return whole(value, name, 0, 2**64 - 1)


@dataclass(frozen=True, kw_only=True)
class Limit:
    """A search budget: at most ``tables`` tables expanded (a whole number from 1 to :data:`MAX_TABLES`),
    ``seconds`` (a number > 0) and ``held`` tables held at once (its memory, 1 to :data:`MAX_TABLES`); each
    optional, ``None`` when not given. Keyword-only, checked when made (a ``TypeError`` for a wrong type, a
    ``ValueError`` for a wrong value, naming the field), frozen; the repr names the fields given.

    >>> from spiderette import Game, solve
    >>> solve(Game(seed=12), Limit(tables=20_000)).result
    'win'
    >>> Limit(seconds=2, tables=500)
    Limit(tables=500, seconds=2.0)
    >>> Limit(seconds="2")
    Traceback (most recent call last):
    ...
    TypeError: seconds must be a number of seconds > 0 or None, not '2'
    """

    tables: int | None = None
    seconds: float | None = None
    held: int | None = None

    def __post_init__(self) -> None:
        tables(self.tables, "tables", none=True)
        object.__setattr__(self, "seconds", seconds(self.seconds, "seconds", positive=True, none=True))
        tables(self.held, "held", none=True)

    def __repr__(self) -> str:
        given = ((f.name, getattr(self, f.name)) for f in fields(self))
        return f"Limit({', '.join(f'{name}={value!r}' for name, value in given if value is not None)})"

    @property
    def time(self) -> float | None:
        """``seconds``, by ``chess.engine.Limit``'s name for it."""
        return self.seconds

    @classmethod
    def of(cls, time_limit: object = None, node_limit: object = None, *, none: bool = True) -> Limit:
        """The budget of the keyword shorthands ``time_limit`` and ``node_limit``, checked in their names
        (``none=False``: ``node_limit`` is required).

        >>> Limit.of(time_limit=None, node_limit=0)
        Traceback (most recent call last):
        ...
        ValueError: node_limit must be a whole number from 1 to 1000000000 or None, not 0
        >>> Limit.of(node_limit="many")
        Traceback (most recent call last):
        ...
        TypeError: node_limit must be a whole number from 1 to 1000000000 or None, not 'many'
        """
        return cls(seconds=seconds(time_limit, "time_limit", positive=True, none=True),
                   tables=tables(node_limit, "node_limit", none))


def a_limit(value: object, call: str, keywords: Iterable[str]) -> Limit | None:
    """``value`` if it is a :class:`Limit` or ``None``; else (a budget passed by position, as before there was
    a ``Limit``) a ``TypeError`` that shows ``call``'s ways to give one: a ``Limit`` or the ``keywords``.

    >>> a_limit(500, "plan", ["budget"])
    Traceback (most recent call last):
    ...
    TypeError: plan takes its budget as a Limit or by keyword, not 500: Limit(tables=...) or budget=...
    """
    if value is None or isinstance(value, Limit):
        return value
    keywords = list(keywords)
    names = {SHORTHANDS[k] for k in keywords}
    example = ", ".join(f"{f.name}=..." for f in fields(Limit) if f.name in names)
    raise TypeError(f"{call} takes its budget as a Limit or by keyword, not {quote(value)}: Limit({example})"
                    f" or {', '.join(f'{k}=...' for k in keywords)}")


def budget_of(call: str, limit: object, keywords: dict[str, tuple[object, object]], *,
              default: Limit | None = None) -> Limit:
    """The one budget of a call of ``call``: its positional ``limit`` (a :class:`Limit` or ``None``) and its
    keyword shorthands, ``keywords`` ``{name: (value, default)}`` (each already checked in its own name).

    The fields of ``limit`` are the budget; a shorthand given (other than its default) fills a field the
    ``limit`` leaves out, and one that says otherwise than the ``limit`` is a ``ValueError``. A field still
    left out takes the default of its shorthand, so ``f(g, Limit(tables=n))`` is ``f(g, node_limit=n)``. A
    field that no shorthand of ``call`` names is a ``ValueError``; a ``limit`` that is not a ``Limit`` (an old
    positional budget) a ``TypeError``. When the budget names neither tables nor seconds, it is ``default``
    (the solver's: :data:`DEFAULT_SECONDS`) if one is given.

    >>> solver = {"time_limit": (None, None), "node_limit": (None, None)}
    >>> budget_of("solve", None, solver, default=Limit(seconds=DEFAULT_SECONDS))
    Limit(seconds=10.0)
    >>> budget_of("solve", Limit(tables=5000), solver, default=Limit(seconds=DEFAULT_SECONDS))
    Limit(tables=5000)
    >>> budget_of("solve", Limit(tables=5000), {"time_limit": (3.0, None), "node_limit": (None, None)})
    Limit(tables=5000, seconds=3.0)
    >>> budget_of("solve", Limit(tables=5000), {"time_limit": (None, None), "node_limit": (900, None)})
    Traceback (most recent call last):
    ...
    ValueError: solve got two budgets that differ: Limit(tables=5000) and node_limit=900; give each limit once
    """
    names = {SHORTHANDS[k] for k in keywords}
    a_limit(limit, call, keywords)
    if limit is None:
        return _default({SHORTHANDS[k]: v for k, (v, _) in keywords.items()}, default)
    foreign = [f.name for f in fields(Limit) if f.name not in names and getattr(limit, f.name) is not None]
    if foreign:
        counts = " and ".join(f.name for f in fields(Limit) if f.name in names)
        raise ValueError(f"{call} counts only {counts} (no {' nor '.join(foreign)}), not {quote(limit)}")
    got, said = {name: getattr(limit, name) for name in names}, set()
    for k, (value, left) in keywords.items():
        field = SHORTHANDS[k]
        if value == left:
            continue
        if got[field] is not None and got[field] != value:
            raise ValueError(f"{call} got two budgets that differ: {quote(limit)} and {k}={quote(value)};"
                             f" give each limit once")
        got[field] = value
        said.add(field)
    for k, (_, left) in keywords.items():   # (a field left out: as if its shorthand were left out)
        if got[SHORTHANDS[k]] is None and SHORTHANDS[k] not in said:
            got[SHORTHANDS[k]] = left
    return _default(got, default)


def _default(got: dict[str, Any], default: Limit | None) -> Limit:
    if default is not None and got.get("tables") is None and got.get("seconds") is None:
        return default if got.get("held") is None else replace(default, held=got["held"])
    return Limit(**got)
