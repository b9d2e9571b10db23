"""Is this a table the rules allow? The checks behind :meth:`spiderette.Game.from_state`.

A table is checked for everything the engine relies on and every count a game keeps:

* the cards are exactly the variant's deck (52 or 104 cards of the chosen suits);
* face-down cards lie only under face-up ones: a column that has cards has its top card face up;
* the stock is one of the sizes the deals leave (24, 17, 10, 3 or 0 in spiderette);
* every run on the foundations is a king-to-ace run in one suit (one colour in red-black), at most as many
  as win the game; with runs leaving by themselves, no column ends in a complete run;
* the move count is at least the deals made (plus one send per run when runs are sent by hand) and at most
  :data:`MAX_MOVES` (left out, it is that least count); the score, where a position gives one, is the one
  those moves and runs make.

Deliberately not checked, so that hand-made study positions can be written: how many cards lie face down
under each column (a deal puts 0 to 6 there in spiderette, but a study may hide more), which cards they are,
and whether the face-up cards could have come to lie as they do.
"""

from __future__ import annotations

from collections import Counter

from .cards import RUN_LENGTH, card_code, is_card, is_complete_run, make_deck
from .errors import InvalidPositionError, clip, quote, whole
from .move import LETTERS
from .variants import Rules
from .words import plural

#: The most moves a position may say were played (a sanity bound: real games take a few hundred).
MAX_MOVES = 1_000_000


def _cards(items: object, where: str) -> list[int]:
    if not isinstance(items, (list, tuple)):
        raise InvalidPositionError(f"{where} must be a list of cards, not {type(items).__name__}")
    for j, c in enumerate(items, start=1):
        if not is_card(c):
            raise InvalidPositionError(f"{where}, card {j}: {quote(c)} is not a card")
    return list(items)


def check_state(rules: Rules, suits: int, auto_remove: bool, columns: object, face_down: object,
                stock: object, foundations: object, moves: object) -> tuple:
    """Check a table of ``rules`` and return it as ``(columns, face_down, stock, foundations, moves)``.

    Cards are ints (see :mod:`spiderette.engine.cards`); ``columns`` bottom to top, ``stock`` next card first,
    ``foundations`` one list per run, king first. Raises ``InvalidPositionError`` saying what is wrong.
    """
    n = rules.columns
    if not isinstance(columns, (list, tuple)) or len(columns) != n:
        size = len(columns) if isinstance(columns, (list, tuple)) else type(columns).__name__
        raise InvalidPositionError(f"{rules.name} has {plural(n, 'column')}; the tableau has {size}")
    cols = [_cards(col, f"column {LETTERS[i]}") for i, col in enumerate(columns)]
    if not isinstance(face_down, (list, tuple)) or len(face_down) != n:
        raise InvalidPositionError(f"face_down must be a list of {n} counts, not {quote(face_down)}")
    down = []
    for i, (col, d) in enumerate(zip(cols, face_down)):
        a = LETTERS[i]
        d = whole(d, f"the face-down count of column {a}", 0, error=InvalidPositionError)
        if not col and d:
            raise InvalidPositionError(f"column {a} is empty but has {d} face-down cards")
        if col and d >= len(col):
            raise InvalidPositionError(f"column {a}: the top card is face down; a top card is always turned"
                                       " face up")
        down.append(d)
    stock = _cards(stock, "the stock")
    if len(stock) not in rules.stock_sizes():
        sizes = ", ".join(map(str, rules.stock_sizes()))
        raise InvalidPositionError(f"the stock has {plural(len(stock), 'card')}; a {rules.name} stock holds {sizes}")
    if not isinstance(foundations, (list, tuple)):
        raise InvalidPositionError("the foundations must be a list of runs")
    if len(foundations) > rules.runs:
        raise InvalidPositionError(f"{plural(len(foundations), 'run')} on the foundations; {rules.name} has"
                                   f" {rules.runs}")
    found = [_cards(run, f"foundation run {j}") for j, run in enumerate(foundations, start=1)]
    everything = [c for col in cols for c in col] + stock + [c for run in found for c in run]
    want, have = Counter(make_deck(rules.decks, suits)), Counter(everything)
    if want != have:
        parts = []
        gone, extra = sorted((want - have).elements()), sorted((have - want).elements())
        if gone:
            parts.append("missing " + clip(" ".join(card_code(c) for c in gone), 90))
        if extra:
            parts.append("extra " + clip(" ".join(card_code(c) for c in extra), 90))
        raise InvalidPositionError(f"the cards are not a {rules.name} deck of {suits} suit(s):"
                                   f" {'; '.join(parts)}")
    for j, run in enumerate(found, start=1):
        if not is_run(rules, run):
            raise InvalidPositionError(f"foundation run {j} is not a king-to-ace run in one {rules.kin}")
    if auto_remove:
        for i, col in enumerate(cols):
            if len(col) - down[i] >= RUN_LENGTH and is_run(rules, col[-RUN_LENGTH:]):
                raise InvalidPositionError(f"column {LETTERS[i]} ends in a complete run, which would have"
                                           " left for the foundations (auto_remove is on)")
    deals = rules.stock_sizes().index(len(stock))  # the sizes run from the full stock down
    least = deals + (0 if auto_remove else len(found))
    if moves is None:
        moves = least
    moves = whole(moves, "moves", 0, MAX_MOVES, error=InvalidPositionError)
    if moves < least:
        why = plural(deals, "deal") + (
            "" if auto_remove else f" and {plural(len(found), 'send')}")
        raise InvalidPositionError(f"moves is {moves}, but the table shows {why}, each a move")
    return cols, down, stock, found, moves


def is_run(rules: Rules, cards: list[int]) -> bool:
    """Are ``cards`` a complete king-to-ace run that may leave for the foundations under ``rules``?"""
    return (len(cards) == RUN_LENGTH and all(rules.links(cards[i], cards[i + 1]) for i in range(RUN_LENGTH - 1))
            and is_complete_run(len(cards), cards[-1]))
