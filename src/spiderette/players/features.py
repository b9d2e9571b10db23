"""What a player sees of a table, as numbers with names: the features of the learned value.

Every feature is read from the visible table only (face-down counts, face-up cards, the stock's size, the
finished runs), so a value built on them is honest by construction. Most are sums over the columns (a
column's own features, :func:`column_features`), so that a linear value is a sum of column costs the
planner can cache; the rest describe the stage of the game (deals left, runs finished).

>>> from spiderette import Game
>>> f = table_features(Game(seed=7))
>>> f["face_down"], f["deals_left"], f["empty_columns"]
(21, 4, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from ..engine.cards import KING, RANK_MASK, make_deck
from ..engine.game import Game
from ..engine.predicates import visible_key

#: The features of one column, in order (each a count, for the column ``(down, up)``).
COLUMN_FEATURES = (
    "face_down",          # cards face down in the column
    "face_down_squared",  # the same, squared: a deep column is worse than two shallow ones
    "last_face_down",     # 1 when one card is left face down (the next turn-over empties the column of them)
    "two_face_down",      # 1 when two are left
    "buried",             # face-up cards lying over face-down ones (each must move before the next turn-over)
    "out_of_order",       # adjacent face-up cards out of rank order (a break to mend)
    "off_suit",           # adjacent face-up cards in rank order but not a group (they cannot move together)
    "in_suit",            # adjacent face-up cards that move together
    "empty_columns",      # 1 for an empty column: room to manoeuvre
    "clear_columns",      # 1 for a column with no face-down card and cards not headed by a king
    "kings_home",         # 1 for a king at the base of a column with nothing face down
    "top_group",          # the cards of the movable group at the top
)
#: The features of the stage of the game.
STAGE_FEATURES = ("deals_left", "runs_done")
#: Column features that weigh differently as the deals go: each has a second feature, times the deals left.
STAGED = ("face_down", "buried", "empty_columns", "out_of_order", "off_suit")
#: The features of the cards still unseen (face down or in the stock: a player knows which cards they are, not
#: where): what the table's cards may still meet (:func:`unseen_features`).
UNSEEN_FEATURES = (
    "next_unseen",     # top cards whose own next card (one rank lower, that would join their group) is unseen
    "home_unseen",     # columns with cards face down whose top group has no card to go onto but unseen ones
    "turn_has_home",   # the chance that a card turned over now can move at once (onto a top card, or a space)
    "deal_joins",      # the cards a deal is expected to lay where they join the top card's group
)
#: The features of a table without the cards unseen, in the order of :func:`feature_vector`.
TABLE_FEATURES = (*COLUMN_FEATURES, *STAGE_FEATURES, *(f"{name} x deals_left" for name in STAGED))
#: Every feature: the table's (:func:`feature_vector`), then the cards unseen (:func:`unseen_features`).
FEATURES = (*TABLE_FEATURES, *UNSEEN_FEATURES)


def column_features(down: int, up: Sequence[int], links: Callable[[int, int], bool],
                    fits: Callable[[int, int], bool] | None = None, unit: int | None = None) -> tuple[int, ...]:
    """The :data:`COLUMN_FEATURES` of one column: ``down`` cards face down under the face-up cards ``up``
    (bottom first); ``links(below, above)`` says whether ``above`` continues a group on ``below``; ``fits``
    (the variant's :attr:`~spiderette.engine.variants.Rules.fits`; ``None``: any suit builds) whether it could
    have been built there (a pair that could not is a break), ``unit`` how many cards move together at most.

    >>> from spiderette.engine.cards import parse_card
    >>> from spiderette.engine.variants import RULES
    >>> links = RULES["spiderette"].links
    >>> column_features(2, [parse_card("9H"), parse_card("8H"), parse_card("7S")], links)
    (2, 4, 0, 1, 3, 0, 1, 1, 0, 0, 0, 1)
    """
    n = len(up)
    breaks = off = linked = 0
    for i in range(1, n):
        below, above = up[i - 1], up[i]
        if below & RANK_MASK != (above & RANK_MASK) + 1:
            breaks += 1
        elif links(below, above):
            linked += 1
        elif fits is not None and not fits(below, above):
            breaks += 1
        else:
            off += 1
    group = 0
    if n:
        group = 1
        while group < n and links(up[n - group - 1], up[n - group]):
            group += 1
        if unit is not None and group > unit:
            group = unit
    empty = int(not down and not n)
    king = int(not down and n > 0 and up[0] & RANK_MASK == KING)
    clear = int(not down and n > 0 and not king)
    return (down, down * down, int(down == 1), int(down == 2), n if down else 0, breaks, off, linked, empty,
            clear, king, group)


def feature_vector(columns: Sequence[tuple[int, Sequence[int]]], deals_left: int, runs_done: int,
                   links: Callable[[int, int], bool], fits: Callable[[int, int], bool] | None = None,
                   unit: int | None = None) -> list[int]:
    """The :data:`FEATURES` of a table given as ``(down, up)`` per column, in order (``fits`` and ``unit`` as
    for :func:`column_features`): the column features summed, the stage's, then the staged ones times the
    deals left.

    >>> from spiderette.engine.variants import RULES
    >>> v = feature_vector([(3, [5]), (0, [])], 2, 0, RULES["spiderette"].links)
    >>> dict(zip(FEATURES, v))["face_down x deals_left"], dict(zip(FEATURES, v))["empty_columns"]
    (6, 1)
    """
    total = [0] * len(COLUMN_FEATURES)
    for down, up in columns:
        for i, x in enumerate(column_features(down, up, links, fits, unit)):
            total[i] += x
    staged = [total[COLUMN_FEATURES.index(name)] * deals_left for name in STAGED]
    return [*total, deals_left, runs_done, *staged]


def cards_unseen(deck: Iterable[int], seen: Iterable[int]) -> list[int]:
    """The cards of ``deck`` not among ``seen`` (each copy once), in order: what a player counts as unseen.

    >>> from spiderette.engine.cards import parse_card as c
    >>> cards_unseen([c("AS"), c("2S"), c("AS")], [c("AS")]) == [c("AS"), c("2S")]
    True
    """
    left = Counter(deck)
    left.subtract(seen)
    return sorted(c for c, n in left.items() for _ in range(n))


def unseen_features(columns: Sequence[tuple[int, Sequence[int]]], unseen: Sequence[int], stock: int,
                    links: Callable[[int, int], bool], fits: Callable[[int, int], bool]) -> list[float]:
    """The :data:`UNSEEN_FEATURES` of a table given as ``(down, up)`` per column, with the cards ``unseen`` (face
    down or in the stock: a player counts them as the deck less every card seen) and ``stock`` cards in the
    stock; ``links(below, above)``: ``above`` joins a group on ``below``; ``fits(onto, moving)``: ``moving``
    may be built on ``onto``. A card turned over or dealt is any of the unseen cards, each as likely.

    >>> from spiderette.engine.cards import parse_card as c
    >>> from spiderette.engine.variants import RULES
    >>> r = RULES["spiderette"]
    >>> cols = [(2, [c("9H")]), (0, [c("KS"), c("QS")]), (1, [c("5D")])]
    >>> unseen_features(cols, [c("8H"), c("JD"), c("6C"), c("4D")], 2, r.links, r.fits)
    [2, 2, 0.75, 0.25]
    """
    on_table = {x for _, up in columns for x in up}
    waiting = set(unseen)
    tops = [up[-1] for _, up in columns if up]
    spaces = any(not down and not up for down, up in columns)
    nexts = homeless = 0
    for down, up in columns:
        if not up:
            continue
        top = up[-1]
        if top & RANK_MASK > 1:
            successors = [x for x in waiting if x & RANK_MASK == (top & RANK_MASK) - 1 and links(top, x)]
            if successors and not any(x & RANK_MASK == (top & RANK_MASK) - 1 and links(top, x) for x in on_table):
                nexts += 1
        if down:
            base = len(up) - 1
            while base > 0 and links(up[base - 1], up[base]):
                base -= 1
            b = up[base]
            if b & RANK_MASK != KING and not any(x & RANK_MASK == (b & RANK_MASK) + 1 and fits(x, b)
                                                  for x in on_table if x not in up):
                homeless += 1
    n = len(unseen)
    if not n:
        return [nexts, homeless, 0.0, 0.0]
    moves = sum(1 for x in unseen if spaces or any(t & RANK_MASK == (x & RANK_MASK) + 1 and fits(t, x) for t in tops))
    dealt = [up[-1] for _, up in columns[: min(stock, len(columns))] if up]
    joins = sum(1 for t in dealt for x in unseen if t & RANK_MASK == (x & RANK_MASK) + 1 and links(t, x))
    return [nexts, homeless, moves / n, joins / n]


def table_features(game: Game) -> dict[str, float]:
    """The :data:`FEATURES` of the table a player sees in ``game``, by name."""
    columns, _ = visible_key(game)
    r = game.rules
    vec = feature_vector(columns, game.deals_left, game.runs_completed, r.links,
                         None if r.build == "any" else r.fits, r.unit)
    seen = [x for _, up in columns for x in up] + [x for run in game.foundations for x in run]
    left = cards_unseen(make_deck(r.decks, game.suits), seen)
    return dict(zip(FEATURES, [*vec, *unseen_features(columns, left, game.stock_count, r.links, r.fits)]))
