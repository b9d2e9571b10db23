"""Where did the game go wrong? ``analyse(game)`` judges every position of a played game with the solver.

Each position is **winnable**, **lost** or **unknown** (within the budget), as seen with the hidden cards
known: the solver peeks, so this is a post-mortem, not advice for the game in progress. Winnability can only
be lost along a game, never regained (a position after a move is winnable only if the one before it was), so
the **turning point** (the move that turned a winnable game into a lost one) is found by bisection: a handful
of solves, not one per move. A winning line found at one position is reused while the game follows it.

When positions stay unknown within the budget, the analysis says what is known: the **last position known
winnable** (with a winning line from it) and the **first proven lost** (with the tables the solver exhausted
there): "Lost between move 9 and move 17". The budget is ``node_limit * max_solves`` tables in all, the
solver's and the planner's (whether each move was the planner's choice): the end of the game and its start
get a bigger share of it (``END_SHARE``, ``START_SHARE`` solves' worth), spent only as far as they need, and
the planner's pass what the solves leave (at least ``PLANNER_SHARE`` of it); a move it cannot reach within
the budget is not marked. The words (table, budget, decided, undecided, odds, turning point, range) are
defined in the documentation's glossary (``docs/glossary.md``).

>>> from spiderette import Game, Limit
>>> g = Game(seed=12)
>>> g.play("ef cb")
[Move.parse('ef1'), Move.parse('cb1')]
>>> a = analyse(g, Limit(tables=20_000))       # or analyse(g, node_limit=20_000)
>>> [s.verdict for s in a.steps]
['winnable', 'winnable', 'winnable']
>>> a.turning_point is None, a.last_winnable, a.first_lost
(True, 2, None)
>>> a.tables <= a.budget == 20_000 * ANALYSIS_SOLVES
True
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.cards import card_text
from ..engine.errors import an_event, flag, quote, whole
from ..engine.game import Game
from ..engine.move import Move
from ..engine.predicates import turns_over_a_card, visible_key
from ..engine.words import plural
from .advice import step_words
from .background import StoppableFuture, run_in_thread
from .limits import Limit, budget_of
from .limits import tables as tables_arg
from .odds import Odds
from .planner import plan
from .solver import solve

__all__ = ["analyse", "analyse_async", "Analysis", "Position", "TurningPoint", "ANALYSIS_NODES", "in_view"]

#: Tables the solver may expand for each position it is asked about (a budget in tables: the same verdicts
#: on every machine, however busy).
ANALYSIS_NODES = 40_000
#: The most solves the search for the turning point makes (each at most ANALYSIS_NODES tables): a bound on
#: the time a long game's analysis takes when many positions stay undecided.
ANALYSIS_SOLVES = 12
#: Tables the planner may expand at each position when the analysis asks whether a move was its choice
#: (``planner=True``); the planner's pass is paid from the analysis's budget, which keeps back at most
#: ``PLANNER_SHARE`` of it for that pass (the solves may leave it more). 2,000 on either core: the planner's
#: budget before the compiled core (Hint plans with :data:`~spiderette.players.planner.DEFAULT_BUDGET`), so that
#: an analysis's budget buys the same passes on every machine.
PLAN_TABLES = 2000
PLANNER_SHARE = 0.25
#: The verdicts, in words.
WINNABLE, LOST, UNKNOWN = "winnable", "lost", "unknown"


@dataclass(frozen=True)
class Position:
    """One position of the game: after ``index`` moves; ``move`` is the move played from it (``None`` at the
    end). ``verdict``, this position's (before ``move`` is played), is "winnable", "lost" or "unknown" (seen with
    the hidden cards known); ``line`` a winning line from here when winnable; ``face_down`` the cards still face
    down in the tableau;
    ``planner`` whether ``move`` was the planner's choice (``None`` at the end, when not asked, or when the
    budget ran out before this move). An unknown position solved with at least a measured budget has ``odds``:
    how many positions like it proved winnable with ten times the search (:mod:`spiderette.players.odds`)."""

    index: int
    move: Move | None
    verdict: str
    line: tuple[Move, ...]
    face_down: int
    planner: bool | None = None
    odds: Odds | None = None


@dataclass(frozen=True)
class TurningPoint:
    """The move that lost a winnable game: played from position ``index`` (move number ``index + 1``);
    ``kept`` is a move that kept it winnable there, the start of ``line``, a winning line.

    Could a player have known? ``in_view``: the moves of ``line`` up to the next card it turns over (that move
    included), played with cards in view only; ``0`` when it deals first (what follows depends on the cards
    dealt). ``planner``: what the honest planner (:func:`~spiderette.players.planner.plan`, from the cards a
    player saw) would have played there; ``planner_keeps``: whether that keeps the game winnable (``None``:
    not known within the budget, or not asked); ``planner_text`` says both in words."""

    index: int
    move: Move
    kept: Move
    line: tuple[Move, ...]
    text: str
    in_view: int = 0
    planner: Move | None = None
    planner_keeps: bool | None = None
    planner_text: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass
class Analysis:
    """What :func:`analyse` found: ``steps`` (one :class:`Position` per position, ``len(moves) + 1``),
    ``turning_point`` (``None`` when the game never went from winnable to lost, or when that is unknown),
    and ``solves``, the number of solver calls it took.

    What is known when the turning point is not: ``last_winnable``, the last position known winnable (after
    that many moves; ``None``: none) with ``winning_line``, a line that wins from it; ``first_lost``, the
    first position proven lost (``None``: none) with ``proof_tables``, the tables the solver exhausted there
    (every table the game could reach from it, every card seen). The losing move is one of moves
    ``last_winnable + 1`` to ``first_lost`` (:attr:`lost_between`). ``tables``: the tables the solves and the
    planner's pass expanded, of at most ``budget``.
    """

    start: Game = field(repr=False)
    moves: list[Move]
    steps: list[Position]
    turning_point: TurningPoint | None
    solves: int
    summary: str
    last_winnable: int | None = None
    first_lost: int | None = None
    winning_line: tuple[Move, ...] = field(default=(), repr=False)
    proof_tables: int | None = None
    tables: int = 0
    budget: int = 0

    @property
    def lost_between(self) -> tuple[int, int] | None:
        """``(first, last)``: the moves (numbered from 1) one of which lost a winnable game, when both ends are
        known (``first == last``: the turning point); ``None`` otherwise."""
        if self.last_winnable is None or self.first_lost is None:
            return None
        return self.last_winnable + 1, self.first_lost

    def __str__(self) -> str:
        strip = "".join({WINNABLE: "W", LOST: "L"}.get(s.verdict, "?") for s in self.steps)
        return f"{self.summary}\n{strip}   (W winnable, L lost, ? unknown; one letter per position)"

    def _repr_html_(self) -> str:
        colour = {WINNABLE: "#2e7d32", LOST: "#c62828", UNKNOWN: "#9e9e9e"}
        ends = {self.last_winnable: "the last position known winnable", self.first_lost: "the first proven lost"}
        cells = "".join(
            f'<span title="position {s.index}: {s.verdict}{"; " + ends[s.index] if s.index in ends else ""}"'
            f' style="display:inline-block;width:6px;height:14px;background:{colour[s.verdict]};margin-right:1px'
            f'{";outline:2px solid black" if s.index in ends and self.turning_point is None else ""}"></span>'
            for s in self.steps)
        return f"<div><p>{html.escape(self.summary)}</p><div>{cells}</div></div>"

    def to_pandas(self):
        """One row per position (as :attr:`steps`), its index ``position`` the moves played to reach it (0: the
        start). A row pairs a position with the move played **from** it:

        * ``move``: the move played from this position (notation; ``None`` on the last row);
        * ``verdict``: this position's verdict, **before** ``move``;
        * ``verdict_after``: the verdict of the position ``move`` leads to (the next row's ``verdict``);
        * ``line``: the length of a winning line from this position (when winnable); ``face_down``: the cards
          still face down here; ``planner``: whether ``move`` was the planner's choice.

        So the turning point's move sits on the last row marked "winnable", with ``verdict_after`` "lost".
        ``df.attrs`` holds what is known of the whole game: ``last_winnable``, ``first_lost``, ``solves``,
        ``tables``."""
        from .extras import need

        pd = need("to_pandas()", "pandas", instead="the same positions without it: .steps")
        rows = [{"position": s.index, "move": None if s.move is None else str(s.move), "verdict": s.verdict,
                 "line": len(s.line) or None, "face_down": s.face_down, "planner": s.planner} for s in self.steps]
        df = pd.DataFrame(rows).set_index("position")
        df.insert(2, "verdict_after", [s.verdict for s in self.steps[1:]] + [None])
        df.attrs.update(last_winnable=self.last_winnable, first_lost=self.first_lost, solves=self.solves,
                        tables=self.tables)
        return df

    def chart(self):
        """The picture of :meth:`plot` drawn as SVG, which needs no package (a browser site without matplotlib): the
        verdicts along the moves, the cards still face down, the turning point as a dashed line; printed, the
        summary."""
        from .chart import strip_chart

        colour = {WINNABLE: "#2e7d32", LOST: "#c62828", UNKNOWN: "#9e9e9e"}
        mark = self.turning_point.index if self.turning_point is not None else None
        return strip_chart("winnable (green), lost (red), unknown (grey): seen with the hidden cards known",
                           [colour[s.verdict] for s in self.steps], [s.face_down for s in self.steps],
                           "cards face down", mark=mark, mark_label="turning point" if mark is not None else "",
                           text=self.summary)

    def plot(self):
        """A strip of the verdicts along the moves, with the cards still face down (a matplotlib Figure); the
        turning point as a dashed line, or else the stretch from the last position known winnable to the first
        proven lost, hatched. Without matplotlib (a browser site without it), the same drawn as SVG
        (:meth:`chart`)."""
        from .extras import new_figure

        try:
            fig = new_figure(figsize=(10, 2.8), layout="constrained")
        except ImportError:
            return self.chart()
        ax = fig.subplots()
        colour = {WINNABLE: "#2e7d32", LOST: "#c62828", UNKNOWN: "#9e9e9e"}
        for s in self.steps:
            ax.axvspan(s.index - 0.5, s.index + 0.5, color=colour[s.verdict], alpha=0.35, lw=0)
        ax.plot([s.index for s in self.steps], [s.face_down for s in self.steps], color="black",
                label="cards face down")
        if self.turning_point is not None:
            ax.axvline(self.turning_point.index + 0.5, color="#c62828", ls="--", label="turning point")
        elif self.lost_between is not None:
            ax.axvspan(self.last_winnable, self.first_lost, fill=False, hatch="//", edgecolor="#c62828", lw=1.5,
                       label=f"lost between move {self.last_winnable + 1} and {self.first_lost}")
        ax.set_xlabel("position (moves played)")
        ax.set_ylabel("cards face down")
        ax.set_xlim(-0.5, len(self.steps) - 0.5)
        ax.legend(loc="upper right")
        ax.set_title("winnable (green), lost (red), unknown (grey): seen with the hidden cards known")
        return fig


# ---------------------------------------------------------------------- the source
def game_of(source: object) -> Game:
    """The game to analyse: a :class:`Game` (with its history), a save file's path, or anything with a
    ``game`` attribute that is one (a :class:`~spiderette.Widget`)."""
    if isinstance(source, (str, Path)):
        return Game.load(source)
    game = getattr(source, "game", None) if not isinstance(source, Game) else source
    if not isinstance(game, Game):
        raise TypeError(f"analyse takes a Game, a save file's path or a Widget, not {quote(source)}")
    return game


#: The most solves one analysis may be given (``max_solves``).
MAX_SOLVES = 10_000


def _check(call: str, limit: object, node_limit: object, planner: object, max_solves: object,
           cancel: object = None, max_held: object = None) -> Limit:
    """The arguments of :func:`analyse`, and the budget of each solve (its tables, and the tables it may hold):
    a wrong type is a ``TypeError``, a wrong value a ``ValueError``."""
    node_limit = Limit.of(node_limit=node_limit, none=False).tables
    held = tables_arg(max_held, "max_held", none=True)
    budget = budget_of(call, limit, {"node_limit": (node_limit, ANALYSIS_NODES), "max_held": (held, None)})
    whole(max_solves, "max_solves", 2, MAX_SOLVES)
    flag(planner, "planner")
    an_event(cancel)
    assert budget.tables is not None   # (budget_of gives a Limit without tables the shorthand's number)
    return budget


def _start_and_moves(game: Game) -> tuple[Game, list[Move]]:
    start = game.copy()   # takes the game's lock: a whole snapshot
    moves = start.history
    while start.undo() is not None:
        pass
    return start, moves


# ---------------------------------------------------------------------- the search
class _Judge:
    """Solves positions on demand, once each (unless asked again with more tables), and remembers what it learnt;
    ``tables`` counts the tables its solves expanded, ``proof[k]`` those of the solve that proved ``k`` lost."""

    def __init__(self, positions: list[Game], moves: list[Move], node_limit: int,
                 cancel: threading.Event | None, held: int | None = None) -> None:
        self.positions, self.moves, self.node_limit, self.cancel = positions, moves, node_limit, cancel
        self.held = held   # the most tables a solve may hold (None: no bound)
        self.verdict: dict[int, str] = {}
        self.line: dict[int, tuple[Move, ...]] = {}
        self.proof: dict[int, int] = {}
        self.limit: dict[int, int] = {}   # the tables the last solve of a position had
        self.odds: dict[int, Odds | None] = {}   # what is measured of an unknown position's kind
        self.solves = self.tables = 0

    def judge(self, k: int, limit: int | None = None) -> str:
        """The verdict of position ``k``, solved with ``limit`` tables (``node_limit`` by default) unless known;
        an unknown position is solved again when ``limit`` is more than it had."""
        limit = self.node_limit if limit is None else limit
        if k in self.verdict and not (self.verdict[k] == UNKNOWN and limit > self.limit.get(k, limit)):
            return self.verdict[k]
        if self.cancel is not None and self.cancel.is_set():
            return self.verdict.setdefault(k, UNKNOWN)
        g = self.positions[k]
        if g.is_won:
            self._winnable(k, ())
            return WINNABLE
        self.solves += 1
        self.limit[k] = limit
        res = solve(g, Limit(tables=limit, held=self.held), cancel=self.cancel)
        self.tables += res.nodes
        if res.result == "win":
            self._winnable(k, tuple(res.moves))
        elif res.result == "loss":
            self.proof[k] = res.nodes
            for j in range(k, len(self.positions)):   # lost stays lost
                if self.verdict.get(j) != LOST:
                    self.verdict[j] = LOST
        else:
            self.verdict[k] = UNKNOWN
            self.odds[k] = res.odds
        return self.verdict[k]

    def _winnable(self, k: int, line: tuple[Move, ...]) -> None:
        """``k`` is winnable by ``line``: so is every position before it (by the game's moves, then the line),
        and every later one while the game follows the line."""
        self.verdict[k], self.line[k] = WINNABLE, line
        j = k
        while j < len(self.moves) and j - k < len(line) and self.moves[j] == line[j - k]:
            j += 1
            self.verdict[j], self.line[j] = WINNABLE, line[j - k:]
        for i in range(k - 1, -1, -1):
            if self.verdict.get(i) == WINNABLE and i in self.line:
                break
            self.verdict[i], self.line[i] = WINNABLE, tuple(self.moves[i:k]) + line

    def bounds(self) -> tuple[int | None, int | None]:
        """The last position known winnable and the first known lost (``None``: none)."""
        won = [k for k, v in self.verdict.items() if v == WINNABLE]
        lost = [k for k, v in self.verdict.items() if v == LOST]
        return max(won, default=None), min(lost, default=None)


#: The shares of the budget for the two ends of the game, in solves' worth of tables (``node_limit`` each): the
#: end (a lost game's last position is often a small space the solver can exhaust) and the start (most deals
#: are winnable, some only with more tables). A share is spent only as far as the solve needs it.
END_SHARE = 2
START_SHARE = 6


def _bisect(judge: _Judge, n: int, most: int, budget: int) -> tuple[int | None, int | None]:
    """The last position known winnable and the first known lost (``None``: none found), in at most ``most``
    solves and ``budget`` tables.

    The end first, then the start (each with a bigger share of the budget), then two bisections: one for the
    last winnable position, one for the first lost. A position left unknown splits the stretch still open in
    two, and each side is bisected on its own (the unknown ones lie between the winnable and the lost)."""
    nl = judge.node_limit

    def left() -> int:
        return budget - judge.tables

    if judge.judge(n, max(1, min(END_SHARE * nl, left() - nl))) == WINNABLE:
        return n, None
    if judge.judge(0, max(1, min(START_SHARE * nl, left()))) == LOST:
        return None, 0
    while judge.solves < most and left() > 0 and not (judge.cancel is not None and judge.cancel.is_set()):
        lo, hi = judge.bounds()
        if lo is not None and hi is not None and hi == lo + 1:
            break
        judged = judge.verdict
        # the stretch where the last winnable position may lie, and the one where the first lost may
        win = (lo, min((k for k in judged if k > lo), default=n + 1)) if lo is not None else None
        loss = (max((k for k in judged if k < hi), default=-1), hi) if hi is not None else None
        open_ = [s for s in (win, loss) if s is not None and s[1] - s[0] > 1]
        if not open_:
            break
        a, b = max(open_, key=lambda s: (s[1] - s[0], s is loss))
        judge.judge((a + b) // 2, min(nl, left()))
    # budget left over: an end still unknown gets it all, in one more solve; else the unknown positions next to
    # the last winnable one and the first lost one share it (one of them decided narrows the range)
    for k in (0, n):
        if judge.verdict.get(k) == UNKNOWN and judge.solves < most and left() > judge.limit.get(k, 0):
            judge.judge(k, left())
    lo, hi = judge.bounds()
    if lo is not None and hi is not None:
        near = [k for k in dict.fromkeys((lo + 1, hi - 1)) if lo < k < hi and judge.verdict.get(k) == UNKNOWN]
        for i, k in enumerate(near):
            share = left() // (len(near) - i)
            if judge.solves < most and share > judge.limit.get(k, 0):
                judge.judge(k, share)
    return judge.bounds()


def analyse(source: object, limit: Limit | None = None, *, node_limit: int = ANALYSIS_NODES, planner: bool = True,
            cancel: threading.Event | None = None, max_solves: int = ANALYSIS_SOLVES,
            max_held: int | None = None) -> Analysis:
    """Judge every position of a played game and find its turning point.

    ``source``: a :class:`Game` with its history, a save file's path, a study's ``res.game(deal)`` or a
    widget. ``limit``: the tables for each solve, ``analyse(g, Limit(tables=20_000))`` (a
    :class:`~spiderette.Limit` of tables, and of ``held``, the most tables each solve may hold at once: its
    memory, see :func:`~spiderette.solve`; ``node_limit`` and ``max_held`` are their shorthands);
    ``max_solves``: the most solves (the two ends of the game are always judged). ``planner=True`` also marks
    whether each move was the planner's choice (:mod:`spiderette.players.planner`, honest: from the cards a
    player saw). ``cancel`` (a ``threading.Event``) stops it between and inside solves: what is undecided then
    stays "unknown".
    """
    budget_each = _check("analyse", limit, node_limit, planner, max_solves, cancel, max_held)
    assert budget_each.tables is not None   # (_check: the shorthand's number where the limit names none)
    node_limit = budget_each.tables
    start, moves = _start_and_moves(game_of(source))
    positions = [start.copy()]
    for m in moves:
        g = positions[-1].copy()
        g.apply(m)
        positions.append(g)
    n = len(moves)
    budget = node_limit * max_solves
    # the planner's pass is paid from the same budget: a share of it kept back from the solves
    kept = min(n * PLAN_TABLES, int(budget * PLANNER_SHARE)) if planner else 0
    judge = _Judge(positions, moves, node_limit, cancel, budget_each.held)
    lo, hi = _bisect(judge, n, max_solves, budget - kept)
    chose, spent = _planner_pass(positions, moves, budget - judge.tables, cancel) if planner else ({}, 0)
    judge.tables += spent
    steps = []
    for k, g in enumerate(positions):
        move = moves[k] if k < n else None
        verdict = judge.verdict.get(k, UNKNOWN)
        steps.append(Position(k, move, verdict, judge.line.get(k, ()) if verdict == WINNABLE else (),
                              sum(g.face_down(i) for i in range(g.columns)), chose.get(k),
                              judge.odds.get(k) if verdict == UNKNOWN else None))
    turning = None
    if lo is not None and hi == lo + 1:
        turning = _turning_point(positions, lo, moves[lo], judge.line[lo], judge if planner else None,
                                 budget - judge.tables)
    proof = judge.proof.get(hi) if hi is not None else None
    line = judge.line.get(lo, ()) if lo is not None else ()
    summary = _summary(positions, steps, turning, judge, lo, hi, line, budget)
    if planner and n and len(chose) < n:
        summary += (f" The planner's choice was checked for {_plural(len(chose), 'move')} of {n} within the"
                    " budget." if chose else " The planner's choice was not checked: the solves took the budget.")
    return Analysis(start, moves, steps, turning, judge.solves, summary, lo, hi, line, proof, judge.tables,
                    budget)


def _planner_pass(positions: list[Game], moves: list[Move], left: int,
                  cancel: threading.Event | None) -> tuple[dict[int, bool], int]:
    """Whether each move was the planner's choice, from the first move on while ``left`` tables last (a plan
    may expand :data:`PLAN_TABLES` twice: its search and the search to fill an empty column):
    ``({position: bool}, tables expanded)``."""
    chose: dict[int, bool] = {}
    spent = 0
    seen: set = set()
    for k, move in enumerate(moves):
        if left - spent < 2 * PLAN_TABLES or (cancel is not None and cancel.is_set()):
            break
        g = positions[k]
        seen.add(visible_key(g))
        p = plan(g, budget=PLAN_TABLES, seen=seen)
        spent += p.tables if p is not None else 0
        chose[k] = p is not None and p.move == move
    return chose, spent


def in_view(g: Game, line: tuple[Move, ...]) -> int:
    """The moves of ``line`` from ``g`` up to the next card it turns over (that move included), made with
    cards in view only; ``0`` when the line deals before it turns a card over (the cards dealt were unknown).

    >>> from spiderette import Game
    >>> g = Game(seed=7)
    >>> in_view(g, (g.parse_move("bd"),)), in_view(g, (g.parse_move("d"),))
    (1, 0)
    """
    probe = g.copy()
    for i, m in enumerate(line, start=1):
        if m.kind == "deal":
            return 0
        if turns_over_a_card(probe, m):
            return i
        probe.apply(m)
    return len(line)


def named_move(g: Game, m: Move) -> str:
    """A move as the post-mortem names it everywhere (its summary, the table's words, the replay's note): its
    shortest notation in ``g`` and, in brackets, its cards, said before it is played.

    >>> from spiderette import Game
    >>> g = Game(seed=7)
    >>> named_move(g, g.parse_move("bd")), named_move(g, g.parse_move("d"))
    ('bd (6♥ onto 7♣)', 'd (deal a row)')
    """
    return f"{g.notation(m)} ({step_words(g, m, card_text)})"


def _turning_point(positions: list[Game], k: int, move: Move, line: tuple[Move, ...],
                   judge: _Judge | None = None, left: int = 0) -> TurningPoint:
    """The turning point at position ``k``, with what the honest planner would have played there (planned
    with the tables met up to ``k``) and, when ``left`` tables allow a solve, whether that kept it winnable."""
    g = positions[k]
    kept = line[0]
    seen = {visible_key(x) for x in positions[:k + 1]}
    reach = in_view(g, line)
    said = (f"move {k + 1}, {named_move(g, move)}, lost a winnable game; {named_move(g, kept)} kept it winnable:"
            f" a winning line of"
            f" {plural(len(line), 'move')}, ")
    said += ("which deals before it turns a card over: what followed depended on the cards dealt" if not reach
             else "whose first move uses only cards in view" if reach == 1 else
             f"whose first {reach} moves, to the next card it turns over, use only cards in view")
    p = plan(g, budget=PLAN_TABLES, seen=seen) if judge is not None else None
    if judge is not None and p is not None:
        judge.tables += p.tables
    mine, keeps = (p.move if p is not None else None), None
    if mine is None:
        words = "The honest planner would have resigned there" if judge is not None else ""
    else:
        assert p is not None and judge is not None   # (a plan is made only with a judge)
        if mine == kept:
            keeps, how = True, "the saving move"
        elif mine == move:
            keeps, how = False, "the same losing move: it could not tell either"
        else:
            keeps = _keeps(judge, g, mine, left - p.tables)
            how = {True: "which keeps it winnable too", False: "which loses it too",
                   None: "whether that keeps it winnable is not known within the budget"}[keeps]
        words = f"The honest planner would have played {named_move(g, mine)}, {how}"
    text = f"{said}. {words}" if words else said
    return TurningPoint(k, move, kept, line, text, reach, mine, keeps, words)


def _keeps(judge: _Judge, g: Game, m: Move, left: int) -> bool | None:
    """Does ``m`` keep ``g`` winnable? One solve within ``left`` tables (at most the analysis's node limit)."""
    if left < 1 or (judge.cancel is not None and judge.cancel.is_set()):
        return None
    after = g.copy()
    after.apply(m)
    res = solve(after, Limit(tables=min(judge.node_limit, left), held=judge.held), cancel=judge.cancel)
    judge.solves += 1
    judge.tables += res.nodes
    return {"win": True, "loss": False}.get(res.result)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _summary(positions: list[Game], steps: list[Position], turning: TurningPoint | None, judge: _Judge,
             lo: int | None, hi: int | None, line: tuple[Move, ...], budget: int) -> str:
    n = len(steps) - 1
    won = positions[-1].is_won
    if turning is not None:
        head = f"Turning point: {turning}."
    elif lo == n:
        head = "Winnable all along: " + ("the game was won." if won else "it can still be won from its last position.")
    elif hi == 0:
        head = "Never winnable: the deal was lost from the start (seen with the hidden cards known)."
    else:
        known = []
        if lo is not None:
            g = positions[lo]
            first = f", starting {named_move(g, line[0])}" if line else ""
            known.append(f"winnable after {_plural(lo, 'move')} (a winning line of {_plural(len(line), 'move')}"
                         f"{first})")
        if hi is not None:
            known.append(f"proven lost after {_plural(hi, 'move')} (the solver saw every one of the"
                         f" {_plural(judge.proof.get(hi, 0), 'table')} it could reach)")
        said = ", ".join(known)
        if lo is not None and hi is not None:
            head = f"Lost between move {lo + 1} and move {hi}: {said}; undecided in between within the budget."
        elif lo is not None:
            head = f"{said[0].upper()}{said[1:]}; whether and where it was lost stays undecided within the budget."
        elif hi is not None:
            head = (f"Lost by move {hi} at the latest: {said}; whether the deal was ever winnable stays undecided"
                    " within the budget.")
        else:
            head = "The turning point is not known within the budget (no position was decided)."
        # what is measured of the undecided end: the start when nothing shows it winnable, else the last position
        head += _odds_words(judge, 0 if lo is None else n if hi is None else None)
    return (f"{head} {_plural(n, 'move')}, {_plural(judge.solves, 'solve')}, {_plural(judge.tables, 'table')}"
            f" (of at most {budget:,}).")


def _odds_words(judge: _Judge, k: int | None) -> str:
    """What is measured of undecided position ``k`` (the start, when nothing shows it winnable), in words."""
    odds = judge.odds.get(k) if k is not None and judge.verdict.get(k) == UNKNOWN else None
    if odds is None:
        return ""
    assert k is not None   # (odds are looked up only for a position)
    where = "The deal's start" if k == 0 else f"The last position (after {_plural(k, 'move')})"
    return f" {where} is {odds.head}: {odds.words()}."


def analyse_async(source: object, limit: Limit | None = None, *, node_limit: int = ANALYSIS_NODES,
                  planner: bool = True, max_solves: int = ANALYSIS_SOLVES,
                  max_held: int | None = None) -> StoppableFuture:
    """:func:`analyse` in a background thread: a ``Future`` of the :class:`Analysis` whose ``cancel()``
    stops it. The game is copied at once, so it may be played on meanwhile."""
    budget = _check("analyse_async", limit, node_limit, planner, max_solves, None, max_held)   # before the Future
    game = game_of(source).copy()
    return run_in_thread(lambda stop: analyse(game, budget, planner=planner, cancel=stop, max_solves=max_solves),
                         "spiderette-analyse")
