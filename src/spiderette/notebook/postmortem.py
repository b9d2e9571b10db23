"""The table's "Where did it go wrong?": :func:`spiderette.analyse` run in the background for a widget.

The analysis runs on a copy of the game, so play goes on meanwhile; its answer is kept for the history it
analysed, and offered while the game still starts with that history. It names only cards that were face up at
the turning point (so face up, or gone to the foundations, ever since): no hidden card. When the turning point
is not known, it says the range (the last position known winnable, the first proven lost) in move numbers and
offers to undo to the last winnable position, and **keeps searching while the player thinks**: the same analysis
with ``ANALYSIS_MORE`` times the tables for each solve (``"searching": true`` in the view meanwhile), whose
answer replaces the first one's words. Each solve holds at most
:data:`~spiderette.players.limits.SOLVER_HELD` tables (its memory: some 240 MiB), and says "unknown" when it
would hold more. The next action stops it; coming back to the position analysed starts
it again, until it has answered once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine import platform
from ..engine.game import Game
from ..engine.words import plural
from ..players.analysis import ANALYSIS_NODES, ANALYSIS_SOLVES, Analysis, analyse
from ..players.background import BackgroundTask, StoppableFuture
from ..players.limits import CORE_SPEEDUP, SOLVER_HELD

#: How many times more tables each solve of the longer analysis spends (ten times: the search the odds were
#: measured with; about a minute at most).
ANALYSIS_MORE = 10
#: The tables of each of the table's analysis's solves: :data:`~spiderette.players.analysis.ANALYSIS_NODES`,
#: ten times that on the compiled core (about as many seconds:
#: :data:`~spiderette.players.limits.CORE_SPEEDUP`).
POSTMORTEM_NODES = ANALYSIS_NODES * CORE_SPEEDUP


class PostMortem:
    """One table's analysis: ``start(game, done)`` runs it; ``view(game)`` is ``view["analysis"]``."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._task = BackgroundTask(lock)
        self._longer = BackgroundTask(lock)  # the longer analysis, while the player thinks
        self._history: tuple | None = None   # the history analysed (or being analysed)
        self._result: Analysis | None = None
        self._longer_done = False            # the longer analysis of that history has answered
        #: Whether the last analysis started had the smaller budget of a browser tab (no threads).
        self.smaller = False

    def start(self, game: Game, done: Callable[[Analysis], None]) -> StoppableFuture:
        """Analyse ``game`` in a background thread; ``done(analysis)`` is called (under the lock) when it
        answers, unless it was cancelled. A running analysis of another history is cancelled first. Without
        threads (a browser tab: the page waits) it has the smaller budget :mod:`~spiderette.engine.platform`
        gives it, and :attr:`smaller` says so."""
        with self._lock:
            self.cancel()
            copy = game.copy()
            self._history, self._result, self._longer_done = tuple(copy.history), None, False
            nodes = platform.budget(POSTMORTEM_NODES, platform.BROWSER_ANALYSIS_TABLES)
            solves = platform.budget(ANALYSIS_SOLVES, platform.BROWSER_ANALYSIS_SOLVES)
            self.smaller = (nodes, solves) != (POSTMORTEM_NODES, ANALYSIS_SOLVES)

            def finished(result: Analysis) -> None:
                self._result = result
                done(result)   # (before the future answers: whoever waits on it then finds the table's words out)

            return self._task.start(lambda stop: analyse(copy, planner=False, cancel=stop, max_held=SOLVER_HELD,
                                                         node_limit=nodes, max_solves=solves),
                                    "spiderette-analyse", finished)

    def search_on(self, game: Game, done: Callable[[Analysis], None]) -> StoppableFuture | None:
        """The game on show is the one analysed, and its turning point is not known: analyse it again with
        :data:`ANALYSIS_MORE` times the tables for each solve, in the background; ``done(analysis)`` is called
        (under the lock) when it answers. ``None`` (nothing started) without threads, when the analysis is of
        another history, when its turning point is known, or when the longer analysis has answered already."""
        with self._lock:
            a = self._result
            if (not platform.THREADS or a is None or a.turning_point is not None or self._longer_done
                    or self._longer.running is not None or tuple(game.history) != self._history):
                return None
            copy = game.copy()

            def finished(result: Analysis) -> None:
                self._result, self._longer_done = result, True
                done(result)

            nodes = POSTMORTEM_NODES * ANALYSIS_MORE
            return self._longer.start(lambda stop: analyse(copy, node_limit=nodes, max_held=SOLVER_HELD, planner=False,
                                                           cancel=stop),
                                      "spiderette-analyse-longer", finished)

    @property
    def running(self) -> StoppableFuture | None:
        """The analysis in progress, if any."""
        return self._task.running

    @property
    def searching(self) -> StoppableFuture | None:
        """The longer analysis in progress (:meth:`search_on`), if any."""
        return self._longer.running

    def stop_searching(self) -> None:
        """The player acted: the longer analysis stops (:meth:`search_on` starts it again)."""
        self._longer.cancel()

    def cancel(self) -> None:
        self._task.cancel()
        self._longer.cancel()

    def reset(self) -> None:
        """A new game on the table: forget the old one's analysis."""
        with self._lock:
            self.cancel()
            self._history = self._result = None
            self._longer_done = False

    def applies(self, game: Game) -> bool:
        """Does the analysis (running or done) still apply to ``game``: does its history start with the one
        analysed?"""
        return self._history is not None and tuple(game.history[:len(self._history)]) == self._history

    @property
    def result(self) -> Analysis | None:
        """The last analysis that answered (of the history :meth:`start` was given), if any."""
        return self._result

    def goal(self, game: Game) -> tuple[int, str] | None:
        """Where the undo goes, when known for this game: ``(moves played there, "turning")`` to stand before
        the turning move, else ``(moves played there, "winnable")`` for the last position known winnable."""
        with self._lock:
            a = self._result
            if a is None or not self.applies(game):
                return None
            if a.turning_point is not None:
                index, kind = a.turning_point.index, "turning"
            elif a.last_winnable is not None and a.last_winnable < len(a.moves):
                index, kind = a.last_winnable, "winnable"
            else:
                return None
            return (index, kind) if len(game.history) > index else None

    def target(self, game: Game) -> int | None:
        """The number of moves to take back to stand before the turning move (or, when that is not known, at
        the last position known winnable), when known for this game."""
        with self._lock:
            goal = self.goal(game)
            return None if goal is None else len(game.history) - goal[0]

    def view(self, game: Game) -> dict | None:
        """``view["analysis"]``: ``None``, ``{"state": "running"}`` or ``{"state": "done", "undo": n, "to": to,
        "lost_between": [first, last], "searching": s}`` (``n``: moves to take back, or ``None``; ``to``:
        ``"turning"`` (to the turning point), ``"winnable"`` (to the last position known winnable) or ``None``;
        ``lost_between``: the moves, numbered from 1, one of which lost the game, or ``None``; ``s``: the longer
        analysis goes on)."""
        with self._lock:
            if self._task.running is not None:
                return {"state": "running"}
            if self._result is None or not self.applies(game):
                return None
            goal = self.goal(game)
            between = self._result.lost_between
            return {"state": "done", "undo": None if goal is None else len(game.history) - goal[0],
                    "to": None if goal is None else goal[1], "lost_between": None if between is None else list(between),
                    "searching": self._longer.running is not None}


