"""The refusal vocabulary: :class:`Refusal`, the engine's decision that a move is not allowed, and the words
of each refusal code in notation (:data:`NOTATION`; the table's words for players are in
:mod:`spiderette.notebook.wording`).

>>> Refusal("king-to-a-card", 1).reason
'a king can only go to an empty column'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import card_code
from .errors import quote
from .move import LETTERS


@dataclass(frozen=True)
class Refusal:
    """The engine's one decision that a move is not allowed: a stable ``code`` and the facts it names.

    ``column`` is the column the rule speaks of (0-based), ``cards`` the cards involved (the card that would
    move, or the two cards that break a group, lower first), ``target`` the card it would go onto, ``count``
    the cards asked for and ``limit`` what the table allows (face-up cards, cards that move together, columns).
    :attr:`reason` writes it in notation for scripts; :func:`spiderette.notebook.wording.refusal` in cards for players.

    ============================  ===================================================================
    ``empty-stock``               no card is left to deal
    ``deal-with-empty-column``    a deal while ``column`` is empty (the variant forbids it)
    ``no-such-column``            ``column`` is not a column of ``variant`` (``limit`` columns)
    ``sends-are-automatic``       a send when complete runs leave on their own
    ``no-complete-run``           a send from ``column``, which does not end in a King-to-Ace run
    ``empty-column``              a move from the empty ``column``
    ``hidden-card``               ``count`` cards asked for, only ``limit`` face up
    ``not-in-sequence``           ``cards`` are not one rank apart: only ``limit`` cards move together
    ``not-one-suit``              ``cards`` are not one suit: only ``limit`` cards move together
    ``not-one-colour``            the same, in red-black (groups by colour)
    ``king-to-a-card``            ``cards[0]``, a king, onto ``target``
    ``onto-an-ace``               ``cards[0]`` onto ``target``, an ace
    ``does-not-fit``              ``cards[0]`` onto ``target``, not one rank higher
    ``not-same-suit``             ``cards[0]`` onto ``target``, one rank higher but of another suit (the
                                  variant builds in suit)
    ``not-alternate-colour``      ``cards[0]`` onto ``target``, one rank higher but of its colour (the
                                  variant builds in alternate colours)
    ``one-card-at-a-time``        ``count`` cards of ``column`` (``cards``: the lowest and the top one) asked
                                  to move together where only ``limit`` (one) card moves
    ``nowhere-to-go``             a click on the top ``count`` cards of ``column`` (``cards``: the first
                                  and the last of them) that no column takes
    ============================  ===================================================================

    >>> Refusal("does-not-fit", 4, (0x03,), 0x2B).reason
    '3S cannot go on JC: a card goes only on a card one rank higher'
    """

    code: str
    column: int | None = None
    cards: tuple[int, ...] = ()
    target: int | None = None
    count: int | None = None
    limit: int | None = None
    variant: str | None = None

    @property
    def reason(self) -> str:
        """The rule in notation (cards as ``TH``, columns as letters), without the move."""
        if self.code not in NOTATION:
            raise ValueError(f"unknown refusal code {quote(self.code)}")
        return NOTATION[self.code].format(**self.facts())

    def facts(self, name: Callable[[int], str] | None = None) -> dict[str, object]:
        """The fields as the texts of refusals use them, cards written by ``name`` (``card_code``: ``TH``):
        ``col`` (a letter), ``card0``, ``card1``, ``target``, ``count``, ``limit``, ``variant``, ``last`` (the
        last column's letter) and ``s`` (``"s"`` unless ``limit`` is 1)."""
        name = name or card_code
        cards = [name(c) for c in self.cards] + ["", ""]
        return {"col": "" if self.column is None else LETTERS[self.column], "card0": cards[0], "card1": cards[1],
                "target": "" if self.target is None else name(self.target), "count": quote(self.count),
                "limit": self.limit, "variant": self.variant, "s": "" if self.limit == 1 else "s",
                "last": "" if self.limit is None else LETTERS[min(self.limit, len(LETTERS)) - 1]}


#: Each refusal code's reason in notation, for scripts (:attr:`Refusal.reason`), from :meth:`Refusal.facts`.
NOTATION = {
    "empty-stock": "the stock is empty",
    "deal-with-empty-column": "no deal while column {col} is empty",
    "no-such-column": "column {col} does not exist in {variant} (columns a-{last})",
    "sends-are-automatic": "complete runs leave on their own in this game (auto_remove is on)",
    "no-complete-run": "column {col} does not end in a complete king-to-ace run",
    "empty-column": "column {col} is empty",
    "hidden-card": "column {col} has only {limit} face-up card{s} (asked for {count})",
    "not-in-sequence": "{card0}-{card1} is not in sequence: only the top {limit} of column {col} move together",
    "not-one-suit": "{card0}-{card1} is not one suit, move one card at a time",
    "not-one-colour": "{card0}-{card1} is not one colour, move one card at a time",
    "king-to-a-card": "a king can only go to an empty column",
    "onto-an-ace": "nothing goes on an ace",
    "does-not-fit": "{card0} cannot go on {target}: a card goes only on a card one rank higher",
    "not-same-suit": "{card0} cannot go on {target}: a card goes only on a card of its own suit one rank higher",
    "not-alternate-colour": "{card0} cannot go on {target}: a card goes only on a card of the other colour one"
                            " rank higher",
    "one-card-at-a-time": "only one card moves at a time in this game (asked for {count} of column {col})",
    "nowhere-to-go": "{card0} has nowhere to go",
}
