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

The budget counts **tables expanded** (not seconds), so a plan is the same on any machine.
:class:`PlannerStrategy` is the player for studies; :func:`plan` gives the plan itself, for hints.

**Measured** (``benchmarks/strategies.py --move-times``, one process; weights tuned on deals 5001-5200):
four suits 29 of deals 1-1000 (2.9%; greedy 0), two suits 48 of deals 1-300 (16.0%; greedy 0), one suit 586
of deals 1-1000 (58.6%; greedy 160), red-black 43 of 1-200, Will o' the Wisp 30 of 1-200. The budget of 20,000
won 3 of four-suit deals 1-100.
"""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass

from ..engine.deals import make_deck
from ..engine.errors import an_event, is_whole, quote
from ..engine.game import Game, a_game
from ..engine.move import DEAL, SENDS, Move
from ..engine.predicates import tables_met
from .limits import tables
from .strategies import Strategy, visible_key
from .value import VALUES, LearnedValue

__all__ = ["Plan", "plan", "table_value", "PlannerStrategy", "DEFAULT_BUDGET", "STRONG_BUDGET"]

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
    * ``("deal", None)``: nothing among the visible cards improves: deal;
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
# A column is (face_down_count, face_up_cards); a table is a tuple of columns. Its key, with the stock size,
# is exactly strategies.visible_key of the game.


class _Rules:
    """What the search needs to know about the variant, in a form quick to use."""

    def __init__(self, game: Game, value: str = "handmade") -> None:
        self.links = bytearray(64 * 64)  # links[below * 64 + above]: "above" continues a group on "below"
        for b in range(64):
            for a in range(64):
                if 1 <= b & 15 <= 13 and 1 <= a & 15 <= 13:
                    self.links[b * 64 + a] = game.rules.links(b, a)
        self.suits = game.suits
        self.auto_remove = game.auto_remove   # False: a finished run stays on the table until sent
        self.cost_cache: dict = {}
        #: The bonus of a finished run; the learned value (:mod:`spiderette.players.value`), when chosen,
        #: costs the columns instead of the weights above.
        self.run_bonus = RUN_DONE
        self.learned = LearnedValue(game) if value == "learned" else None
        if self.learned is not None:
            self.run_bonus = -self.learned.run_cost
            self.column_cost = self.learned.column_cost   # (an instance attribute: the same call, learned)

    def run_length(self, up: tuple) -> int:
        """The movable group at the top of a column's face-up cards."""
        k = len(up)
        if not k:
            return 0
        j = k - 1
        links = self.links
        while j > 0 and links[up[j - 1] * 64 + up[j]]:
            j -= 1
        return k - j

    def column_cost(self, col: tuple) -> int:
        """The cost of one column (see the weights above); cached by its contents."""
        got = self.cost_cache.get(col)
        if got is not None:
            return got
        down, up = col
        cost = FACE_DOWN * down + DIG_EXTRA[min(down, len(DIG_EXTRA) - 1)] * (down > 0)
        if not up:
            cost = -EMPTY_COLUMN if not down else cost
        else:
            if down:
                cost += BURIED * len(up)
            elif up[0] & 15 == 13:
                cost -= KING_HOME
            links = self.links
            for i in range(1, len(up)):
                below, above = up[i - 1], up[i]
                if below & 15 != (above & 15) + 1:
                    cost += OUT_OF_ORDER
                elif not links[below * 64 + above]:
                    cost += OFF_SUIT
        self.cost_cache[col] = cost
        return cost


def _table_of(game: Game) -> tuple:
    """The visible table: per column (face-down count, face-up cards). Reads no hidden card."""
    out = []
    for i in range(game.columns):
        d = game.face_down(i)
        out.append((d, game.column(i)[d:]))  # only the face-up part of the column
    return tuple(out)


def _unseen(game: Game, table: tuple) -> list[int]:
    """The cards not seen anywhere (face down or in the stock), as a player counts them: deck minus visible."""
    left: dict[int, int] = {}
    for c in make_deck(game.rules.decks, game.suits):
        left[c] = left.get(c, 0) + 1
    seen = [c for _, up in table for c in up] + [c for run in game.foundations for c in run]
    for c in seen:
        left[c] -= 1
    return sorted(c for c, n in left.items() for _ in range(n))


