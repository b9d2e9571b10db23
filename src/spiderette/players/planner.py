"""The honest expert player: a planner that searches among the cards a player can see.

>>> from spiderette import Game
>>> p = plan(Game(seed=7))
>>> p.move == p.line[0], p.tables <= DEFAULT_BUDGET
(True, True)

**What it reads.** Only what a player sees: the face-up cards, how many cards lie face down in each column,
the number of cards in the stock, and the finished runs. It never looks at a face-down card or at the stock's
order, so two games that look the same get the same plan (honest by construction), and the same plan every
time (no random state anywhere).

**How it plays one move.**

1. It searches the visible table best-first (cheapest table first, by :func:`table_value` plus a small cost
   per move made): every legal move of a movable group among the face-up cards is tried, including
   re-parking a group from one card to another card of the same rank (to free the card beneath), moving
   groups through empty columns, and splitting a group into an empty column. A move that turns a card face
   up ends its line: the card is unknown, so that table is a leaf, valued as an average over the cards that
   could turn up (every card of the deck not seen anywhere).
2. For every first move it keeps the best table found under it. It plays the best first move whose line
   ends on a better table than now, and which does not lead back to a table already seen in this game.
3. When no line improves, it deals (when the rules allow). With an empty column blocking the deal, it first
   plans the best way to fill the empty columns. With no stock left and nothing that improves, it resigns.
   Steering by the learned value, it also weighs the table after a deal (its new cards averaged over the cards
   unseen) against the best line, and against one preparing move then the deal: the best of them is played.

The budget counts **tables expanded** (not seconds), so a plan is the same on any machine.
:class:`PlannerStrategy` is the player for studies; :func:`plan` gives the plan itself, for hints.

**The value it steers by** is the learned one by default (:mod:`spiderette.players.value`, fitted on the
planner's own games); ``value="handmade"`` steers by the weights below instead.

**Measured** (``benchmarks/strategies.py --strategies handmade,planner``): four suits 59 of deals 1-1000
(5.9%; hand-made 29, greedy 0), two suits 74 of deals 1-300 (24.7%; hand-made 48), one suit 634 of deals
1-1000 (63.4%; hand-made 586, greedy 160). The hand-made weights were tuned on deals 5001-5200.
"""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass

from ..engine.cards import KING, RANK_MASK, RUN_LENGTH, make_deck
from ..engine.core import ALWAYS, TURNED_DESTINATION, TURNED_SOURCE, Core, Pruning, columns_of, visible_column
from ..engine.errors import an_event, is_whole, quote
from ..engine.game import Game, a_game
from ..engine.move import DEAL, SENDS, Move
from ..engine.predicates import visible_key
from .limits import Limit, budget_of, tables
from .memory import tables_met
from .strategies import Strategy
from .value import DEFAULT_VALUE, VALUES, LearnedValue

__all__ = ["Plan", "plan", "table_value", "table_after", "PlannerStrategy", "DEFAULT_BUDGET", "STRONG_BUDGET"]

# ---------------------------------------------------------------------- the weights, in words
# The value of a table is a cost: LOWER IS BETTER. Whole numbers, so that results never depend on rounding.

