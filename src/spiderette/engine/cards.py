"""Cards as small integers, and their text codes: the three ways a card is written, and the converters.

A card is an ``int``: ``suit * 16 + rank`` with rank 1 (ace) to 13 (king) and suit 0 to 3 in the order
spades, hearts, clubs, diamonds, so that bit 4 is the colour (0 black, 1 red). Two cards of one suit in
sequence differ by exactly one: ``below == above + 1``.

**Three encodings meet a student**, and this module converts between all of them:

* **the engine**: an ``int``, ``16·suit + rank``, the ten of hearts ``26`` (``game.column(i)``,
  ``game.top_card(i)``, the predicates of :mod:`spiderette.engine.predicates`);
* **codes**: ``"TH"``, rank then suit (``game.observation()``, positions, save files, hints):
  :func:`card_code` from an engine card, :func:`parse_card` back;
* **the RL environment** (``spiderette.env``): ``13·suit + rank``, dense from 1 to 52 (0: no card), the ten
  of hearts ``23``: :func:`card_number` from a code (``card_number(card_code(c))`` from an engine card),
  :func:`card_of_number` back to an engine card;
* **people**: ``"10♥"``, ``"ten of hearts"``: :func:`card_text`, :func:`card_name` (and :func:`parse_card`
  reads ``"10h"``).

The suits are in the same order (S, H, C, D) in all of them; :func:`rank_of`, :func:`suit_of` and
:func:`colour_of` read an engine card. (They need nothing optional: no gymnasium to read an observation's
numbers.)

>>> parse_card("QH") == card(12, "H")
True
>>> card_code(parse_card("th")), parse_card("TH"), card_number("TH"), card_code(card_of_number(23))
('TH', 26, 23, 'TH')
>>> rank_of(26), suit_of(26), colour_of(26), card_text(26), card_name(26)
(10, 'H', 1, '10♥', 'ten of hearts')
"""

from __future__ import annotations

import operator

from .errors import quote

RANKS = "A23456789TJQK"
SUITS = "SHCD"  # index order: colour is bit 0 of the index (S, C black; H, D red)
#: The order suits are taken in when a deck is built (and when fewer than four suits are used:
#: two suits are spades and hearts, one suit is spades).
DECK_SUIT_ORDER = "SHDC"

RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

ACE = 1
KING = 13
#: The bits of a card that hold its rank: ``rank_of(c) == c & RANK_MASK`` (the hot loops use the mask inline).
RANK_MASK = 15
#: How many cards a complete run has: King to Ace.
RUN_LENGTH = 13


class CardError(ValueError):
    """A card code that is not a card, such as ``"1X"``."""


def card(rank: int, suit: str) -> int:
    """The card of ``rank`` (1..13) and ``suit`` (one of ``S H D C``)."""
    return SUITS.index(suit) * 16 + rank


def rank_of(c: int) -> int:
    """The rank of a card, 1 (ace) to 13 (king)."""
    return c & RANK_MASK


def is_complete_run(length: int, top: int) -> bool:
    """The rule of a finished run: a group of ``length`` linked cards (each one rank below the one under it, as
    the variant links them) with card ``top`` on top is a complete King-to-Ace run when it holds 13 cards or more
    and ends in an Ace (its top 13 cards are the run).

    >>> is_complete_run(13, card(ACE, "S")), is_complete_run(12, card(ACE, "S")), is_complete_run(13, card(2, "S"))
    (True, False, False)
    """
    return length >= RUN_LENGTH and top & RANK_MASK == ACE


def suit_of(c: int) -> str:
    """The suit of a card, one of ``S H C D``."""
    return SUITS[c >> 4]


def colour_of(c: int) -> int:
    """0 for black, 1 for red."""
    return (c >> 4) & 1


def is_card(c: object) -> bool:
    """Is ``c`` a card (an ``int`` made by :func:`card`)?"""
    return type(c) is int and 1 <= c & RANK_MASK <= KING and 0 <= c >> 4 < 4 and c >= 0


def card_code(c: int) -> str:
    """The two-letter code of a card: rank then suit, ``"TH"`` for the ten of hearts."""
    return RANKS[(c & RANK_MASK) - 1] + SUITS[c >> 4]


def card_name(c: int) -> str:
    """``"queen of hearts"``."""
    return f"{RANK_NAMES[(c & RANK_MASK) - 1]} of {SUIT_NAMES[SUITS[c >> 4]]}"


#: The suits' symbols, as players write cards.
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def code_text(code: str) -> str:
    """A card code as people write the card: ``"10♥"`` for ``"TH"``.

    >>> code_text("TH"), code_text("QS")
    ('10♥', 'Q♠')
    """
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]


def card_text(c: int) -> str:
    """A card (an int) as people write it: ``"10♥"`` for the ten of hearts.

    >>> card_text(parse_card("TH")), card_text(parse_card("9D"))
    ('10♥', '9♦')
    """
    return code_text(card_code(c))


_CODES: dict[str, int] = {}
for _s in SUITS:
    for _r, _ch in enumerate(RANKS, start=1):
        _CODES[_ch + _s] = card(_r, _s)


def parse_card(text: str) -> int:
    """Parse a card code such as ``"QH"`` or ``"10h"`` (case does not matter)."""
    if not isinstance(text, str):
        raise CardError(f"a card is written as a string like 'QH', not {quote(text)}")
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    try:
        return _CODES[key]
    except KeyError:
        raise CardError(f"unknown card {quote(text)}: write rank (A 2-9 T J Q K) then suit (S H D C)") from None


def card_number(code: str) -> int:
    """The number of a card in the RL environment's observation, from its code: ``13·suit + rank``, suits in
    the order S, H, C, D (1 to 52; 0 is no card). From an engine card: ``card_number(card_code(c))``.

    >>> card_number("AS"), card_number("KS"), card_number("4H"), card_number("KD")
    (1, 13, 17, 52)
    """
    if not isinstance(code, str):
        raise TypeError(f"a card is written like 'AS' or '4H', not {quote(code)}")
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise ValueError(f"a card is written like 'AS' or '4H' (rank {RANKS}, suit {SUITS}), not {quote(code)}")
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0]) + 1


def card_of_number(number: int) -> int:
    """The engine's card (``16·suit + rank``) of an RL observation's card number (``13·suit + rank``).

    >>> card_code(card_of_number(1)), card_code(card_of_number(17)), card_code(card_of_number(52))
    ('AS', '4H', 'KD')
    """
    try:
        n = None if isinstance(number, bool) else operator.index(number)   # (a NumPy integer too)
    except TypeError:
        n = None
    if n is None or not 1 <= n <= 52:
        raise ValueError(f"a card number is a whole number from 1 to 52, not {quote(number)}")
    suit, rank = divmod(n - 1, 13)
    return 16 * suit + rank + 1


def make_deck(decks: int = 1, suits: int = 4) -> list[int]:
    """The unshuffled deck: for each copy, suits in ``DECK_SUIT_ORDER``, ranks ace to king.

    With fewer suits the first ``suits`` of the order repeat until the deck has ``52 * decks`` cards.

    >>> [card_code(c) for c in make_deck(1, 4)[:3]]
    ['AS', '2S', '3S']
    >>> len(make_deck(2, 1))
    104
    """
    if suits not in (1, 2, 4):
        raise ValueError(f"suits must be 1, 2 or 4, not {quote(suits)}")
    order = DECK_SUIT_ORDER[:suits]
    deck: list[int] = []
    for _ in range(decks * 4 // suits):
        for s in order:
            deck.extend(card(r, s) for r in range(1, 14))
    return deck
