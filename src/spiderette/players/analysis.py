"""Where did the game go wrong? ``analyse(game)`` judges every position of a played game with the solver.

Each position is **winnable**, **lost** or **unknown** (within the budget), as seen with the hidden cards
known: the solver peeks, so this is a post-mortem, not advice for the game in progress. Winnability can only
be lost along a game, never regained (a position after a move is winnable only if the one before it was), so
the **turning point** (the move that turned a winnable game into a lost one) is found by bisection: a handful
of solves, not one per move. A winning line found at one position is reused while the game follows it.

>>> from spiderette import Game
>>> g = Game(seed=12)
>>> g.play("ef cb")
[Move.parse('ef1'), Move.parse('cb1')]
>>> a = analyse(g, node_limit=20_000)
>>> [s.verdict for s in a.steps]
['winnable', 'winnable', 'winnable']
>>> a.turning_point is None
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
from .advice import planner_hint, step_words
from .background import StoppableFuture, run_in_thread
from .limits import Limit
from .planner import DEFAULT_BUDGET
from .solver import solve
from .strategies import visible_key

__all__ = ["analyse", "analyse_async", "Analysis", "Position", "TurningPoint", "ANALYSIS_NODES"]

#: Tables the solver may expand for each position it is asked about (a budget in tables: the same verdicts
#: on every machine, however busy).
ANALYSIS_NODES = 40_000
#: The most solves the search for the turning point makes (each at most ANALYSIS_NODES tables): a bound on
#: the time a long game's analysis takes when many positions stay undecided.
ANALYSIS_SOLVES = 12
#: The verdicts, in words.
WINNABLE, LOST, UNKNOWN = "winnable", "lost", "unknown"


@dataclass(frozen=True)
class Position:
    """One position of the game: after ``index`` moves; ``move`` is the move played from it (``None`` at the
    end). ``verdict`` is "winnable", "lost" or "unknown" (seen with the hidden cards known); ``line`` a
    winning line from here when winnable; ``face_down`` the cards still face down in the tableau;
    ``planner`` whether ``move`` was the planner's choice (``None`` at the end, or when not asked)."""

    index: int
    move: Move | None
    verdict: str
    line: tuple[Move, ...]
    face_down: int
    planner: bool | None = None