def _turn_value(rules: _Rules, table: tuple, col: int, down: int, unseen: list[int]) -> int:
    """The cost of column ``col`` just after a card turned face up in it (``down`` still face down).

    Averaged over the cards that could turn up: a card that has somewhere to go on the table (a face-up top
    card one rank higher, or an empty column) counts as one more card free to move, which makes the column
    cheaper, as if it turned over again soon.
    """
    base = rules.column_cost((down, (0,)))  # one face-up card of no rank: no pairs to count
    if not unseen:
        return base - TURN_BONUS
    tops = set()
    empty = False
    for i, (d, up) in enumerate(table):
        if i == col:
            continue
        if up:
            tops.add(up[-1] & 15)
        elif not d:
            empty = True
    free = sum(1 for c in unseen if (c & 15) + 1 in tops or (empty and down > 0))
    # A card that can move on: its column is as if half a card fewer lay face down.
    return base - TURN_BONUS - (free * (FACE_DOWN // 2 + BURIED * (down > 0))) // len(unseen)


def table_value(game: Game) -> int:
    """The cost of the table a player sees (lower is better), from the weights named in this module."""
    rules = _Rules(game)
    return sum(rules.column_cost(c) for c in _table_of(game)) - RUN_DONE * game.runs_completed


# ---------------------------------------------------------------------- the search
def _search(rules: _Rules, root: tuple, stock: int, seen: set, budget: int, unseen: list[int],
            filling: bool, cancel: threading.Event | None = None) -> tuple[dict, list, int, int]:
    """Best-first search from ``root``: ``(best node per first move, nodes, tables expanded, root cost)``.

    A node is ``(parent, (src, dst, count), value, depth, ends_with)``. With ``filling`` (the planner wants
    to deal) empty columns cost EMPTY_WHEN_DEALING each. ``seen``: the visible tables ``(table, stock)``
    already met in the game; no line passes through one of them again.
    """
    n = len(root)
    penalty = EMPTY_WHEN_DEALING if filling else 0

    def cost(table: tuple, runs: int) -> int:
        v = -rules.run_bonus * runs
        for c in table:
            v += rules.column_cost(c)
            if penalty and not c[0] and not c[1]:
                v += penalty
        return v

    root_value = cost(root, 0)
    nodes: list = [(-1, None, root_value, 0, None)]
    heap: list = [(root_value, 0, root, 0)]
    visited = {root} | {t for t, s in seen if s == stock}   # (the game's memory: never back to a table met)
    best: dict[int, tuple[int, int]] = {}  # first node id -> (priority, node id)
    first_of = [0]
    expanded = 0
    while heap and expanded < budget:
        if cancel is not None and not expanded % 64 and cancel.is_set():
            break   # cancelled: what was found so far
        _, nid, table, runs = heapq.heappop(heap)
        expanded += 1
        depth = nodes[nid][3]
        tops = [up[-1] & 15 if up else 0 for _, up in table]
        first_empty = next((i for i in range(n) if not table[i][1] and not table[i][0]), -1)
        for s in range(n):
            down, up = table[s]
            r = rules.run_length(up)
            if not r:
                continue
            base = up[-1] & 15
            targets = [(d, tops[d] - base) for d in range(n) if d != s and 0 < tops[d] - base <= r]
            if first_empty >= 0:  # never a whole column into an empty one (nothing gained)
                targets.extend((first_empty, k) for k in range(1, r + 1) if down or k < len(up))
            for d, k in targets:
                moving = up[-k:]
                left = up[:-k]
                dd, dup = table[d]
                new_dst = (dd, dup + moving)
                new_runs = runs
                ends = None
                finished = None   # by hand: the table after the finished run is sent (the line ends there)
                if len(new_dst[1]) >= 13 and new_dst[1][-1] & 15 == 1 and rules.run_length(new_dst[1]) >= 13:
                    new_runs += 1
                    ends = ("run", d)
                    if rules.auto_remove:
                        new_dst = (dd, new_dst[1][:-13])  # a finished run leaves for the foundations
                        if not new_dst[1] and dd:
                            ends = ("turn", d)
                    else:
                        finished = (dd, new_dst[1][:-13])
                new_src = (down, left)
                child = list(table)
                child[s] = new_src
                child[d] = new_dst
                child = tuple(child)
                if not left and down:
                    ends = ("turn", s)
                    turned = (s, down - 1)
                elif ends == ("turn", d):
                    turned = (d, dd - 1)
                else:
                    turned = None
                if turned is None and child in visited:
                    continue
                if turned is None:
                    visited.add(child)
                if ends is None and not left and not down:
                    ends = ("empty", s)
                if nid == 0:
                    first = len(nodes)
                else:
                    first = first_of[nid]
                if turned is not None:
                    c, dn = turned
                    others = child[:c] + child[c + 1:]
                    value = cost(others, new_runs) + _turn_value(rules, child, c, dn, unseen)
                elif finished is not None:
                    value = cost(child[:d] + (finished,) + child[d + 1:], new_runs)
                else:
                    value = cost(child, new_runs)
                cid = len(nodes)
                nodes.append((nid, (s, d, k), value, depth + 1, ends or ("better", None)))
                first_of.append(first)
                pri = value + STEP * (depth + 1)
                prev = best.get(first)
                if prev is None or pri < prev[0]:
                    best[first] = (pri, cid)
                if turned is None and finished is None:
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


def plan(game: Game, budget: int = DEFAULT_BUDGET, seen: set | None = None,
         cancel: threading.Event | None = None, value: str = "handmade") -> Plan | None:
    """The planner's best plan for the table a player sees in ``game``, or ``None`` (nothing improves).

    ``budget`` is the number of tables the search may expand; ``seen`` the visible tables
    (:func:`spiderette.engine.predicates.visible_key`) already met in this game, never to be returned to:
    when not given, the game's own memory (:func:`spiderette.engine.predicates.tables_met`, from its
    history), so that following the plans from any position never meets a table twice. The game is read
    from a copy taken under its lock. The result is the same for any two games with the same observation
    and memory. Setting ``cancel`` (a ``threading.Event``) stops the search early (the Think button): the
    plan then comes from the tables searched so far.
    """
    a_game(game, "plan")
    budget = tables(budget, "budget")
    an_event(cancel)
    seen = _memory(seen)
    value = _value_of(value)
    game = game.copy()   # one whole snapshot, under the game's lock: play may go on in another thread
    seen = tables_met(game) if seen is None else seen
    if game.status != "playing":
        return None
    send = game.sendable()
    if send:
        return Plan(SENDS[send[0]], (SENDS[send[0]],), 0, 0, (), 0, ("send", send[0]))
    rules = _Rules(game, value)
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
    if chosen is not None:
        line = _moves(_line(nodes, chosen))
        return _checked(game, Plan(line[0], line, nodes[chosen][2], root_value, alternatives, expanded,
                                   nodes[chosen][4], tuple(others)))
    if game.can_deal():
        return Plan(DEAL, (DEAL,), root_value, root_value, alternatives, expanded, ("deal", None), tuple(others))
    if stock and any(not up and not d for d, up in table):
        # Nothing improves and an empty column forbids the deal: plan the best way to fill it.
        fbest, fnodes, more, froot = _search(rules, table, stock, seen, budget, unseen, True, cancel)
        franked = sorted(((pri, nid) for pri, nid in fbest.values()), key=lambda x: (x[0], x[1]))
        if franked:
            nid = franked[0][1]
            line = _moves(_line(fnodes, nid))
            filled = next(i for i, (d, up) in enumerate(table) if not d and not up)
            if fnodes[nid][4][0] != "turn" and not _empties_after(table, _line(fnodes, nid)):
                line += (DEAL,)  # the empty columns are filled: deal at once, as planned
            lines = tuple(_moves(_line(fnodes, j)) for _, j in franked[1:])
            alts = tuple((x[0], fnodes[j][2]) for x, (_, j) in zip(lines, franked[1:]))
            return _checked(game, Plan(line[0], line, fnodes[nid][2], froot, alts, expanded + more,
                                       ("fill", filled), lines))
    return None


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
        raise TypeError(f"seen must be a set of visible tables (spiderette.predicates.visible_key) or None,"
                        f" not {quote(seen)}")
    for key in seen:
        if not (isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], tuple) and is_whole(key[1])
                and all(isinstance(c, tuple) and len(c) == 2 and is_whole(c[0]) for c in key[0])):
            raise ValueError(f"seen must hold visible tables (spiderette.predicates.visible_key), not {quote(key)}")
    return seen