#: A card still face down in a column: the thing to get rid of. Counted per column by DIG_COST below.
FACE_DOWN = 24
#: Extra cost for the LAST face-down cards of a column (index = cards face down): a column with one or two
#: cards left face down is close to giving an empty column, so turning those over is worth more than
#: turning over the sixth card of a deep column. This is how the player "chooses which column to dig into".
DIG_EXTRA = (0, 8, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#: A face-up card lying over face-down cards: it must move before the card beneath can be turned over.
BURIED = 12
#: Two adjacent face-up cards out of rank order (the upper one is not one rank lower): a break to mend.
OUT_OF_ORDER = 16
#: Two adjacent face-up cards in rank order but not in one suit: they cannot move together. As costly as a
#: break in order: with four suits an off-suit build blocks as much (16 won more than 10 on deals 5001-5200).
OFF_SUIT = 16
#: An empty column: room to manoeuvre (a bonus, so it lowers the cost; 30 rather than 8, deals 5001-5200).
EMPTY_COLUMN = 30
#: A king at the bottom of a column with nothing face down: it never needs to move again (a bonus).
KING_HOME = 4
#: A finished king-to-ace run sent to the foundations (a bonus).
RUN_DONE = 120
#: The cost of each move in a line: among equal tables, the shorter line wins.
STEP = 1
#: A card turned face up: the bonus for seeing one more card (on top of one fewer face-down card).
TURN_BONUS = 8
#: While the planner wants to deal but an empty column forbids it: the cost of each empty column.
EMPTY_WHEN_DEALING = 200

#: With the learned value, how much better than the best line (in points) the table after a deal must be for
#: the planner to deal while a line still improves. 0: measured against -30 and -60 on deals 20001-20400 (four
#: suits), which deal earlier and leave more cards face down.
DEAL_MARGIN = 0

#: Tables expanded per move by default: fast enough for studies (a few hundredths of a second a move).
DEFAULT_BUDGET = 2000
#: Tables expanded per move for a "Think" button: a stronger, slower plan (under a second a move).
STRONG_BUDGET = 20000


# ---------------------------------------------------------------------- the result
@dataclass(frozen=True)
class Plan:
    """A plan for the table seen: play ``move`` now; ``line`` is the whole manoeuvre it starts.

    ``value`` is the cost of the table the line ends on (:func:`table_value`, lower is better; a line that
    turns a card over is valued by the average over the cards that could turn up), ``start_value`` the cost
    of the table now. ``alternatives`` are the other first moves worth considering, ``(move, value)``, best
    first (by the planner's own measure: the value of the best table a line reaches plus :data:`STEP` per
    move it takes), and ``alternative_lines`` the best line each of them starts. ``tables`` counts the
    tables expanded. ``ends_with`` says what the line achieves:

    * ``("turn", c)``: the last move turns over a card in column ``c`` (0-based);
    * ``("run", c)``: it completes a king-to-ace run in column ``c`` (when runs are sent by hand, the next
      plan sends it);
    * ``("empty", c)``: it empties column ``c``;
    * ``("better", None)``: it leaves a better table (in order, in suit);
    * ``("fill", c)``: it fills the empty column ``c`` so that a deal becomes possible;
    * ``("deal", None)``: deal now: nothing among the visible cards improves, or (the learned value) the
      table after the deal is worth more than any line;
    * ``("prepare", None)``: one move, then the deal (the learned value: the best table to deal on);
    * ``("send", c)``: send the finished run of column ``c`` (when runs are sent by hand).
    """

    move: Move
    line: tuple[Move, ...]
    value: int
    start_value: int
    alternatives: tuple[tuple[Move, int], ...]
    tables: int
    ends_with: tuple[str, int | None]
    alternative_lines: tuple[tuple[Move, ...], ...] = ()


# ---------------------------------------------------------------------- the table as the planner sees it
# A column is the search core's (spiderette.engine.core): bytes, the face-down count first, then a 0 for each
# face-down card (the planner never reads one) and the face-up cards; a table is a tuple of columns, one to one
# with the columns of engine.predicates.visible_key.

#: The planner's moves (:class:`~spiderette.engine.core.Pruning`), in plain words: only the first empty column
#: is a destination (one is as good as another), never a whole column into an empty one (nothing gained), and
#: no deal inside the search (the planner deals only when no line improves). Two more rules are the search's
#: own: a move that turns a card over ends its line (the card is unknown: a leaf), and so does one that
#: finishes a run while runs are sent by hand (the next plan sends it).
PLANNER_MOVES = Pruning(one_empty_column=ALWAYS, no_whole_column_to_empty=ALWAYS, deals=False)


class _Rules:
    """What the search needs to know about the variant, in a form quick to use: the search core and costs."""

    def __init__(self, game: Game, value: str = "handmade") -> None:
        self.core = Core(game, PLANNER_MOVES, visible=True)
        self.links = self.core.links  # links[below * 64 + above]: "above" continues a group on "below"
        self.suits = game.suits
        self.auto_remove = game.auto_remove   # False: a finished run stays on the table until sent
        self.cost_cache: dict[bytes, int] = {}
        #: The bonus of a finished run; the learned value (:mod:`spiderette.players.value`), when chosen,
        #: costs the columns instead of the weights above.
        self.run_bonus = RUN_DONE
        self.learned = LearnedValue(game) if value == "learned" else None
        if self.learned is not None:
            self.run_bonus = -self.learned.run_cost
        self.after: LearnedValue | None = None   # (see after_a_deal)

    def after_a_deal(self, game: Game) -> LearnedValue:
        """The learned value one deal later (made once, kept with its cache)."""
        if self.after is None:
            self.after = LearnedValue(game, deals_left=game.deals_left - 1)
        return self.after

    def forget(self) -> None:
        """Empty the caches (they are rebuilt as the search asks)."""
        self.cost_cache.clear()
        self.core.forget()
        for value in (self.learned, self.after):
            if value is not None:
                value.cache.clear()

    def column_cost(self, col: bytes) -> int:
        """The cost of one column (see the weights above); cached by its contents."""
        got = self.cost_cache.get(col)
        if got is not None:
            return got
        down = col[0]
        first = down + 1   # the index of the first face-up card
        if self.learned is not None:
            cost = self.cost_cache[col] = self.learned.column_cost((down, col[first:]))
            return cost
        cost = FACE_DOWN * down + DIG_EXTRA[min(down, len(DIG_EXTRA) - 1)] * (down > 0)
        if len(col) == first:
            cost = -EMPTY_COLUMN if not down else cost
        else:
            if down:
                cost += BURIED * (len(col) - first)
            elif col[first] & RANK_MASK == KING:
                cost -= KING_HOME
            links, fits = self.links, self.core.fits   # (fits: None where any suit builds)
            for i in range(first + 1, len(col)):
                below, above = col[i - 1], col[i]
                if below & RANK_MASK != (above & RANK_MASK) + 1:
                    cost += OUT_OF_ORDER
                elif not links[below * 64 + above]:
                    # (a pair that could not have been built there is out of order)
                    cost += OUT_OF_ORDER if fits is not None and not fits[below * 64 + above] else OFF_SUIT
        self.cost_cache[col] = cost
        return cost


#: How many columns each shared :class:`_Rules` keeps the cost (and the core its groups) of before it starts
#: afresh: enough for a long game's plans, a bounded memory over thousands of simulated games.
CACHED_COLUMNS = 200_000
_SHARED: dict[tuple, _Rules] = {}


def _rules_of(game: Game, value: str) -> _Rules:
    """The :class:`_Rules` of ``game``'s variant and stage, shared by every plan made for it, so that a column
    is costed once per game rather than once per plan (the costs depend on nothing else)."""
    key = (game.rules, game.columns, game.suits, game.auto_remove, value,
           game.deals_left if value == "learned" else None)
    rules = _SHARED.get(key)
    if rules is None:
        if len(_SHARED) > 64:
            _SHARED.clear()
        rules = _SHARED[key] = _Rules(game, value)
    elif len(rules.cost_cache) > CACHED_COLUMNS:
        rules.forget()
    return rules


def _table_of(game: Game) -> tuple:
    """The visible table: the core's columns with a 0 for every face-down card. Reads no hidden card."""
    return columns_of(game, visible=True)


def _of_key(columns: tuple) -> tuple:
    """The planner's table of the columns of a :func:`~spiderette.engine.predicates.visible_key`."""
    return tuple(visible_column(d, up) for d, up in columns)


def _unseen(game: Game, table: tuple) -> list[int]:
    """The cards not seen anywhere (face down or in the stock), as a player counts them: deck minus visible."""
    left: dict[int, int] = {}
    for c in make_deck(game.rules.decks, game.suits):
        left[c] = left.get(c, 0) + 1
    seen = [c for col in table for c in col[col[0] + 1:]] + [c for run in game.foundations for c in run]
    for c in seen:
        left[c] -= 1
    return sorted(c for c, n in left.items() for _ in range(n))


def _ranks_of(cards: list[int]) -> dict[int, int]:
    """How many of ``cards`` there are of each rank."""
    ranks: dict[int, int] = {}
    for c in cards:
        ranks[c & RANK_MASK] = ranks.get(c & RANK_MASK, 0) + 1
    return ranks


def _turn_value(rules: _Rules, table: tuple, col: int, down: int, unseen: dict[int, int], total: int) -> int:
    """The cost of column ``col`` just after a card turned face up in it (``down`` still face down), with
    ``total`` cards unseen, ``unseen[r]`` of them of rank ``r``.

    Averaged over the cards that could turn up: a card that has somewhere to go on the table (a face-up top
    card one rank higher, or an empty column) counts as one more card free to move, which makes the column
    cheaper, as if it turned over again soon.
    """
    base = rules.column_cost(visible_column(down, (0,)))  # one face-up card of no rank: no pairs to count
    if not total:
        return base - TURN_BONUS
    tops = set()
    empty = False
    for i, c in enumerate(table):
        if i == col:
            continue
        if len(c) - 1 > c[0]:
            tops.add(c[-1] & RANK_MASK)
        elif len(c) == 1:
            empty = True
    free = total if empty and down > 0 else sum(n for r, n in unseen.items() if r + 1 in tops)
    # A card that can move on: its column is as if half a card fewer lay face down.
    return base - TURN_BONUS - (free * (FACE_DOWN // 2 + BURIED * (down > 0))) // total


def table_value(game: Game, value: str = DEFAULT_VALUE) -> int:
    """The cost of the table a player sees (lower is better), by the learned value or (``value="handmade"``)
    the weights named in this module: the planner's measure, in its points.

    >>> from spiderette import Game
    >>> table_value(Game(seed=7)) == plan(Game(seed=7)).start_value
    True
    """
    rules = _rules_of(game, _value_of(value))
    return sum(rules.column_cost(c) for c in _table_of(game)) - rules.run_bonus * game.runs_completed


# ---------------------------------------------------------------------- the search
def _search(rules: _Rules, root: tuple, stock: int, seen: set | frozenset, budget: int, unseen: list[int],
            filling: bool, cancel: threading.Event | None = None) -> tuple[dict, list, int, int]:
    """Best-first search from ``root``: ``(best node per first move, nodes, tables expanded, root cost)``.

    A node is ``(parent, (src, dst, count), value, depth, ends_with)``. With ``filling`` (the planner wants
    to deal) empty columns cost EMPTY_WHEN_DEALING each. ``seen``: the visible tables ``(table, stock)``
    already met in the game; no line passes through one of them again. The moves are the search core's
    (:data:`PLANNER_MOVES`); the value of a table is its parent's, less the two columns the move changed,
    plus the two it made.
    """
    penalty = EMPTY_WHEN_DEALING if filling else 0
    ranks, total = _ranks_of(unseen), len(unseen)
    core, cc, get = rules.core, rules.column_cost, rules.cost_cache.get
    auto = rules.auto_remove

    def cost(table: tuple, runs: int) -> int:
        v = -rules.run_bonus * runs
        for c in table:
            v += cc(c)
            if penalty and len(c) == 1:
                v += penalty
        return v

    root_value = cost(root, 0)
    nodes: list = [(-1, None, root_value, 0, None)]
    heap: list = [(root_value, 0, root, 0)]
    visited = {root} | {_of_key(t) for t, s in seen if s == stock}   # (the game's memory: never back to a table met)
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
            value = here - (get(col) or cc(col)) - (get(dcol) or cc(dcol)) - rules.run_bonus * finished
            if penalty and len(dcol) == 1:
                value -= penalty
            if src_turn:   # valued as the turned card's column and the others
                # (the destination as it lay before a card beneath the finished run turned over)
                rest = bytes((dd,)) + bytes(dd) if dst_turn else moved
                value += cc(rest) + (penalty if penalty and len(rest) == 1 else 0)
                value += _turn_value(rules, child, s, down - 1, ranks, total)
            else:
                value += cc(left) + (penalty if penalty and len(left) == 1 else 0)
                if dst_turn:
                    value += _turn_value(rules, child, d, dd - 1, ranks, total)
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


def _line(nodes: list, nid: int) -> list[tuple[int, int, int]]:
    out = []
    while nid > 0:
        parent, step, *_ = nodes[nid]
        out.append(step)
        nid = parent
    return out[::-1]


def _moves(steps: list[tuple[int, int, int]]) -> tuple[Move, ...]:
    return tuple(Move("move", s, d, k) for s, d, k in steps)


def plan(game: Game, limit: Limit | None = None, *, budget: int = DEFAULT_BUDGET, seen: set | frozenset | None = None,
         cancel: threading.Event | None = None, value: str = DEFAULT_VALUE) -> Plan | None:
    """The planner's best plan for the table a player sees in ``game``, or ``None`` (nothing improves).

    ``limit`` is the number of tables the search may expand, ``plan(g, Limit(tables=20_000))`` (a
    :class:`~spiderette.Limit` of tables only; ``budget`` is its shorthand); ``seen`` the visible tables
    (:func:`spiderette.engine.predicates.visible_key`) already met in this game, never to be returned to:
    when not given, the game's own memory (:func:`spiderette.players.memory.tables_met`, from its
    history), so that following the plans from any position never meets a table twice. The game is read
    from a copy taken under its lock. The result is the same for any two games with the same observation
    and memory. Setting ``cancel`` (a ``threading.Event``) stops the search early (the Think button): the
    plan then comes from the tables searched so far.
    """
    a_game(game, "plan")
    given = budget_of("plan", limit, {"budget": (tables(budget, "budget"), DEFAULT_BUDGET)}).tables
    assert given is not None   # (budget_of gives a Limit without tables the shorthand's number)
    budget = given
    an_event(cancel)
    seen = _memory(seen)
    value = _value_of(value)
    with game.locked():   # one whole snapshot: play may go on in another thread
        seen = tables_met(game) if seen is None else seen   # (the game's own memory is kept between calls)
        game = game.copy()
    if game.status != "playing":
        return None
    send = game.sendable()
    if send:
        return Plan(SENDS[send[0]], (SENDS[send[0]],), 0, 0, (), 0, ("send", send[0]))
    rules = _rules_of(game, value)
    table = _table_of(game)
    stock = game.stock_count
    unseen = _unseen(game, table)
    best, nodes, expanded, root_value = _search(rules, table, stock, seen, budget, unseen, False, cancel)
    ranked = sorted(((pri, nid) for pri, nid in best.values()), key=lambda x: (x[0], x[1]))
    bar = min(root_value, _best_met(rules, table, stock, seen, root_value))
    good = [nid for _, nid in ranked if nodes[nid][2] < bar]
    chosen = good[0] if good else None
    rest = [nid for _, nid in ranked if nid != chosen]   # best first (by priority)
    others = [_moves(_line(nodes, nid)) for nid in rest]
    alternatives = tuple((line[0], nodes[nid][2]) for line, nid in zip(others, rest))
    if rules.learned is not None and game.can_deal():
        deal = _deal_decision(rules, game, table, stock, seen, unseen,
                              nodes[chosen][2] if chosen is not None else None)
        if deal is not None:
            line, worth = deal
            what = ("prepare", None) if len(line) > 1 else ("deal", None)
            return _checked(game, Plan(line[0], line, worth, root_value, alternatives, expanded, what,
                                       tuple(others)))
    if chosen is not None:
        line = _moves(_line(nodes, chosen))
        return _checked(game, Plan(line[0], line, nodes[chosen][2], root_value, alternatives, expanded,
                                   nodes[chosen][4], tuple(others)))
    if game.can_deal():
        return Plan(DEAL, (DEAL,), root_value, root_value, alternatives, expanded, ("deal", None), tuple(others))
    if stock and any(len(c) == 1 for c in table):
        # Nothing improves and an empty column forbids the deal: plan the best way to fill it.
        fbest, fnodes, more, froot = _search(rules, table, stock, seen, budget, unseen, True, cancel)
        franked = sorted(((pri, nid) for pri, nid in fbest.values()), key=lambda x: (x[0], x[1]))
        if franked:
            nid = franked[0][1]
            line = _moves(_line(fnodes, nid))
            filled = next(i for i, c in enumerate(table) if len(c) == 1)
            if fnodes[nid][4][0] != "turn" and not _empties_after(rules, table, _line(fnodes, nid)):
                line += (DEAL,)  # the empty columns are filled: deal at once, as planned
            lines = tuple(_moves(_line(fnodes, j)) for _, j in franked[1:])
            alts = tuple((x[0], fnodes[j][2]) for x, (_, j) in zip(lines, franked[1:]))
            return _checked(game, Plan(line[0], line, fnodes[nid][2], froot, alts, expanded + more,
                                       ("fill", filled), lines))
    return None


def _deal_decision(rules: _Rules, game: Game, table: tuple, stock: int, seen: set | frozenset, unseen: list[int],
                   line_value: int | None) -> tuple[tuple[Move, ...], int] | None:
    """Deal now, or after one preparing move, rather than play the best line (worth ``line_value``, ``None``
    when no line improves)? The learned value weighs a table after the deal (each new card averaged over the
    cards unseen, the stage one deal later) against the table the line ends on: the deal is planned when it
    is better by more than :data:`DEAL_MARGIN`, or when no line improves: ``(line, value)``, the line being
    the deal or one move and the deal; ``None`` when the line is better.
    The preparing moves are the moves that turn no card over and finish no run, to a table not met in this
    stage, after which the deal is allowed."""
    assert rules.learned is not None   # (asked only with a learned value: plan)
    after = rules.after_a_deal(game)
    shift = after.stage_cost - rules.learned.stage_cost
    dealt = min(len(table), stock)   # the columns that receive a card
    memo: dict = {}
    cards: dict[int, int] = {}   # how many of each card are unseen
    for c in unseen:
        cards[c] = cards.get(c, 0) + 1

    def expected(i: int, col: bytes) -> float:
        key = (i < dealt, col)
        got = memo.get(key)
        if got is None:
            down, up = col[0], col[col[0] + 1:]
            if i < dealt and unseen:
                got = sum(n * after.column_cost((down, up + bytes((c,)))) for c, n in cards.items()) / len(unseen)
            else:
                got = after.column_cost((down, up))
            memo[key] = got
        return got

    def dealt_on(t: tuple) -> float:
        return shift + sum(expected(i, c) for i, c in enumerate(t))

    now = dealt_on(table)
    best, prep = now, None
    met = {_of_key(t) for t, s in seen if s == stock}
    for m in rules.core.moves(table, stock_left=True):
        if m.kind != "move":
            continue
        s, d, k = m.src, m.dst, m.count
        assert s is not None and d is not None and k is not None   # (a move of the table: all three)
        col, dcol = table[s], table[d]
        left, moved, finished, turned = rules.core.shift(col, dcol, k)
        if finished or turned or (len(left) == 1 and not game.rules.deal_with_empty):
            continue
        child = table[:s] + (left,) + table[s + 1:]
        child = child[:d] + (moved,) + child[d + 1:]
        if child not in met:
            v = dealt_on(child) + STEP
            if v < best:
                best, prep = v, Move("move", s, d, k)
    if line_value is not None and line_value <= best + DEAL_MARGIN:
        return None
    return ((prep, DEAL), round(best)) if prep is not None else ((DEAL,), round(now))


def _value_of(value: object) -> str:
    """``value`` if it names a value of the table (:data:`~spiderette.players.value.VALUES`)."""
    told = f"value must be one of {', '.join(map(repr, VALUES))}, not {quote(value)}"
    if not isinstance(value, str):
        raise TypeError(told)
    if value not in VALUES:
        raise ValueError(told)
    return value


def _memory(seen: object) -> set | frozenset | None:
    """``seen`` if it is a set of visible tables (:func:`~spiderette.engine.predicates.visible_key`, each a
    pair ``(columns, stock)``) or ``None``; another type is a ``TypeError``, an element of the wrong shape a
    ``ValueError``."""
    if seen is None:
        return None
    if not isinstance(seen, (set, frozenset)):
        raise TypeError(f"seen must be a set of visible tables (spiderette.engine.predicates.visible_key) or None,"
                        f" not {quote(seen)}")
    for key in seen:
        if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], tuple) and is_whole(key[1])
                and all(isinstance(c, tuple) and len(c) == 2 and is_whole(c[0]) for c in key[0])):
            raise ValueError(f"seen must hold visible tables (spiderette.engine.predicates.visible_key),"
                             f" not {quote(key)}")
    return seen


