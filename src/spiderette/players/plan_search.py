"""The planner's search: best-first among the cards a player sees, for the best table each first move reaches.

One job: from the visible table, try the lines of moves the search core allows (:data:`PLANNER_MOVES
<spiderette.players.planner.PLANNER_MOVES>`), cheapest table first by the costs of
:mod:`spiderette.players.plan_costs`, within a budget of tables expanded, and keep the best table found under
each first move (:func:`search`); read a line back from the search's nodes (:func:`line_of`, :func:`moves_of`);
the lowest cost met in a stage of the game (:func:`best_met`). What to play of it, or whether to deal, is
:mod:`spiderette.players.planner`'s.

>>> from spiderette import Game
>>> from spiderette.engine.core import Core, columns_of
>>> from spiderette.players.plan_costs import PlanCosts, unseen_cards
>>> from spiderette.players.planner import PLANNER_MOVES
>>> g = Game(seed=7)
>>> core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
>>> best, nodes, expanded, now = search(core, PlanCosts(g, core), table, g.stock_count, set(), 100,
...                                     unseen_cards(g, table), False)
>>> expanded <= 100 and all(g.why_illegal(moves_of(line_of(nodes, nid))[0]) is None for _, nid in best.values())
True

**The table as the search sees it.** A column is the search core's (:mod:`spiderette.engine.core`): bytes, the
face-down count first, then a 0 for each face-down card (the planner never reads one) and the face-up cards; a
table is a tuple of columns, one to one with the columns of :func:`~spiderette.engine.predicates.visible_key`
(:func:`of_key`).
"""

from __future__ import annotations

import functools
import heapq
import struct
import threading
import weakref
from collections.abc import Callable
from typing import Any

from ..engine import ccore
from ..engine.cards import RUN_LENGTH
from ..engine.core import TURNED_DESTINATION, TURNED_SOURCE, Core, visible_column
from ..engine.move import Move
from . import plan_costs
from .plan_costs import EMPTY_WHEN_DEALING, STEP, PlanCosts, ranks_of, turn_value
from .value import LearnedValue

__all__ = ["search", "line_of", "moves_of", "best_met", "of_key", "card_costs"]


def of_key(columns: tuple) -> tuple:
    """The search's table of the columns of a :func:`~spiderette.engine.predicates.visible_key`.

    >>> from spiderette import Game
    >>> from spiderette.engine.core import columns_of
    >>> from spiderette.engine.predicates import visible_key
    >>> g = Game(seed=7)
    >>> of_key(visible_key(g)[0]) == columns_of(g, visible=True)
    True
    """
    return tuple(visible_column(d, up) for d, up in columns)


def search(core: Core, costs: PlanCosts, root: tuple, stock: int, seen: set | frozenset, budget: int,
           unseen: list[int], filling: bool, cancel: threading.Event | None = None) -> tuple[dict, list, int, int]:
    """Best-first search from ``root``: ``(best node per first move, nodes, tables expanded, root cost)``.

    A node is ``(parent, (src, dst, count), value, depth, ends_with)``. With ``filling`` (the planner wants
    to deal) empty columns cost EMPTY_WHEN_DEALING each. ``seen``: the visible tables ``(table, stock)``
    already met in the game; no line passes through one of them again. The moves are ``core``'s
    (the planner's: :data:`~spiderette.players.planner.PLANNER_MOVES`); the value of a table is its parent's,
    less the two columns the move changed, plus the two it made. ``unseen``: the cards a player has not seen
    (:func:`~spiderette.players.plan_costs.unseen_cards`), which value a card turned over. Setting ``cancel``
    stops the search early (what was found so far).

    Runs on the compiled core where it is in use (:func:`spiderette.engine.ccore.in_use`; the same answers,
    node for node), on the pure-Python loop below otherwise, or for costs the compiled one does not know (a
    subclass of :class:`~spiderette.players.plan_costs.PlanCosts` or of its learned value).
    """
    if ccore.in_use():
        got = _compiled(core, costs, root, stock, seen, budget, unseen, filling, cancel)
        if got is not None:
            return got
    return _search(core, costs, root, stock, seen, budget, unseen, filling, cancel)