def _best_met(rules: _Rules, table: tuple, stock: int, seen: set, now: int) -> int:
    """The lowest cost among the tables met in this stage of the game (the same stock, the same cards face
    down, the same runs finished: the same cards on the table). A line improves only if it ends below it:
    otherwise a player who plays one move of each plan could go round the stage for ever (one move towards a
    plan, then another plan back, each better than the table just left). ``now``: the cost of ``table``, the
    answer when nothing else of the stage was met."""
    down = sum(d for d, _ in table)
    cards = sum(len(up) for _, up in table)
    costs = [sum(rules.column_cost(c) for c in t) for t, s in seen
             if s == stock and sum(d for d, _ in t) == down and sum(len(up) for _, up in t) == cards]
    return min(costs, default=now)


def _empties_after(table: tuple, steps: list) -> bool:
    """Does the table still have an empty column after the moves ``steps`` (no card turned over)?"""
    cols = [len(up) + d for d, up in table]
    for s, d, k in steps:
        cols[s] -= k
        cols[d] += k
    return 0 in cols


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

    ``budget``: tables expanded per move (``PlannerStrategy.STRONG`` for a stronger, slower player);
    ``value``: the value of the table it steers by, ``"handmade"`` (the weights above) or ``"learned"``
    (:mod:`spiderette.players.value`).

    >>> from spiderette import Game
    >>> s = PlannerStrategy()
    >>> s(Game(seed=7)) == PlannerStrategy()(Game(seed=7).redeal_hidden(3))
    True
    """

    short_name = "planner"
    _defaults = {"budget": DEFAULT_BUDGET, "value": "handmade"}
    DEFAULT = DEFAULT_BUDGET
    STRONG = STRONG_BUDGET

    def __init__(self, budget: int = DEFAULT_BUDGET, value: str = "handmade", name: str | None = None) -> None:
        super().__init__(name)
        self.budget = tables(budget, "budget")
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
        self.last_plan = plan(game, self.budget, self._seen, value=self.value)
        if self.last_plan is None:
            self._line = []
            return None
        self._line = list(self.last_plan.line)
        return self._next(game)

    def _next(self, game: Game) -> Move:
        move = self._line.pop(0)
        if self._line:
            probe = game.copy()
            probe.apply(move)
            self._expect = visible_key(probe)
        return move
