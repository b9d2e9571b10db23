"""A perfect-information solver: "can this deal still be won, and how?"

It sees every face-down and stock card. The search is best-first (weighted A*): the table it expands next is
the one with the least **disorder** (the heuristic below) plus a little for the moves it took to get there.
Every legal move is generated, except two that provably change nothing, so when the search runs out of tables
to expand it has visited every table the game can reach: that is a proof that the deal is lost.

The heuristic, in plain words (lower is better, whole numbers so that results are reproducible):

* **hidden**: every face-down card costs most;
* **buried**: a face-up card lying over face-down ones blocks them;
* **out of order**: a card not one rank below the card it lies on;
* **off suit**: in order, but not in the group's suit (or colour);
* **in the stock**: a card still to be dealt;
* **empty column**: a bonus; **finished run**: a large bonus.

A first pass, the **streamliner**, moves only whole runs (most wins need nothing else, and the space is far
smaller); it proves nothing, so the complete search follows. Pruned in both because they provably change
nothing: once the stock is empty (columns are then interchangeable),
moving a whole column into an empty one, and any empty column but the first as a destination.

>>> from spiderette import Game
>>> res = solve(Game(seed=1), node_limit=20_000)
>>> res.result in ("win", "loss", "unknown") and res.nodes > 0
True
"""

from __future__ import annotations

import heapq
import threading
import time
from dataclasses import dataclass, field

from .background import StoppableFuture, run_in_thread
from .errors import quote
from .game import Game
from .move import DEAL, SENDS, Move, move_table

# The heuristic's weights (see the module's docstring).
HIDDEN = 12
BURIED = 6
OUT_OF_ORDER = 6
OFF_SUIT = 3
IN_STOCK = 1
EMPTY_COLUMN = 4
FINISHED_RUN = 40
#: Each move already made adds this much to a table's priority (the "weighted" in weighted A*).
PATH_WEIGHT = 1
#: The share of the budget for the streamliner: a first search in which only whole runs move. It finds most
#: wins fast but proves nothing; the complete search follows in the rest of the budget.
STREAMLINER_SHARE = 0.6