def _best_met(rules: _Rules, table: tuple, stock: int, seen: set | frozenset, now: int) -> int:
    """The lowest cost among the tables met in this stage of the game (the same stock, the same cards face
    down, the same runs finished: the same cards on the table). A line improves only if it ends below it:
    otherwise a player who plays one move of each plan could go round the stage for ever (one move towards a
    plan, then another plan back, each better than the table just left). ``now``: the cost of ``table``, the
    answer when nothing else of the stage was met."""
    down = sum(c[0] for c in table)
    cards = sum(len(c) - 1 - c[0] for c in table)
    costs = [sum(rules.column_cost(c) for c in _of_key(t)) for t, s in seen
             if s == stock and sum(d for d, _ in t) == down and sum(len(up) for _, up in t) == cards]
    return min(costs, default=now)


def _empties_after(rules: _Rules, table: tuple, steps: list) -> bool:
    """Does the table still have an empty column after the moves ``steps`` (no card turned over)? Played by
    the search core, so a run that finishes and leaves an empty column behind counts."""
    state = (table, 0, 0)
    for s, d, k in steps:
        state = rules.core.after(state, Move("move", s, d, k))
    return any(len(c) == 1 for c in state[0])


def _checked(game: Game, p: Plan) -> Plan:
    """The plan, its line cut where the engine would refuse a move (it never should: a safety net)."""
    probe = game.copy()
    for i, m in enumerate(p.line):
        if probe.why_illegal(m) is not None:
            if i == 0:
                raise AssertionError(f"the planner chose an illegal move {m}")  # pragma: no cover
            return Plan(p.move, p.line[:i], p.value, p.start_value, p.alternatives, p.tables, ("better", None),
                        p.alternative_lines)
        probe.apply(m)
    return p


