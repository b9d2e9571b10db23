"""``Move``: a small frozen value, and its text notation.

Columns are letters ``a``, ``b``, … (``a``–``g`` in spiderette, ``a``–``j`` in spider).

========  =====================================================================
``ab``    move from column a to column b the one group that fits there
          (onto an empty column: the longest movable group)
``ab3``   move the top 3 cards of column a to column b
``d``     deal from the stock
``sc``    send the complete run at the top of column c to the foundations
          (only when runs are sent by hand, ``auto_remove=False``)
========  =====================================================================

``str(move)`` always writes the count (``ab1``) so that ``Move.parse(str(m)) == m``;
:meth:`spiderette.Game.notation` writes the shortest form that means the same move in the position.

>>> m = Move.parse("cg2")
>>> m.kind, m.src, m.dst, m.count
('move', 2, 6, 2)
>>> Move.parse(str(m)) == m
True
>>> Move.parse("d")
Move.parse('d')
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import cast

from .errors import NotationError, is_whole, quote
from .words import plural

MAX_COLUMNS = 10
LETTERS = "abcdefghij"
KINDS = ("move", "deal", "send")

_TOKEN = re.compile(r"^(?:(?P<deal>d)|s(?P<send>[a-j])|(?P<src>[a-j])(?P<dst>[a-j])(?P<count>[1-9][0-9]?)?)$")


def column_letter(i: int) -> str:
    return LETTERS[i]


def how_to_write(columns: int = MAX_COLUMNS) -> str:
    """How a move is written, naming the letters of a game of ``columns`` columns (every letter: ``a-j``).

    >>> how_to_write(7)[:47]
    'write two column letters a-g and an optional co'
    """
    last = LETTERS[min(max(columns, 1), MAX_COLUMNS) - 1]
    return (f"write two column letters a-{last} and an optional count ('ab', 'ab3'), 'd' to deal, or 's' and a"
            " column to send a run ('sc')")


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One action: ``kind`` is ``"move"``, ``"deal"`` or ``"send"``.

    ``src`` and ``dst`` are 0-based column indices and ``count`` the number of cards; each is ``None``
    where it does not apply (a deal has none; a send has only ``src``). A move whose ``count`` is ``None``
    is unresolved: the game picks the count (see :meth:`spiderette.Game.move`). Frozen: equal moves are
    interchangeable, and a move can be a key.

    >>> Move("move", 1, 3, 1).to_dict()
    {'kind': 'move', 'src': 1, 'dst': 3, 'count': 1}
    """

    kind: str
    src: int | None = None
    dst: int | None = None
    count: int | None = None
    _key: tuple = field(init=False, repr=False)   # (kind, src, dst, count): equality and hash, made once

    def __post_init__(self) -> None:
        kind, src, dst, count = self.kind, self.src, self.dst, self.count
        if not isinstance(kind, str) or kind not in KINDS:
            raise NotationError(f"unknown move kind {quote(kind)}: one of {', '.join(KINDS)}")

        def col(v: object, what: str) -> int:
            if not is_whole(v) or not 0 <= v < MAX_COLUMNS:
                raise NotationError(f"{what} must be a column index 0..{MAX_COLUMNS - 1}, not {quote(v)}")
            return v

        if kind == "move":
            src, dst = col(src, "src"), col(dst, "dst")
            if src == dst:
                raise NotationError(f"a move needs two different columns, not {LETTERS[src]} twice")
            if count is not None and (not is_whole(count)
                                      or not 1 <= count <= 99):
                raise NotationError(f"count must be a whole number from 1 to 99, not {quote(count)}")
        elif kind == "send":
            col(src, "src")
            if dst is not None or count is not None:
                raise NotationError("a send names only its column")
        elif src is not None or dst is not None or count is not None:
            raise NotationError("a deal names no column")
        object.__setattr__(self, "_key", (kind, src, dst, count))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def to_dict(self) -> dict:
        """``{"kind", "src", "dst", "count"}``: the move as the widget's view and JSON carry it."""
        return {"kind": self.kind, "src": self.src, "dst": self.dst, "count": self.count}

    def __str__(self) -> str:
        if self.kind == "deal":
            return "d"
        assert self.src is not None   # (a send and a move have their src: __post_init__)
        if self.kind == "send":
            return "s" + LETTERS[self.src]
        assert self.dst is not None
        text = LETTERS[self.src] + LETTERS[self.dst]
        return text if self.count is None else f"{text}{self.count}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __reduce__(self):
        return (Move, (self.kind, self.src, self.dst, self.count))

    @classmethod
    def parse(cls, text: str, columns: int = MAX_COLUMNS) -> Move:
        """Parse one token of move notation (``"ab"``, ``"ab3"``, ``"d"``, ``"sc"``); ``columns``, the game's
        number of columns, only words the refusal of a bad token (its letters: ``a-g`` for 7).

        >>> Move.parse("zz", columns=7)
        Traceback (most recent call last):
        ...
        spiderette.engine.errors.NotationError: bad move 'zz': write two column letters a-g and an optional count ...
        """
        if not isinstance(text, str):
            raise NotationError(f"move notation is a string, not {quote(text)}")
        m = _TOKEN.match(text.strip().lower())
        if m is None:
            raise NotationError(f"bad move {quote(text)}: {how_to_write(columns)}")
        if m["deal"]:
            return DEAL
        if m["send"]:
            return cls("send", LETTERS.index(m["send"]))
        src, dst = LETTERS.index(m["src"]), LETTERS.index(m["dst"])
        if src == dst:
            raise NotationError(f"bad move {quote(text)}: a move needs two different columns")
        return cls("move", src, dst, int(m["count"]) if m["count"] else None)

    @property
    def is_deal(self) -> bool:
        return self.kind == "deal"


