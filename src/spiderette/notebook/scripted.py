"""Scripted play at the table: ``w.play(...)`` steps through a sequence already checked, in the kernel's
thread or in a background thread as a cancellable :class:`~spiderette.players.background.PlayFuture`.

>>> from spiderette.engine.game import Game, parse_sequence
>>> g = Game(seed=7)
>>> play = ScriptedPlay(threading.RLock(), lambda m: g.apply(m) or m)
>>> play.start(parse_sequence("bd ea"), delay=0, wait=True), g.move_count
([Move.parse('bd'), Move.parse('ea')], 2)
"""

from __future__ import annotations

import threading
from collections.abc import Callable

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
        threading.Thread(target=self._run, args=(task, seq, delay), name="spiderette-play", daemon=True).start()
        return task

    def _run(self, task: PlayFuture, seq: list[Move], delay: float) -> None:
        """Play ``seq`` step by step for ``task``; each step is whole, and a cancelled task plays no more."""
        task.started = True
        try:
            for i, m in enumerate(seq):
                if i and delay and task.stop.wait(delay):
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
            if self._task is task:
                self._task = None
        if task.set_running_or_notify_cancel():
            task.set_result(list(task.played))
