"""Hints that explain themselves: a simple ranking of the legal moves, best first.

The ranking, in plain words (the order the widget's Hint button follows):

1. **send a finished run** (when runs are sent by hand);
2. **turn over a card**: the move uncovers a face-down card;
3. **build in suit**: the group lands on a card of its own suit, without breaking a suited run;
4. **empty a column**: the move leaves its column empty;
5. **build**: any other move that changes something (a move that takes a group off one card only to put
   it on another card of the same kind is left out);
6. **deal** when nothing above is left.

>>> from spiderette import Game
>>> h = best_hint(Game(seed=7))
>>> h.move.kind in ("move", "deal")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import card_code
from .game import Game
from .move import LETTERS, Move


@dataclass(frozen=True)
class Hint:
    """A suggested move and why: ``rank`` is the class above (1 best)."""

    move: Move
    reason: str
    rank: int

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}"


def _judge(g: Game, m: Move) -> tuple[int, str] | None:
    if m.kind == "send":
        return 1, f"sends the finished run in column {LETTERS[m.src]} to the foundations"
    if m.kind == "deal":
        return 6, "no useful move is left: deal a new row"
    cols, down = g._cols, g._down
    col, dst = cols[m.src], cols[m.dst]
    k = m.count
    below = len(col) - k          # cards left in the source column
    moving = col[-k]
    a, b = LETTERS[m.src], LETTERS[m.dst]
    sits_on_build = below > down[m.src] and (col[below - 1] & 15) == (moving & 15) + 1
    in_suit_now = below > down[m.src] and g._links(col[below - 1], moving)
    what = card_code(moving) + (f" and the {k - 1} card{'s' if k > 2 else ''} on it" if k > 1 else "")
    if not dst:
        if below == 0:
            return None  # a whole column to another empty column changes nothing
        if below == down[m.src]:
            return 2, f"moving {what} to the empty column {b} turns over a card in column {a}"
        if sits_on_build or k < g._run[m.src]:
            return None  # spends an empty column to split a build
        return 5, f"moves {what} from column {a} to the empty column {b}"
    onto = dst[-1]
    if below and below == down[m.src]:
        return 2, f"moving {what} onto {card_code(onto)} turns over a card in column {a}"
    suited = g._links(onto, moving)
    if suited and not in_suit_now:
        return 3, f"builds {what} on {card_code(onto)} in {'colour' if g._colour else 'suit'}"
    if below == 0:
        return 4, f"moving {what} onto {card_code(onto)} empties column {a}"
    if sits_on_build and not (suited and not in_suit_now):
        return None  # from one card of the right rank to another: nothing gained
    return 5, f"puts {what} on {card_code(onto)} (column {b})"


def ranked_hints(g: Game) -> list[Hint]:
    """Every useful legal move with its reason, best first.

    Ties go to a move that builds in suit, then to the longer group, then to the leftmost columns.
    """
    out = []
    for m in g.legal_moves():
        judged = _judge(g, m)
        if judged is not None:
            out.append(Hint(m, judged[1], judged[0]))

    def in_suit(m: Move) -> bool:
        if m.kind != "move" or not g._cols[m.dst]:
            return False
        return g._links(g._cols[m.dst][-1], g._cols[m.src][-m.count])

    out.sort(key=lambda h: (h.rank, not in_suit(h.move), -(h.move.count or 0)))
    return out


def best_hint(g: Game) -> Hint | None:
    """The best move by the ranking above, or ``None`` when nothing useful is left."""
    hints = ranked_hints(g)
    return hints[0] if hints else None
