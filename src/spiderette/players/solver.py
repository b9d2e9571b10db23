"""A perfect-information solver: "can this deal still be won, and how?"

It sees every face-down and stock card. Each search is best-first (weighted A*): the table it expands next is
the one with the least **disorder** (the heuristic below) plus a little for the moves it took to get there, and
a transposition table keeps it from expanding a table twice.

The heuristic, in plain words (lower is better, whole numbers so that results are reproducible):

* **hidden**: every face-down card costs most;
* **buried**: a face-up card lying over face-down ones blocks them;
* **out of order**: a card not one rank below the card it lies on;
* **off suit**: in order, but not in the group's suit (or colour);
* **in the stock**: a card still to be dealt;
* **empty column**: a bonus; **finished run**: a large bonus.

First the **streamliner**: rounds of short searches in which only whole runs move, and a run already in rank
order on a card moves only to build in suit. Each round tries every weight set of the **portfolio** (named
below: tidy, suity, balanced, roomy, tidier, greedy, digger) with a budget four times the last round's. Most wins
need nothing more, and a table that defeats one weighting often falls to another; but it proves nothing. In
the rest of the budget the **complete search** follows, over every legal move except two that provably
change nothing once the stock is empty (the columns are then interchangeable): moving a whole column into an
empty one, and any empty column but the first as a destination. When it runs out of tables, it has visited
every table the game can reach: the deal is proven lost.

>>> from spiderette import Game
>>> res = solve(Game(seed=12), node_limit=20_000)
>>> res.result, res.nodes < 20_000
('win', True)
>>> g = Game(seed=12)
>>> _ = g.play(res.moves)
>>> g.is_won
True
"""

from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..engine import ccore
from ..engine.cards import RANK_MASK
from ..engine.core import ALWAYS, WITHOUT_STOCK, Core, Pruning, columns_of, without_cyclic_gc
from ..engine.errors import an_event
from ..engine.game import Game, Word, a_game
from ..engine.move import Move
from ..engine.words import plural
from .background import StoppableFuture, run_in_thread
from .limits import DEFAULT_SECONDS, GIVE_BACK_AFTER, Limit, budget_of, give_back
from .limits import tables as tables_arg
from .odds import Odds, odds_for


@dataclass(frozen=True)
class Weights:
    """The heuristic's terms (whole numbers, so that results are reproducible) and how much each move made so
    far counts (``path``: the "weighted" in weighted A*; 0 is a purely greedy search). An ``eager`` streamliner
    plays a whole run that builds in suit at once, as the only move from that table."""

    name: str
    hidden: int = 12
    buried: int = 6
    out_of_order: int = 6
    off_suit: int = 3
    in_stock: int = 1
    empty_column: int = 4
    finished_run: int = 40
    path: int = 1
    eager: bool = True


#: The weights tried in turn, best first. Measured alone on deals 1-60 at 60,000 tables each, they won: suity
#: 43, tidy 42, tidier 42, balanced 41, roomy 40, greedy 40, digger 35; each wins some deals the others do not,
#: and a table that defeats one way of looking often falls to another.
TIDY = Weights("tidy", out_of_order=8, off_suit=5)
SUITY = Weights("suity", out_of_order=8, off_suit=8)
BALANCED = Weights("balanced")
ROOMY = Weights("roomy", buried=3, empty_column=10)
TIDIER = Weights("tidier", out_of_order=10, off_suit=7)
GREEDY = Weights("greedy", path=0)
DIGGER = Weights("digger", hidden=20, path=0)
PORTFOLIO = (TIDY, SUITY, BALANCED, ROOMY, TIDIER, GREEDY, DIGGER,
             *(replace(w, name=f"{w.name}, unhurried", eager=False) for w in (TIDY, SUITY, BALANCED)))