def _search(core: Core, costs: PlanCosts, root: tuple, stock: int, seen: set | frozenset, budget: int,
            unseen: list[int], filling: bool, cancel: threading.Event | None = None) -> tuple[dict, list, int, int]:
    """:func:`search` in pure Python: the reference."""
    penalty = EMPTY_WHEN_DEALING if filling else 0
    ranks, total = ranks_of(unseen), len(unseen)
    cc, get = costs.column_cost, costs.cache.get
    auto = core.auto_remove

    def cost(table: tuple, runs: int) -> int:
        v = -costs.run_bonus * runs
        for c in table:
            v += cc(c)
            if penalty and len(c) == 1:
                v += penalty
        return v

    root_value = cost(root, 0)
    nodes: list = [(-1, None, root_value, 0, None)]
    heap: list = [(root_value, 0, root, 0)]
    visited = {root} | {of_key(t) for t, s in seen if s == stock}   # (the game's memory: never back to a table met)
    best: dict[int, tuple[int, int]] = {}  # first node id -> (priority, node id)
    first_of = [0]
    expanded = 0
    while heap and expanded < budget:
        if cancel is not None and not expanded % 64 and cancel.is_set():
            break   # cancelled: what was found so far
        _, nid, table, runs = heapq.heappop(heap)
        expanded += 1
        _, _, here, depth, _ = nodes[nid]
        for m in core.moves(table, stock_left=stock > 0):
            if m.kind != "move":
                continue   # (a send: never here, the root sends first and a finished run ends its line)
            s, d, k = m.src, m.dst, m.count
            assert s is not None and d is not None and k is not None   # (a move of the table: all three)
            col, dcol = table[s], table[d]
            left, moved, finished, turned = core.shift(col, dcol, k)   # (the one applier says what it did)
            down, dd = col[0], dcol[0]
            src_turn = turned & TURNED_SOURCE   # every face-up card moved: a card turns over
            # a run finished and left, and nothing is left face up over the face-down cards beneath it
            dst_turn = turned & TURNED_DESTINATION
            new_runs = runs + finished
            ends = None
            if finished:
                ends = ("turn", d) if dst_turn else ("run", d)
            child = table[:s] + (left,) + table[s + 1:]
            child = child[:d] + (moved,) + child[d + 1:]
            leaf = src_turn or dst_turn
            if not leaf:
                if child in visited:
                    continue
                visited.add(child)
            if src_turn:
                ends = ("turn", s)
            elif ends is None and len(left) == 1:
                ends = ("empty", s)
            first = len(nodes) if nid == 0 else first_of[nid]
            value = here - (get(col) or cc(col)) - (get(dcol) or cc(dcol)) - costs.run_bonus * finished
            if penalty and len(dcol) == 1:
                value -= penalty
            if src_turn:   # valued as the turned card's column and the others
                # (the destination as it lay before a card beneath the finished run turned over)
                rest = bytes((dd,)) + bytes(dd) if dst_turn else moved
                value += cc(rest) + (penalty if penalty and len(rest) == 1 else 0)
                value += turn_value(costs, child, s, down - 1, ranks, total)
            else:
                value += cc(left) + (penalty if penalty and len(left) == 1 else 0)
                if dst_turn:
                    value += turn_value(costs, child, d, dd - 1, ranks, total)
                else:
                    rest = moved[:-RUN_LENGTH] if finished and not auto else moved   # by hand: as if sent
                    value += cc(rest) + (penalty if penalty and len(rest) == 1 else 0)
            cid = len(nodes)
            nodes.append((nid, (s, d, k), value, depth + 1, ends or ("better", None)))
            first_of.append(first)
            pri = value + STEP * (depth + 1)
            prev = best.get(first)
            if prev is None or pri < prev[0]:
                best[first] = (pri, cid)
            if not leaf and not (finished and not auto):
                heapq.heappush(heap, (pri, cid, child, new_runs))
    return best, nodes, expanded, root_value


# ---------------------------------------------------------------------- on the compiled core
_CORES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # a pure Core -> its compiled twin
_CORES_LOCK = threading.Lock()
_FEATURES = 12   # (the learned value's column features: players/features.py, COLUMN_FEATURES; csrc/plan.h)
_MOST_COLUMNS, _LONGEST = 10, 114   # (csrc/base.h: MAXN; MAXCOL - RUNLEN - 1, as table_from takes a column)
_LONGEST_DEALT_ON = 119   # (csrc/plan.h, learned_costs: a column under MAXCOL - 8 bytes)


def _known(core: Core, learned: LearnedValue) -> bool:
    """Does the compiled core cost columns as ``learned`` does (its features, links, fits and unit)?"""
    rules = core.rules
    return (type(learned) is LearnedValue and len(learned.weights) == _FEATURES and learned.links is rules.links
            and learned.unit == core.unit and (learned.fits is None) == (core.fits is None)
            and all(isinstance(w, (int, float)) and abs(w) < 1e12 for w in learned.weights))   # (and not NaN)


def _twin(core: Core, root: tuple) -> Any:
    """The compiled twin of the pure ``core`` (made once, kept as long as the core lives); ``root`` a table."""
    compiled = _CORES.get(core)
    if compiled is None:
        with _CORES_LOCK:
            compiled = _CORES.get(core)
            if compiled is None:
                compiled = _CORES[core] = ccore.core_of(core, root)
    return compiled