def said(a: Analysis) -> str:
    """What the table says of an analysis. It names no card but those of the turning point, face up by then (so
    face up, or gone to the foundations, ever since); the range and the rest are said in move numbers.

    >>> from spiderette import Game, analyse
    >>> g = Game(seed=12)
    >>> _ = g.play("ef cb")
    >>> said(analyse(g, node_limit=20_000, planner=False))
    'Winnable all along: it can still be won from its last position (seen with the hidden cards known)'
    """
    tp, lo, hi = a.turning_point, a.last_winnable, a.first_lost
    known = "seen with the hidden cards known"
    n = len(a.moves)
    if tp is not None:
        planner = f". {tp.planner_text}" if tp.planner_text else ""
        return f"Where it went wrong: {tp.text.split(': a winning line')[0]} ({known}){planner}"
    if lo is not None and lo < n:
        undo = (f"undo to before move {lo + 1}, the last winnable position (a winning line of"
                f" {plural(len(a.winning_line), 'move')} from there)")
        if hi is not None:
            return f"Lost between move {lo + 1} and move {hi} ({known}; the moves between stay undecided): {undo}"
        when = f"after move {lo}" if lo else "at the start"
        return (f"Winnable {when} ({known}); whether and where it was lost is not known within the budget"
                f"{_odds_said(a, n)}: {undo}")
    if hi is not None and hi > 0:
        return (f"Lost by move {hi} at the latest ({known}); whether the deal was ever winnable is not known within"
                f" the budget{_odds_said(a, 0)}")
    head = a.summary.split(". ")[0]
    return (head if known in head else f"{head} ({known})") + _odds_said(a, 0)


def _odds_said(a: Analysis, k: int) -> str:
    """What is measured of the undecided position ``k`` (the start, or the last), in a few words, or ""."""
    odds = a.steps[k].odds if 0 <= k < len(a.steps) else None
    if odds is None:
        return ""
    return f"; {'the deal' if k == 0 else 'its last position'} is {odds.short()}"
