"""Numbered deals: the same cards for deal N on every machine and in every version.

The generator is SplitMix64 (Steele, Lea and Flood, 2014), implemented here so that nothing depends on
Python's ``random`` internals. Deal N of a variant is made like this:

1. start SplitMix64 with state ``N`` (``0 <= N < 2**64``);
2. take the unshuffled deck of :func:`spiderette.engine.cards.make_deck` (per copy: suits S, H, D, C, ranks A..K);
3. Fisher-Yates: for ``i`` from ``len(deck) - 1`` down to 1, draw ``j`` uniformly in ``0..i`` and swap
   ``deck[i]`` and ``deck[j]``; ``j`` is drawn by rejection: take 64-bit outputs ``x`` until
   ``x < 2**64 - (2**64 % (i + 1))``, then ``j = x % (i + 1)``;
4. deal the shuffled deck from index 0 row by row as in Klondike: row 0 across every column, then row 1
   across the columns that are taller than one card, and so on (a variant read from a design file may give
   its own order: :func:`deal_order`); a card is face up when it is the last one its column receives (the
   top ``face_up`` cards in general);
5. the cards left over are the stock, in order: the next card is dealt first, onto column a.

>>> SplitMix64(0).next()
16294208416658607535
"""

from __future__ import annotations

from .cards import make_deck
from .errors import quote, whole
from .variants import Rules

MASK64 = (1 << 64) - 1
MAX_SEED = 1 << 64


class SplitMix64:
    """The SplitMix64 generator: a 64-bit state, one addition and two multiplications per output."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0..bound-1``, without modulo bias."""
        limit = MAX_SEED - (MAX_SEED % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def shuffle(cards: list[int], seed: int) -> list[int]:
    """``cards`` shuffled in place by steps 1 and 3 above (SplitMix64 from ``seed``, Fisher-Yates); returned."""
    rng = SplitMix64(seed)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffled_deck(seed: int, decks: int = 1, suits: int = 4) -> list[int]:
    """The deck of deal ``seed``, shuffled as documented above."""
    return shuffle(make_deck(decks, suits), seed)


def lay_out(rules: Rules, deck: list[int]) -> tuple[list[list[int]], list[int], list[int]]:
    """Deal ``deck`` row by row into the variant's layout.

    Returns ``(columns, face_down_counts, stock)``.
    """
    columns: list[list[int]] = [[] for _ in rules.layout]
    pos = 0
    for col in deal_order(rules):
        columns[col].append(deck[pos])
        pos += 1
    down = [max(0, h - rules.face_up) for h in rules.layout]
    return columns, down, deck[pos:]


def deal_order(rules: Rules) -> tuple[int, ...]:
    """The column each card of the deck goes to, in turn: the variant's own order (a design file's deal rules),
    or row by row (step 4 above).

    >>> from spiderette.engine.variants import RULES
    >>> deal_order(RULES["spiderette"])[:9]
    (0, 1, 2, 3, 4, 5, 6, 1, 2)
    """
    if rules.deal_order is not None:
        return rules.deal_order
    return tuple(col for row in range(max(rules.layout)) for col, height in enumerate(rules.layout) if row < height)


def check_seed(seed: object) -> int:
    """``seed`` if it is a deal number (a whole number with ``0 <= seed < 2**64``)."""
    seed = whole(seed, "seed (the deal number)")
    if not 0 <= seed < MAX_SEED:
        raise ValueError(f"deal number {quote(seed)} is out of range: 0 <= seed < 2**64")
    return seed
