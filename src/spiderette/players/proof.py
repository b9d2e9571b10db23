"""A proof of loss, layer by layer: every table the game can reach, visited once, in an order that lets
each finished part of the search be forgotten.

No move of Spiderette can be taken back within a search: a deal never returns to the stock, a card turned
face up never turns down again, a finished run never comes back. So each table lies in a **layer** named by
``(cards dealt, cards face down, runs finished)``, and every move either stays in its layer or goes to a
later one: more cards dealt; or as many dealt and fewer face down; or as many of both and more runs
finished. The pass finishes the layers in that order. Within a layer it visits every table reachable from
the ones that came into it, remembering them; the tables a move takes to a later layer wait there. Once a
layer is finished, no table of a layer still to come can lead back to it: its tables are forgotten. The
pass keeps only the layer it works on and the ones waiting, not every table the game can reach: on deal 180,
lost, 1.7 million tables at the most, where a search that remembers every table holds all 5.1 million
(``benchmarks/proof.py``). On a deal whose space is far larger the tables waiting can outnumber the tables
visited (10 million held after 6 million visited, about 400 bytes each:
:data:`~spiderette.players.limits.PROOF_TABLE_BYTES`): ``max_held`` bounds them, counted at each table kept
(:data:`DEFAULT_MAX_HELD` for ``spiderette solve N --prove``; the Winnable? line holds fewer,
:data:`~spiderette.players.limits.PROOF_HELD`).

When every layer is finished without a table with every run done, the deal is **proven lost**. When the
budget runs out first, the tables found and not yet visited are counted: a proof would still have to visit
each of them (and whatever they lead to), so that count is a lower bound on the work left.

The moves are the complete search's (:data:`spiderette.players.solver.COMPLETE`), which leave out only what
provably changes nothing; once the stock is empty a table is kept with its columns sorted, as columns are
then interchangeable. Reductions that are **not** sound are not made: ignoring which of two same-rank cards
a group rests on (a later move in suit onto one of them differs), or swapping columns while the stock still
deals to them in order.

>>> from spiderette import Game, Limit
>>> p = prove(Game(seed=12), Limit(tables=5_000))
>>> p.outcome, p.tables <= 5_000, p.still > 0
('open', True, True)
"""

from __future__ import annotations

import heapq
import threading
import time
from dataclasses import dataclass

from ..engine import ccore
from ..engine.core import EVERY_MOVE, Core, Pruning, columns_of, without_cyclic_gc
from ..engine.errors import an_event, quote
from ..engine.game import Game, Word, a_game
from ..engine.words import plural
from .limits import GIVE_BACK_AFTER, MAX_TABLES, Limit, budget_of, give_back
from .limits import tables as tables_arg
from .planner import PLANNER_MOVES
from .solver import COMPLETE, STREAMLINER

#: The most tables a pass holds at once where a bound is wanted but none is given (``spiderette solve N
#: --prove``): about 1 GB. Deals 115 and 180 of four suits, lost, hold
#: at most 0.7 and 1.7 million (``benchmarks/proof.py``).
DEFAULT_MAX_HELD = 2_500_000


class Outcome(Word):
    """How a pass ended, a ``str`` equal to its value.

    >>> Outcome("lost") == Outcome.LOST
    True
    """

    LOST = "lost"   # every reachable table visited, none won: proven
    WON = "won"     # a table with every run finished was reached (the pass keeps no line to it)
    OPEN = "open"   # stopped first: its budget ran out, or it was cancelled


@dataclass(frozen=True)
class Proof:
    """What :func:`prove` found: the ``outcome``; ``tables`` visited; ``still``, the tables found and not yet
    visited when it stopped (0 when it finished); ``layers`` finished; ``peak``, the most tables it held at
    once (never more than ``max_held``); ``seconds`` taken; ``stopped``, why an open pass stopped:
    ``"node limit"``, ``"time limit"``, ``"memory limit"`` (one more table would have been more than
    ``max_held``: the table it was looking at counts as not visited) or ``"cancelled"`` ("" when it finished)."""

    outcome: Outcome
    tables: int
    still: int
    layers: int
    peak: int
    seconds: float
    stopped: str = ""

    @property
    def cancelled(self) -> bool:
        """Was it stopped by its ``cancel`` event?"""
        return self.stopped == "cancelled"

    def __str__(self) -> str:
        if self.outcome == "lost":
            return f"proven lost: every one of {self.tables:,} reachable tables visited ({self.seconds:.2f} s)"
        if self.outcome == "won":
            return f"winnable: a winning table reached after {plural(self.tables, 'table')} ({self.seconds:.2f} s)"
        return (f"no proof yet ({self.stopped}): {plural(self.tables, 'table')} visited in {self.seconds:.2f} s, "
                f"{self.layers:,} layers finished; at least {self.still:,} more to visit")


