"""Work in a background thread, as a ``concurrent.futures.Future`` that can be cancelled while it runs.

>>> f = run_in_thread(lambda stop: 6 * 7, "answer")
>>> f.result(timeout=5)
42
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future

from ..engine.move import Move


class StoppableFuture(Future):
    """A ``Future`` for work that checks its ``stop`` event: ``cancel()`` works while the work runs.

    The future stays pending while the work runs, so a plain ``Future.cancel()`` succeeds then; it also sets
    ``stop``, and the work ends at its next check (never half-way through a step).
    """

    def __init__(self) -> None:
        super().__init__()
        self.stop = threading.Event()

    def cancel(self) -> bool:
        cancelled = super().cancel()
        if cancelled:
            self.stop.set()
        return cancelled


def run_in_thread(work: Callable[[threading.Event], object], name: str,
                  done: Callable[[StoppableFuture, object], None] | None = None,
                  future: StoppableFuture | None = None) -> StoppableFuture:
    """Run ``work(stop)`` in a daemon thread named ``name``, and return its future at once.

    The future gets the value, or the exception; with ``done``, ``done(future, value)`` is called in the
    thread instead and settles the future itself (to publish a result under a lock first, say).
    """
    future = StoppableFuture() if future is None else future

    def run() -> None:
        try:
            value = work(future.stop)
        except BaseException as e:
            if future.set_running_or_notify_cancel():
                future.set_exception(e)
            return
        if done is not None:
            done(future, value)
        elif future.set_running_or_notify_cancel():
            future.set_result(value)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


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
