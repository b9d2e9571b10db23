"""``Widget``: the Jupyter card table (anywidget).

Python owns the :class:`~spiderette.Game` and checks every action; the browser draws the synced ``view``
(what a player may see, no hidden card) and sends intents with ``model.send``. The wire protocol is in
``docs/widget-protocol.md``.

>>> w = Widget(seed=7)
>>> w.view["tableau"][0]["up"]
['4H']
>>> w.move(1, 3).kind
'move'
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import anywidget
import traitlets

from .cards import card_code
from .errors import IllegalMoveError
from .game import Game
from .hints import best_hint
from .move import DEAL, LETTERS, Move, parse_moves
from .variants import RULES, VARIANTS, get_rules

STATIC = Path(__file__).parent / "static"
ACTIONS = ("move", "click", "deal", "send", "undo", "redo", "restart", "hint", "new")


class IntentError(ValueError):
    """A message from the front end that is malformed or out of date."""


def _static(name: str) -> Path | str:
    path = STATIC / name
    if path.exists():
        return path
    if name.endswith(".js"):
        # Without the built front end (an install that skipped `npm run build`) say so on the table.
        return ("export default { render({ el }) { el.textContent = 'spiderette: the front end is not built"
                " (run npm install && npm run build in the source tree)'; } };")
    return ""


class Widget(anywidget.AnyWidget):
    """A playable Spiderette table in the notebook.

    ``Widget()`` deals a random game; ``Widget(variant="spider", suits=1, seed=42)`` a numbered one;
    ``Widget(game=g)`` shows an existing :class:`Game` (``w.game is g``).
    """

    _esm = _static("widget.js")
    _css = _static("widget.css")

    view = traitlets.Dict().tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    #: The variants the New-game chooser offers: ``{"name", "title", "suits"}`` each, from :data:`RULES`.
    variants = traitlets.List(read_only=True).tag(sync=True)

    def __init__(self, variant: str = "spiderette", suits: int = 4, seed: int | None = None,
                 game: Game | None = None, *, four_colour: bool = False, **kwargs) -> None:
        super().__init__(four_colour=four_colour, **kwargs)
        self.set_trait("variants", [{"name": r.name, "title": r.title, "suits": list(r.suit_options)}
                                    for r in RULES.values()])
        if game is not None and not isinstance(game, Game):
            raise TypeError(f"game must be a spiderette.Game, not {type(game).__name__}")
        self._game = game if game is not None else Game(variant, seed=seed, suits=suits)
        self._lock = threading.RLock()
        self._version = 0
        self._message = ""
        self._hint: dict | None = None
        self._on_move: list[Callable[[Move], object]] = []
        self.on_msg(self._handle_message)
        self._publish("")

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        """The live game: read it and script it; call :meth:`refresh` after changing it directly."""
        return self._game

    def _publish(self, message: str | None = None, last: dict | None = None) -> None:
        with self._lock:
            if message is not None:
                self._message = message
            self._version += 1
            view = self._game.view()
            view.update(version=self._version, message=self._message, hint=self._hint, last=last)
            self.view = view

    def refresh(self) -> None:
        """Redraw the table from ``w.game`` (after changing the game without going through ``w``)."""
        self._hint = None
        self._publish("")

    def on_move(self, callback: Callable[[Move], object], remove: bool = False) -> None:
        """Call ``callback(move)`` after every move, deal, send or redo made on the table by hand."""
        if remove:
            self._on_move.remove(callback)
        else:
            self._on_move.append(callback)

    # ------------------------------------------------------------------ actions (scripting and intents)
    def _after(self, words: str) -> str:
        g = self._game
        status = g.status
        if status == "won":
            return f"{words}. You won! Score {g.score}."
        if status == "lost":
            return f"{words}. No moves left: the game is lost (undo to try another way)."
        if status == "dead_end":
            return f"{words}. Dead end: no deal can ever be made again; undo to go back."
        return words

    def _describe(self, move: Move) -> str:
        """Words for ``move``, said before it is played (so the moving cards are still in place)."""
        g = self._game
        if move.kind == "deal":
            return "Dealt a row"
        if move.kind == "send":
            return f"Sent the run in column {LETTERS[move.src]} to the foundations"
        more = f" and {move.count - 1} more" if move.count > 1 else ""
        return (f"Moved {card_code(g._cols[move.src][-move.count])}{more}"
                f" from {LETTERS[move.src]} to {LETTERS[move.dst]}")

    def _do(self, move: Move) -> Move:
        with self._lock:
            g = self._game
            runs = g.runs_completed
            try:
                move = g.resolve(move)
                text = self._describe(move)
                g.apply(move)
            except IllegalMoveError as e:
                self._publish(f"Not allowed: {str(e).split(': ', 1)[-1]}")
                e.shown = True  # type: ignore[attr-defined]
                raise
            self._hint = None
            if move.kind == "deal":
                text += f" ({g.deals_left} deal{'s' if g.deals_left != 1 else ''} left)"
            if g.runs_completed > runs:
                done = g.runs_completed - runs
                text += f"; {done} run{'s' if done > 1 else ''} completed"
            self._publish(self._after(text), last={"kind": move.kind, "src": move.src,
                                                   "dst": move.dst, "count": move.count})
            return move

    def move(self, src: int, dst: int, count: int | None = None) -> Move:
        """Move cards from column ``src`` to ``dst`` (0-based), as :meth:`Game.move`; returns the move."""
        return self._do(Move("move", src, dst, count))

    def deal(self) -> Move:
        """Deal a row from the stock."""
        return self._do(DEAL)

    def send(self, col: int) -> Move:
        """Send the complete run at the top of column ``col`` (when runs are sent by hand)."""
        return self._do(Move("send", col))

    def apply(self, move: Move | str) -> Move:
        """Play one ``Move`` or one token of notation on the table."""
        return self._do(Move.parse(move) if isinstance(move, str) else move)

    def undo(self) -> Move | None:
        """Take back the last move or deal."""
        with self._lock:
            move = self._game.undo()
            self._hint = None
            self._publish(f"Took back {move}" if move else "Nothing to undo",
                          last={"kind": "undo"} if move else None)
            return move

    def redo(self) -> Move | None:
        """Play again the move last taken back."""
        with self._lock:
            move = self._game.redo()
            self._hint = None
            self._publish(self._after(f"Played {move} again") if move else "Nothing to redo",
                          last={"kind": "redo"} if move else None)
            return move

    def restart(self) -> None:
        """Start the same deal again."""
        with self._lock:
            self._game.restart()
            self._hint = None
            self._publish("Restarted the same deal", last={"kind": "new"})

    def new_game(self, seed: int | None = None, variant: str | None = None, suits: int | None = None) -> Game:
        """Deal a new game (same variant and suits unless given); returns it."""
        with self._lock:
            old = self._game
            self._game = Game(variant or old.variant, seed=seed,
                              suits=suits if suits is not None else
                              (old.suits if (variant or old.variant) == old.variant else 4),
                              auto_remove=old.auto_remove, scoring=old.scoring)
            self._hint = None
            self._publish(f"New game: {self._game.rules.title}, deal {self._game.seed}", last={"kind": "new"})
            return self._game

    def hint(self) -> Move | None:
        """Show a suggested move on the table, say why in the message line, and return it."""
        with self._lock:
            h = best_hint(self._game)
            if h is None:
                self._hint = None
                self._publish("No useful move: undo, or start a new game")
                return None
            self._hint = {"kind": h.move.kind, "src": h.move.src, "dst": h.move.dst, "count": h.move.count,
                          "text": str(h.move), "reason": h.reason}
            self._publish(f"Hint: {h.reason}")
            return h.move

    def play(self, moves: str | Iterable[Move | str], delay: float = 0.5, wait: bool = True):
        """Play a sequence of moves one at a time, each step drawn (and animated) on the table.

        The notation is checked first (a bad token changes nothing). ``wait=False`` steps in a background
        thread and returns it at once, so the kernel stays free; an illegal move stops the sequence and
        is reported in the message line.
        """
        seq = parse_moves(moves) if isinstance(moves, str) else list(moves)
        seq = [Move.parse(m) if isinstance(m, str) else m for m in seq]
        if delay < 0:
            raise ValueError("delay must be >= 0 seconds")

        def run() -> list[Move]:
            played = []
            for i, m in enumerate(seq):
                if i and delay:
                    time.sleep(delay)
                played.append(self._do(m))
            return played

        if wait:
            return run()

        def background() -> None:
            try:
                run()
            except ValueError:
                pass  # already shown in the message line

        player = threading.Thread(target=background, name="spiderette-play", daemon=True)
        player.start()
        return player

    # ------------------------------------------------------------------ messages from the browser
    def _handle_message(self, _widget: object, content: object, _buffers: object = None) -> None:
        try:
            self._dispatch(content)
        except IllegalMoveError as e:
            if not getattr(e, "shown", False):
                self._publish(f"Not allowed: {str(e).split(': ', 1)[-1]}")
        except IntentError as e:
            self._publish(str(e))
        except Exception as e:  # a bug must never leave the table dead
            self._publish(f"Something went wrong: {type(e).__name__}: {e}")

    @staticmethod
    def _int(content: dict, key: str, low: int, high: int) -> int:
        value = content.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
            raise IntentError(f"Refused: '{key}' must be a whole number from {low} to {high - 1},"
                              f" not {value!r}")
        return value

    def _dispatch(self, content: object) -> None:
        if not isinstance(content, dict):
            raise IntentError(f"Refused: a message must be an object, not {type(content).__name__}")
        action = content.get("action")
        if action not in ACTIONS:
            raise IntentError(f"Refused: unknown action {action!r}")
        with self._lock:
            version = content.get("version")
            if isinstance(version, bool) or not isinstance(version, int):
                raise IntentError(f"Refused: 'version' must be a whole number, not {version!r}")
            # A move names columns and cards of the table it was made on: on a newer table it could mean
            # something else. Deal, undo, redo and the buttons mean the same on any table, so a quick
            # second press (a double click on the stock, "dd") counts.
            if version != self._version and action in ("move", "click", "send"):
                raise IntentError("That was made on an older table; the table has changed, try again")
            n = self._game.columns
            played: Move | None = None
            if action == "move":
                src = self._int(content, "src", 0, n)
                dst = self._int(content, "dst", 0, n)
                if src == dst:
                    raise IntentError("Refused: a move needs two different columns")
                played = self._do(Move("move", src, dst, self._int(content, "count", 1, 100)))
            elif action == "click":
                src = self._int(content, "src", 0, n)
                count = None if content.get("count") is None else self._int(content, "count", 1, 100)
                played = self._do(self._game.click_move(src, count))
            elif action == "deal":
                played = self._do(DEAL)
            elif action == "send":
                played = self._do(Move("send", self._int(content, "src", 0, n)))
            elif action == "redo":
                played = self.redo()
            elif action == "new":
                variant = content.get("variant", self._game.variant)
                if variant not in VARIANTS:
                    raise IntentError(f"Refused: unknown variant {variant!r}")
                suits = content.get("suits")
                if suits is not None and (isinstance(suits, bool) or suits not in (1, 2, 4)):
                    raise IntentError(f"Refused: suits must be 1, 2 or 4, not {suits!r}")
                if suits is not None and suits not in get_rules(variant).suit_options:
                    suits = get_rules(variant).suit_options[0]
                self.new_game(variant=variant, suits=suits)
            else:
                getattr(self, action)()
        if played is not None:
            for callback in list(self._on_move):
                callback(played)