DEAL = Move("deal")


#: One token of a sequence: what white space and commas separate (as ``str.split`` splits).
_WORD = re.compile(r"[^\s,]+")


def too_many(most: int) -> NotationError:
    """The refusal of a sequence of more than ``most`` moves."""
    return NotationError(f"a sequence holds at most {plural(most, 'move')}; this one holds more")


def parse_moves(text: str, most: int | None = None, columns: int = MAX_COLUMNS) -> list[Move]:
    """Parse moves separated by white space (or commas); a ``NotationError`` names the bad token (and the
    letters of a game of ``columns`` columns).

    With ``most``, a text of more than ``most`` tokens is refused before any is parsed: they are counted one
    by one up to ``most + 1``, so a text of millions is refused at once.

    >>> [str(m) for m in parse_moves("ab d cg2")]
    ['ab', 'd', 'cg2']
    >>> parse_moves("ab " * 5, most=4)
    Traceback (most recent call last):
    ...
    spiderette.engine.errors.NotationError: a sequence holds at most 4 moves; this one holds more
    """
    if not isinstance(text, str):
        raise NotationError(f"moves are written as a string like 'ab d cg2', not {quote(text)}")
    # (more than ``most`` tokens need at least 2 * most + 1 characters: a shorter text is not counted)
    if most is not None and len(text) > 2 * most \
            and next(itertools.islice(_WORD.finditer(text), most, None), None) is not None:
        raise too_many(most)
    return [Move.parse(tok, columns) for tok in text.replace(",", " ").split()]


_TABLES: dict[int, list[list[list[Move]]]] = {}


def move_table(columns: int) -> list[list[list[Move]]]:
    """``table[src][dst][count]``: the shared ``Move`` objects (``count`` 1..13), built once.

    (Typed as holding moves only: the ``None`` at ``count`` 0 and where ``src == dst`` is never looked up.)"""
    table = _TABLES.get(columns)
    if table is None:
        table = cast("list[list[list[Move]]]",
                     [[[None] + [Move("move", s, d, k) if s != d else None for k in range(1, 14)]
                       for d in range(columns)] for s in range(columns)])
        _TABLES[columns] = table
    return table


SENDS = tuple(Move("send", i) for i in range(MAX_COLUMNS))
