"""The table's Hint and Think buttons: the planner's suggestions for the table on show, and a harder plan
searched in the background.

Hint asks the planner (:data:`HINT_BUDGET` tables) and shows its plan; pressed again on the same table it
shows the next suggestion (the plan's other first moves, best first), round the list. Think plans with
:data:`THINK_BUDGET` tables in a background thread, cancellable; its answer is shown as a hint, and Hint then
goes round its alternatives. Every method is called under the table's lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine.game import Game
from ..engine.move import Move
from ..players.advice import planner_hint
from ..players.background import StoppableFuture, run_in_thread
from ..players.planner import DEFAULT_BUDGET, STRONG_BUDGET
from .wording import card_text, hint_view

#: The planner's budget (tables) behind the Hint button, and behind Think (the strong setting).
HINT_BUDGET = DEFAULT_BUDGET
THINK_BUDGET = STRONG_BUDGET


class TableHints:
    """One table's suggestions. ``shown`` is ``view["hint"]`` (``None``: no hint on show)."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self.shown: dict | None = None
        self._suggestions: tuple = ((), [], -1)   # (table key, the planner's hints for it, the one shown)
        self._think: StoppableFuture | None = None

    @property
    def running(self) -> StoppableFuture | None:
        """The Think in progress, if any."""
        return self._think

    @property
    def thinking(self) -> bool:
        return self._think is not None

    def clear(self) -> None:
        """The table changed: no hint on show."""
        self.shown = None

    def next(self, game: Game, key: tuple) -> tuple[str, Move | None]:
        """Hint pressed on table ``key``: ``(message, move)`` of the next suggestion, planned if need be."""
        if self._suggestions[0] != key:
            h = planner_hint(game, HINT_BUDGET, card_text)
            self._suggestions = (key, [] if h is None else [h, *h.alternatives], -1)
        return self._show_next(game)

    def _show_next(self, game: Game) -> tuple[str, Move | None]:
        key, suggestions, shown = self._suggestions
        if not suggestions:
            self.shown = None
            return "No useful move: undo, or start a new game", None
        i = (shown + 1) % len(suggestions)
        self._suggestions = (key, suggestions, i)
        h = suggestions[i]
        self.shown = {**hint_view(h), "index": i + 1, "of": len(suggestions)}
        place = f" {i + 1} of {len(suggestions)}" if len(suggestions) > 1 else ""
        return f"Hint{place}: {self.shown['reason']}", h.move

    def think(self, game: Game, key: tuple, budget: int, current: Callable[[], tuple],
              say: Callable[[str], None]) -> StoppableFuture:
        """Plan table ``key`` with ``budget`` tables in the background (stopping a Think already running); the
        answer is shown if ``current()`` is still ``key``, and ``say(message)`` publishes it."""
        self.cancel()
        start = game.copy()
        future = run_in_thread(lambda stop: planner_hint(start, budget, card_text, cancel=stop),
                               "spiderette-think", lambda f, h: self._thought(f, game, key, h, current, say))
        self._think = future
        return future

    def cancel(self) -> bool:
        """Stop a running Think; ``True`` if one was stopped."""
        future, self._think = self._think, None
        return future is not None and future.cancel()

    def _thought(self, future: StoppableFuture, game: Game, key: tuple, h, current: Callable[[], tuple],
                 say: Callable[[str], None]) -> None:
        """The think thread's answer: shown (under the lock) only if the table is still the one it was for."""
        with self._lock:
            mine = self._think is future
            if mine:
                self._think = None
            if not future.set_running_or_notify_cancel():   # cancelled: a newer table or a stop
                if mine:   # cancelled by future.cancel() itself: the table stops showing "thinking"
                    say("Stopped thinking")
                return
            if key != current():
                say("The table changed while thinking")
            else:
                self._suggestions = (key, [] if h is None else [h, *h.alternatives], -1)
                say(self._show_next(game)[0])   # (the same table: the live game has not moved on)
            future.set_result(h)
