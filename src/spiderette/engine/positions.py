"""Positions as data and as text: ``to_dict`` / ``from_dict`` and ``position`` / ``from_position``.

The position text is one line of space-separated fields, like chess FEN::

    spiderette:4 KD/7s2H/... 4C5D... - 0 500 7

1. variant and suits, ``spiderette:4``, with ``+manual`` when runs are sent by hand and ``+pairs`` for
   pair scoring (``spiderette:4+manual+pairs``);
2. the tableau: columns a, b, … separated by ``/``, each written bottom to top as card codes with no
   separator; a face-down card is in lower case (``7s``); an empty column is ``-``;
3. the stock in deal order (the next card dealt first), or ``-``;
4. the foundations: completed runs in the order they left, each as its 13 cards king first, separated by
   ``/``, or ``-``;
5. the number of moves played; 6. the score (standard scoring); 7. the deal number, or ``-``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .cards import CardError, card_code, parse_card
from .errors import InvalidPositionError, clip, quote, whole
from .move import LETTERS
from .words import plural

if TYPE_CHECKING:
    from .game import Game

#: Keys of a position dict; ``to_dict`` writes them all, ``from_dict`` needs the first four.
KEYS = ("variant", "tableau", "stock", "foundations", "suits", "seed", "auto_remove", "scoring", "moves", "score")


def to_dict(g: Game) -> dict:
    """The position of ``g`` as JSON-ready data."""
    with g.locked():
        tableau = []
        for i in range(g.columns):
            col, d = g.column(i), g.face_down(i)
            tableau.append(["|" + card_code(c) for c in col[:d]] + [card_code(c) for c in col[d:]])
        return {
            "variant": g.variant,
            "suits": g.suits,
            "seed": g.seed,
            "auto_remove": g.auto_remove,
            "scoring": g.scoring,
            "tableau": tableau,
            "stock": [card_code(c) for c in g.stock],
            "foundations": [[card_code(c) for c in run] for run in g.foundations],
            "moves": g.move_count,
            "score": g.score,
        }


def _cards(items: object, where: str) -> list[int]:
    if not isinstance(items, list):
        raise InvalidPositionError(f"{where} must be a list of card codes, not {type(items).__name__}")
    out = []
    for j, item in enumerate(items, start=1):
        try:
            out.append(parse_card(item))
        except CardError as e:
            raise InvalidPositionError(f"{where}, card {j}: {e}") from None
    return out


def from_dict(cls: type[Game], data: dict) -> Game:
    """Build a game from position data; :mod:`spiderette.engine.checks` says what is checked."""
    if not isinstance(data, dict):
        raise InvalidPositionError(f"a position is a dict, not {type(data).__name__}")
    missing = [k for k in KEYS[:4] if k not in data]
    if missing:
        raise InvalidPositionError(f"the position lacks {', '.join(missing)}")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise InvalidPositionError(f"unknown key {quote(unknown[0])} in the position")
    tableau = data["tableau"]
    if not isinstance(tableau, list):
        raise InvalidPositionError(f"the tableau must be a list of columns, not {type(tableau).__name__}")
    cols: list[list[int]] = []
    down: list[int] = []
    for i, col in enumerate(tableau):
        where = f"column {LETTERS[i] if i < len(LETTERS) else i + 1}"
        if not isinstance(col, list):
            raise InvalidPositionError(f"{where} must be a list of card codes, not {type(col).__name__}")
        hidden = [isinstance(c, str) and c.startswith("|") for c in col]
        d = 0
        while d < len(col) and hidden[d]:
            d += 1
        if any(hidden[d:]):
            j = hidden.index(True, d)
            raise InvalidPositionError(f"{where}: face-down card {clip(col[j][1:], 20)} lies above a face-up card")
        cols.append(_cards([c[1:] if h else c for c, h in zip(col, hidden)], where))
        down.append(d)
    g = cls.from_state(
        data["variant"], columns=cols, face_down=down, stock=_cards(data["stock"], "the stock"),
        foundations=[_cards(r, f"foundation run {j}") for j, r in enumerate(_list(data["foundations"]), 1)],
        moves=data.get("moves"), suits=data.get("suits", 4), auto_remove=data.get("auto_remove"),
        scoring=data.get("scoring", "standard"), seed=data.get("seed"))
    score = data.get("score")
    if score is not None and whole(score, "score", error=InvalidPositionError) != g.score:
        how = ("one per same-suit pair + 12 per run" if g.scoring == "pairs" else
               f"500 - {plural(g.move_count, 'move')} + 100 x {plural(g.runs_completed, 'run')}")
        raise InvalidPositionError(f"score {quote(score)} does not match the table: {how} = {g.score}")
    return g


def _list(items: object) -> list:
    if not isinstance(items, list):
        raise InvalidPositionError("the foundations must be a list of runs")
    return items


def _codes(cards: Sequence[int], down: int = 0) -> str:
    text = "".join(card_code(c) for c in cards)
    return (text[:2 * down].lower() + text[2 * down:]) or "-"


def position_text(g: Game) -> str:
    """The position of ``g`` as one line of text."""
    head = f"{g.variant}:{g.suits}" + ("+manual" if not g.auto_remove else "") + (
        "+pairs" if g.scoring == "pairs" else "")
    with g.locked():
        tableau = "/".join(_codes(g.column(i), g.face_down(i)) for i in range(g.columns))
        stock = _codes(g.stock)
        found = "/".join(_codes(r) for r in g.foundations) or "-"
        seed = "-" if g.seed is None else str(g.seed)
        return f"{head} {tableau} {stock} {found} {g.move_count} {g.standard_score()} {seed}"


def _split_cards(text: str, where: str) -> list[str]:
    if text == "-":
        return []
    if len(text) % 2:
        raise InvalidPositionError(f"{where}: {quote(text)} is not a whole number of two-letter card codes")
    return [text[i:i + 2] for i in range(0, len(text), 2)]


# ASCII digits only (str.isdigit() also passes '²', which int() refuses), and not too many: deal numbers have
# at most 20 digits, and int() of thousands of digits is refused by Python itself.
_NUMBER = re.compile("[0-9]{1,20}")


def _number(value: str, what: str, sign: bool = False) -> int:
    if not _NUMBER.fullmatch(value.removeprefix("-") if sign else value):
        raise InvalidPositionError(f"{what} must be a whole number of at most 20 digits, not {quote(value)}")
    return int(value)


def parse_position(text: str) -> dict:
    """Read position text into position data (checked by ``from_dict``); the score is under ``"score"``."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position is a line of text, not {type(text).__name__}")
    fields = text.split()
    if len(fields) != 7:
        raise InvalidPositionError(f"a position has 7 fields separated by spaces, this one has {len(fields)}:"
                                   f" {quote(text)}")
    head, tableau, stock, found, moves, score, seed = fields
    name, *flags = head.split("+")
    variant, _, suits = name.partition(":")
    unknown = [f for f in flags if f not in ("manual", "pairs")]
    if unknown or not _NUMBER.fullmatch(suits):
        raise InvalidPositionError(f"bad first field {quote(head)}: write variant:suits, e.g. spiderette:4+manual")
    cols = []
    for i, col in enumerate(tableau.split("/")):
        where = f"column {LETTERS[i] if i < len(LETTERS) else i + 1}"
        cols.append(["|" + c.upper() if c[0].islower() or c[1].islower() else c
                     for c in _split_cards(col, where)])
    runs = [] if found == "-" else [_split_cards(r, "foundations") for r in found.split("/")]
    return {
        "variant": variant, "suits": int(suits), "auto_remove": "manual" not in flags,
        "scoring": "pairs" if "pairs" in flags else "standard",
        "tableau": cols, "stock": _split_cards(stock, "the stock"), "foundations": runs,
        "moves": _number(moves, "moves"), "score": _number(score, "the score", sign=True),
        "seed": None if seed == "-" else _number(seed, "the deal number"),
    }


