"""One small declarative value per variant of the Spider family.

>>> RULES["spiderette"].layout
(1, 2, 3, 4, 5, 6, 7)
>>> RULES["spider"].runs
8
>>> from spiderette.engine.cards import parse_card as c
>>> RULES["spiderette"].links(c("9H"), c("8H")), RULES["spiderette"].links(c("9H"), c("8D"))
(True, False)
>>> RULES["red_black_spiderette"].links(c("9H"), c("8D"))
True
>>> RULES["spiderette"].fits(c("9H"), c("8D")), Rules("x", "X", 1, (1,) * 7, build="suit").fits(c("9H"), c("8D"))
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .errors import is_whole, quote
from .move import MAX_COLUMNS as MOVE_COLUMNS
from .words import plural

#: The bits of a card (``suit * 16 + rank``; bit 4 is its colour) that a group compares: ``above`` continues a
#: group on ``below`` when ``below & mask == (above & mask) + 1``. Every bit: one rank lower in the same suit;
#: the rank and the colour bit: one rank lower in the same colour. The engine's hot loops use the mask inline.
SUIT_MASK = -1
COLOUR_MASK = 31


def same_suit_links(below: int, above: int) -> bool:
    """``above`` is one rank below ``below`` in the same suit (cards are ``suit * 16 + rank``)."""
    return below == above + 1


def same_colour_links(below: int, above: int) -> bool:
    """``above`` is one rank below ``below`` in the same colour (bit 4 of a card is its colour)."""
    return (below & COLOUR_MASK) == (above & COLOUR_MASK) + 1


def any_suit_fits(onto: int, moving: int) -> bool:
    """``moving`` may go onto ``onto``: one rank lower, any suit."""
    return (onto & 15) == (moving & 15) + 1


def alternate_colour_fits(onto: int, moving: int) -> bool:
    """``moving`` may go onto ``onto``: one rank lower, the other colour (bit 4 of a card is its colour)."""
    return (onto & 15) == (moving & 15) + 1 and bool((onto ^ moving) & 16)


#: How a tableau builds (``Rules.build``): a card goes onto a card one rank higher of any suit, of its own suit,
#: or of the other colour; each a plain function ``fits(onto, moving)``.
BUILDS = {"any": any_suit_fits, "suit": same_suit_links, "alternate": alternate_colour_fits}
#: What moves as a unit (``Rules.group``): a run in one suit, a run in one colour, or one card.
GROUPS = ("suit", "colour", "card")


@dataclass(frozen=True)
class Rules:
    """What differs between variants.

    ``layout`` gives each column's starting height and ``face_up`` how many of its top cards start face up.
    ``group`` is ``"suit"`` (a movable group and a complete run descend in one suit), ``"colour"`` (both in one
    colour) or ``"card"`` (only the top card moves; a complete run still descends in one suit).
    ``build``: a card goes onto a card one rank higher of ``"any"`` suit, of its own ``"suit"`` or of the
    other colour (``"alternate"``).
    ``deal_order``: the column each card of the deck goes to, in turn (``None``: row by row, as in Klondike).
    ``start_score`` and ``run_bonus``: the score is ``start_score - moves + run_bonus * runs``.
    ``auto_send``: finished runs leave by themselves unless a game says otherwise (``Game(auto_remove=...)``).
    A design file of Cardz reads to one (:func:`spiderette.engine.cardz.from_cardz`).
    """

    name: str
    title: str
    decks: int
    layout: tuple[int, ...]
    face_up: int = 1
    deal_with_empty: bool = False
    group: str = "suit"
    suit_options: tuple[int, ...] = (4, 2, 1)
    deal_order: tuple[int, ...] | None = None
    start_score: int = 500
    run_bonus: int = 100
    auto_send: bool = True
    build: str = "any"
    #: ``links(below, above)``: does card ``above`` continue a movable group on card ``below``? One rank lower,
    #: same suit (same colour when ``group`` is ``"colour"``): the variant's one rule of groups and runs, a
    #: plain function (the engine's hot loops call it).
    links: Callable[[int, int], bool] = field(init=False, repr=False, compare=False)
    #: the same rule as a mask for the hot loops (``links(b, a) == ((b & link_mask) == (a & link_mask) + 1)``)
    link_mask: int = field(init=False, repr=False, compare=False)
    #: ``fits(onto, moving)``: may card ``moving`` (alone or under a group) go onto card ``onto``? The variant's
    #: rule of building (:data:`BUILDS`), a plain function.
    fits: Callable[[int, int], bool] = field(init=False, repr=False, compare=False)
    #: how many cards move together at most (``None``: a whole group; 1 when ``group`` is ``"card"``)
    unit: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("layout", "suit_options", "deal_order"):   # (a list given is taken as a tuple)
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        check_rules(self)
        if self.deal_order == row_by_row(self.layout):   # (one deal, one value: the same rules compare equal)
            object.__setattr__(self, "deal_order", None)
        colour = self.group == "colour"
        object.__setattr__(self, "links", same_colour_links if colour else same_suit_links)
        object.__setattr__(self, "link_mask", COLOUR_MASK if colour else SUIT_MASK)
        object.__setattr__(self, "fits", BUILDS[self.build])
        object.__setattr__(self, "unit", 1 if self.group == "card" else None)

    @property
    def kin(self) -> str:
        """What a complete run (and a group that links) shares: ``"suit"`` or ``"colour"``."""
        return "colour" if self.group == "colour" else "suit"

    @property
    def columns(self) -> int:
        return len(self.layout)

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @property
    def stock_size(self) -> int:
        return self.cards - sum(self.layout)

    @property
    def face_down_at_start(self) -> int:
        """How many cards a new deal lays face down: 21 in Spiderette, 44 in Spider.

        >>> RULES["spiderette"].face_down_at_start, RULES["spider"].face_down_at_start
        (21, 44)
        """
        return sum(h - self.face_up for h in self.layout)

    @property
    def runs(self) -> int:
        """How many king-to-ace runs win the game (the same for any number of suits)."""
        return self.cards // 13

    def to_cardz(self) -> str:
        """These rules as a Cardz design file (JSON text) that reads back to them
        (:func:`spiderette.engine.cardz.to_cardz`)."""
        from .cardz import to_cardz

        return to_cardz(self)

    def suits_refusal(self, suits: object) -> str:
        """Why ``suits`` is refused: ``"spiderette is played with 4, 2 or 1 suits, not 3"``."""
        options = [str(n) for n in self.suit_options]
        told = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"
        return f"{self.name} is played with {told} suits, not {quote(suits)}"

    def stock_sizes(self) -> tuple[int, ...]:
        """Every stock size a game can have, full first: 24, 17, 10, 3, 0 for spiderette."""
        sizes = list(range(self.stock_size, 0, -self.columns))
        return tuple(sizes) + (0,)

    def deal_sizes(self) -> tuple[int, ...]:
        """How many cards each deal puts out: 7, 7, 7, 3 for spiderette."""
        sizes = self.stock_sizes()
        return tuple(a - b for a, b in zip(sizes, sizes[1:]))


#: The bounds of :class:`Rules` (a design file has the same): columns (the notation's letters a to j), decks,
#: and the score's numbers.
MAX_COLUMNS, MAX_DECKS, MAX_SCORE = MOVE_COLUMNS, 2, 10**9 - 1
#: A variant's name: lower-case letters, digits and ``_``, a letter first, at most 60 (a design's name, slugged).
NAME = re.compile(r"[a-z][a-z0-9_]{0,59}")
TITLE_MAX = 60


def row_by_row(layout: tuple[int, ...]) -> tuple[int, ...]:
    """The column of each card of a deal made row by row, as in Klondike (``Rules.deal_order`` ``None``).

    >>> row_by_row((1, 2, 2))
    (0, 1, 2, 1, 2)
    """
    return tuple(c for row in range(max(layout, default=0)) for c, h in enumerate(layout) if row < h)


def check_rules(r: Rules) -> None:
    """Refuse rules no game can be played by: a ``ValueError`` naming the field and its bounds (a
    ``TypeError`` for a field of the wrong type). :class:`Rules` calls it when made, so nothing that fails
    here is ever registered or played.

    >>> Rules("mine", "Mine", 1, (1, 2, 3), face_up=0)
    Traceback (most recent call last):
    ...
    ValueError: face_up must be a whole number from 1 to 1 (the shortest column), not 0
    """
    def whole_in(value: object, field: str, lo: int, hi: int, why: str = "") -> int:
        if not is_whole(value):
            raise TypeError(f"{field} must be a whole number, not {quote(value)}")
        if not lo <= value <= hi:
            raise ValueError(f"{field} must be a whole number from {lo} to {hi}{why}, not {quote(value)}")
        return value

    if not isinstance(r.name, str) or not NAME.fullmatch(r.name):
        raise ValueError(f"name must be lower-case letters, digits and _ (a letter first, at most 60), not"
                         f" {quote(r.name)}")
    if not isinstance(r.title, str) or not 0 < len(r.title) <= TITLE_MAX or not r.title.isprintable() \
            or r.title != r.title.strip():
        raise ValueError(f"title must be 1 to {TITLE_MAX} printable characters, not {quote(r.title)}")
    whole_in(r.decks, "decks", 1, MAX_DECKS)
    layout = r.layout
    if not isinstance(layout, tuple) or not 1 <= len(layout) <= MAX_COLUMNS:
        raise ValueError(f"layout must be a tuple of 1 to {MAX_COLUMNS} column heights, not {quote(layout)}")
    for i, h in enumerate(layout):
        whole_in(h, f"layout[{i}]", 1, 52 * r.decks, " (every column starts with a card)")
    if sum(layout) > 52 * r.decks:
        raise ValueError(f"layout deals {plural(sum(layout), 'card')}: {plural(r.decks, 'deck')} hold"
                         f" {52 * r.decks}")
    whole_in(r.face_up, "face_up", 1, min(layout), " (the shortest column)")
    for flag in ("deal_with_empty", "auto_send"):
        if not isinstance(getattr(r, flag), bool):
            raise TypeError(f"{flag} must be True or False, not {quote(getattr(r, flag))}")
    if r.group not in GROUPS:
        raise ValueError(f"group must be one of {', '.join(GROUPS)}, not {quote(r.group)}")
    if r.build not in BUILDS:
        raise ValueError(f"build must be one of {', '.join(BUILDS)}, not {quote(r.build)}")
    suits = r.suit_options
    allowed = (4,) if r.group == "colour" else (4, 2) if r.build == "alternate" else (4, 2, 1)
    if (not isinstance(suits, tuple) or not suits or len(set(suits)) != len(suits)
            or any(type(n) is not int or n not in allowed for n in suits)):
        why = " (runs by colour: a deck of 4 suits)" if r.group == "colour" else \
            " (alternate colours: one suit has one colour)" if r.build == "alternate" else ""
        raise ValueError(f"suit_options must be a tuple of some of {', '.join(map(str, allowed))}, each once"
                         f"{why}, not {quote(suits)}")
    order = r.deal_order
    if order is not None:
        if not isinstance(order, tuple) or len(order) != sum(layout) \
                or any(not is_whole(c) or not 0 <= c < len(layout) for c in order) \
                or tuple(order.count(c) for c in range(len(layout))) != layout:
            raise ValueError(f"deal_order must be a tuple of the column (0 to {len(layout) - 1}) of each of the"
                             f" {plural(sum(layout), 'card')} dealt, as many for each column as its layout says, not"
                             f" {quote(order)}")
    whole_in(r.start_score, "start_score", 0, MAX_SCORE)
    whole_in(r.run_bonus, "run_bonus", 0, MAX_SCORE)


#: The variants that come with the package (a design read by :func:`~spiderette.engine.cardz.from_cardz` joins
#: :data:`RULES` beside them).
BUILT_IN = ("spiderette", "red_black_spiderette", "will_o_the_wisp", "spider")

RULES: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("spiderette", "Spiderette", 1, (1, 2, 3, 4, 5, 6, 7)),
        Rules("red_black_spiderette", "Red-Black Spiderette", 1, (1, 2, 3, 4, 5, 6, 7),
              deal_with_empty=True, group="colour", suit_options=(4,)),
        Rules("will_o_the_wisp", "Will o' the Wisp", 1, (3,) * 7),
        Rules("spider", "Spider", 2, (6, 6, 6, 6, 5, 5, 5, 5, 5, 5)),
    )
}
"""The rules of each variant, by its name (a :class:`Rules` each).

