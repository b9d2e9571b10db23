"""The table's Winnable? indicator: the solver on every table in the background, and what it has proven.

A spoiler, switched on by the player: the solver sees every card. For each table the widget publishes, the
indicator answers at once when it already knows (this very table was proven; the game has followed a winning
line found earlier, so the rest of that line wins; or it descends from a position proven lost, since a lost
game is never won back), and otherwise solves the table in a background thread (``WINNABLE_TABLES`` tables or
``WINNABLE_TIME_LIMIT`` seconds), cancelling the check of an older table. It also remembers the positions
proven winnable, for "undo to the last winnable position".

A table left undecided shows what is known (the odds measured for such positions,
:mod:`spiderette.players.odds`) and **keeps being searched while the player thinks**: once more with
``WINNABLE_MORE`` times the tables, then by the layered proof pass (:mod:`spiderette.players.proof`, up to
``WINNABLE_PROOF_TABLES`` tables: it proves lost the tables whose reachable space fits), ``"searching": true``
meanwhile; the words are updated when an answer comes, and the next action cancels the search. What each table
came to is remembered for the game: going back to a table shows its verdict at once and searches it again only
where a longer search is still to be made. In a browser tab (:mod:`spiderette.engine.platform`: no threads,
the page waits while the kernel searches) it spends ``WINNABLE_BROWSER_TABLES`` once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..engine import platform
from ..engine.ccore import COMPILED
from ..engine.game import Game
from ..players.background import BackgroundTask, StoppableFuture
from ..players.limits import PROOF_HELD, SOLVER_HELD, Limit
from ..players.proof import Proof, prove
from ..players.solver import SolveResult, solve

#: Seconds the indicator's solver may take for one table, and the tables it may expand (whichever comes first:
#: on a quiet machine the tables, so that its undecided verdicts quote the odds measured at that budget; with
#: :data:`~spiderette.engine.platform.TABLES_ONLY` set, as in the tests, the tables alone).
WINNABLE_TIME_LIMIT = 5.0
WINNABLE_TABLES = 4_000_000 if COMPILED else 200_000   # (the compiled core: 1-1.5 million tables a second)
#: How many times more tables (and seconds) the search of an undecided table goes on with, while nothing is
#: played (ten times: the search the odds were measured with).
WINNABLE_MORE = 10
#: Then, while nothing is played still, the layered proof pass visits up to this many tables, holding at most
#: :data:`~spiderette.players.limits.PROOF_HELD` at once (240 MiB at the most: it forgets each finished layer;
#: every round of the indicator is bounded so, the solver's by :data:`~spiderette.players.limits.SOLVER_HELD`,
#: so that the kernel stays under 600 MiB): about a minute on either core. On the compiled core (60 million
#: tables, 3.9 million held) that proves lost deals 115 and 180 of four suits (1.2 and 5.1 million tables, 0.7
#: and 1.7 million held at the most); on the pure-Python one (6 million, 629,145 held) neither.
WINNABLE_PROOF_TABLES = 60_000_000 if COMPILED else 6_000_000
#: The rounds of search of an undecided table: the indicator's budget, ten times it, the proof pass.
PROOF_ROUND = 2
#: In a browser tab (no threads: the search runs in the kernel's turn, and the page waits for it) the indicator
#: spends the post-mortem's budget, about a second, once: no longer search follows.
WINNABLE_BROWSER_TABLES = 40_000


class WinnableCheck:
    """One table's indicator. ``verdict`` is ``view["winnable"]``: ``None`` while it is off, else
    ``{"state": "thinking" | "win" | "loss" | "unknown"}`` (``"moves"`` too for a win: the line's length, ``None``
    for a win the proof pass reached without a line; for an unknown,
    ``"odds"``, the measured odds in a few words or ``None``, ``"probably_lost"``, and ``"searching"``: whether
    the longer search goes on). Every method is called under the table's ``lock``."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._task = BackgroundTask(lock)
        self.verdict: dict | None = None
        self._verdicts: dict[tuple, dict] = {}              # proven verdicts by table key (this game)
        self._undecided: dict[tuple, tuple[dict, int]] = {}  # table key -> (unknown verdict, search round done)
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
        self._undecided.clear()
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
        undecided, done = self._undecided.get(key, (None, -1))
        if undecided is not None and (done >= PROOF_ROUND or not platform.THREADS):   # searched all it will be
            self.verdict = undecided
            return
        self.verdict = {"state": "thinking"} if undecided is None else {**undecided, "searching": True}
        self._search(game.copy(), key, history, current, show, done + 1)

    def _search(self, start: Game, key: tuple, history: tuple, current: Callable[[], tuple],
                show: Callable[[], None], rounds: int) -> None:
        """Solve ``start`` in the background: round 0 with the indicator's budget, round 1 with
        ``WINNABLE_MORE`` times it; round 2 (:data:`PROOF_ROUND`) is the proof pass."""
        if rounds >= PROOF_ROUND:
            limit = Limit(tables=WINNABLE_PROOF_TABLES, held=PROOF_HELD)
            self._task.start(lambda stop: prove(start, limit, cancel=stop), "spiderette-proof",
                             lambda proof: self._record_proof(key, proof, history, current, show))
            return
        more = WINNABLE_MORE ** rounds
        tables = WINNABLE_TABLES * more if platform.THREADS else WINNABLE_BROWSER_TABLES
        seconds = None if platform.tables_only() else WINNABLE_TIME_LIMIT * more   # (tests: tables alone)
        limit = Limit(tables=tables, seconds=seconds, held=SOLVER_HELD)
        self._task.start(
            lambda stop: solve(start, limit, cancel=stop),
            "spiderette-winnable", lambda res: self._record(key, res, history, current, show, start, rounds))

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
                show: Callable[[], None], start: Game, rounds: int) -> None:
        """Keep what a solve found, and show it if it is about the table on show (under the lock, before the
        future answers: a waiter then finds the verdict shown); an undecided table on show is searched on."""
        if res.result == "win":
            verdict = {"state": "win", "moves": len(res.moves)}
            self._known_line = (history, tuple(res.moves))   # followed without searching again
        elif res.result == "loss":
            verdict = {"state": "loss"}
            self._lost_at(history)
        else:   # what is known: the odds measured for such positions, where they were measured
            odds = res.odds
            verdict = {"state": "unknown", "odds": None if odds is None else odds.short(),
                       "probably_lost": odds is not None and odds.probably_lost, "searching": False}
        on_show = key == current() and self.verdict is not None
        if res.result in ("win", "loss"):
            self._verdicts[key] = verdict
            self._undecided.pop(key, None)
        elif res.reason != "cancelled":
            self._undecided[key] = (verdict, rounds)
            verdict = {**verdict, "searching": on_show and rounds < PROOF_ROUND and platform.THREADS}
        if not on_show:
            return   # an answer about an older table, or the indicator was switched off: never shown
        self.verdict = verdict
        self._note(verdict, history)
        show()
        if verdict.get("searching"):   # the player is thinking: search on, ten times longer
            self._search(start, key, history, current, show, rounds + 1)

    def _record_proof(self, key: tuple, proof: Proof, history: tuple, current: Callable[[], tuple],
                      show: Callable[[], None]) -> None:
        """Keep what the proof pass found (under the lock): a proof of loss, or a winning table reached (no
        line is kept: "winnable"); else the table stays as undecided as the searches left it."""
        if proof.cancelled:
            return
        undecided, _ = self._undecided.get(key, ({"state": "unknown", "odds": None, "probably_lost": False}, 0))
        verdict: dict[str, Any]
        if proof.outcome == "lost":
            verdict = {"state": "loss"}
            self._lost_at(history)
        elif proof.outcome == "won":
            verdict = {"state": "win", "moves": None}
        else:
            verdict = {**undecided, "searching": False}
            self._undecided[key] = (verdict, PROOF_ROUND)
        if verdict["state"] != "unknown":
            self._verdicts[key] = verdict
            self._undecided.pop(key, None)
        if key != current() or self.verdict is None:
            return
        self.verdict = verdict
        self._note(verdict, history)
        show()

    def _lost_at(self, history: tuple) -> None:
        """The position after ``history`` is proven lost: so is every position played from it. The earliest
        on this line of play is kept."""
        old = self._lost_from
        if old is None or history[:len(old)] != old:
            self._lost_from = history

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