def card_costs(core: Core, learned: LearnedValue,
               table: tuple) -> Callable[[bytes, bytes], list[int] | None] | None:
    """The learned value's cost of a column with each of some cards laid face up on it, on the compiled core:
    ``f(column, cards)`` is ``[learned.column_cost((down, up + bytes((c,)))) for c in cards]`` for the column
    ``column`` (as in a table here), or ``None`` for a column too long for it; ``card_costs`` is ``None``
    where the compiled core is not in use or does not know the value. Either way, ask ``learned`` card by card
    instead. ``table``: a table of ``core``'s."""
    if not ccore.in_use() or type(core) is not Core or core.stock or not 1 <= core.n <= _MOST_COLUMNS \
            or len(table) != core.n or max(map(len, table)) > _LONGEST or not _known(core, learned):
        return None
    costs = functools.partial(_twin(core, table).learned_costs,
                              struct.pack("=12d32q", *learned.weights, 1, *[0] * 10, 1, *[0] * 20))

    def each(column: bytes, cards: bytes) -> list[int] | None:
        return costs(column, cards) if len(column) <= _LONGEST_DEALT_ON else None

    return each


def _params(core: Core, costs: PlanCosts) -> bytes | None:
    """The costs as ``csrc/plan.h`` reads them (``PlanParams``), or ``None`` where the compiled search does not
    know them (then the pure one runs)."""
    learned = costs.learned
    if type(costs) is not PlanCosts or costs.links != core.links or costs.fits != core.fits:
        return None
    dig = plan_costs.DIG_EXTRA
    if not 1 <= len(dig) <= 12:
        return None
    if learned is None:
        mode, weights = 0, [0.0] * _FEATURES
    else:
        if not _known(core, learned):
            return None
        mode, weights = 1, learned.weights
    try:
        return struct.pack("=12d32q", *weights, mode, costs.run_bonus, EMPTY_WHEN_DEALING, STEP,
                           plan_costs.TURN_BONUS, plan_costs.FACE_DOWN, plan_costs.BURIED, plan_costs.OUT_OF_ORDER,
                           plan_costs.OFF_SUIT, plan_costs.EMPTY_COLUMN, plan_costs.KING_HOME, len(dig), *dig,
                           *[0] * (12 - len(dig)), *[0] * 8)
    except (struct.error, TypeError):   # (a weight that is not a whole number)
        return None


def _compiled(core: Core, costs: PlanCosts, root: tuple, stock: int, seen: set | frozenset, budget: int,
              unseen: list[int], filling: bool, cancel: threading.Event | None) -> tuple | None:
    """:func:`search` on the compiled core (one call), or ``None`` where it cannot run it."""
    if type(core) is not Core or core.stock or len(root) != core.n or not 1 <= core.n <= _MOST_COLUMNS:
        return None
    # (a column grows by the face-up cards moved onto it: the compiled core's columns hold _LONGEST bytes)
    if 1 + max(c[0] for c in root) + sum(len(c) - 1 - c[0] for c in root) > _LONGEST:
        return None
    params = _params(core, costs)
    if params is None:
        return None
    compiled = _twin(core, root)
    # (a table met that no line can reach, its columns too many or too long for the compiled core, is left out)
    met = [t for t in (of_key(t) for t, s in seen if s == stock) if len(t) == core.n and max(map(len, t)) <= _LONGEST]
    best, nodes, expanded, root_value = compiled.plan(root, stock > 0, met, min(budget, 1 << 62), bytes(unseen),
                                                      filling, params, cancel)
    return best, nodes, expanded, root_value


def line_of(nodes: list, nid: int) -> list[tuple[int, int, int]]:
    """The steps ``(src, dst, count)`` from the root of :func:`search`'s ``nodes`` to node ``nid``."""
    out = []
    while nid > 0:
        parent, step, *_ = nodes[nid]
        out.append(step)
        nid = parent
    return out[::-1]


def moves_of(steps: list[tuple[int, int, int]]) -> tuple[Move, ...]:
    """The moves of the steps of a line (:func:`line_of`)."""
    return tuple(Move("move", s, d, k) for s, d, k in steps)


def best_met(costs: PlanCosts, table: tuple, stock: int, seen: set | frozenset, now: int) -> int:
    """The lowest cost among the tables met in this stage of the game (the same stock, the same cards face
    down, the same runs finished: the same cards on the table). A line improves only if it ends below it:
    otherwise a player who plays one move of each plan could go round the stage for ever (one move towards a
    plan, then another plan back, each better than the table just left). ``now``: the cost of ``table``, the
    answer when nothing else of the stage was met."""
    down = sum(c[0] for c in table)
    cards = sum(len(c) - 1 - c[0] for c in table)
    found = [sum(costs.column_cost(c) for c in of_key(t)) for t, s in seen
             if s == stock and sum(d for d, _ in t) == down and sum(len(up) for _, up in t) == cards]
    return min(found, default=now)
