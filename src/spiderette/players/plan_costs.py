"""The planner's costs: what a column of the visible table costs (lower is better), by its weights or the learned value.

One job: put a number on what a player sees. The weights below, in words; :class:`PlanCosts`, the cost of one
column (by the weights, or by the learned value of :mod:`spiderette.players.value`), cached by its contents;
:func:`turn_value`, the cost of a column just after a card turns over in it, averaged over the cards unseen
(:func:`unseen_cards`). The search that adds them up is :mod:`spiderette.players.plan_search`; the plan that
reads them, :mod:`spiderette.players.planner`.

>>> from spiderette import Game
>>> from spiderette.engine.cards import parse_card
>>> from spiderette.engine.core import Core, visible_column
>>> g = Game(seed=7)
>>> costs = PlanCosts(g, Core(g))   # (the weights: value="handmade")
>>> costs.column_cost(visible_column(0, ())) == -EMPTY_COLUMN   # an empty column: room to manoeuvre
True
>>> costs.column_cost(visible_column(2, (parse_card("9S"),))) == 2 * FACE_DOWN + DIG_EXTRA[2] + BURIED
True
"""

from __future__ import annotations

from ..engine.cards import KING, RANK_MASK, make_deck
from ..engine.core import Core, visible_column
from ..engine.game import Game
from .features import cards_unseen
from .value import LearnedValue, ValueModel

__all__ = ["PlanCosts", "turn_value", "unseen_cards", "ranks_of"]

# ---------------------------------------------------------------------- the weights, in words
# The value of a table is a cost: LOWER IS BETTER. Whole numbers, so that results never depend on rounding.

