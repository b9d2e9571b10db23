"""The errors the package raises, and the checks that produce them.

Each error is a ``ValueError`` that says what is wrong; a wrong type is a ``TypeError``. Messages quote the
bad input, but never more than :data:`QUOTE_LIMIT` characters of it:

>>> quote("ab" * 50000)
"'abababababababababababababababababababababababababababababab'… (100000 characters)"
>>> whole(4.0, "suits")
Traceback (most recent call last):
...
TypeError: suits must be a whole number, not 4.0
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Literal, TypeGuard, overload

if TYPE_CHECKING:
    from .move import Move
    from .refusals import Refusal

#: How many characters of a bad input an error message quotes at most.
QUOTE_LIMIT = 60


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now, such as a king onto a queen.

    ``move`` is the move refused (``None`` when no single move was asked for, as with a click that can go
    nowhere) and ``reason`` the rule's words without the move: ``"a king can only go to an empty column"``.
    ``index`` is the move's place (from 1) in a sequence given to ``play``, or ``None``.

    The engine's refusals carry its decision, :attr:`refusal` (a :class:`~spiderette.engine.refusals.Refusal`),
    whose ``code``, ``cards`` and ``target`` are also read here; ``reason`` is written from it. An error made
    from words alone (a click on a column that does not exist) has no refusal: its ``code`` is ``None``.
    """

    def __init__(self, reason: str | Refusal, move: Move | None = None, index: int | None = None) -> None:
        self.refusal = None if isinstance(reason, str) else reason
        if self.refusal is not None:
            reason = self.refusal.reason
        assert isinstance(reason, str)   # (a Refusal was replaced by its words just above)
        where = "" if move is None else f"{move}: " if index is None else f"move {index} ({move}): "
        super().__init__(where + reason)
        self.move = move
        self.reason = reason
        self.index = index

    @property
    def code(self) -> str | None:
        """The refusal's stable code (see :class:`~spiderette.engine.refusals.Refusal`), ``None`` for an error
        made from words."""
        return None if self.refusal is None else self.refusal.code

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards the refusal names (see :class:`~spiderette.engine.refusals.Refusal`)."""
        return () if self.refusal is None else self.refusal.cards

    @property
    def target(self) -> int | None:
        """The card the refused move would go onto, when the refusal names it."""
        return None if self.refusal is None else self.refusal.target

    def at(self, move: Move | None, index: int | None = None) -> IllegalMoveError:
        """The same refusal, said of ``move`` (move ``index`` of a sequence)."""
        return type(self)(self.refusal or self.reason, move, index)

    def __reduce__(self):
        return (type(self), (self.refusal or self.reason, self.move, self.index))


class NotationError(ValueError):
    """Text that is not move notation (or not a position); the message quotes the bad token."""


class InvalidPositionError(ValueError):
    """A position (dict or text) that no game of the variant could reach."""


class SaveFileError(ValueError):
    """A save file that is corrupted, truncated, of another program, or inconsistent."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, saying how long the whole was.

    Safe on anything: a number of thousands of digits is described, not written out.

    >>> quote(10 ** 500)
    'a whole number of 501 digits'
    """
    if is_whole(value) and value.bit_length() > 3 * limit:
        bits = value.bit_length()
        if bits < 14_000:  # str() of a longer number is refused by Python (4300 digits at most)
            return f"a whole number of {len(str(abs(value)))} digits"
        return f"a whole number of about {int(bits * 0.30103) + 1} digits"
    if isinstance(value, (str, bytes)) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} {'characters' if isinstance(value, str) else 'bytes'})"
    if isinstance(value, (list, tuple, dict, set)) and len(value) > 8:
        return f"a {type(value).__name__} of {len(value)} items"
    try:
        text = repr(value)
    except Exception:  # a repr that fails must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit + 2 else f"{text[:limit]}… ({type(value).__name__})"


def clip(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters between two words (never inside a word or a number), with
    "…" when it was longer; a first word longer than ``limit`` alone is cut where it must be.

    >>> shorten("the deal is undecided (28 in 70 such were winnable)", 30)
    'the deal is undecided (28 in…'
    >>> shorten("short", 30), shorten("x" * 40, 10)
    ('short', 'xxxxxxxxx…')
    """
    if len(text) <= limit:
        return text
    head = text[:limit - 1]   # (and "…"); the next character shows whether it ends between two words
    if not (text[limit - 1].isspace() or head[-1:].isspace()) and len(head.split(None, 1)) > 1:
        head = head.rsplit(None, 1)[0]
    return head.rstrip(" ,;:(") + "…"