#: The named moves a pass may look at (``pruning="complete"``): the solver's complete search (the default),
#: every legal move, the solver's streamliner and the planner's moves (see :class:`~spiderette.engine.core.Pruning`).
PRUNINGS = {"complete": COMPLETE, "every_move": EVERY_MOVE, "streamliner": STREAMLINER,
            "planner_moves": PLANNER_MOVES}


def pruning_of(value: object) -> Pruning:
    """``value`` as a :class:`~spiderette.engine.core.Pruning`: one itself, its name in :data:`PRUNINGS`, or
    ``None`` (the solver's complete search); anything else is a ``ValueError`` naming the choices.

    >>> pruning_of("every_move") == EVERY_MOVE
    True
    >>> pruning_of("x")
    Traceback (most recent call last):
    ...
    ValueError: pruning must be a Pruning or one of 'complete', 'every_move', 'streamliner', 'planner_moves', not 'x'
    """
    if value is None:
        return COMPLETE
    if isinstance(value, Pruning):
        return value
    if isinstance(value, str) and value in PRUNINGS:
        return PRUNINGS[value]
    names = ", ".join(repr(name) for name in PRUNINGS)
    raise ValueError(f"pruning must be a Pruning or one of {names}, not {quote(value)}")


def prove(g: Game, limit: Limit | None = None, *, node_limit: int | None = None, time_limit: float | None = None,
          cancel: threading.Event | None = None, max_held: int | None = None,
          pruning: Pruning | str | None = None) -> Proof:
    """Visit every table reachable from ``g`` (every card known), layer by layer; ``g`` is not changed.

    ``limit`` (a :class:`~spiderette.Limit`; ``node_limit``, ``time_limit`` and ``max_held`` are its
    shorthands): it stops after ``tables`` visited or ``seconds`` (``None``: no such limit; with neither it
    runs to the end, which may take very long), before it holds more than ``held`` tables (its memory: about
    400 bytes a table on the pure core; ``None``: up to :data:`~spiderette.players.limits.MAX_TABLES`), or when
    ``cancel`` is set: ``prove(g, Limit(tables=6_000_000, held=2_500_000))``. ``pruning`` (a
    :class:`~spiderette.engine.core.Pruning` or its name, see :func:`pruning_of`) defaults to the solver's
    complete search. The same position and limits give the same answer on any machine (but for a time limit),
    on either search core: the compiled one where it is in use (:func:`~spiderette.engine.ccore.in_use`: the same
    tables in the same order, some 10 times as fast, at about 56 bytes a table held), else the pure-Python pass.
    """
    a_game(g, "prove")
    an_event(cancel)
    shorthands = Limit.of(time_limit, node_limit)
    held = tables_arg(max_held, "max_held", none=True)
    limit = budget_of("prove", limit, {"node_limit": (shorthands.tables, None),
                                       "time_limit": (shorthands.seconds, None), "max_held": (held, None)})
    held_cap = limit.held
    pruning = pruning_of(pruning)
    with g.locked():
        start = g.copy()
    t0 = time.perf_counter()
    if ccore.in_use():   # (the compiled core: the same layers, tables and counts, see engine/ccore.py)
        proof = _compiled(start, pruning, limit, held_cap, cancel, t0)
    else:
        with without_cyclic_gc():
            proof = _layers(start, Core(start, pruning), limit, held_cap, cancel, t0)
    if proof.tables >= GIVE_BACK_AFTER:
        give_back()   # (its tables are gone: their memory goes back to the system)
    return proof