#: The node budget of the first round of the streamliner for each weight set; each round multiplies it by 4.
FIRST_ROUND = 5000
#: The share of the budget for the streamliner: rounds of searches in which only whole runs move. They find
#: most wins fast but prove nothing; the complete search follows in the rest of the budget.
STREAMLINER_SHARE = 0.7
#: Why a search bounded in memory (``held``) stopped: it held as many tables as it may.
MEMORY_BOUND = "memory bound reached"
#: The complete search leaves out only two moves, and only once the stock is empty (the columns are then
#: interchangeable, so they provably change nothing): a whole column into an empty one, and any empty column
#: but the first as a destination. Moves onto cards come shortest group first.
COMPLETE = Pruning(one_empty_column=WITHOUT_STOCK, no_whole_column_to_empty=WITHOUT_STOCK, shortest_first=True)
#: The streamliner: only whole runs move, a run already in rank order on a card only to build in suit, never
#: a whole column into an empty one (see :class:`spiderette.engine.core.Pruning`).
STREAMLINER = Pruning(one_empty_column=WITHOUT_STOCK, no_whole_column_to_empty=ALWAYS, whole_groups=True)
#: The eager streamliner (``Weights.eager``): a whole run that builds in suit is played at once.
EAGER_STREAMLINER = replace(STREAMLINER, eager=True)