def printable(text: str, limit: int = 200) -> str:
    """``text`` as a terminal may show it: control characters (an escape, a bell, a carriage return) written
    as escapes, cut to ``limit`` characters with its length said.

    >>> print(printable("ab\\x1b[2Jcd\\x07"))
    ab\\x1b[2Jcd\\x07
    >>> printable("ab " * 1000, 9)
    'ab ab ab … (3000 characters)'
    """
    shown = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text[:limit])
    return shown if len(text) <= limit else f"{shown}… ({len(text)} characters)"


def is_whole(value: object) -> TypeGuard[int]:
    """Is ``value`` a whole number: an ``int``, not a ``bool``? (The test behind :func:`whole`, for checks that
    say their own words.)"""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[float]:
    """Is ``value`` a real number: an ``int`` or a ``float``, not a ``bool``?"""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def whole(value: object, name: str, low: int | None = None, high: int | None = None,
          error: type[Exception] | None = None) -> int:
    """``value`` if it is a whole number (an ``int``, not a ``bool``) with ``low <= value <= high``.

    A wrong type raises ``TypeError`` and a number out of range ``ValueError``, or both ``error`` when given
    (``InvalidPositionError`` for positions); the message names ``name``.
    """
    if not is_whole(value):
        raise (error or TypeError)(f"{name} must be a whole number, not {quote(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = (f"from {low} to {high}" if high is not None else f">= {low}") if low is not None else f"<= {high}"
        raise (error or ValueError)(f"{name} must be a whole number {span}, not {quote(value)}")
    return value


def flag(value: object, name: str) -> bool:
    """``value`` if it is ``True`` or ``False``; anything else (``1``, ``"yes"``, ``None``) is a ``TypeError``.

    >>> flag(True, "progress")
    True
    >>> flag("yes", "progress")
    Traceback (most recent call last):
    ...
    TypeError: progress must be True or False, not 'yes'
    """
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {quote(value)}")
    return value


#: The longest time a time limit, a delay or a timeout may name (about 31 years): a clock plus more than that
#: is no longer a time.
MAX_SECONDS = 1e9


@overload
def seconds(value: object, name: str, *, positive: bool = ..., none: Literal[False] = ..., high: float = ...,
            error: type[Exception] | None = ...) -> float: ...
@overload
def seconds(value: object, name: str, *, positive: bool = ..., none: bool, high: float = ...,
            error: type[Exception] | None = ...) -> float | None: ...
def seconds(value: object, name: str, *, positive: bool = False, none: bool = False, high: float = MAX_SECONDS,
            error: type[Exception] | None = None) -> float | None:
    """``value`` as a float number of seconds: an ``int`` or ``float`` (not a ``bool``), ``>= 0`` (``> 0`` with
    ``positive``) and at most ``high``; ``None`` passes when ``none``. A wrong type raises ``TypeError`` and a
    number out of range (NaN, infinity, a number too large for a float) ``ValueError``, or both ``error``.

    >>> seconds(2, "delay"), seconds(None, "time_limit", none=True)
    (2.0, None)
    >>> seconds(10**400, "delay")
    Traceback (most recent call last):
    ...
    ValueError: delay must be at most 1,000,000,000 seconds, not a whole number of 401 digits
    """
    if value is None and none:
        return None
    bound = "> 0" if positive else ">= 0"
    told = f"{name} must be a number of seconds {bound}{' or None' if none else ''}, not {quote(value)}"
    if not is_number(value):
        raise (error or TypeError)(told)
    if not (value > 0 if positive else value >= 0):   # NaN fails both
        raise (error or ValueError)(told)
    if not value <= high:
        raise (error or ValueError)(f"{name} must be at most {high:,.0f} seconds, not {quote(value)}")
    return float(value)


def an_event(value: object, name: str = "cancel") -> threading.Event | None:
    """``value`` if it is ``None`` or a ``threading.Event`` (what stops a search when it is set)."""
    if value is not None and not isinstance(value, threading.Event):
        raise TypeError(f"{name} must be a threading.Event or None, not {quote(value)}")
    return value