>>> RULES["spider"].title, RULES["spider"].suit_options
('Spider', (4, 2, 1))
"""

VARIANTS = tuple(RULES)
"""The built-in variants' names: ``('spiderette', 'red_black_spiderette', 'will_o_the_wisp', 'spider')``."""


def register(rules: Rules) -> Rules:
    """Make ``rules`` a variant known by its name (``Game(variant=rules.name)``, the table's variant menu,
    the statistics), as :func:`~spiderette.engine.cardz.from_cardz` does; returns the variant known by that
    name. The same rules under a name already known are that variant; other rules under it are a
    ``ValueError``: a name means one game."""
    if not isinstance(rules, Rules):
        raise TypeError(f"register() takes Rules, not {quote(rules)}")
    known = RULES.get(rules.name)
    if known is None:
        RULES[rules.name] = rules
        return rules
    if known != replace(rules, title=known.title):
        raise ValueError(f"a variant named {rules.name!r} is known with other rules"
                         f"{' (built in)' if rules.name in BUILT_IN else ''}: give the design another name")
    return known


def get_rules(variant: str | Rules) -> Rules:
    """The rules of a variant by name (or :class:`Rules` themselves, registered by :func:`register`); a
    ``ValueError`` names the known ones."""
    if isinstance(variant, Rules):
        return register(variant)
    try:
        return RULES[variant]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {quote(variant)}: choose one of {', '.join(RULES)}") from None
