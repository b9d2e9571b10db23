"""Hints that explain themselves: a simple ranking of the legal moves, best first.

The ranking, in plain words (the order the widget's Hint button follows):

1. **finish a run**: the group completes King to Ace on its new column; or **send a finished run** (when runs
   are sent by hand);
2. **turn over a card**: the move uncovers a face-down card;
3. **build in suit**: the group lands on a card of its own suit, without breaking a suited run;
4. **empty a column**: the move leaves its column empty;
5. **build**: any other move that changes something (a move that takes a group off one card only to put
   it on another card of the same kind is left out);
6. **deal** when nothing above is left; or, when an empty column stops the deal, **fill it**, with a group
   led by a high card first;
7. **rearrange** (listed last, for a player who plans ahead): **re-park** a group from one card of the right
   rank to another, which frees the card it lay on; **split** a group into an empty column.

Greedy play (:func:`greedy_move`) follows classes 1 to 6 only: a rearranging move pays off only as part of
a plan, which is the planner's job (:mod:`spiderette.players.planner`).

>>> from spiderette import Game
>>> h = best_hint(Game(seed=7))
>>> h.move.kind in ("move", "deal")
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.cards import card_code
from ..engine.game import Game
from ..engine.move import LETTERS, Move
from ..engine.predicates import (
    builds_in_suit,
    empties_a_column,
    fills_an_empty_column,
    finishes_a_run,
    left_below,
    lies_in_sequence,
    splits_a_group,
    turns_over_a_card,
)

#: The class of the rearranging moves, listed after the deal.
REARRANGE = 7


@dataclass(frozen=True)
class Hint:
    """A suggested move and why.

    ``rank`` is the class of the ranking above (1 best; 0 for a hint from a search). A hint from the planner
    or a search also carries ``line`` (the plan among the visible cards that starts with ``move``), ``value``
    (the planner's value of the plan, lower is better; the share of sampled deals won for the search) and
    ``alternatives``: the other first moves considered, each a ``Hint``, best first. ``move`` is ``None``
    only for a verdict with no move to suggest (``hint(g, method="solver")`` on a lost position).
    """

    move: Move | None
    reason: str
    rank: int
    line: tuple[Move, ...] = ()
    value: float | None = None
    alternatives: tuple[Hint, ...] = ()

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}" if self.move is not None else self.reason


def _judge(g: Game, m: Move, name: Callable[[int], str] = card_code) -> tuple[int, str] | None:
    """The class of ``m`` in the ranking and its reason, in the words of the named predicates
    (:mod:`spiderette.engine.predicates`); ``None`` for a move that changes nothing."""
    if m.kind == "send":
        return 1, f"sends the finished run in column {LETTERS[m.src]} to the foundations"
    if m.kind == "deal":
        return 6, NOTHING_LEFT
    col, k = g.column(m.src), m.count
    below = left_below(g, m)
    onto = g.top_card(m.dst)
    a, b = LETTERS[m.src], LETTERS[m.dst]
    what = name(col[-k]) + _on_it(k)
    if fills_an_empty_column(g, m):
        if below == 0:
            return None  # a whole column to another empty column changes nothing
        if turns_over_a_card(g, m):
            return 2, f"moving {what} to the empty column {b} turns over a card in column {a}"
        if splits_a_group(g, m):
            return REARRANGE, f"splits the group in column {a}: {what} to the empty column {b}"
        if lies_in_sequence(g, m):
            return REARRANGE, f"moves {what} to the empty column {b}, freeing {name(col[below - 1])}"
        return 5, f"moves {what} from column {a} to the empty column {b}"
    if turns_over_a_card(g, m):
        return 2, f"moving {what} onto {name(onto)} turns over a card in column {a}"
    if finishes_a_run(g, m):
        return 1, f"moving {what} onto {name(onto)} completes a run"  # (two decks: from one same-suit card)
    if builds_in_suit(g, m):
        return 3, f"builds {what} on {name(onto)} in {g.rules.group}"
    if empties_a_column(g, m):
        return 4, f"moving {what} onto {name(onto)} empties column {a}"
    if lies_in_sequence(g, m):
        return REARRANGE, f"re-parks {what} onto {name(onto)}, freeing {name(col[below - 1])}"
    return 5, f"puts {what} on {name(onto)} (column {b})"


def _on_it(k: int) -> str:
    """The cards on a group's first card, in words: ``""``, ``" and the card on it"``, ``" and the 3 cards on
    it"``."""
    return "" if k < 2 else " and the card on it" if k == 2 else f" and the {k - 1} cards on it"


def _builds_in_suit(g: Game, m: Move) -> bool:
    """The group lands on a card it links with (for ties: whether or not it breaks a build where it lies)."""
    if m.kind != "move":
        return False
    onto = g.top_card(m.dst)
    return onto is not None and g.rules.links(onto, g.column(m.src)[-m.count])


#: The deal's reason when nothing is listed above it, and when moves are.
NOTHING_LEFT = "no useful move is left: deal a new row"
AFTER_ABOVE = "deals a new row (the moves listed above it come first)"


def ranked_hints(g: Game, name: Callable[[int], str] = card_code) -> list[Hint]:
    """Every useful legal move with its reason, best first (the rearranging moves last).

    Ties go to a move that builds in suit, then to the longer group, then to the leftmost columns. The
    reasons write cards with ``name`` (``card_code``: ``"TH"``; the widget passes
    :func:`spiderette.notebook.wording.card_text`: ``"10♥"``).
    """
    out, later = [], []
    with g.locked():
        for m in g.legal_moves():
            judged = _judge(g, m, name)
            if judged is not None:
                row = (judged[0], not _builds_in_suit(g, m), -(m.count or 0), Hint(m, judged[1], judged[0]))
                (later if judged[0] == REARRANGE else out).append(row)
        if not out and g.stock_count and g.deal_error() is not None:
            out = _fills(g, name)
            filling = {t[3].move for t in out}
            later = [t for t in later if t[3].move not in filling]
    out.sort(key=lambda t: t[:3])
    later.sort(key=lambda t: t[:3])
    hints = [t[3] for t in out + later]
    if len(hints) > 1 and hints[0].move.kind != "deal":   # the deal is not the first: say so
        hints = [Hint(h.move, AFTER_ABOVE, h.rank) if h.move.kind == "deal" else h for h in hints]
    return hints


def useful_hints(g: Game, name: Callable[[int], str] = card_code) -> list[Hint]:
    """:func:`ranked_hints` without the rearranging moves: what greedy play chooses from."""
    return [h for h in ranked_hints(g, name) if h.rank < REARRANGE]


def _fills(g: Game, name: Callable[[int], str] = card_code) -> list[tuple]:
    """When nothing else is useful and an empty column stops the deal: the moves that fill it, a group led by
    a high card first (nothing can go under a king)."""
    out = []
    for m in g.legal_moves():
        if m.kind == "move" and g.top_card(m.dst) is None and m.count < len(g.column(m.src)):
            lead = g.column(m.src)[-m.count]
            what = name(lead) + _on_it(m.count)
            reason = f"moving {what} to the empty column {LETTERS[m.dst]} lets the stock be dealt"
            out.append((6, -(lead & 15), -m.count, Hint(m, reason, 6)))
    return out


def best_hint(g: Game, name: Callable[[int], str] = card_code) -> Hint | None:
    """The best move by the ranking above, or ``None`` when nothing useful is left (cards written by ``name``)."""
    hints = useful_hints(g, name)
    return hints[0] if hints else None


def greedy_move(g: Game, seen: set | None = None) -> Move | None:
    """The greedy policy: the best-ranked move that does not lead back to a table in ``seen``.

    With ``seen`` (a set of :meth:`Game.state_key` values, which this function fills in) a game played
    move after move never goes round in a circle; ``None`` when every useful move does.

    >>> from spiderette import Game
    >>> g, seen = Game(seed=7), set()
    >>> while g.status == "playing" and (m := greedy_move(g, seen)) is not None:
    ...     g.apply(m)
    >>> g.move_count > 10
    True
    """
    hints = useful_hints(g)
    if seen is None or not hints:
        return hints[0].move if hints else None
    seen.add(g.state_key())
    probe = g.copy()  # try each move on a copy: the game's own redo list stays as it is
    for h in hints:
        probe.apply(h.move)
        key = probe.state_key()
        probe.undo()
        if key not in seen:
            return h.move
    return None
