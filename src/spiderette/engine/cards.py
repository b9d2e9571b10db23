"""Cards as small integers, and their text codes.

A card is an ``int``: ``suit * 16 + rank`` with rank 1 (ace) to 13 (king) and suit 0 to 3 in the order
spades, hearts, clubs, diamonds, so that bit 4 is the colour (0 black, 1 red). Two cards of one suit in
sequence differ by exactly one: ``below == above + 1``.

>>> parse_card("QH") == card(12, "H")
True
>>> card_code(parse_card("th"))
'TH'
"""

from __future__ import annotations

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