#: A card still face down in a column: the thing to get rid of (with DIG_EXTRA, per column: PlanCosts.column_cost).
FACE_DOWN = 24
#: Extra cost for the LAST face-down cards of a column (index = cards face down): a column with one or two
#: cards left face down is close to giving an empty column, so turning those over is worth more than
#: turning over the sixth card of a deep column. This is how the player "chooses which column to dig into".
DIG_EXTRA = (0, 8, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#: A face-up card lying over face-down cards: it must move before the card beneath can be turned over.
BURIED = 12
#: Two adjacent face-up cards out of rank order (the upper one is not one rank lower): a break to mend.
OUT_OF_ORDER = 16
#: Two adjacent face-up cards in rank order but not in one suit: they cannot move together. As costly as a
#: break in order: with four suits an off-suit build blocks as much (16 won more than 10 on deals 5001-5200).
OFF_SUIT = 16
#: An empty column: room to manoeuvre (a bonus, so it lowers the cost; 30 rather than 8, deals 5001-5200).
EMPTY_COLUMN = 30
#: A king at the bottom of a column with nothing face down: it never needs to move again (a bonus).
KING_HOME = 4
#: A finished king-to-ace run sent to the foundations (a bonus).
RUN_DONE = 120
#: The cost of each move in a line: among equal tables, the shorter line wins.
STEP = 1
#: A card turned face up: the bonus for seeing one more card (on top of one fewer face-down card).
TURN_BONUS = 8
#: While the planner wants to deal but an empty column forbids it: the cost of each empty column.
EMPTY_WHEN_DEALING = 200


# ---------------------------------------------------------------------- one column
class PlanCosts:
    """The cost of one column of the visible table for ``game``'s variant and stage, cached by its contents.

    A column is the search core's (:mod:`spiderette.engine.core`): bytes, the face-down count first, then a 0
    for each face-down card and the face-up cards. ``core`` gives the variant's links (which cards move
    together) and fits (which may be built on which); ``value`` is ``"handmade"`` (the weights above),
    ``"learned"`` or a :class:`~spiderette.players.value.ValueModel` (then
    :class:`~spiderette.players.value.LearnedValue` costs the columns by that model instead).
    """

    def __init__(self, game: Game, core: Core, value: str | ValueModel = "handmade") -> None:
        self.links = core.links  # links[below * 64 + above]: "above" continues a group on "below"
        self.fits = core.fits    # (None where any suit builds)
        self.cache: dict[bytes, int] = {}
        #: The bonus of a finished run; the learned value (:mod:`spiderette.players.value`), when chosen,
        #: costs the columns instead of the weights above.
        self.run_bonus = RUN_DONE
        self.model = None if value == "handmade" else value
        self.learned = LearnedValue(game, self.model if isinstance(self.model, ValueModel) else None) \
            if self.model is not None else None
        if self.learned is not None:
            self.run_bonus = -self.learned.run_cost
        self.after: LearnedValue | None = None   # (see after_a_deal)

    def after_a_deal(self, game: Game) -> LearnedValue:
        """The learned value one deal later (made once, kept with its cache)."""
        if self.after is None:
            self.after = LearnedValue(game, self.model if isinstance(self.model, ValueModel) else None,
                                      deals_left=game.deals_left - 1)
        return self.after

    def forget(self) -> None:
        """Empty the caches (they are rebuilt as the search asks)."""
        self.cache.clear()
        for value in (self.learned, self.after):
            if value is not None:
                value.cache.clear()

    def column_cost(self, col: bytes) -> int:
        """The cost of one column (see the weights above); cached by its contents."""
        got = self.cache.get(col)
        if got is not None:
            return got
        down = col[0]
        first = down + 1   # the index of the first face-up card
        if self.learned is not None:
            cost = self.cache[col] = self.learned.column_cost((down, col[first:]))
            return cost
        cost = FACE_DOWN * down + DIG_EXTRA[min(down, len(DIG_EXTRA) - 1)] * (down > 0)
        if len(col) == first:
            cost = -EMPTY_COLUMN if not down else cost
        else:
            if down:
                cost += BURIED * (len(col) - first)
            elif col[first] & RANK_MASK == KING:
                cost -= KING_HOME
            links, fits = self.links, self.fits
            for i in range(first + 1, len(col)):
                below, above = col[i - 1], col[i]
                if below & RANK_MASK != (above & RANK_MASK) + 1:
                    cost += OUT_OF_ORDER
                elif not links[below * 64 + above]:
                    # (a pair that could not have been built there is out of order)
                    cost += OUT_OF_ORDER if fits is not None and not fits[below * 64 + above] else OFF_SUIT
        self.cache[col] = cost
        return cost


# ---------------------------------------------------------------------- a card about to turn over
def unseen_cards(game: Game, table: tuple) -> list[int]:
    """The cards not seen anywhere (face down or in the stock), as a player counts them: deck minus visible.
    ``table``: the planner's table of ``game`` (columns as above).

    >>> from spiderette import Game
    >>> from spiderette.engine.core import columns_of
    >>> g = Game(seed=7)
    >>> table = columns_of(g, visible=True)
    >>> len(unseen_cards(g, table)) == g.stock_count + sum(col[0] for col in table)   # the stock and the face down
    True
    """
    seen = [c for col in table for c in col[col[0] + 1:]] + [c for run in game.foundations for c in run]
    return cards_unseen(make_deck(game.rules.decks, game.suits), seen)


def ranks_of(cards: list[int]) -> dict[int, int]:
    """How many of ``cards`` there are of each rank.

    >>> from spiderette.engine.cards import parse_card
    >>> ranks_of([parse_card("9S"), parse_card("9H"), parse_card("KD")])
    {9: 2, 13: 1}
    """
    ranks: dict[int, int] = {}
    for c in cards:
        ranks[c & RANK_MASK] = ranks.get(c & RANK_MASK, 0) + 1
    return ranks


def turn_value(costs: PlanCosts, table: tuple, col: int, down: int, unseen: dict[int, int], total: int) -> int:
    """The cost of column ``col`` of ``table`` just after a card turned face up in it (``down`` still face
    down), with ``total`` cards unseen, ``unseen[r]`` of them of rank ``r`` (:func:`ranks_of`).

    Averaged over the cards that could turn up: a card that has somewhere to go on the table (a face-up top
    card one rank higher, or an empty column) counts as one more card free to move, which makes the column
    cheaper, as if it turned over again soon.
    """
    base = costs.column_cost(visible_column(down, (0,)))  # one face-up card of no rank: no pairs to count
    if not total:
        return base - TURN_BONUS
    tops = set()
    empty = False
    for i, c in enumerate(table):
        if i == col:
            continue
        if len(c) - 1 > c[0]:
            tops.add(c[-1] & RANK_MASK)
        elif len(c) == 1:
            empty = True
    free = total if empty and down > 0 else sum(n for r, n in unseen.items() if r + 1 in tops)
    # A card that can move on: its column is as if half a card fewer lay face down.
    return base - TURN_BONUS - (free * (FACE_DOWN // 2 + BURIED * (down > 0))) // total