class SolveCancelled(Exception):
    """Raised inside the search when its ``cancel`` event is set (the result is then "unknown")."""


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``result`` is ``"win"`` (``moves`` wins from the position; checked by replay), ``"loss"`` (every table the
    game can reach was visited: proven) or ``"unknown"`` (the budget ran out, or the search was cancelled).
    ``nodes`` counts the tables expanded, ``seconds`` the time taken, ``start`` is a copy of the position
    solved (so that a winning line can be replayed from it).
    """

    result: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""
    start: Game | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        if self.result == "win":
            return f"winnable (line of {len(self.moves)} moves; {self.nodes:,} tables in {self.seconds:.2f} s)"
        if self.result == "loss":
            return f"not winnable from here (proven: {self.nodes:,} tables in {self.seconds:.2f} s)"
        return f"unknown ({self.reason or 'budget spent'}: {self.nodes:,} tables in {self.seconds:.2f} s)"


class _Search:
    """The table as tuples, its moves and the heuristic, for one game's rules and stock."""

    def __init__(self, g: Game) -> None:
        rules = g.rules
        self.n = g.columns
        self.links = rules.links  # does a card continue a group on another (by suit, or colour)
        self.deal_with_empty = rules.deal_with_empty
        self.auto_remove = g.auto_remove
        self.runs_total = g.runs_total
        self.stock = g.stock
        self.table = move_table(self.n)
        self.column_facts: dict[tuple, tuple[int, int]] = {}
        self.whole_runs = False  # the streamliner: only whole runs move (not a complete search)

    # ---------------------------------------------------------------- one column
    def facts(self, col: tuple, down: int) -> tuple[int, int]:
        """``(movable run length, disorder)`` of one column, remembered by its contents."""
        key = (col, down)
        got = self.column_facts.get(key)
        if got is not None:
            return got
        run = 0
        if col:
            j = len(col) - 1
            run = 1
            while j > down and self.links(col[j - 1], col[j]):
                j -= 1
                run += 1
        cost = HIDDEN * down + (BURIED * (len(col) - down) if down else 0)
        for i in range(down + 1, len(col)):
            below, above = col[i - 1], col[i]
            if (below & 15) != (above & 15) + 1:
                cost += OUT_OF_ORDER
            elif not self.links(below, above):
                cost += OFF_SUIT
        if not col:
            cost -= EMPTY_COLUMN
        got = (run, cost)
        self.column_facts[key] = got
        return got

    def complete(self, col: tuple, down: int) -> bool:
        return len(col) - down >= 13 and col[-1] & 15 == 1 and self.facts(col, down)[0] >= 13

    # ---------------------------------------------------------------- a whole table
    def key(self, state: tuple) -> tuple:
        cols, downs, sp, _ = state
        if sp < len(self.stock):
            return state
        return tuple(sorted(zip(cols, downs)))  # no stock: the columns are interchangeable

    def cost(self, state: tuple) -> int:
        cols, downs, sp, found = state
        facts = self.facts
        return (sum(facts(c, d)[1] for c, d in zip(cols, downs)) + IN_STOCK * (len(self.stock) - sp)
                - FINISHED_RUN * found)

    def moves(self, state: tuple) -> list[Move]:
        cols, downs, sp, _ = state
        n, table, facts = self.n, self.table, self.facts
        stock_left = sp < len(self.stock)
        tops = [c[-1] & 15 if c else 0 for c in cols]
        empty = [i for i in range(n) if not cols[i]]
        if empty and not stock_left:
            empty = empty[:1]  # no stock: one empty column is as good as another
        out: list[Move] = []
        for s in range(n):
            col = cols[s]
            if not col:
                continue
            r = facts(col, downs[s])[0]
            base = tops[s]
            row = table[s]
            whole = self.whole_runs
            for d in range(n):
                k = tops[d] - base
                if 0 < k <= r and (k == r or not whole):
                    out.append(row[d][k])
            for d in empty:
                for k in range(r if whole else 1, r + 1):
                    if k == len(col) and not stock_left:
                        continue  # a whole column into an empty one: the same table
                    out.append(row[d][k])
        if stock_left and (self.deal_with_empty or not empty):
            out.append(DEAL)
        if not self.auto_remove:
            out.extend(SENDS[i] for i in range(n) if self.complete(cols[i], downs[i]))
        return out

    def after(self, state: tuple, m: Move) -> tuple:
        """The table after move ``m`` (known to be legal)."""
        cols, downs, sp, found = state
        cols, downs = list(cols), list(downs)
        touched: tuple[int, ...]
        if m.kind == "move":
            s, d, k = m.src, m.dst, m.count
            col = cols[s]
            cols[d] = cols[d] + col[-k:]
            cols[s] = col[:-k]
            touched = (s, d)
        elif m.kind == "deal":
            k = min(self.n, len(self.stock) - sp)
            for i in range(k):
                cols[i] = cols[i] + (self.stock[sp + i],)
            sp += k
            touched = tuple(range(k))
        else:
            touched = (m.src,)
        for i in touched:
            if (self.auto_remove or m.kind == "send") and self.complete(cols[i], downs[i]):
                cols[i] = cols[i][:-13]
                found += 1
            if downs[i] and downs[i] == len(cols[i]):
                downs[i] -= 1
        return tuple(cols), tuple(downs), sp, found