class Verdict(Word):
    """What :func:`solve` found, a ``str`` equal to its value (``res.result == "win"``).

    >>> Verdict("loss") == "loss", Verdict.WIN
    (True, 'win')
    """

    WIN = "win"
    LOSS = "loss"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``result`` is ``"win"`` (``moves`` wins from the position; checked by replay), ``"loss"`` (every table the
    game can reach was visited: proven) or ``"unknown"`` (the budget ran out, or the search was cancelled).
    ``nodes`` counts the tables expanded, ``seconds`` the time taken, ``start`` is a copy of the position
    solved (so that a winning line can be replayed from it). An ``"unknown"`` carries ``odds`` where they were
    measured (:mod:`spiderette.players.odds`): of positions like it left undecided by as many tables, how many
    proved winnable with ten times the search; ``None`` otherwise (another variant, or less search than any
    measured budget). It also carries ``open_tables``: the tables the complete search had found and not yet
    looked at when it stopped, each of which a proof of loss would still have to expand (so at least that many
    more; ``None`` when it was cancelled).

    >>> res = solve(Game(seed=7), node_limit=40_000)
    >>> res.result, res.odds.budget
    ('unknown', 40000)
    >>> str(res).startswith("unknown: no win found in 40,000 tables and no loss proven (node limit reached")
    True
    """

    result: Verdict
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""
    start: Game | None = field(default=None, repr=False, compare=False)
    odds: Odds | None = None
    open_tables: int | None = None

    def __str__(self) -> str:
        if self.result == "win":
            return (f"winnable (line of {plural(len(self.moves), 'move')}; {plural(self.nodes, 'table')} in"
                    f" {self.seconds:.2f} s)")
        if self.result == "loss":
            return f"not winnable from here (proven: {plural(self.nodes, 'table')} in {self.seconds:.2f} s)"
        head = "probably lost" if self.odds is not None and self.odds.probably_lost else "unknown"
        still = ("" if not self.open_tables else
                 f"; a proof of loss would still have {plural(self.open_tables, 'table')} or more to look at")
        text = (f"{head}: no win found in {plural(self.nodes, 'table')} and no loss proven"
                f" ({self.reason or 'budget spent'}, {self.seconds:.2f} s{still})")
        return text + (f"; {self.odds.words()}" if self.odds is not None else "")


class Shared:
    """What the searches of one :func:`solve` share: the search core of each way of pruning (whose moves,
    remembered by their tables' facts, every round of the streamliner meets again) and each weight set's
    column costs, at most :data:`COLUMNS_COSTED` columns each before they are forgotten."""

    def __init__(self, g: Game) -> None:
        self.game = g
        self.cores: dict[Pruning, Core] = {}
        self.compiled: dict[Pruning, object] = {}
        self.column_costs: dict[tuple, dict[bytes, int]] = {}

    def core(self, pruning: Pruning) -> Core:
        got = self.cores.get(pruning)
        if got is None:
            got = self.cores[pruning] = Core(self.game, pruning)
        return got

    def compiled_core(self, pruning: Pruning) -> object:
        """The compiled core (:mod:`spiderette.engine.ccore`) of ``pruning``, made once."""
        got = self.compiled.get(pruning)
        if got is None:
            got = self.compiled[pruning] = ccore.compiled_core(self.game, pruning)
        return got

    def costs(self, weights: Weights) -> dict[bytes, int]:
        w = weights   # (by the terms a column's cost reads: weight sets that differ elsewhere share them)
        got = self.column_costs.setdefault((w.hidden, w.buried, w.out_of_order, w.off_suit, w.empty_column), {})
        if len(got) > COLUMNS_COSTED:
            got.clear()
        return got


#: How many columns' costs a weight set keeps between the searches of one :func:`solve` at most.
COLUMNS_COSTED = 500_000


class _Search:
    """The solver's view of the search core (:mod:`spiderette.engine.core`): the table, its moves and the
    heuristic, for one game's rules and stock.

    A table is ``(columns, dealt, runs)``: the core's columns (every card known), ``dealt`` counts the stock
    cards dealt so far, ``runs`` the finished runs.
    """

    def __init__(self, g: Game, weights: Weights = BALANCED, whole_runs: bool = False, deals: bool = True,
                 shared: Shared | None = None) -> None:
        self.w = weights
        # the streamliner (only whole runs move: not a complete search), or the complete search; ``deals``
        # False: only the tables reachable before the next deal
        pruning = replace((EAGER_STREAMLINER if weights.eager else STREAMLINER) if whole_runs else COMPLETE,
                          deals=deals)
        shared = shared or Shared(g)
        self.pruning, self.shared = pruning, shared
        self.core = shared.core(pruning)
        self.n = g.columns
        self.links = g.rules.links  # does a card continue a group on another (by suit, or colour)
        self.fits = None if g.rules.build == "any" else g.rules.fits   # may a card be built on another
        self.runs_total = g.runs_total
        self.stock = self.core.stock
        self.column_costs = shared.costs(weights)

    def root(self, g: Game) -> tuple:
        return columns_of(g), 0, g.runs_completed

    # ---------------------------------------------------------------- one column
    def column_cost(self, col: bytes) -> int:
        """The disorder of one column, remembered by its contents."""
        got = self.column_costs.get(col)
        if got is not None:
            return got
        w = self.w
        down = col[0] + 1  # index of the first face-up card
        top = len(col) - 1
        cost = w.hidden * col[0] + (w.buried * (top - col[0]) if col[0] else 0)
        for i in range(down + 1, top + 1):
            below, above = col[i - 1], col[i]
            if (below & RANK_MASK) != (above & RANK_MASK) + 1:
                cost += w.out_of_order
            elif not self.links(below, above):
                # (a pair that could not have been built there is out of order)
                cost += w.out_of_order if self.fits is not None and not self.fits(below, above) else w.off_suit
        if not top:
            cost -= w.empty_column
        self.column_costs[col] = cost
        return cost

    # ---------------------------------------------------------------- a whole table
    def key(self, state: tuple) -> tuple:
        cols, dealt, runs = state
        if dealt < len(self.stock):
            return state
        return tuple(sorted(cols)), runs  # no stock: the columns are interchangeable

    def cost(self, state: tuple) -> int:
        cols, dealt, runs = state
        cc, w = self.column_cost, self.w
        return sum(cc(c) for c in cols) + w.in_stock * (len(self.stock) - dealt) - w.finished_run * runs



def solve(g: Game, limit: Limit | None = None, *, time_limit: float | None = None, node_limit: int | None = None,
          cancel: threading.Event | None = None, max_held: int | None = None) -> SolveResult:
    """Solve ``g`` from its position with every card known; ``g`` itself is never changed.

    Stops after ``limit``'s tables expanded or seconds (a :class:`~spiderette.Limit`; ``node_limit``,
    ``time_limit`` and ``max_held`` are its shorthands), or when ``cancel`` (a ``threading.Event``) is set; a
    claimed win is replayed on a copy before it is returned. With neither tables nor seconds (``None``: not
    given) it has 10 seconds; a budget in tables alone, ``solve(g, Limit(tables=100_000))`` or
    ``solve(g, node_limit=100_000)``, gives the same answer on any machine, however busy. (A search to the end,
    however long: ``prove``.)

    ``held`` bounds its memory: each search remembers every table it meets (some 600 bytes each,
    :data:`~spiderette.players.limits.SOLVER_TABLE_BYTES`), and once it holds ``held`` (looked at every 256
    tables expanded, so a few thousand more at most) a round of the streamliner ends as at its budget, and the
    complete search stops: "unknown", reason :data:`MEMORY_BOUND`. (Forgetting tables instead would lose the
    proof of loss an exhausted search gives.)

    >>> res = solve(Game(seed=80), Limit(tables=100_000, held=5_000))   # (deal 80: lost, its proof holds more)
    >>> res.result, res.reason
    ('unknown', 'memory bound reached')
    """
    a_game(g, "solve")
    limit = _limit("solve", limit, time_limit, node_limit, max_held)
    an_event(cancel)
    t0 = time.perf_counter()
    with g.locked():
        start = g.copy()
    res = _solve(start, limit, cancel, t0)
    if res.nodes >= GIVE_BACK_AFTER:
        give_back()   # (its tables, and the caches its searches shared, are gone: their memory goes back)
    return res


def _solve(start: Game, limit: Limit, cancel: threading.Event | None, t0: float) -> SolveResult:
    """:func:`solve` of ``start`` (a copy), its budget checked."""

    def result(outcome: str, line: Sequence[Move] = (), reason: str = "", still: int | None = None) -> SolveResult:
        odds = odds_for(start.variant, start.suits, nodes, hidden_cards(start)) if outcome == "unknown" else None
        return SolveResult(Verdict(outcome), list(line), nodes, time.perf_counter() - t0, reason, start=start,
                           odds=odds, open_tables=still)

    nodes = 0
    if start.is_won:
        return result("win")
    budget = _Budget(t0, limit.time, limit.tables, limit.held)
    # First the streamliner: rounds of searches, each weight set in turn, in which only whole runs move.
    stream_budget = budget.share(STREAMLINER_SHARE)
    round_nodes = FIRST_ROUND
    shared = Shared(start)
    while True:
        exhausted = False
        for weights in PORTFOLIO:
            space = _Search(start, weights, whole_runs=True, shared=shared)
            outcome, line, used, _, _ = _best_first(space, space.root(start),
                                                 stream_budget.cap(round_nodes, nodes), cancel)
            nodes += used
            if outcome == "win":
                return result("win", _checked(start, line))
            if outcome == "cancelled":
                return result("unknown", reason="cancelled")
            if outcome == "exhausted":
                exhausted = True  # every whole-run table was seen: another order finds nothing new
                break
            if stream_budget.spent(nodes):
                break
        if exhausted or stream_budget.spent(nodes) or not budget.limited:
            break
        round_nodes *= 4
    # Then the complete search (every useful move) in the rest of the budget: exhausting it is a proof of loss.
    space = _Search(start, shared=shared)
    outcome, line, used, _, still = _best_first(space, space.root(start), budget.cap(None, nodes), cancel)
    nodes += used
    if outcome == "win":
        return result("win", _checked(start, line))
    if outcome == "exhausted":
        return result("loss")
    if outcome == "cancelled":
        return result("unknown", reason="cancelled")
    if outcome == "held":
        return result("unknown", reason=MEMORY_BOUND, still=still)
    return result("unknown", reason="node limit reached" if budget.nodes_spent(nodes) else "time limit reached",
                  still=still)


def hidden_cards(g: Game) -> int:
    """The cards a player cannot see: face down on the table and in the stock (the odds go by it)."""
    return sum(g.face_down(i) for i in range(g.columns)) + g.stock_count


def _checked(start: Game, line: list[Move]) -> list[Move]:
    check = start.copy()
    check.play(line)  # a claimed win is a win: replayed by the engine itself
    if not check.is_won:
        raise AssertionError("the solver's line does not win; please report this deal")
    return line


@dataclass
class _Budget:
    """A time and node budget (``None``: no such limit), and its parts; ``held``: the most tables a search may
    hold (each of its searches, whole: not shared out)."""

    t0: float
    seconds: float | None
    nodes: int | None
    held: int | None = None

    @property
    def limited(self) -> bool:
        return self.seconds is not None or self.nodes is not None

    def share(self, part: float) -> _Budget:
        return _Budget(self.t0, None if self.seconds is None else part * self.seconds,
                       None if self.nodes is None else max(1, int(part * self.nodes)), self.held)

    def nodes_spent(self, used: int) -> bool:
        return self.nodes is not None and used >= self.nodes

    def spent(self, used: int) -> bool:
        return self.nodes_spent(used) or (self.seconds is not None and time.perf_counter() >= self.t0 + self.seconds)

    def cap(self, nodes: int | None, used: int) -> Cap:
        """``(deadline, node cap, held)`` for one search of at most ``nodes`` tables, ``used`` being spent."""
        left = None if self.nodes is None else max(1, self.nodes - used)
        if nodes is not None:
            left = nodes if left is None else min(left, nodes)
        return (None if self.seconds is None else self.t0 + self.seconds), left, self.held


#: A search's cap: ``(deadline, most tables expanded, most tables held)``, each ``None`` for no such limit.
Cap = tuple[float | None, int | None, int | None]


def _best_first(space: _Search, root: tuple, cap: Cap,
                cancel: threading.Event | None) -> tuple[str, list[Move], int, int, int]:
    """Weighted A* from ``root``: ``(outcome, line, nodes, disorder, open)``. The outcome is ``"win"`` (``line``
    wins), ``"exhausted"`` (every table was expanded), ``"budget"``, ``"held"`` (it held the most tables
    allowed) or ``"cancelled"``; when it is not a win,
    ``line`` leads to the least disordered table seen, and ``disorder`` is that table's; ``open`` counts the
    tables found and not expanded when it stopped.

    It runs on the compiled core where it is in use (:func:`spiderette.engine.ccore.in_use`), with the same
    answer table for table; else in pure Python (:func:`_search`)."""
    if ccore.in_use():
        return _compiled_search(space, root, cap, cancel)
    with without_cyclic_gc():
        return _search(space, root, cap, cancel)


def _compiled_search(space: _Search, root: tuple, cap: Cap,
                     cancel: threading.Event | None) -> tuple[str, list[Move], int, int, int]:
    """:func:`_best_first` on the compiled core (from ``space``'s game's own table: ``root`` is that table)."""
    deadline, node_limit, held = cap
    w = space.w
    # (the compiled core's budget is in seconds from now; a deadline already past still stops it at once)
    seconds = 0.0 if deadline is None else max(1e-9, deadline - time.perf_counter())
    got = space.shared.compiled_core(space.pruning).search(  # type: ignore[attr-defined]
        root[1], root[2], (w.hidden, w.buried, w.out_of_order, w.off_suit, w.in_stock, w.empty_column,
                           w.finished_run, w.path), node_limit or 0, held or 0, seconds, cancel)
    if got["outcome"] == "cancelled":
        return "cancelled", [], got["nodes"], got["best"], got["open"]
    return got["outcome"], ccore.moves_of(got["line"], space.n), got["nodes"], got["best"], got["open"]


def _search(space: _Search, root: tuple, cap: Cap,
            cancel: threading.Event | None) -> tuple[str, list[Move], int, int, int]:
    """:func:`_best_first`, without the cyclic collector."""
    deadline, node_limit, held = cap
    path = space.w.path
    root_key = space.key(root)
    parent: dict[tuple, tuple[tuple, Move] | None] = {root_key: None}
    best = space.cost(root)
    best_key = root_key
    # (priority, -order: newest first among equals, depth, table, cost, the table's key)
    frontier = [(best, 0, 0, root, best, root_key)]
    count = nodes = 0
    key, children, goal = space.key, space.core.expander(parent, linked=True), space.runs_total
    finished_run, in_stock = space.w.finished_run, space.w.in_stock
    costs, cc = space.column_costs, space.column_cost
    get = costs.get
    stock = len(space.stock)

    def line_to(k: tuple) -> list[Move]:
        line: list[Move] = []
        while (link := parent[k]) is not None:
            k, step = link
            line.append(step)
        line.reverse()
        return line

    outcome = "exhausted"
    while frontier:
        if node_limit is not None and nodes >= node_limit:
            outcome = "budget"
            break
        if nodes & 255 == 0:
            if deadline is not None and time.perf_counter() > deadline:
                outcome = "budget"
                break
            if held is not None and len(parent) >= held:
                outcome = "held"
                break
            if cancel is not None and cancel.is_set():
                return "cancelled", [], nodes, best, len(frontier)
        _, _, depth, state, here_cost, here = heapq.heappop(frontier)
        nodes += 1
        depth += 1
        cols, dealt, runs = state
        dealing = dealt < stock   # (else the columns are interchangeable: a table's key has them sorted)
        for m, new, now_dealt, done, _, ck in children(state, here):   # (the core's one applier: the moves'
            if ck is not None:                                           # children not seen, entered in parent)
                child = ck if dealing else (new, dealt, done)
                # the cost: only the two columns the move touched are looked at again
                s, d = m.src, m.dst
                left, moved = new[s], new[d]
                c = here_cost + (get(left) or cc(left)) + (get(moved) or cc(moved)) - costs[cols[s]] - costs[cols[d]]
                if done != runs:
                    c -= finished_run
            else:   # a deal or a send: the columns it changed costed again
                child = (new, now_dealt, done)
                ck = child if now_dealt < stock else key(child)
                if ck in parent:
                    continue
                c = here_cost + in_stock * (dealt - child[1]) - finished_run * (done - runs)
                for old, col in zip(cols, new):
                    if col is not old:
                        c += (get(col) or cc(col)) - costs[old]
                parent[ck] = (here, m)
            if child[2] == goal:
                return "win", line_to(ck), nodes, c, len(frontier)
            count -= 1
            if c < best:
                best, best_key = c, ck
            heapq.heappush(frontier, (c + path * depth, count, depth, child, c, ck))
    return outcome, line_to(best_key), nodes, best, len(frontier)


@dataclass(frozen=True)
class SearchedLine:
    """What one short search found: a winning line (``won``), or else the line to the least disordered table
    it saw; ``disorder`` is the heuristic's value of the table the line reaches (lower is better)."""

    won: bool
    moves: list[Move]
    disorder: int
    nodes: int


