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
   When that line turns a card over, it weighs the best ``turns`` lines that turn one again, each by the best a
   short search could do after every card that could turn up, averaged (which card to turn over).
3. When no line improves, it deals (when the rules allow). With an empty column blocking the deal, it first
   plans the best way to fill the empty columns. With no stock left and nothing that improves, it resigns.
   Steering by the learned value, it also weighs the table after a deal (its new cards averaged over the cards
   unseen) against the best line, and against one preparing move then the deal: the best of them is played.

The budget counts **tables expanded** (not seconds), so a plan is the same on any machine.
:class:`PlannerStrategy` is the player for studies; :func:`plan` gives the plan itself, for hints.

**The value it steers by** is the learned one by default (:mod:`spiderette.players.value`, fitted on the
planner's own games); ``value="handmade"`` steers by the weights of :mod:`spiderette.players.plan_costs` instead,
and ``value="my_value.json"`` (or a :class:`~spiderette.players.value.ValueModel`) by a model of one's own.

**Where it lives.** Three modules, one job each: :mod:`spiderette.players.plan_costs` (the weights, the cost of
a column, the value of a card about to turn over), :mod:`spiderette.players.plan_search` (the best-first search
and the lines it finds) and this one (the plan: what to play of the search, when to deal, the player).

**Measured** (``benchmarks/expert_figures.py``, on the compiled core): four suits 156 of deals 1-2000 (7.8%;
at 2,000 tables with ``turns=1``, the planner before, 111), two suits 171 of deals 1-500 (34.2%; 133), one suit
349 of deals 1-500 (69.8%; 329). The budget and ``turns`` were chosen on deals 50001-52000 (four suits),
60001-60500 (two) and 70001-70500 (one); the hand-made weights were tuned on deals 5001-5200.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..engine.core import ALWAYS, Core, Pruning, columns_of
from ..engine.errors import an_event, is_whole, quote
from ..engine.game import Game, a_game
from ..engine.move import DEAL, SENDS, Move
from ..engine.predicates import visible_key
from .limits import CORE_SPEEDUP, Limit, budget_of, tables
from .memory import tables_met
from .plan_costs import STEP, PlanCosts, unseen_cards
from .plan_search import best_met, card_costs, line_of, moves_of, of_key, search
from .strategies import Strategy
from .value import DEFAULT_VALUE, VALUES, ModelError, ValueModel, model_of

__all__ = ["Plan", "plan", "table_value", "table_after", "PlannerStrategy", "DEFAULT_BUDGET", "STRONG_BUDGET",
           "DEFAULT_TURNS"]

#: With the learned value, how much better than the best line (in points) the table after a deal must be for
#: the planner to deal while a line still improves. 0: measured against -30 and -60 on deals 20001-20400 (four
#: suits), which deal earlier and leave more cards face down.
DEAL_MARGIN = 0

#: Tables expanded per move by default: a fresh plan (a hint) in a few hundredths of a second at most, on either
#: search core: 2,000 on the pure-Python core, ten times more on the compiled core (:data:`~spiderette.players.
#: limits.CORE_SPEEDUP`), which wins more four-suit deals with them (the Teach guide has the figures).
DEFAULT_BUDGET = 2000 * CORE_SPEEDUP
#: Tables expanded per move for a "Think" button: a stronger, slower plan (under a second a move).
STRONG_BUDGET = 20000 * CORE_SPEEDUP
#: Which card to turn over: when the best line turns one, the planner weighs again the best ``turns`` lines that
#: turn one, each by what every card that could turn up would let it do next (a short search after each card,
#: :data:`TURN_LOOK` tables), averaged over the cards unseen; ``turns=1`` plays the best line as found. By
#: default 5 on the compiled core (the Teach guide has the figures), 1 on the pure-Python core (five times
#: thirty searches a plan would take it a second).
DEFAULT_TURNS = 5 if CORE_SPEEDUP > 1 else 1
#: The tables of each short search after a card turned over (:data:`DEFAULT_TURNS`), or a tenth of the plan's
#: budget if that is less (a plan of 2,000 tables or more: 200).
TURN_LOOK = 200


# ---------------------------------------------------------------------- the result
@dataclass(frozen=True)
class Plan:
    """A plan for the table seen: play ``move`` now; ``line`` is the whole manoeuvre it starts.

    ``value`` is the cost of the table the line ends on (:func:`table_value`, lower is better; a line that
    turns a card over is valued by the average over the cards that could turn up), ``start_value`` the cost
    of the table now. ``alternatives`` are the other first moves worth considering, ``(move, value)``, best
    first (by the planner's own measure: the value of the best table a line reaches plus
    :data:`~spiderette.players.plan_costs.STEP` per move it takes), and ``alternative_lines`` the best line
    each of them starts. ``tables`` counts the tables expanded. ``ends_with`` says what the line achieves:

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


# ---------------------------------------------------------------------- the variant as the planner sees it
#: The planner's moves (:class:`~spiderette.engine.core.Pruning`), in plain words: only the first empty column
#: is a destination (one is as good as another), never a whole column into an empty one (nothing gained), and
#: no deal inside the search (the planner deals only when no line improves). Two more rules are the search's
#: own: a move that turns a card over ends its line (the card is unknown: a leaf), and so does one that
#: finishes a run while runs are sent by hand (the next plan sends it).
PLANNER_MOVES = Pruning(one_empty_column=ALWAYS, no_whole_column_to_empty=ALWAYS, deals=False)


class _Rules:
    """What the planner needs to know about the variant and stage: its search core and its costs."""

    def __init__(self, game: Game, value: str | ValueModel = "handmade") -> None:
        self.core = Core(game, PLANNER_MOVES, visible=True)
        self.costs = PlanCosts(game, self.core, value)

    def forget(self) -> None:
        """Empty the caches (they are rebuilt as the search asks)."""
        self.costs.forget()
        self.core.forget()


#: How many columns each shared :class:`_Rules` keeps the cost (and the core its groups) of before it starts
#: afresh: enough for a long game's plans, a bounded memory over thousands of simulated games.
CACHED_COLUMNS = 200_000
_SHARED: dict[tuple, _Rules] = {}


def _rules_of(game: Game, value: str | ValueModel) -> _Rules:
    """The :class:`_Rules` of ``game``'s variant and stage, shared by every plan made for it, so that a column
    is costed once per game rather than once per plan (the costs depend on nothing else)."""
    key = (game.rules, game.columns, game.suits, game.auto_remove, value,
           game.deals_left if value != "handmade" else None)
    rules = _SHARED.get(key)
    if rules is None:
        if len(_SHARED) > 64:
            _SHARED.clear()
        rules = _SHARED[key] = _Rules(game, value)
    elif len(rules.costs.cache) > CACHED_COLUMNS:
        rules.forget()
    return rules


def _table_of(game: Game) -> tuple:
    """The visible table: the core's columns with a 0 for every face-down card. Reads no hidden card."""
    return columns_of(game, visible=True)


def table_value(game: Game, value: str | Path | ValueModel = DEFAULT_VALUE) -> int:
    """The cost of the table a player sees (lower is better), by the learned value, (``value="handmade"``)
    the weights of :mod:`~spiderette.players.plan_costs`, or a model of one's own (a model file's path or a
    :class:`~spiderette.players.value.ValueModel`): the planner's measure, in its points.

    >>> from spiderette import Game
    >>> table_value(Game(seed=7)) == plan(Game(seed=7)).start_value
    True
    """
    costs = _rules_of(game, _value_of(value)).costs
    return sum(costs.column_cost(c) for c in _table_of(game)) - costs.run_bonus * game.runs_completed


# ---------------------------------------------------------------------- the plan
def plan(game: Game, limit: Limit | None = None, *, budget: int = DEFAULT_BUDGET, seen: set | frozenset | None = None,
         cancel: threading.Event | None = None, value: str | Path | ValueModel = DEFAULT_VALUE,
         turns: int = DEFAULT_TURNS) -> Plan | None:
    """The planner's best plan for the table a player sees in ``game``, or ``None`` (nothing improves).

    ``limit`` is the number of tables the search may expand, ``plan(g, Limit(tables=20_000))`` (a
    :class:`~spiderette.Limit` of tables only; ``budget`` is its shorthand); ``seen`` the visible tables
    (:func:`spiderette.engine.predicates.visible_key`) already met in this game, never to be returned to:
    when not given, the game's own memory (:func:`spiderette.players.memory.tables_met`, from its
    history), so that following the plans from any position never meets a table twice. The game is read
    from a copy taken under its lock. The result is the same for any two games with the same observation
    and memory. Setting ``cancel`` (a ``threading.Event``) stops the search early (the Think button): the
    plan then comes from the tables searched so far. ``value`` is the value of the table it steers by, as
    for :class:`PlannerStrategy`; ``turns`` how many lines that turn a card over it weighs by what could turn
    up (:data:`DEFAULT_TURNS`; 1: none).
    """
    a_game(game, "plan")
    turns = _turns(turns)
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
    unseen = unseen_cards(game, table)
    core, costs = rules.core, rules.costs
    best, nodes, expanded, root_value = search(core, costs, table, stock, seen, budget, unseen, False, cancel)
    ranked = sorted(((pri, nid) for pri, nid in best.values()), key=lambda x: (x[0], x[1]))
    bar = min(root_value, best_met(costs, table, stock, seen, root_value))
    good = [nid for _, nid in ranked if nodes[nid][2] < bar]
    chosen = good[0] if good else None
    if len(good) > 1 and costs.learned is not None and costs.learned.sees_unseen:
        chosen = _by_unseen(rules, table, stock, unseen, nodes, good[:RERANK])
    if turns > 1 and chosen is not None and nodes[chosen][4][0] == "turn" and unseen:
        chosen = _dig_where(rules, table, stock, seen, unseen, nodes, good, chosen, turns, budget, cancel)
    rest = [nid for _, nid in ranked if nid != chosen]   # best first (by priority)
    others = [moves_of(line_of(nodes, nid)) for nid in rest]
    alternatives = tuple((line[0], nodes[nid][2]) for line, nid in zip(others, rest))
    if costs.learned is not None and game.can_deal():
        deal = _deal_decision(rules, game, table, stock, seen, unseen,
                              nodes[chosen][2] if chosen is not None else None)
        if deal is not None:
            line, worth = deal
            what = ("prepare", None) if len(line) > 1 else ("deal", None)
            return _checked(game, Plan(line[0], line, worth, root_value, alternatives, expanded, what,
                                       tuple(others)))
    if chosen is not None:
        line = moves_of(line_of(nodes, chosen))
        return _checked(game, Plan(line[0], line, nodes[chosen][2], root_value, alternatives, expanded,
                                   nodes[chosen][4], tuple(others)))
    if game.can_deal():
        return Plan(DEAL, (DEAL,), root_value, root_value, alternatives, expanded, ("deal", None), tuple(others))
    if stock and any(len(c) == 1 for c in table):
        # Nothing improves and an empty column forbids the deal: plan the best way to fill it.
        fbest, fnodes, more, froot = search(core, costs, table, stock, seen, budget, unseen, True, cancel)
        franked = sorted(((pri, nid) for pri, nid in fbest.values()), key=lambda x: (x[0], x[1]))
        if franked:
            nid = franked[0][1]
            line = moves_of(line_of(fnodes, nid))
            filled = next(i for i, c in enumerate(table) if len(c) == 1)
            if fnodes[nid][4][0] != "turn" and not _empties_after(rules, table, line_of(fnodes, nid)):
                line += (DEAL,)  # the empty columns are filled: deal at once, as planned
            lines = tuple(moves_of(line_of(fnodes, j)) for _, j in franked[1:])
            alts = tuple((x[0], fnodes[j][2]) for x, (_, j) in zip(lines, franked[1:]))
            return _checked(game, Plan(line[0], line, fnodes[nid][2], froot, alts, expanded + more,
                                       ("fill", filled), lines))
    return None


def _dig_where(rules: _Rules, table: tuple, stock: int, seen: set | frozenset, unseen: list[int], nodes: list,
               good: list[int], chosen: int, turns: int, budget: int, cancel: threading.Event | None = None) -> int:
    """Which card to turn over: among the best lines that turn one (``chosen`` the best of them), the one whose
    table after the turn is best on average over the cards that could turn up, each followed by the best line
    a short search finds from it: :data:`TURN_LOOK` tables, or a tenth of the plan's ``budget`` if less."""
    look = min(TURN_LOOK, max(1, budget // 10))
    turning = [nid for nid in good if nodes[nid][4][0] == "turn"][:turns]
    if len(turning) < 2 or (cancel is not None and cancel.is_set()):
        return chosen
    cards: dict[int, int] = {}
    for c in unseen:
        cards[c] = cards.get(c, 0) + 1
    costs = rules.costs

    def expected(nid: int) -> tuple[float, int]:
        state = _played_out(rules, table, line_of(nodes, nid))
        end = state[0]
        at = [(i, j) for i, c in enumerate(end) for j in range(c[0] + 1, len(c)) if c[j] == 0]
        total = 0.0
        for card, n in cards.items():
            turned = list(end)
            for i, j in at:
                turned[i] = turned[i][:j] + bytes((card,)) + turned[i][j + 1:]
            rest = list(unseen)
            rest.remove(card)
            best, found, _, now = search(rules.core, costs, tuple(turned), stock, seen, look, rest, False, cancel)
            total += n * min([now, *(found[i][2] for _, i in best.values())])
        return total / len(unseen) - costs.run_bonus * state[2] + STEP * nodes[nid][3], nid

    return min(turning, key=expected)


#: How many of the best lines the planner weighs again with the cards unseen (a model that weighs them).
RERANK = 8


def _by_unseen(rules: _Rules, table: tuple, stock: int, unseen: list[int], nodes: list, lines: list[int]) -> int:
    """The node, among the ends of ``lines``, best by its priority plus what the cards unseen may bring to the
    table it ends on (:meth:`~spiderette.players.value.LearnedValue.unseen_cost`; a card just turned over is
    left out, as unknown)."""
    learned = rules.costs.learned
    assert learned is not None

    def score(nid: int) -> tuple[float, int]:
        end = _played_out(rules, table, line_of(nodes, nid))[0]
        cols = [(c[0], bytes(x for x in c[c[0] + 1:] if x)) for c in end]
        return nodes[nid][2] + STEP * nodes[nid][3] + learned.unseen_cost(cols, unseen, stock), nid

    return min(lines, key=score)


def _deal_decision(rules: _Rules, game: Game, table: tuple, stock: int, seen: set | frozenset, unseen: list[int],
                   line_value: int | None) -> tuple[tuple[Move, ...], int] | None:
    """Deal now, or after one preparing move, rather than play the best line (worth ``line_value``, ``None``
    when no line improves)? The learned value weighs a table after the deal (each new card averaged over the
    cards unseen, the stage one deal later) against the table the line ends on: the deal is planned when it
    is better by more than :data:`DEAL_MARGIN`, or when no line improves: ``(line, value)``, the line being
    the deal or one move and the deal; ``None`` when the line is better.
    The preparing moves are the moves that turn no card over and finish no run, to a table not met in this
    stage, after which the deal is allowed."""
    learned = rules.costs.learned
    assert learned is not None   # (asked only with a learned value: plan)
    after = rules.costs.after_a_deal(game)
    shift = after.stage_cost - learned.stage_cost
    dealt = min(len(table), stock)   # the columns that receive a card
    memo: dict = {}
    cards: dict[int, int] = {}   # how many of each card are unseen
    for c in unseen:
        cards[c] = cards.get(c, 0) + 1

    compiled = card_costs(rules.core, after, table)   # (the costs of a column and each card, at once; or None)
    kinds, counts = bytes(cards), list(cards.values())

    def expected(i: int, col: bytes) -> float:
        key = (i < dealt, col)
        got = memo.get(key)
        if got is None:
            down, up = col[0], col[col[0] + 1:]
            each = compiled(col, kinds) if compiled is not None and i < dealt and unseen else None
            if each is not None:
                got = sum(n * x for n, x in zip(counts, each)) / len(unseen)
            elif i < dealt and unseen:
                got = sum(n * after.column_cost((down, up + bytes((c,)))) for c, n in cards.items()) / len(unseen)
            else:
                got = after.column_cost((down, up))
            memo[key] = got
        return got

    def dealt_on(t: tuple) -> float:
        return shift + sum(expected(i, c) for i, c in enumerate(t))

    now = dealt_on(table)
    best, prep = now, None
    met = {of_key(t) for t, s in seen if s == stock}
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


def _value_of(value: object) -> str | ValueModel:
    """The value of the table ``value`` names: ``"handmade"`` or ``"learned"`` as they are, a model of one's own
    (a model file's path, a dict as in a model file, or a :class:`~spiderette.players.value.ValueModel`) as
    its model. Anything else is a ``TypeError``; a word not known, or a file that is not a model, a
    :class:`~spiderette.players.value.ModelError` (a ``ValueError``) quoting it."""
    told = (f"value must be one of {', '.join(map(repr, VALUES))}, a model file's path or a ValueModel,"
            f" not {quote(value)}")
    if isinstance(value, str) and value in VALUES:
        return value
    if isinstance(value, str) and not value.endswith(".json") and not Path(value).is_file():
        raise ModelError(told)   # (a word, not a file's path)
    if not isinstance(value, (str, Path, ValueModel, Mapping)):
        raise TypeError(told)
    return model_of(value)


def _turns(turns: object) -> int:
    """``turns`` if it is a whole number from 1 to 64 (a ``TypeError`` or ``ValueError`` quoting it otherwise)."""
    told = f"turns must be a whole number from 1 to 64, not {quote(turns)}"
    if not is_whole(turns):
        raise TypeError(told)
    if not 1 <= turns <= 64:
        raise ValueError(told)
    return turns


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


def _empties_after(rules: _Rules, table: tuple, steps: list) -> bool:
    """Does the table still have an empty column after the moves ``steps`` (no card turned over)? Played by
    the search core, so a run that finishes and leaves an empty column behind counts."""
    return any(len(c) == 1 for c in _played_out(rules, table, steps)[0])


def _played_out(rules: _Rules, table: tuple, steps: list) -> tuple:
    """The search core's table ``(columns, dealt, runs)`` after the moves ``steps`` from ``table`` (a card turned
    over is a face-up 0: the planner does not know it; a run that finishes and leaves counts in ``runs``)."""
    state = (table, 0, 0)
    for s, d, k in steps:
        state = rules.core.after(state, Move("move", s, d, k))
    return state


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
    :mod:`spiderette.players.value`), ``"handmade"`` (the weights of :mod:`~spiderette.players.plan_costs`), or
    a value of one's own: a model file's path (``"my_value.json"``, written by
    :meth:`~spiderette.players.value.ValueModel.save`) or a :class:`~spiderette.players.value.ValueModel`.
    Results label it by the model's name, a file's by its file name: ``planner (value='my_value.json')``. A
    path with no model is a :class:`~spiderette.players.value.ModelError` (a ``ValueError``) quoting it.

    >>> from spiderette import Game
    >>> s = PlannerStrategy()
    >>> s(Game(seed=7)) == PlannerStrategy()(Game(seed=7).redeal_hidden(3))
    True
    >>> from spiderette.players.value import MODEL
    >>> PlannerStrategy(value=MODEL).name
    "planner (value='value_model.json')"
    """

    short_name = "planner"
    _defaults = {"budget": DEFAULT_BUDGET, "value": DEFAULT_VALUE, "turns": DEFAULT_TURNS}
    DEFAULT = DEFAULT_BUDGET
    STRONG = STRONG_BUDGET

    def __init__(self, limit: Limit | None = None, *, budget: int = DEFAULT_BUDGET,
                 value: str | Path | ValueModel = DEFAULT_VALUE, turns: int = DEFAULT_TURNS,
                 name: str | None = None) -> None:
        super().__init__(name)
        given = budget_of("PlannerStrategy", limit, {"budget": (tables(budget, "budget"), DEFAULT_BUDGET)}).tables
        assert given is not None   # (budget_of gives a Limit without tables the shorthand's number)
        self.budget = given
        self.value = _value_of(value)
        self.turns = _turns(turns)
        self.last_plan: Plan | None = None
        self._line: list[Move] = []
        self._expect: tuple | None = None

    def _settings(self) -> dict:
        # a model of one's own is shown by its name (a model file's name): planner (value='my_model.json')
        return {"budget": self.budget, "value": self.value.name if isinstance(self.value, ValueModel) else self.value,
                "turns": self.turns}

    def new_game(self) -> None:
        super().new_game()
        self._line, self._expect, self.last_plan = [], None, None

    def choose(self, game: Game) -> Move | None:
        # Follow the plan made earlier while the table is the one it expected: a line is played to its end
        # (each line ends on a better table, so the player never wanders); re-plan at every surprise.
        if self._line and visible_key(game) == self._expect and game.why_illegal(self._line[0]) is None:
            return self._next(game)
        self.last_plan = plan(game, budget=self.budget, seen=self._seen, value=self.value, turns=self.turns)
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