def _compiled(g: Game, pruning: Pruning, limit: Limit, held_cap: int | None, cancel: threading.Event | None,
              t0: float) -> Proof:
    """:func:`_layers` run by the compiled core (``CCore.prove``: the same visits in the same order), from any
    position: the cards dealt and the runs finished count from ``g``'s, as here."""
    core = ccore.compiled_core(g, pruning)
    seconds = 0.0 if limit.time is None else max(limit.time - (time.perf_counter() - t0), 1e-9)   # (0: none)
    r = core.prove(g.runs_completed, limit.tables or 0, MAX_TABLES if held_cap is None else held_cap, seconds,
                   False, cancel)
    return Proof(Outcome(r["outcome"]), r["tables"], r["still"], r["layers"], r["peak"], time.perf_counter() - t0,
                 r["stopped"])


def _layers(g: Game, core: Core, limit: Limit, held_cap: int | None, cancel: threading.Event | None,
            t0: float) -> Proof:
    deadline = None if limit.time is None else t0 + limit.time
    cap = limit.tables
    most = MAX_TABLES if held_cap is None else held_cap   # (one comparison a table kept, bound or none)
    stock, goal = len(core.stock), g.runs_total
    children = core.expander()   # (the core's children of a table, its fields read once)

    def down(cols: tuple[bytes, ...]) -> int:
        return sum(c[0] for c in cols)

    def key(cols: tuple[bytes, ...], dealt: int) -> tuple[bytes, ...]:
        return cols if dealt < stock else tuple(sorted(cols))

    # the layers waiting: their names (dealt, -face down, runs) in a heap, their tables in sets
    root = columns_of(g)
    first = (0, -down(root), g.runs_completed)
    if first[2] == goal:
        return Proof(Outcome.WON, 0, 0, 0, 1, time.perf_counter() - t0)
    waiting: dict[tuple[int, int, int], set] = {first: {key(root, 0)}}
    names = [first]
    tables = layers = peak = 0
    held = 1   # the tables held: those waiting and those of the layer in hand (found, visited or not)

    def stop(outcome: Outcome, todo: list, held: int, why: str = "") -> Proof:
        still = len(todo) + sum(len(s) for s in waiting.values())
        return Proof(outcome, tables, 0 if outcome == "lost" else still, layers, max(peak, held),
                     time.perf_counter() - t0, why)

    def full(todo: list, cols: tuple[bytes, ...], held: int) -> Proof:
        """Stopped at ``max_held`` while looking at ``cols``: it is not visited, and still to visit."""
        nonlocal tables
        tables -= 1
        todo.append(cols)
        return stop(Outcome.OPEN, todo, held, "memory limit")

    while names:
        name = heapq.heappop(names)
        dealt, minus_down, runs = name
        seen = waiting.pop(name)   # (its tables were counted in ``held`` as they came)
        todo = sorted(seen, reverse=True)   # (in an order of their own: the same answer on any machine)
        dealing = dealt < stock
        while todo:
            if cap is not None and tables >= cap:
                return stop(Outcome.OPEN, todo, held, "node limit")
            if tables & 255 == 0:
                if deadline is not None and time.perf_counter() > deadline:
                    return stop(Outcome.OPEN, todo, held, "time limit")
                if cancel is not None and cancel.is_set():
                    return stop(Outcome.OPEN, todo, held, "cancelled")
            cols = todo.pop()
            tables += 1
            for m, child, now_dealt, done, turned in children((cols, dealt, runs)):   # (the core's one applier)
                if m.kind == "move" and not turned and done == runs:   # (the same layer: most moves)
                    ck = child if dealing else tuple(sorted(child))
                    if ck not in seen:
                        if held >= most:
                            return full(todo, cols, held)
                        seen.add(ck)
                        todo.append(ck)
                        held += 1
                    continue
                there = (now_dealt, minus_down + turned, done)
                if there[2] == goal:
                    return stop(Outcome.WON, todo, held)
                bucket = waiting.get(there)
                if bucket is None:
                    waiting[there] = bucket = set()
                    heapq.heappush(names, there)
                ck = key(child, there[0])
                if ck not in bucket:
                    if held >= most:
                        return full(todo, cols, held)
                    bucket.add(ck)
                    held += 1
        layers += 1   # (this layer's tables are forgotten here: nothing to come leads back to them)
        peak = max(peak, held)
        held -= len(seen)
    return stop(Outcome.LOST, [], 0)
