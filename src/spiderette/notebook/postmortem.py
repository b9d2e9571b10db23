"""The table's "Where did it go wrong?": :func:`spiderette.analyse` run in the background for a widget.

The analysis runs on a copy of the game, so play goes on meanwhile; its answer is kept for the history it
analysed, and offered while the game still starts with that history. It names only cards that were face up at
the turning point (so face up, or gone to the foundations, ever since): no hidden card.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine.game import Game
from ..players.analysis import Analysis, analyse
from ..players.background import StoppableFuture, run_in_thread


class PostMortem:
    """One table's analysis: ``start(game, done)`` runs it; ``view(game)`` is ``view["analysis"]``."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._task: StoppableFuture | None = None
        self._history: tuple | None = None   # the history analysed (or being analysed)
        self._result: Analysis | None = None

    def start(self, game: Game, done: Callable[[Analysis], None]) -> StoppableFuture:
        """Analyse ``game`` in a background thread; ``done(analysis)`` is called (under the lock) when it
        answers, unless it was cancelled. A running analysis of another history is cancelled first."""
        with self._lock:
            self.cancel()
            copy = game.copy()
            self._history, self._result = tuple(copy.history), None

            def finished(future: StoppableFuture, result: Analysis) -> None:
                with self._lock:
                    if self._task is future:
                        self._task = None
                    if not future.set_running_or_notify_cancel():
                        return
                    self._result = result
                    future.set_result(result)
                    done(result)

            self._task = run_in_thread(lambda stop: analyse(copy, planner=False, cancel=stop),
                                       "spiderette-analyse", finished)
            return self._task

    @property
    def running(self) -> StoppableFuture | None:
        """The analysis in progress, if any."""
        return self._task

    def cancel(self) -> None:
        with self._lock:
            task, self._task = self._task, None
            if task is not None:
                task.cancel()

    def reset(self) -> None:
        """A new game on the table: forget the old one's analysis."""
        with self._lock:
            self.cancel()
            self._history = self._result = None

    def _applies(self, game: Game) -> bool:
        return self._history is not None and tuple(game.history[:len(self._history)]) == self._history

    def target(self, game: Game) -> int | None:
        """The number of moves to take back to stand before the turning move, when known for this game."""
        with self._lock:
            tp = self._result.turning_point if self._result is not None else None
            if tp is None or not self._applies(game) or len(game.history) <= tp.index:
                return None
            return len(game.history) - tp.index

    def view(self, game: Game) -> dict | None:
        """``view["analysis"]``: ``None``, ``{"state": "running"}`` or ``{"state": "done", "undo": n}``
        (``n``: moves to take back to the turning point, or ``None``)."""
        with self._lock:
            if self._task is not None:
                return {"state": "running"}
            if self._result is None or not self._applies(game):
                return None
            return {"state": "done", "undo": self.target(game)}


def said(a: Analysis) -> str:
    """What the table says of an analysis (the turning point names only cards seen by then)."""
    tp = a.turning_point
    if tp is not None:
        return f"Where it went wrong: {tp.text.split(': a winning line')[0]} (seen with the hidden cards known)"
    head = a.summary.split(". ")[0]
    return head if "hidden cards known" in head else f"{head} (seen with the hidden cards known)"
