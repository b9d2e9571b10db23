"""Which search core the searches run: the compiled one where it was built, else the pure-Python one.

Every search (the solver's, the proof pass's, the planner's) has two forms that give the same answers, table
for table: the **pure-Python core** (:mod:`spiderette.engine.core` and the searches' own loops), the reference,
and the **compiled core** (``_ccore``, one C file, ``_ccore.c``, built by the package's own build where a C
compiler is present). The compiled one runs wherever it imports; the pure one runs in the browser site, where
no compiler was found at install time, or when the environment says ``SPIDERETTE_PURE_PYTHON=1`` (read once,
at import). ``spiderette --version`` says which.

>>> CORE in ("compiled (C)", "pure Python")
True
>>> with pure_python():
...     in_use()
False
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from .core import ALWAYS, WITHOUT_STOCK, Core, Pruning, columns_of, links_table
from .move import DEAL, SENDS, Move, move_table

if TYPE_CHECKING:
    from .game import Game

__all__ = ["COMPILED", "CORE", "PURE_PYTHON_VARIABLE", "describe", "in_use", "pure_python", "compiled_core",
           "core_of", "moves_of", "step_of"]

#: The environment variable that keeps the compiled core off (``SPIDERETTE_PURE_PYTHON=1``).
PURE_PYTHON_VARIABLE = "SPIDERETTE_PURE_PYTHON"


def _load() -> tuple[Any, str]:
    """The compiled module, or ``None`` and why not."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") == "1":
        return None, f"{PURE_PYTHON_VARIABLE}=1"
    try:
        return importlib.import_module(__name__.rpartition(".")[0] + "._ccore"), ""
    except ImportError as e:   # (not built: no compiler at install time, or the browser site)
        return None, "not built here" if "_ccore" in str(e) else f"not loaded ({e})"


_MODULE, WHY_PURE = _load()
#: Is the compiled core here (built and not turned off)?
COMPILED: bool = _MODULE is not None
#: The core the searches run: ``"compiled (C)"`` or ``"pure Python"``.
CORE: str = "compiled (C)" if COMPILED else "pure Python"
_PURE: ContextVar[bool] = ContextVar("spiderette_pure_python", default=False)


def describe() -> str:
    """One line: the search core in use, and why when it is the pure-Python one.

    >>> describe().startswith("search core: ")
    True
    """
    if COMPILED:
        return f"search core: {CORE}"
    return f"search core: {CORE} ({WHY_PURE if WHY_PURE.startswith(PURE_PYTHON_VARIABLE) else 'not compiled here'})"


@contextmanager
def pure_python() -> Iterator[None]:
    """Run the searches started inside the block in this thread on the pure-Python core (the benchmarks'
    and the tests' way of comparing the two; other threads are not affected)."""
    token = _PURE.set(True)
    try:
        yield
    finally:
        _PURE.reset(token)


def in_use() -> bool:
    """Do searches started here run on the compiled core?"""
    return COMPILED and not _PURE.get()


_WHEN = {"never": 0, ALWAYS: 1, WITHOUT_STOCK: 2}


def compiled_core(g: Game, pruning: Pruning, root: tuple[bytes, ...] | None = None, visible: bool = False) -> Any:
    """The compiled core (``_ccore.CCore``) of ``g``'s rules and stock, every card known (as the solver and the
    proof pass see them), pruned by ``pruning``; ``root``: the table its keys are written against (``g``'s).
    ``visible``: the table as a player sees it instead (a 0 for each face-down card, no stock read: the
    planner's). Raises ``RuntimeError`` where the compiled core is not here."""
    if _MODULE is None:
        raise RuntimeError(f"the compiled search core is not here ({WHY_PURE})")
    rules = g.rules
    return _MODULE.CCore(
        root or columns_of(g, visible=visible), b"" if visible else bytes(g.stock), links_table(rules.links),
        None if rules.build == "any" else links_table(rules.fits), rules.unit or 0, rules.deal_with_empty,
        g.auto_remove, _WHEN[pruning.one_empty_column], _WHEN[pruning.no_whole_column_to_empty],
        pruning.whole_groups, pruning.eager, pruning.deals, pruning.shortest_first, g.runs_total, not visible)


def core_of(core: Core, root: tuple[bytes, ...]) -> Any:
    """The compiled core of a pure :class:`~spiderette.engine.core.Core` with no stock (the planner's: the
    visible table, a 0 for each face-down card), its rules, pruning and way of sending runs; ``root``: a table
    of it (the one its keys would be written against). Raises ``RuntimeError`` where the compiled core is not
    here."""
    if _MODULE is None:
        raise RuntimeError(f"the compiled search core is not here ({WHY_PURE})")
    p = core.pruning
    return _MODULE.CCore(
        root, bytes(core.stock), core.links, core.fits, core.unit or 0, core.deal_with_empty, core.auto_remove,
        _WHEN[p.one_empty_column], _WHEN[p.no_whole_column_to_empty], p.whole_groups, p.eager, p.deals,
        p.shortest_first, core.rules.runs, False)


def step_of(m: Move) -> tuple[int, int, int]:
    """A ``Move`` as the compiled core writes a step: ``(src, dst, count)``; a deal ``(-1, -1, 0)``, a send
    ``(-2, column, 0)``.

    >>> step_of(Move("move", 1, 3, 2)), step_of(DEAL)
    ((1, 3, 2), (-1, -1, 0))
    """
    if m.kind == "move":
        return m.src, m.dst, m.count   # type: ignore[return-value]
    return (-1, -1, 0) if m.kind == "deal" else (-2, m.src, 0)   # type: ignore[return-value]


def moves_of(steps: Iterable[tuple[int, int, int]], columns: int) -> list[Move]:
    """The compiled core's steps as the engine's (shared) ``Move`` objects.

    >>> moves_of([(1, 3, 2), (-1, -1, 0), (-2, 4, 0)], 7)
    [Move.parse('bd2'), Move.parse('d'), Move.parse('se')]
    """
    table = move_table(columns)
    return [table[s][d][k] if s >= 0 else DEAL if s == -1 else SENDS[d] for s, d, k in steps]