@dataclass(frozen=True)
class TurningPoint:
    """The move that lost a winnable game: played from position ``index`` (move number ``index + 1``);
    ``kept`` is a move that kept it winnable there, the start of ``line``, a winning line."""

    index: int
    move: Move
    kept: Move
    line: tuple[Move, ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass
class Analysis:
    """What :func:`analyse` found: ``steps`` (one :class:`Position` per position, ``len(moves) + 1``),
    ``turning_point`` (``None`` when the game never went from winnable to lost, or when that is unknown),
    and ``solves``, the number of solver calls it took."""

    start: Game = field(repr=False)
    moves: list[Move]
    steps: list[Position]
    turning_point: TurningPoint | None
    solves: int
    summary: str

    def __str__(self) -> str:
        strip = "".join({WINNABLE: "W", LOST: "L"}.get(s.verdict, "?") for s in self.steps)
        return f"{self.summary}\n{strip}   (W winnable, L lost, ? unknown; one letter per position)"

    def _repr_html_(self) -> str:
        colour = {WINNABLE: "#2e7d32", LOST: "#c62828", UNKNOWN: "#9e9e9e"}
        cells = "".join(
            f'<span title="position {s.index}: {s.verdict}" style="display:inline-block;width:6px;height:14px;'
            f'background:{colour[s.verdict]};margin-right:1px"></span>' for s in self.steps)
        return f"<div><p>{html.escape(self.summary)}</p><div>{cells}</div></div>"

    def to_pandas(self):
        """One row per position: index, move (notation), verdict, length of the winning line, face-down cards,
        whether the move was the planner's choice."""
        from .extras import need

        pd = need("to_pandas()", "pandas")
        rows = [{"position": s.index, "move": None if s.move is None else str(s.move), "verdict": s.verdict,
                 "line": len(s.line) or None, "face_down": s.face_down, "planner": s.planner} for s in self.steps]
        return pd.DataFrame(rows).set_index("position")

    def plot(self):
        """A strip of the verdicts along the moves, with the cards still face down (a matplotlib Figure)."""
        from .extras import new_figure

        fig = new_figure(figsize=(10, 2.8), layout="constrained")
        ax = fig.subplots()
        colour = {WINNABLE: "#2e7d32", LOST: "#c62828", UNKNOWN: "#9e9e9e"}
        for s in self.steps:
            ax.axvspan(s.index - 0.5, s.index + 0.5, color=colour[s.verdict], alpha=0.35, lw=0)
        ax.plot([s.index for s in self.steps], [s.face_down for s in self.steps], color="black",
                label="cards face down")
        if self.turning_point is not None:
            ax.axvline(self.turning_point.index + 0.5, color="#c62828", ls="--", label="turning point")
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


def _start_and_moves(game: Game) -> tuple[Game, list[Move]]:
    start = game.copy()   # takes the game's lock: a whole snapshot
    moves = start.history
    while start.undo() is not None:
        pass
    return start, moves


# ---------------------------------------------------------------------- the search
class _Judge:
    """Solves positions on demand, once each, and remembers what it learnt."""

    def __init__(self, positions: list[Game], moves: list[Move], node_limit: int,
                 cancel: threading.Event | None) -> None:
        self.positions, self.moves, self.node_limit, self.cancel = positions, moves, node_limit, cancel
        self.verdict: dict[int, str] = {}
        self.line: dict[int, tuple[Move, ...]] = {}
        self.solves = 0

    def judge(self, k: int) -> str:
        if k in self.verdict:
            return self.verdict[k]
        if self.cancel is not None and self.cancel.is_set():
            return UNKNOWN
        g = self.positions[k]
        if g.is_won:
            self._winnable(k, ())
            return WINNABLE
        self.solves += 1
        res = solve(g, time_limit=None, node_limit=self.node_limit, cancel=self.cancel)
        if res.result == "win":
            self._winnable(k, tuple(res.moves))
        elif res.result == "loss":
            for j in range(k, len(self.positions)):   # lost stays lost
                self.verdict.setdefault(j, LOST)
        else:
            self.verdict[k] = UNKNOWN
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


def _bisect(judge: _Judge, n: int, most: int) -> tuple[int | None, int | None]:
    """The last position known winnable and the first known lost (``None``: none found)."""
    last = judge.judge(n)
    if last == WINNABLE:
        return n, None
    first = judge.judge(0)
    if first == LOST:
        return None, 0
    lo = 0 if first == WINNABLE else None
    hi = n if last == LOST else None
    untried = [k for k in range(1, n)]
    while untried and judge.solves < most:
        # the positions between what is known winnable and known lost, nearest the middle first
        low = lo if lo is not None else 0
        high = hi if hi is not None else n
        inside = [k for k in untried if low < k < high]
        if not inside:
            break
        mid = (low + high) / 2
        k = min(inside, key=lambda x: (abs(x - mid), x))
        untried.remove(k)
        v = judge.judge(k)
        if v == WINNABLE:
            lo = max(j for j in range(k, n + 1) if judge.verdict.get(j) == WINNABLE)
        elif v == LOST:
            hi = k
        if lo is not None and hi is not None and hi == lo + 1:
            break
        if judge.cancel is not None and judge.cancel.is_set():
            break
    return lo, hi


def analyse(source: object, node_limit: int = ANALYSIS_NODES, planner: bool = True,
            cancel: threading.Event | None = None, max_solves: int = ANALYSIS_SOLVES) -> Analysis:
    """Judge every position of a played game and find its turning point.

    ``source``: a :class:`Game` with its history, a save file's path, a study's ``res.game(deal)`` or a
    widget. ``node_limit``: tables for each solve, ``max_solves``: the most solves (the two ends of the game
    are always judged). ``planner=True`` also marks whether each move was the
    planner's choice (:mod:`spiderette.players.planner`, honest: from the cards a player saw). ``cancel`` (a
    ``threading.Event``) stops it between and inside solves: what is undecided then stays "unknown".
    """
    Limit.of(node_limit=node_limit, none=False, error=None)
    whole(max_solves, "max_solves", 2)
    an_event(cancel)
    flag(planner, "planner")
    start, moves = _start_and_moves(game_of(source))
    positions = [start.copy()]
    for m in moves:
        g = positions[-1].copy()
        g.apply(m)
        positions.append(g)
    n = len(moves)
    judge = _Judge(positions, moves, node_limit, cancel)
    lo, hi = _bisect(judge, n, max_solves)
    steps = []
    seen: set = set()
    for k, g in enumerate(positions):
        move = moves[k] if k < n else None
        chose = None
        if planner and move is not None and not (cancel is not None and cancel.is_set()):
            seen.add(visible_key(g))
            h = planner_hint(g, DEFAULT_BUDGET, seen=seen)
            chose = h is not None and h.move == move
        verdict = judge.verdict.get(k, UNKNOWN)
        steps.append(Position(k, move, verdict, judge.line.get(k, ()) if verdict == WINNABLE else (),
                              sum(g.face_down(i) for i in range(g.columns)), chose))
    turning = None
    if lo is not None and hi == lo + 1:
        turning = _turning_point(positions[lo], lo, moves[lo], judge.line[lo])
    summary = _summary(steps, turning, judge.solves, positions[-1].is_won, lo, hi)
    return Analysis(start, moves, steps, turning, judge.solves, summary)


def _turning_point(g: Game, k: int, move: Move, line: tuple[Move, ...]) -> TurningPoint:
    kept = line[0]
    said = (f"move {k + 1}, {g.notation(move)} ({step_words(g, move, card_text)}), lost a winnable game;"
            f" {g.notation(kept)} ({step_words(g, kept, card_text)}) kept it winnable: a winning line of"
            f" {len(line)} moves")
    return TurningPoint(k, move, kept, line, said)


def _summary(steps: list[Position], turning: TurningPoint | None, solves: int, won: bool, lo: int | None,
             hi: int | None) -> str:
    n = len(steps) - 1
    verdicts = [s.verdict for s in steps]
    if turning is not None:
        head = f"Turning point: {turning}."
    elif verdicts[-1] == WINNABLE:
        head = "Winnable all along: " + ("the game was won." if won else "it can still be won from its last position.")
    elif verdicts[0] == LOST:
        head = "Never winnable: the deal was lost from the start (seen with the hidden cards known)."
    elif lo is not None and hi is not None:
        head = (f"The turning point lies between move {lo + 1} and move {hi}: winnable after {lo} moves, lost after"
                f" {hi}, undecided in between within the budget.")
    else:
        head = "The turning point is not known within the budget (some positions stay unknown)."
    return f"{head} {n} moves, {solves} solve{'s' if solves != 1 else ''}."


def analyse_async(source: object, node_limit: int = ANALYSIS_NODES, planner: bool = True,
                  max_solves: int = ANALYSIS_SOLVES) -> StoppableFuture:
    """:func:`analyse` in a background thread: a ``Future`` of the :class:`Analysis` whose ``cancel()``
    stops it. The game is copied at once, so it may be played on meanwhile."""
    game = game_of(source).copy()
    Limit.of(node_limit=node_limit, none=False, error=None)
    whole(max_solves, "max_solves", 2)
    return run_in_thread(lambda stop: analyse(game, node_limit, planner, stop, max_solves), "spiderette-analyse")
