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
from collections import Counter

from .cards import CardError, card_code, make_deck, parse_card
from .deals import check_seed
from .errors import InvalidPositionError
from .game import START_SCORE, Game
from .move import LETTERS
from .variants import get_rules


def to_dict(g: Game) -> dict:
    tableau = []
    for col, d in zip(g._cols, g._down):
        tableau.append(["|" + card_code(c) for c in col[:d]] + [card_code(c) for c in col[d:]])
    return {
        "variant": g.variant,
        "suits": g.suits,
        "seed": g.seed,
        "auto_remove": g.auto_remove,
        "scoring": g.scoring,
        "tableau": tableau,
        "stock": [card_code(c) for c in g._stock[g._sp:]],
        "foundations": [[card_code(c) for c in run] for run in g._found],
        "moves": g._moves,
        "score": g.score,
    }


def _fail(msg: str) -> InvalidPositionError:
    return InvalidPositionError(msg)


def _cards(items: object, where: str) -> list[int]:
    if not isinstance(items, list):
        raise _fail(f"{where} must be a list of card codes, not {type(items).__name__}")
    out = []
    for j, item in enumerate(items, start=1):
        try:
            out.append(parse_card(item))
        except CardError as e:
            raise _fail(f"{where}, card {j}: {e}") from None
    return out


def from_dict(cls: type[Game], data: dict) -> Game:
    """Build a game from position data after checking that it looks reachable."""
    if not isinstance(data, dict):
        raise _fail(f"a position is a dict, not {type(data).__name__}")
    missing = [k for k in ("variant", "tableau", "stock", "foundations") if k not in data]
    if missing:
        raise _fail(f"the position lacks {', '.join(missing)}")
    try:
        rules = get_rules(data["variant"])
    except ValueError as e:
        raise _fail(str(e)) from None
    g = object.__new__(cls)
    try:
        g._configure(rules, data.get("suits", 4), data.get("auto_remove", True),
                     data.get("scoring", "standard"))
    except ValueError as e:
        raise _fail(str(e)) from None
    seed = data.get("seed")
    if seed is not None:
        try:
            check_seed(seed)
        except ValueError as e:
            raise _fail(str(e)) from None
    g.seed = seed
    n = rules.columns
    tableau = data["tableau"]
    if not isinstance(tableau, list) or len(tableau) != n:
        size = len(tableau) if isinstance(tableau, list) else type(tableau).__name__
        raise _fail(f"{rules.name} has {n} columns; the tableau has {size}")
    cols: list[list[int]] = []
    down: list[int] = []
    for i, col in enumerate(tableau):
        where = f"column {LETTERS[i]}"
        if not isinstance(col, list):
            raise _fail(f"{where} must be a list of card codes, not {type(col).__name__}")
        hidden = [isinstance(c, str) and c.startswith("|") for c in col]
        d = 0
        while d < len(col) and hidden[d]:
            d += 1
        if any(hidden[d:]):
            j = hidden.index(True, d)
            raise _fail(f"{where}: face-down card {col[j][1:]} lies above a face-up card")
        if col and d == len(col):
            raise _fail(f"{where}: the top card is face down; a top card is always turned face up")
        cols.append(_cards([c[1:] if h else c for c, h in zip(col, hidden)], where))
        down.append(d)
    stock = _cards(data["stock"], "the stock")
    if len(stock) not in rules.stock_sizes():
        sizes = ", ".join(map(str, rules.stock_sizes()))
        raise _fail(f"the stock has {len(stock)} cards; a {rules.name} stock holds {sizes}")
    found_data = data["foundations"]
    if not isinstance(found_data, list):
        raise _fail("the foundations must be a list of runs")
    if len(found_data) > g._runs_total:
        raise _fail(f"{len(found_data)} runs on the foundations; {rules.name} has {g._runs_total}")
    found = [_cards(run, f"foundation run {j}") for j, run in enumerate(found_data, start=1)]
    all_cards = [c for col in cols for c in col] + stock + [c for run in found for c in run]
    want, have = Counter(make_deck(rules.decks, g.suits)), Counter(all_cards)
    if want != have:
        gone = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        parts = []
        if gone:
            parts.append("missing " + " ".join(card_code(c) for c in gone))
        if extra:
            parts.append("extra " + " ".join(card_code(c) for c in extra))
        raise _fail(f"the cards are not a {rules.name} deck of {g.suits} suit(s): {'; '.join(parts)}")
    moves = data.get("moves", 0)
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise _fail(f"moves must be a whole number >= 0, not {moves!r}")
    score = data.get("score")
    if g.scoring != "standard" or score is None:
        score = START_SCORE - moves + 100 * len(found)
    elif isinstance(score, bool) or not isinstance(score, int):
        raise _fail(f"score must be a whole number, not {score!r}")
    g._set_state(cols, down, stock, found, moves, score)
    for j, run in enumerate(found, start=1):
        top = len(run) == 13 and run[0] & 15 == 13
        if not top or not all(g._links(run[i], run[i + 1]) for i in range(12)):
            what = "colour" if g._colour else "suit"
            raise _fail(f"foundation run {j} is not a king-to-ace run in one {what}")
    if g.auto_remove:
        for i in range(n):
            if g._complete(i):
                raise _fail(f"column {LETTERS[i]} ends in a complete run, which would have left for the"
                            " foundations (auto_remove is on)")
    g._start = g._snapshot()
    return g