# ---------------------------------------------------------------------- the player
class PlannerStrategy(Strategy):
    """The honest expert: plays the first move of :func:`plan`, re-planned at every move.

    ``limit``: tables expanded per move, ``PlannerStrategy(Limit(tables=20_000))`` (a :class:`~spiderette.Limit`
    of tables only; ``budget`` is its shorthand: ``PlannerStrategy(budget=PlannerStrategy.STRONG)`` for a
    stronger, slower player);
    ``value``: the value of the table it steers by, ``"learned"`` (the default:
    :mod:`spiderette.players.value`) or ``"handmade"`` (the weights above).

    >>> from spiderette import Game
    >>> s = PlannerStrategy()
    >>> s(Game(seed=7)) == PlannerStrategy()(Game(seed=7).redeal_hidden(3))
    True
    """

    short_name = "planner"
    _defaults = {"budget": DEFAULT_BUDGET, "value": DEFAULT_VALUE}
    DEFAULT = DEFAULT_BUDGET
    STRONG = STRONG_BUDGET

    def __init__(self, limit: Limit | None = None, *, budget: int = DEFAULT_BUDGET, value: str = DEFAULT_VALUE,
                 name: str | None = None) -> None:
        super().__init__(name)
        given = budget_of("PlannerStrategy", limit, {"budget": (tables(budget, "budget"), DEFAULT_BUDGET)}).tables
        assert given is not None   # (budget_of gives a Limit without tables the shorthand's number)
        self.budget = given
        self.value = _value_of(value)
        self.last_plan: Plan | None = None
        self._line: list[Move] = []
        self._expect: tuple | None = None

    def new_game(self) -> None:
        super().new_game()
        self._line, self._expect, self.last_plan = [], None, None

    def choose(self, game: Game) -> Move | None:
        # Follow the plan made earlier while the table is the one it expected: a line is played to its end
        # (each line ends on a better table, so the player never wanders); re-plan at every surprise.
        if self._line and visible_key(game) == self._expect and game.why_illegal(self._line[0]) is None:
            return self._next(game)
        self.last_plan = plan(game, budget=self.budget, seen=self._seen, value=self.value)
        if self.last_plan is None:
            self._line = []
            return None
        self._line = list(self.last_plan.line)
        return self._next(game)

    def _next(self, game: Game) -> Move:
        move = self._line.pop(0)
        if self._line:
            self._expect = table_after(game, move)
        return move


def table_after(game: Game, move: Move) -> tuple:
    """The visible table (:func:`~spiderette.engine.predicates.visible_key`) that ``move`` leads to from
    ``game``, which is left as it is: what a player following a plan expects to see next."""
    probe = game.copy()
    probe.apply(move)
    return visible_key(probe)
