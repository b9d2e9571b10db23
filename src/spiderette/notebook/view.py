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

    So that the front end holds no rule of its own, the view also says what a table after an intent knows,
    for the intents made after it: each column's ``blocks_deal`` and ``completes_in``
    (:func:`column_facts`), the ``deals`` the stock holds (:func:`deals`), and ``after`` each move or send
    it foresees (:func:`foresight`).
    """
    a_game(g, "view")
    with g.locked():
        tableau = []
        for i in range(g.columns):
            col, d = g.column(i), g.face_down(i)
            facts = column_facts(g, i)
            facts.pop("sendable", None)   # (the view's own sendable says it)
            tableau.append({"down": d, "up": [card_code(c) for c in col[d:]], **facts})
        targets: dict[str, list[int]] = {}
        unforeseen: dict[str, list[int]] = {}
        for m in g.legal_moves():
            if m.kind == "move":
                assert m.dst is not None   # (a move names both columns)
                targets.setdefault(f"{m.src}:{m.count}", []).append(m.dst)
                if g.auto_remove and finishes_a_run(g, m):
                    unforeseen.setdefault(f"{m.src}:{m.count}", []).append(m.dst)
        # (only what the player sees: a King-to-2 run of one suit, or colour, on top; never the stock)
        unforeseen_deal = [i for i in range(min(g.columns, g.stock_count)) if tableau[i].get("completes_in") == 0]
        clicks: dict[str, int] = {}
        for i in range(g.columns):
            for k in range(1, g.movable(i) + 1):
                targets.setdefault(f"{i}:{k}", [])
                if targets[f"{i}:{k}"]:
                    try:
                        to = click_move(g, i, k).dst
                        assert to is not None   # (a click's move goes to a column)
                        clicks[f"{i}:{k}"] = to
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
            "deals": deals(g),
            "after": foresight(g, targets, unforeseen),
        }


def column_facts(g: Game, i: int) -> dict:
    """What the front end may know of column ``i`` for the next intent, read from its face-up cards only.

    ``movable``; ``sendable`` (true only); ``blocks_deal`` (true only): the column is empty and the variant
    deals onto no empty column; ``completes_in`` (only where some may): the number of deals onto the column
    after which a dealt card may complete a King-to-Ace run that leaves (0: the next deal's card, on a
    King-to-2 run; 1: on a King-to-3 run, the card after the next one...). A fact not so is left out.
    """
    col = g.column(i)
    top = g.top_card(i)   # (None only when col is empty)
    j = (top & 15) - 2 if top is not None else -1
    facts = {"movable": g.movable(i), "sendable": i in g.sendable(),
             "blocks_deal": not col and not g.rules.deal_with_empty,
             "completes_in": j if g.auto_remove and j >= 0 and g.run_length(i) >= KING - 1 - j else None}
    return {k: x for k, x in facts.items() if x is not None and x is not False}   # (few bytes: only what is so)


#: The facts of a face-up card a move or a send turns over, whatever it is (one card: it moves alone, and
#: no run on top is long enough for a dealt card to complete).
TURNED = {"movable": 1}


def deals(g: Game) -> list[dict]:
    """The deals the stock holds, in order: the columns each deals onto (the first ``dealt``), and the
    stock and the deals left after it (counts only: no card of the stock)."""
    out, stock, left = [], g.stock_count, g.deals_left
    while stock and left:
        dealt = min(g.columns, stock)
        stock, left = stock - dealt, left - 1
        out.append({"dealt": dealt, "stock": stock, "deals_left": left})
    return out


def _after_move(g: Game, m: Move) -> dict:
    """What the columns a move or a send changes know after it, and the table's unforeseen targets then (a
    face-down card it turns over stays unseen: no fact of it, nor of a move from or onto it, is given)."""
    h = g.copy()
    h.apply(m)
    assert m.src is not None   # (a move or a send names its column)
    turned = h.face_down(m.src) < g.face_down(m.src)
    unforeseen: dict[str, list[int]] = {}
    if h.auto_remove:
        for x in h.legal_moves():
            if x.kind == "move" and not (turned and m.src in (x.src, x.dst)) and finishes_a_run(h, x):
                assert x.dst is not None   # (a move names both columns)
                unforeseen.setdefault(f"{x.src}:{x.count}", []).append(x.dst)
    out = {"src": TURNED if turned else column_facts(h, m.src)}
    if m.kind == "move":
        assert m.dst is not None
        out["dst"] = column_facts(h, m.dst)
    if unforeseen:
        out["unforeseen"] = unforeseen
    return out


def foresight(g: Game, targets: dict[str, list[int]], unforeseen: dict[str, list[int]]) -> dict:
    """``view(g)["after"]``: for each move or send whose outcome the view shows, what the table after it knows.

    Keyed ``"src:count:dst"`` (a move onto a target not ``unforeseen``) and ``"send:src"`` (a sendable
    column): the :func:`column_facts` of the columns it changes after it (``src``, and a move's ``dst``), and
    the ``unforeseen`` targets of the table then (as the view's own; left out when there are none).
    """
    out: dict[str, dict] = {}
    for key, dsts in targets.items():
        src, k = map(int, key.split(":"))
        for d in dsts:
            if d not in unforeseen.get(key, ()):
                out[f"{key}:{d}"] = _after_move(g, Move("move", src, d, k))
    for i in g.sendable():
        out[f"send:{i}"] = _after_move(g, Move("send", i))
    return out


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
        for m in g.legal_moves():   # (the engine's one move generator says where the group may go)
            k, d = m.count, m.dst
            if m.src != src or m.kind != "move" or (count is not None and k != count):
                continue
            assert k is not None and d is not None   # (a move: all three)
            top = g.top_card(d)
            if top is None and k == len(col):
                continue   # a whole column moved to an empty one changes nothing
            rank = (2 if top is None else 0 if top == col[-k] + 1 else 1, -k, d)
            if best is None or rank < best[0]:
                best = (rank, m)
        if best is None:
            k = count or g.movable(src)
            raise IllegalMoveError(Refusal("nowhere-to-go", src, (col[-k], col[-1]) if k > 1 else (col[-1],),
                                           count=k))
        return best[1]
