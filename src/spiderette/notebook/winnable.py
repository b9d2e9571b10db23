"""The table's Winnable? indicator: the solver on every table in the background, and what it has proven.

A spoiler, switched on by the player: the solver sees every card. For each table the widget publishes, the
indicator answers at once when it already knows (this very table was proven; the game has followed a winning
line found earlier, so the rest of that line wins; or it descends from a position proven lost, since a lost
game is never won back), and otherwise solves the table in a background thread (``WINNABLE_TIME_LIMIT``
seconds), cancelling the check of an older table. It also remembers the positions proven winnable, for "undo
to the last winnable position".
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine.game import Game
from ..players.background import BackgroundTask, StoppableFuture
from ..players.solver import SolveResult, solve

#: Seconds the indicator's solver may take for one table.
WINNABLE_TIME_LIMIT = 5.0


class WinnableCheck:
    """One table's indicator. ``verdict`` is ``view["winnable"]``: ``None`` while it is off, else
    ``{"state": "thinking" | "win" | "loss" | "unknown"}`` (``"moves"`` too for a win). Every method is
    called under the table's ``lock``."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._task = BackgroundTask(lock)
        self.verdict: dict | None = None
        self._verdicts: dict[tuple, dict] = {}              # proven verdicts by table key (this game)
        self._winnable_lines: dict[int, tuple] = {}         # history length -> history of a position proven won
        self._known_line: tuple[tuple, tuple] = ((), ())    # (history, winning line from there): followed
        self._lost_from: tuple | None = None                # the history of a position proven lost

    @property
    def running(self) -> StoppableFuture | None:
        """The check in progress, if any."""
        return self._task.running

    @property
    def known_line(self) -> tuple[tuple, tuple]:
        """``(history, line)``: the last winning line found, from the position after ``history``."""
        return self._known_line

    def stop(self) -> None:
        """The indicator is switched off: the check stops, nothing is shown (what was proven is kept)."""
        self._task.cancel()
        self.verdict = None

    def reset(self) -> None:
        """A new game on the table: forget everything proven about the old one."""
        self.stop()
        self._verdicts.clear()
        self._winnable_lines.clear()
        self._known_line = ((), ())
        self._lost_from = None

    def start(self, game: Game, key: tuple, current: Callable[[], tuple], show: Callable[[], None]) -> None:
        """Judge the table ``key`` of ``game``: at once when it is known, else in the background; then
        ``show()`` publishes the answer, if ``current()`` is still ``key``."""
        self._task.cancel()
        history = tuple(game.history)
        lost = self._lost_from is not None and history[:len(self._lost_from)] == self._lost_from
        known = self._verdicts.get(key) or self._on_known_line(history) or ({"state": "loss"} if lost else None)
        if known is not None:
            self.verdict = known
            self._note(known, history)
            return
        if game.is_won:
            self.verdict = {"state": "win", "moves": 0}
            return
        self.verdict = {"state": "thinking"}
        start = game.copy()
        self._task.start(lambda stop: solve(start, time_limit=WINNABLE_TIME_LIMIT, cancel=stop), "spiderette-winnable",
                         lambda res: self._record(key, res, history, current, show))

    def _on_known_line(self, history: tuple) -> dict | None:
        """``{"state": "win", ...}`` when the game has followed the last winning line found so far."""
        base, line = self._known_line
        n = len(base)
        if not line or history[:n] != base or len(history) > n + len(line):
            return None
        if history[n:] != line[:len(history) - n]:
            return None
        return {"state": "win", "moves": n + len(line) - len(history)}

    def _record(self, key: tuple, res: SolveResult, history: tuple, current: Callable[[], tuple],
                show: Callable[[], None]) -> None:
        """Keep what a solve found, and show it if it is about the table on show (under the lock, before the
        future answers: a waiter then finds the verdict shown)."""
        if res.result == "win":
            verdict = {"state": "win", "moves": len(res.moves)}
            self._known_line = (history, tuple(res.moves))   # followed without searching again
        elif res.result == "loss":
            verdict = {"state": "loss"}
            old = self._lost_from
            if old is None or history[:len(old)] != old:   # keep the earliest on this line of play
                self._lost_from = history
        else:
            verdict = {"state": "unknown"}
        if res.result in ("win", "loss"):
            self._verdicts[key] = verdict
        if key != current() or self.verdict is None:
            return   # an answer about an older table, or the indicator was switched off: never shown
        self.verdict = verdict
        self._note(verdict, history)
        show()

    def _note(self, verdict: dict, history: tuple) -> None:
        """Remember a position proven winnable (by its place in the history), for :meth:`undo_target`."""
        if verdict["state"] == "win":
            self._winnable_lines[len(history)] = history

    def undo_target(self, game: Game) -> int | None:
        """The move count of the last earlier position proven winnable, offered once the game is lost."""
        if self.verdict is None:
            return None
        lost = game.status in ("lost", "dead_end") or self.verdict.get("state") == "loss"
        if not lost:
            return None
        history = game.history
        for n in sorted(self._winnable_lines, reverse=True):
            if n < len(history) and tuple(history[:n]) == self._winnable_lines[n]:
                return game.move_count - (len(history) - n)
        return None