def _codes(cards: list[int], down: int = 0) -> str:
    text = "".join(card_code(c) for c in cards)
    return (text[:2 * down].lower() + text[2 * down:]) or "-"


def position_text(g: Game) -> str:
    head = f"{g.variant}:{g.suits}" + ("+manual" if not g.auto_remove else "") + (
        "+pairs" if g.scoring == "pairs" else "")
    tableau = "/".join(_codes(c, d) for c, d in zip(g._cols, g._down))
    stock = _codes(g._stock[g._sp:])
    found = "/".join(_codes(r) for r in g._found) or "-"
    seed = "-" if g.seed is None else str(g.seed)
    return f"{head} {tableau} {stock} {found} {g._moves} {g._score} {seed}"


def _split_cards(text: str, where: str) -> list[str]:
    if text == "-":
        return []
    if len(text) % 2:
        raise _fail(f"{where}: {text!r} is not a whole number of two-letter card codes")
    return [text[i:i + 2] for i in range(0, len(text), 2)]


_NUMBER = re.compile("[0-9]+")  # ASCII digits only: str.isdigit() also passes '²', which int() refuses


def parse_position(text: str) -> dict:
    """Read position text into position data (checked by ``from_dict``)."""
    if not isinstance(text, str):
        raise _fail(f"a position is a line of text, not {type(text).__name__}")
    fields = text.split()
    if len(fields) != 7:
        raise _fail(f"a position has 7 fields separated by spaces, this one has {len(fields)}: {text[:60]!r}")
    head, tableau, stock, found, moves, score, seed = fields
    name, *flags = head.split("+")
    variant, _, suits = name.partition(":")
    unknown = [f for f in flags if f not in ("manual", "pairs")]
    if unknown or not _NUMBER.fullmatch(suits):
        raise _fail(f"bad first field {head!r}: write variant:suits, e.g. spiderette:4+manual")
    cols = []
    for i, col in enumerate(tableau.split("/")):
        where = f"column {LETTERS[i] if i < len(LETTERS) else i + 1}"
        cols.append(["|" + c.upper() if c[0].islower() or c[1].islower() else c
                     for c in _split_cards(col, where)])
    runs = [] if found == "-" else [_split_cards(r, "foundations") for r in found.split("/")]
    for name_, value in (("moves", moves), ("score", score)):
        if not _NUMBER.fullmatch(value.removeprefix("-")):
            raise _fail(f"{name_} must be a whole number, not {value!r}")
    if seed != "-" and not _NUMBER.fullmatch(seed):
        raise _fail(f"the deal number must be a whole number or '-', not {seed!r}")
    return {
        "variant": variant, "suits": int(suits), "auto_remove": "manual" not in flags,
        "scoring": "pairs" if "pairs" in flags else "standard",
        "tableau": cols, "stock": _split_cards(stock, "the stock"), "foundations": runs,
        "moves": int(moves), "score": int(score), "seed": None if seed == "-" else int(seed),
    }


def text_picture(g: Game) -> str:
    """A plain-text picture of the table for ``print(game)``; face-down cards show as ``##``."""
    title = g.rules.title + (f" ({g.suits} suits)" if g.suits != 4 else "")
    if g.seed is not None:
        title += f" · deal {g.seed}"
    lines = [f"{title} · score {g.score} · moves {g.move_count} · deals left {g.deals_left}"
             f" · runs {g.runs_completed}/{g.runs_total} · {g.status}",
             "  ".join(f" {LETTERS[i]} " for i in range(g.columns)).rstrip()]
    height = max((len(c) for c in g._cols), default=0)
    for row in range(height):
        cells = []
        for col, d in zip(g._cols, g._down):
            cells.append("  " if row >= len(col) else "##" if row < d else card_code(col[row]))
        lines.append(("  ".join(f" {c}" for c in cells)).rstrip())
    found = " ".join(card_code(r[0]) for r in g._found) or "none"
    lines.append(f"stock: {g.stock_count} cards · foundations: {found}")
    return "\n".join(lines)
