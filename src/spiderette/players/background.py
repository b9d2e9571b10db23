"""Work in a background thread, as a ``concurrent.futures.Future`` that can be cancelled while it runs.

Where there are no threads (a browser tab: :mod:`spiderette.engine.platform`) the work is a callback of the
event loop instead, run after the current message is handled; ``result()`` runs it at once if it is still
waiting.

>>> f = run_in_thread(lambda stop: 6 * 7, "answer")
>>> f.result(timeout=5)
42
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar, cast

from ..engine import platform
from ..engine.move import Move

_T = TypeVar("_T")   # (what a task's work returns: what its publish is given)


class StoppableFuture(Future):
    """A ``Future`` for work that checks its ``stop`` event: ``cancel()`` works while the work runs.

    The future stays pending while the work runs, so a plain ``Future.cancel()`` succeeds then; it also sets
    ``stop``, and the work ends at its next check (never half-way through a step).
    """

    def __init__(self) -> None:
        super().__init__()
        self.stop = threading.Event()
        self._waiting: Callable[[], None] | None = None   # work left for the event loop (no threads)

    def cancel(self) -> bool:
        cancelled = super().cancel()
        if cancelled:
            self.stop.set()
        return cancelled

    @property
    def waiting(self) -> bool:
        """Whether work is waiting for the event loop (only where there are no threads)."""
        return self._waiting is not None

    def defer(self, run: Callable[[], None] | None) -> None:
        """Where there are no threads: leave ``run`` for the event loop to do (``None``: nothing waits now)."""
        self._waiting = run

    def run_waiting(self) -> None:
        """Where there are no threads: do now the work still waiting for the event loop (nothing if none)."""
        run, self._waiting = self._waiting, None
        if run is not None:
            run()

    def result(self, timeout: float | None = None):
        self.run_waiting()
        return super().result(timeout)

    def exception(self, timeout: float | None = None):
        self.run_waiting()
        return super().exception(timeout)


def run_in_thread(work: Callable[[threading.Event], _T], name: str,
                  done: Callable[[StoppableFuture, _T | None], None] | None = None,
                  future: StoppableFuture | None = None) -> StoppableFuture:
    """Run ``work(stop)`` in a daemon thread named ``name``, and return its future at once.

    The future gets the value, or the exception; with ``done``, ``done(future, value)`` is called in the
    thread instead and settles the future itself (to publish a result under a lock first, say). Without
    threads, ``work`` is called from the event loop (or at once when there is none), and not at all once
    the future is cancelled.
    """
    future = StoppableFuture() if future is None else future

    def run() -> None:
        try:
            value = None if future.stop.is_set() else work(future.stop)
        except BaseException as e:
            if future.set_running_or_notify_cancel():
                future.set_exception(e)
            return
        if done is not None:
            done(future, value)
        elif future.set_running_or_notify_cancel():
            future.set_result(value)

    if platform.THREADS:
        threading.Thread(target=run, name=name, daemon=True).start()
    else:
        future.defer(run)
        if not platform.later(future.run_waiting):
            future.run_waiting()
    return future


class BackgroundTask:
    """At most one background task at a time for one owner (a table's analysis, its Winnable? check, its
    Think), and the handshake of its answer: :meth:`start` runs ``work(stop)`` in a thread; when it answers,
    under ``lock``, the task is no longer the one running, and unless it was cancelled ``publish(value)`` is
    called first (so whoever waits on the future finds its effect) and then the future gets ``value``. A task
    cancelled by its future's own ``cancel()`` (not by :meth:`cancel` or a newer :meth:`start`) calls
    ``stopped()`` instead, if given.

    >>> import threading
    >>> task, seen = BackgroundTask(threading.RLock()), []
    >>> task.start(lambda stop: 42, "answer", seen.append).result(timeout=5), seen, task.running
    (42, [42], None)
    """

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._future: StoppableFuture | None = None

    @property
    def running(self) -> StoppableFuture | None:
        """The task in progress, if any."""
        return self._future

    def start(self, work: Callable[[threading.Event], _T], name: str, publish: Callable[[_T], None],
              stopped: Callable[[], None] | None = None) -> StoppableFuture:
        """Cancel the task running, if any, and run ``work`` in a thread named ``name``."""
        def done(future: StoppableFuture, value: _T | None) -> None:
            with self._lock:
                mine = self._future is future
                if mine:
                    self._future = None
                if not future.set_running_or_notify_cancel():
                    if mine and stopped is not None:
                        stopped()
                    return
                try:
                    # (None only for work stopped before it ran: its future was cancelled, returned above)
                    publish(cast(_T, value))
                finally:
                    future.set_result(value)

        with self._lock:
            self.cancel()
            self._future = future = StoppableFuture()
            run_in_thread(work, name, done, future)   # (without threads it may answer at once: it is the one)
            return future

    def cancel(self) -> bool:
        """Stop the task running; ``True`` if one was stopped."""
        with self._lock:
            future, self._future = self._future, None
            return future is not None and future.cancel()


class PlayFuture(StoppableFuture):
    """The running ``w.play(..., wait=False)``: a ``concurrent.futures.Future`` of the moves played.

    ``cancel()`` stops the play before its next step (a step is never cut in half) and works while it
    runs, waking it from its delay at once; ``played`` lists the moves played so far; ``result()`` is the
    list of moves once all are played.
    """

    def __init__(self) -> None:
        super().__init__()
        self.played: list[Move] = []
        self.started = False

    def running(self) -> bool:
        return self.started and not self.done()
