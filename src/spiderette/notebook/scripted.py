"""Scripted play at the table: ``w.play(...)`` steps through a sequence already checked, in the kernel's
thread or in a background thread as a cancellable :class:`~spiderette.players.background.PlayFuture` (where
there are no threads, a browser tab, each step is a callback of the kernel's event loop).

>>> from spiderette.engine.game import Game, parse_sequence
>>> g = Game(seed=7)
>>> play = ScriptedPlay(threading.RLock(), lambda m: g.apply(m) or m)
>>> play.start(parse_sequence("bd ea"), delay=0, wait=True), g.move_count
([Move.parse('bd'), Move.parse('ea')], 2)
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine import platform
from ..engine.move import Move
from ..players.background import PlayFuture


class ScriptedPlay:
    """The play a table runs from a script: one at a time; each step whole, under the table's ``lock``.

    ``step(move)`` plays one move on the table and shows it; a new start, or :meth:`stop`, ends the one
    running before anything else acts.
    """

    def __init__(self, lock: threading.RLock, step: Callable[[Move], Move]) -> None:
        self._lock = lock
        self._step = step
        self._task: PlayFuture | None = None

    @property
    def running(self) -> PlayFuture | None:
        """The play started last, while it has not ended (``None`` when there is none)."""
        return self._task

    def stop(self) -> bool:
        """Stop the play running in the background; ``True`` if one was stopped."""
        task, self._task = self._task, None
        return task is not None and task.cancel()

    def start(self, seq: list[Move], delay: float, wait: bool):
        """Play ``seq`` with ``delay`` seconds between steps: the moves played (``wait``), or a PlayFuture."""
        self.stop()
        task = PlayFuture()
        self._task = task
        if wait:
            self._run(task, seq, delay)
            return task.result()
        if platform.THREADS:
            threading.Thread(target=self._run, args=(task, seq, delay), name="spiderette-play", daemon=True).start()
        else:
            self._step_later(task, seq, 0, 0.0)
        return task

    def _step_later(self, task: PlayFuture, seq: list[Move], i: int, delay: float) -> None:
        """Without threads: step ``i`` of ``seq`` from the event loop in ``delay`` seconds, then the next one;
        ``task.result()`` meanwhile plays the rest at once (``delay`` apart)."""
        task.defer(lambda: self._run(task, seq[i:], delay, first_pause=delay if i else 0.0))
        task.started = True

        def step() -> None:
            if not task.waiting or task.done():   # played by result(), or stopped
                if self._task is task and task.done():
                    self._task = None
                return
            task.defer(None)
            self._run(task, seq[i:i + 1], 0.0, last=i + 1 == len(seq))
            if not task.done() and i + 1 < len(seq):
                self._step_later(task, seq, i + 1, delay)

        if not platform.later(step, delay if i else 0.0):
            task.run_waiting()

    def _run(self, task: PlayFuture, seq: list[Move], delay: float, first_pause: float = 0.0,
             last: bool = True) -> None:
        """Play ``seq`` step by step for ``task``; each step is whole, and a cancelled task plays no more.
        ``first_pause``: seconds before the first step; ``last=False``: more steps follow (the task stays
        open)."""
        task.started = True
        try:
            for i, m in enumerate(seq):
                pause = delay if i else first_pause
                if pause and platform.pause(task.stop, pause):
                    break
                with self._lock:
                    if task.cancelled():
                        break
                    task.played.append(self._step(m))
        except BaseException as e:  # an illegal step (the game was changed meanwhile) ends the play, shown
            if task.set_running_or_notify_cancel():
                task.set_exception(e)
            return
        finally:
            if self._task is task and (last or task.done()):
                self._task = None
        if last and task.set_running_or_notify_cancel():
            task.set_result(list(task.played))
