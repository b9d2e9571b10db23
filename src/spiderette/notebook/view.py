"""The card table as a player meets it: what the table shows (``view``) and where a click sends a group.

Shared by the widget and by scripts; it reads the game only through its public API.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> v = view(g)
>>> v["tableau"][0], v["stock"], v["can_deal"]
({'down': 0, 'up': ['4H'], 'movable': 1}, 24, True)
>>> click_move(g, 1)
Move.parse('bd1')
"""

from __future__ import annotations

from ..engine.cards import KING, card_code
from ..engine.errors import IllegalMoveError, is_whole, quote
from ..engine.game import Game, a_game
from ..engine.move import Move
from ..engine.predicates import finishes_a_run
from ..engine.refusals import Refusal
from .wording import ENDINGS


def view(g: Game) -> dict:
    """What a player may see: face-up cards, counts of hidden ones, score and status (JSON-ready).

    Face-down and stock cards are not in it, only their numbers. ``targets["src:count"]`` lists the
    columns where the top ``count`` cards of column ``src`` may go (an empty list: movable, nowhere to go);
    ``clicks["src:count"]`` is the column a click sends them to (:func:`click_move`; absent: nowhere), so
    the front end draws a click before Python answers without knowing the rules.

    What the front end cannot foresee from the view, it must not draw before Python answers:
    ``unforeseen["src:count"]`` lists the targets where the group completes a King-to-Ace run, which
    leaves for the foundations at once (and may uncover a face-down card); ``unforeseen_deal`` lists the
    columns where a dealt card may complete one (a King-to-2 run on top: whether the card is its ace is
    hidden, so the column is listed whatever the stock holds). Both are empty when runs are sent by hand.
    """
    a_game(g, "view")
    with g.locked():
        tableau = []
        for i in range(g.columns):
            col, d = g.column(i), g.face_down(i)
            tableau.append({"down": d, "up": [card_code(c) for c in col[d:]], "movable": g.movable(i)})
        targets: dict[str, list[int]] = {}
        unforeseen: dict[str, list[int]] = {}
        for m in g.legal_moves():
            if m.kind == "move":
                targets.setdefault(f"{m.src}:{m.count}", []).append(m.dst)
                if g.auto_remove and finishes_a_run(g, m):
                    unforeseen.setdefault(f"{m.src}:{m.count}", []).append(m.dst)
        # (only what the player sees: a King-to-2 run of one suit, or colour, on top; never the stock)
        unforeseen_deal = [i for i in range(min(g.columns, g.stock_count))
                           if g.auto_remove and g.run_length(i) >= KING - 1 and g.top_card(i) & 15 == 2]
        clicks: dict[str, int] = {}
        for i in range(g.columns):
            for k in range(1, g.movable(i) + 1):
                targets.setdefault(f"{i}:{k}", [])
                if targets[f"{i}:{k}"]:
                    try:
                        clicks[f"{i}:{k}"] = click_move(g, i, k).dst
                    except IllegalMoveError:   # (only a whole column, and only empty columns to go to)
                        pass
        deal_error = g.deal_error()
        return {
            "variant": g.variant, "suits": g.suits, "columns": g.columns,
            "tableau": tableau,
            "stock": g.stock_count, "deals_left": g.deals_left,
            "foundations": [card_code(r[0]) for r in g.foundations],
            "runs_total": g.runs_total, "run_length": KING,   # a complete run: king down to ace
            "score": g.score, "moves": g.move_count, "runs": g.runs_completed,
            "status": g.status, "ending": ENDINGS.get(g.status, ""),
            "can_deal": deal_error is None, "deal_error": deal_error,
            "can_undo": g.can_undo, "can_redo": g.can_redo,
            "sendable": g.sendable(),
            "targets": targets,
            "clicks": clicks,
            "unforeseen": unforeseen,
            "unforeseen_deal": unforeseen_deal,
        }


def click_move(g: Game, src: int, count: int | None = None) -> Move:
    """The move a click on column ``src`` makes (seed 002's order); the game is not changed.

    The group (``count`` cards, or with ``None`` any movable group, longest first) goes onto a card of
    its own suit first, then onto a card of another suit, then to an empty column; leftmost first.
    Raises ``IllegalMoveError`` saying why when it can go nowhere.
    """
    n = a_game(g, "click_move").columns
    if not is_whole(src) or not 0 <= src < n:
        raise IllegalMoveError(f"column {quote(src)} does not exist (columns 0-{n - 1})")
    with g.locked():
        col = g.column(src)
        if not col:
            raise IllegalMoveError(Refusal("empty-column", src, count=count))
        if count is not None:
            if not is_whole(count) or count < 1:
                raise IllegalMoveError(f"count must be a whole number from 1, not {quote(count)}")
            why = g.group_refusal(src, count)
            if why:
                raise IllegalMoveError(why)
        best = None
        fits = g.rules.fits   # (one rank higher; in suit or alternate colours where the variant builds so)
        for k in ([count] if count is not None else range(g.movable(src), 0, -1)):
            moving = col[-k]
            whole_column = k == len(col)  # a whole column moved to an empty one changes nothing
            for d in range(n):
                top = g.top_card(d)
                if d == src or (top is not None and not fits(top, moving)) or (
                        top is None and whole_column):
                    continue
                rank = (2 if top is None else 0 if top == moving + 1 else 1, -k, d)
                if best is None or rank < best[0]:
                    best = (rank, Move("move", src, d, k))
        if best is None:
            k = count or g.movable(src)
            raise IllegalMoveError(Refusal("nowhere-to-go", src, (col[-k], col[-1]) if k > 1 else (col[-1],),
                                           count=k))
        return best[1]