def search_line(g: Game, node_limit: int, cancel: threading.Event | None = None, deals: bool = True) -> SearchedLine:
    """One short search from ``g`` with every card known (the first weight set of the portfolio, whole runs
    moving): the honest search runs it on each redealt copy of a position. ``g`` is not changed. With
    ``deals=False`` it looks only at the tables reachable before the next deal.

    >>> from spiderette import Game
    >>> p = search_line(Game(seed=8), node_limit=5000)
    >>> p.won, len(p.moves) > 50
    (True, True)
    """
    space = _Search(g, PORTFOLIO[0], whole_runs=True, deals=deals)
    outcome, line, nodes, disorder, _ = _best_first(space, space.root(g), (None, node_limit, None), cancel)
    return SearchedLine(outcome == "win", line, disorder, nodes)


def solve_async(g: Game, limit: Limit | None = None, *, time_limit: float | None = None,
                node_limit: int | None = None, max_held: int | None = None) -> StoppableFuture:
    """:func:`solve` in a background thread: a ``Future`` whose ``cancel()`` stops the search.

    The position is copied at once, so the game may be played on meanwhile; the arguments are checked at
    once too (a ``TypeError`` or ``ValueError`` here, not in the ``Future``).
    """
    a_game(g, "solve_async")
    limit = _limit("solve_async", limit, time_limit, node_limit, max_held)
    with g.locked():
        start = g.copy()
    return run_in_thread(lambda stop: solve(start, limit, cancel=stop), "spiderette-solve")


def _limit(call: str, limit: object, time_limit: object, node_limit: object, max_held: object) -> Limit:
    """The budget of :func:`solve` (or ``solve_async``): ``limit`` and the shorthands, checked (10 seconds
    when it names neither tables nor seconds)."""
    shorthands = Limit.of(time_limit, node_limit)
    held = tables_arg(max_held, "max_held", none=True)
    return budget_of(call, limit, {"time_limit": (shorthands.seconds, None), "node_limit": (shorthands.tables, None),
                                   "max_held": (held, None)}, default=Limit(seconds=DEFAULT_SECONDS))