def solve(g: Game, time_limit: float | None = 10.0, node_limit: int | None = None,
          cancel: threading.Event | None = None) -> SolveResult:
    """Solve ``g`` from its position with every card known; ``g`` itself is never changed.

    Stops after ``time_limit`` seconds or ``node_limit`` expanded tables (``None``: no such limit), or when
    ``cancel`` (a ``threading.Event``) is set; a claimed win is replayed on a copy before it is returned.
    """
    if not isinstance(g, Game):
        raise TypeError(f"solve takes a Game, not {quote(g)}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be a number of seconds > 0 or None, not {quote(time_limit)}")
    if node_limit is not None and (isinstance(node_limit, bool) or not isinstance(node_limit, int)
                                   or node_limit < 1):
        raise ValueError(f"node_limit must be a whole number >= 1 or None, not {quote(node_limit)}")
    t0 = time.perf_counter()
    with g.locked():
        start = g.copy()
    if start.is_won:
        return SolveResult("win", [], 0, time.perf_counter() - t0, start=start)
    root = (tuple(start.column(i) for i in range(start.columns)),
            tuple(start.face_down(i) for i in range(start.columns)), 0, start.runs_completed)
    deadline = None if time_limit is None else t0 + time_limit
    # First the streamliner (only whole runs move) on part of the budget, then the complete search.
    nodes = 0
    for whole_runs, share in ((True, STREAMLINER_SHARE), (False, 1.0)):
        space = _Search(start)
        space.whole_runs = whole_runs
        phase_deadline = None if deadline is None else t0 + share * time_limit
        phase_nodes = None if node_limit is None else max(1, int(share * node_limit) - nodes)
        outcome, line, used = _best_first(space, root, phase_deadline, phase_nodes, cancel)
        nodes += used
        if outcome == "win":
            check = start.copy()
            check.play(line)  # a claimed win is a win: replayed by the engine itself
            if not check.is_won:
                raise AssertionError("the solver's line does not win; please report this deal")
            return SolveResult("win", line, nodes, time.perf_counter() - t0, start=start)
        if outcome == "exhausted" and not whole_runs:
            return SolveResult("loss", [], nodes, time.perf_counter() - t0, start=start)
        if outcome == "cancelled":
            return SolveResult("unknown", [], nodes, time.perf_counter() - t0, "cancelled", start=start)
    reason = "node limit reached" if node_limit is not None and nodes >= node_limit else "time limit reached"
    return SolveResult("unknown", [], nodes, time.perf_counter() - t0, reason, start=start)


def _best_first(space: _Search, root: tuple, deadline: float | None, node_limit: int | None,
                cancel: threading.Event | None) -> tuple[str, list[Move], int]:
    """Weighted A* from ``root``: ``("win", line, nodes)``, ``("exhausted", [], nodes)`` when every table
    was expanded, ``("budget", [], nodes)`` or ``("cancelled", [], nodes)``."""
    parent: dict[tuple, tuple[tuple, Move] | None] = {space.key(root): None}
    frontier = [(space.cost(root), 0, 0, root)]  # (priority, -order: newest first among equals, depth, table)
    count = nodes = 0
    while frontier:
        if node_limit is not None and nodes >= node_limit:
            return "budget", [], nodes
        if nodes & 255 == 0:
            if deadline is not None and time.perf_counter() > deadline:
                return "budget", [], nodes
            if cancel is not None and cancel.is_set():
                return "cancelled", [], nodes
        _, _, depth, state = heapq.heappop(frontier)
        nodes += 1
        key = space.key(state)
        for m in space.moves(state):
            child = space.after(state, m)
            ck = space.key(child)
            if ck in parent:
                continue
            parent[ck] = (key, m)
            if child[3] == space.runs_total:
                line: list[Move] = []
                k = ck
                while parent[k] is not None:
                    k, step = parent[k]
                    line.append(step)
                line.reverse()
                return "win", line, nodes
            count += 1
            heapq.heappush(frontier, (space.cost(child) + PATH_WEIGHT * (depth + 1), -count, depth + 1, child))
    return "exhausted", [], nodes


def solve_async(g: Game, time_limit: float | None = 10.0, node_limit: int | None = None) -> StoppableFuture:
    """:func:`solve` in a background thread: a ``Future`` whose ``cancel()`` stops the search.

    The position is copied at once, so the game may be played on meanwhile.
    """
    with g.locked():
        start = g.copy()
    return run_in_thread(lambda stop: solve(start, time_limit, node_limit, stop), "spiderette-solve")
