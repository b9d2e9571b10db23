"""The table's Hint and Think buttons: the planner's suggestions for the table on show, and a harder plan
searched in the background.

Hint asks the planner (:data:`HINT_BUDGET` tables) and shows its plan; pressed again on the same table it
shows the next suggestion (the plan's other first moves, best first), round the list. Think plans with
:data:`THINK_BUDGET` tables in a background thread, cancellable; its answer is shown labelled "Think", and
Hint then goes round its alternatives. Both plan with the game's memory (the tables met along its history),
so following them never leads back to a table already met. A hint on show belongs to the table it was
made for: on any other table it is not shown. Every method is called under the table's lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine.cards import card_text
from ..engine.game import Game
from ..engine.move import Move
from ..players.advice import planner_hint
from ..players.background import BackgroundTask, StoppableFuture
from ..players.memory import tables_met
from ..players.planner import DEFAULT_BUDGET, STRONG_BUDGET
from .wording import hint_view

#: The planner's budget (tables) behind the Hint button, and behind Think (the strong setting).
HINT_BUDGET = DEFAULT_BUDGET
THINK_BUDGET = STRONG_BUDGET
#: What Hint (or Think) says when the planner has nothing to suggest: the game is going nowhere.
NO_USEFUL_MOVE = "No useful move left: undo, start a new game, or ask where it went wrong"


class TableHints:
    """One table's suggestions. ``shown`` is ``view["hint"]`` (``None``: no hint on show)."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._shown: tuple[tuple, dict] | None = None   # (table key, view["hint"])
        self._suggestions: tuple = ((), [], -1, "Hint")   # (table key, the hints for it, the one shown, label)
        self._think = BackgroundTask(lock)

    @property
    def running(self) -> StoppableFuture | None:
        """The Think in progress, if any."""
        return self._think.running

    @property
    def thinking(self) -> bool:
        return self._think.running is not None

    def shown_on(self, key: tuple) -> dict | None:
        """``view["hint"]`` on table ``key``: the hint on show if it was made for that table, else ``None``."""
        return self._shown[1] if self._shown is not None and self._shown[0] == key else None

    def clear(self) -> None:
        """The table changed: no hint on show."""
        self._shown = None

    def next(self, game: Game, key: tuple) -> tuple[str, Move | None]:
        """Hint pressed on table ``key``: ``(message, move)`` of the next suggestion, planned if need be."""
        if self._suggestions[0] != key:
            h = planner_hint(game, HINT_BUDGET, card_text)
            self._suggestions = (key, [] if h is None else [h, *h.alternatives], -1, "Hint")
        return self._show_next()

    def _show_next(self, note: str = "") -> tuple[str, Move | None]:
        key, suggestions, shown, label = self._suggestions
        note = f" ({note})" if note else ""
        if not suggestions:
            self._shown = None
            return NO_USEFUL_MOVE + note, None
        i = (shown + 1) % len(suggestions)
        self._suggestions = (key, suggestions, i, label)
        h = suggestions[i]
        view = {**hint_view(h), "index": i + 1, "of": len(suggestions), "source": label.lower()}
        self._shown = (key, view)
        place = f" {i + 1} of {len(suggestions)}" if len(suggestions) > 1 else ""
        return f"{label}{place}{note}: {view['reason']}", h.move

    def think(self, game: Game, key: tuple, budget: int, current: Callable[[], tuple],
              say: Callable[[str], None], note: str = "") -> StoppableFuture:
        """Plan table ``key`` with ``budget`` tables in the background (stopping a Think already running); the
        answer is shown if ``current()`` is still ``key``, and ``say(message)`` publishes it, ``note`` after it
        in brackets (the smaller budget of a browser tab)."""
        with game.locked():
            seen, start = tables_met(game), game.copy()
        return self._think.start(lambda stop: planner_hint(start, budget, card_text, seen=seen, cancel=stop),
                                 "spiderette-think", lambda h: self._thought(key, h, current, say, note),
                                 stopped=lambda: say("Stopped thinking"))   # (its future's cancel(): no newer table)

    def cancel(self) -> bool:
        """Stop a running Think; ``True`` if one was stopped."""
        return self._think.cancel()

    def _thought(self, key: tuple, h, current: Callable[[], tuple], say: Callable[[str], None],
                 note: str = "") -> None:
        """The think thread's answer (under the lock): shown only if the table is still the one it was for."""
        if key != current():
            say("The table changed while thinking")
        else:
            self._suggestions = (key, [] if h is None else [h, *h.alternatives], -1, "Think")
            # (the same table: the live game has not moved on)
            say(self._show_next(f"thought {note}" if note else "")[0])
