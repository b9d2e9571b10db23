"""The table's answer to each message of its front end: the intent checked (:mod:`spiderette.notebook.intents`),
then one small action each (the protocol: ``docs/widget-protocol.md``).

Each message is answered whole under the table's lock, so that every view published meanwhile carries the
intent's ``id``; a refusal or a bad intent is said on the table, and no message can leave the table dead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.errors import IllegalMoveError, is_whole, quote
from ..engine.move import DEAL, Move
from .intents import ACTIONS, KEEP_PLAYING, VERSIONED, IntentError, answer_id, field, flag, move_of, new_game_choice
from .view import click_move

if TYPE_CHECKING:
    from .widget import Widget


def nothing(_: object) -> None:
    """``None``, whatever it is given: an action whose answer is not a move made by hand.

    >>> nothing(False) is None
    True
    """
    return None


class Dispatch:
    """A table's answers to its front end: :meth:`handle` is the widget's ``on_msg`` callback.

    ``table`` is the widget, whose public actions most intents call (``undo``, ``hint``, ``new_game``…); the
    rest only the table itself does, and it hands them in: ``step(move)`` plays a move and shows it,
    ``refuse(error, click=...)`` shows a refusal and returns the error to raise, ``publish(message, tone=...)``
    publishes the view, ``pause()`` stops the game clock; ``on_move`` is the list of its ``on_move`` callbacks.
    """

    def __init__(self, table: Widget, lock: threading.RLock, step: Callable[[Move], Move],
                 refuse: Callable[..., IllegalMoveError], publish: Callable[..., None], pause: Callable[[], None],
                 on_move: list[Callable[[Move], object]]) -> None:
        self._table = table
        self._lock = lock
        self._step = step
        self._refuse = refuse
        self._publish = publish
        self._pause = pause
        self._on_move = on_move
        #: The ``id`` of the intent being answered (``view["answer"]``), ``None`` between intents.
        self.answering: str | None = None

    def handle(self, _widget: object, content: object, _buffers: object = None) -> None:
        """Answer one message from the front end; whatever goes wrong is said on the table, never raised."""
        # Under the lock, so that every view published while answering carries the intent's id (and no
        # view published by a background thread meanwhile does).
        with self._lock:
            self.answering = answer_id(content) if isinstance(content, dict) else None
            try:
                self.dispatch(content)
            except IllegalMoveError as e:
                if not getattr(e, "shown", False):
                    self._refuse(e)
            except IntentError as e:
                self._publish(str(e), tone="refusal")
            except Exception as e:  # a bug must never leave the table dead
                self._publish(f"Something went wrong: {type(e).__name__}: {e}")
            finally:
                self.answering = None

    def dispatch(self, content: object) -> None:
        """Check the intent ``content`` and act on it; a move made by hand goes to the ``on_move`` callbacks."""
        if not isinstance(content, dict):
            raise IntentError(f"Refused: a message must be an object, not {type(content).__name__}")
        action = content.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            raise IntentError(f"Refused: unknown action {quote(action)}")
        if action not in KEEP_PLAYING:
            self._table.stop()   # the player acts: a play running in the background stops first
        with self._lock:
            version = content.get("version")
            if not is_whole(version):
                raise IntentError(f"Refused: 'version' must be a whole number, not {quote(version)}")
            # A move names columns and cards of the table it was made on: on a newer table it could mean
            # something else. Deal, undo, redo and the buttons mean the same on any table, so a quick
            # second press (a double click on the stock, "dd") counts.
            if version != self._table.view["version"] and action in VERSIONED:
                raise IntentError("That was made on an older table; the table has changed, try again")
            played = self.ACTS[action](self, content, self._table.game.columns)
        if played is not None:
            for callback in list(self._on_move):
                callback(played)

    # Each intent of the protocol (``intents.ACTIONS``) and what it does, one small function each: it takes the
    # intent (checked field by field) and the number of columns, under the lock, and returns the move made on
    # the table by hand (for ``on_move``), or ``None``.
    def _act_click(self, content: dict, n: int) -> Move:
        src = field(content, "src", 0, n)
        count = None if content.get("count") is None else field(content, "count", 1, 100)
        try:
            move = click_move(self._table.game, src, count)
        except IllegalMoveError as e:
            raise self._refuse(e, click=(src, count)) from None
        return self._step(move)

    def _act_new(self, content: dict, n: int) -> None:
        variant, suits, seed = new_game_choice(content, self._table.game)
        self._table.new_game(seed=seed, variant=variant, suits=suits)

    def _act_four_colour(self, content: dict, n: int) -> None:   # the table's "4 colours" box
        self._table.four_colour = flag(content, "on")
        self._publish()

    def _act_away(self, content: dict, n: int) -> None:   # the page was hidden: the clock stops until the next action
        self._pause()
        self._publish()

    def _act_winnable(self, content: dict, n: int) -> None:
        on = flag(content, "on")
        if on == self._table.winnable:
            self._publish()
        else:
            self._table.winnable = on

    # (``nothing(x())``: the action's answer is not a move made by hand, whatever ``x`` answers: a move undone,
    # a hint shown, ``False`` or ``0`` where nothing was to stop, resume or undo)
    #: What each action of the protocol does.
    ACTS: dict[str, Callable[[Dispatch, dict, int], Move | None]] = {
        "move": lambda self, c, n: self._step(move_of(c, n)),
        "click": _act_click,
        "deal": lambda self, c, n: self._step(DEAL),
        "send": lambda self, c, n: self._step(Move("send", field(c, "src", 0, n))),
        "redo": lambda self, c, n: self._table.redo(),
        "undo": lambda self, c, n: nothing(self._table.undo()),
        "restart": lambda self, c, n: self._table.restart(),
        "hint": lambda self, c, n: nothing(self._table.hint()),
        "new": _act_new,
        "think": lambda self, c, n: nothing(self._table.think()),
        "stop_thinking": lambda self, c, n: nothing(self._table.stop_thinking()),
        "winnable": _act_winnable,
        "undo_to_winnable": lambda self, c, n: nothing(self._table.undo_to_winnable()),
        "resume": lambda self, c, n: nothing(self._table.resume()),
        "stats": lambda self, c, n: self._table.show_stats(flag(c, "open", self._table.view["panel"] is None)),
        "away": _act_away,
        "analyse": lambda self, c, n: nothing(self._table.where_did_it_go_wrong()),
        "resign": lambda self, c, n: self._table.resign(),
        "undo_to_turning": lambda self, c, n: nothing(self._table.undo_to_turning_point()),
        "four_colour": _act_four_colour,
    }