def from_position(cls: type[Game], text: str) -> Game:
    """Build a game from position text; the score field must be the standard score of the table."""
    data = parse_position(text)
    score = data.pop("score")
    g = from_dict(cls, data)
    if score != g.standard_score():
        raise InvalidPositionError(f"score {score} does not match the table: 500 - {plural(g.move_count, 'move')}"
                                   f" + 100 x {plural(g.runs_completed, 'run')} = {g.standard_score()}")
    return g


def text_picture(g: Game, name: Callable[[int], str] = card_code) -> str:
    """A plain-text picture of the table for ``print(game)``; face-down cards show as ``##``. ``name`` writes
    each face-up card (:func:`~spiderette.engine.cards.card_code` by default, ``"TC"``; ``card_text`` gives
    ``"10♣"``, as a terminal that can show the suit symbols does), the columns as wide as its widest card.

    >>> from spiderette.engine.cards import card_text
    >>> from spiderette.engine.game import Game
    >>> print(text_picture(Game(seed=7), card_text).splitlines()[2])
     4♥    ##    ##    ##    ##    ##    ##
    """
    title = g.rules.title + (f" ({plural(g.suits, 'suit')})" if g.suits != 4 else "")
    if g.seed is not None:
        title += f" · deal {g.seed}"
    with g.locked():
        cols = [(g.column(i), g.face_down(i)) for i in range(g.columns)]
        found = " ".join(name(r[0]) for r in g.foundations) or "none"
        stock = g.stock_count
        head = (f"{title} · score {g.score} · moves {g.move_count} · deals left {g.deals_left}"
                f" · runs {g.runs_completed}/{g.runs_total} · {g.status}")
        rows = [["" if row >= len(col) else "##" if row < d else name(col[row]) for col, d in cols]
                for row in range(max((len(c) for c, _ in cols), default=0))]
    width = max(2, *(len(name(suit << 4 | rank)) for suit in range(4) for rank in range(1, 14)))  # any card's
    lines = [head, "  ".join(f" {LETTERS[i].ljust(width)}" for i in range(g.columns)).rstrip()]
    lines += [("  ".join(f" {c.ljust(width)}" for c in cells)).rstrip() for cells in rows]
    lines.append(f"stock: {plural(stock, 'card')} · foundations: {found}")
    return "\n".join(lines)
