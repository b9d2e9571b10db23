"""The game timer of a table: the time spent playing its game, in seconds.

The clock starts at the first move (a move, deal, send, undo or redo made on the table), runs while the game
is being played, and counts **play**, not the time the table is left open: after :data:`IDLE` seconds without
an action it stops counting, and the next action starts it again (so a table left for an hour adds a minute);
:meth:`GameClock.pause` stops it at once (the page was hidden). It pauses when the game ends (won, lost or at
a dead end; an undo out of a lost game starts it again). A new game, a restart or a resumed game sets it to
that game's time, paused until the next move. The time is kept with the game
(:attr:`spiderette.Game.elapsed`), so it is saved with it (``Game.save``, the resume file) and comes back with
it. Python owns the time; the browser only ticks the display between two views.

>>> t = [100.0]
>>> c = GameClock(now=lambda: t[0])
>>> c.follow("playing", acted=True); t[0] += 12.5
>>> c.view(wall=lambda: 1.0)
{'elapsed': 12.5, 'running': True, 'at': 1.0, 'until': 60.0}
>>> c.follow("won", acted=True); t[0] += 30
>>> c.elapsed, c.running
(12.5, False)
>>> c.follow("playing", acted=True); t[0] += 3600         # an hour away from the table: a minute counts
>>> c.elapsed
72.5
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..engine.errors import is_number

#: Seconds after the last action that still count as play: past them the clock stops until the next action.
IDLE = 60.0


class GameClock:
    """Seconds played: ``elapsed`` so far, ``running`` while the game is being played."""

    def __init__(self, elapsed: float = 0.0, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._base = 0.0
        self._since: float | None = None
        self.reset(elapsed)

    @property
    def running(self) -> bool:
        return self._since is not None

    @property
    def elapsed(self) -> float:
        """The seconds played so far (counting the current stretch, at most IDLE seconds, while it runs)."""
        if self._since is None:
            return self._base
        return self._base + min(IDLE, max(0.0, self._now() - self._since))

    def reset(self, elapsed: float = 0.0) -> None:
        """Set the time to ``elapsed`` seconds (a new or resumed game), paused until the next move."""
        if not is_number(elapsed) or not math.isfinite(elapsed) \
                or elapsed < 0:
            elapsed = 0.0
        self._base = float(elapsed)
        self._since = None

    def follow(self, status: str, acted: bool) -> None:
        """After a change of the table: ``acted`` (a move, deal, send, undo or redo) starts the clock while
        the game is being played (``status`` ``"playing"``); any other status pauses it."""
        if status != "playing":
            self._base, self._since = self.elapsed, None
        elif acted:   # each action starts a new stretch of play (the one before counted up to IDLE)
            self._base, self._since = self.elapsed, self._now()

    def pause(self) -> None:
        """Stop counting until the next action (the page showing the table was hidden)."""
        self._base, self._since = self.elapsed, None

    def view(self, wall: Callable[[], float] = time.time) -> dict:
        """``{"elapsed": seconds (to a tenth), "running": bool, "at": the wall-clock time then (Unix
        seconds), "until": the elapsed time at which it stops counting (IDLE after the last action)}``, for
        the table's view (``at`` lets a view drawn later tell how old it is)."""
        until = self._base + IDLE if self._since is not None else self.elapsed
        return {"elapsed": round(self.elapsed, 1), "running": self.running, "at": round(wall(), 3),
                "until": round(until, 1)}


def clock_text(seconds: float) -> str:
    """``"0:07"``, ``"12:34"``, ``"1:02:03"``: the timer as the table shows it.

    >>> clock_text(7.9), clock_text(754), clock_text(3723)
    ('0:07', '12:34', '1:02:03')
    """
    s = int(max(0.0, seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
