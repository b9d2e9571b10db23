"""The table's words: cards as players write them (``10♥``), and what a move, an undo, a hint or a refusal did.

The engine writes cards in code (``TH``) and moves in notation (``bd1``), which scripts keep
(``IllegalMoveError``, ``Hint.reason``). The widget speaks cards: everything here is built from the game and
the move (structured data), never by rewriting the engine's text. Only cards face up on the table are named.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> move_text(g, Move.parse("bd1"))
'Moved 6♥ onto 7♣'
>>> g.apply("bd1"); undone = g.undo()
>>> undo_text(g, undone)
'Took back 6♥ from 7♣ (back to column b)'
"""

from __future__ import annotations

import re

from ..engine.cards import RANKS, SUIT_SYMBOLS, card_code, card_text, code_text, rank_of  # noqa: F401 (re-exported)
from ..engine.errors import IllegalMoveError
from ..engine.game import Game
from ..engine.move import LETTERS, Move
from ..players.ranking import Hint, ranked_hints

#: Between the first and the last card of a group: an en dash (``9♦–7♦``).
DASH = "\u2013"


def group_text(g: Game, src: int, count: int) -> str:
    """The top ``count`` cards of column ``src``: ``"9♦"``, or the first and the last: ``"9♦–7♦"``."""
    col = g.column(src)
    return card_text(col[-count]) + (f"{DASH}{card_text(col[-1])}" if count > 1 else "")


def describe(g: Game, m: Move) -> str:
    """The cards ``m`` moves in ``g`` (before it is played), in words: ``"9♦ onto 10♥"``.

    Only cards face up in ``g`` are named (a deal names none).

    >>> g = Game(seed=7)
    >>> describe(g, Move.parse("bd1")), describe(g, Move.parse("d"))
    ('6♥ onto 7♣', 'a row from the stock')
    """
    if m.kind == "deal":
        return "a row from the stock"
    if m.kind == "send":
        return f"{group_text(g, m.src, 13)} to the foundations"
    onto = g.top_card(m.dst)
    group = group_text(g, m.src, m.count)
    return f"{group} onto {card_text(onto)}" if onto is not None else f"{group} to the empty column {LETTERS[m.dst]}"


def move_text(g: Game, m: Move) -> str:
    """What the table says about ``m``, said before it is played in ``g`` (so its cards are in place).

    >>> g = Game(seed=7)
    >>> move_text(g, Move.parse("d"))
    'Dealt a row'
    """
    if m.kind == "deal":
        return "Dealt a row"
    if m.kind == "send":
        return f"Sent {describe(g, m)}"
    return f"Moved {describe(g, m)}"


def redo_text(g: Game, m: Move) -> str:
    """What the table says when ``m`` is played again (said before, in ``g``): ``"Moved 6♥ onto 7♣ again"``.

    ``m`` is the move :meth:`Game.redo` plays next (``g.redo_list[0]``).
    """
    return f"{move_text(g, m)} again"


def undo_text(g: Game, m: Move) -> str:
    """What the table says when ``m`` was taken back; ``g`` is the game after the undo."""
    if m.kind == "deal":
        return "Took back a deal"
    back = f"back to column {LETTERS[m.src]}"
    if m.kind == "send":
        return f"Took back {group_text(g, m.src, 13)} from the foundations ({back})"
    group = group_text(g, m.src, m.count)
    onto = g.top_card(m.dst)
    where = card_text(onto) if onto is not None else f"column {LETTERS[m.dst]}"
    return f"Took back {group} from {where} ({back})"


def outcome(g: Game, words: str, m: Move | None = None, runs_before: int | None = None) -> str:
    """``words`` about a change just made in ``g``, with what followed: the deals left after a deal, runs
    completed, and a won, lost or dead-end game.

    >>> g = Game(seed=7); g.deal()
    Move.parse('d')
    >>> outcome(g, "Dealt a row", Move.parse("d"))
    'Dealt a row (3 deals left)'
    """
    if m is not None and m.kind == "deal":
        n = g.deals_left
        words += f" ({n} deal{'s' if n != 1 else ''} left)"
    if runs_before is not None and g.runs_completed > runs_before:
        done = g.runs_completed - runs_before
        words += f"; {done} run{'s' if done > 1 else ''} completed"
    status = g.status
    if status == "won":
        return f"{words}. You won! Score {g.score}."
    if status == "lost":
        return f"{words}. No moves left: the game is lost (undo to try another way)."
    if status == "dead_end":
        return f"{words}. Dead end: no deal can ever be made again; undo to go back."
    return words


def hint_text(g: Game, h: Hint) -> str:
    """The reason of ``h`` (a hint for ``g``, ranked or from the honest search) with the cards in words.

    The hint ranking writes its reasons with the card names given to it, so the reason of ``h.move`` is
    written again with :func:`card_text` and put in place of the one in code.

    >>> from spiderette.players.ranking import best_hint
    >>> hint_text(Game(seed=7), best_hint(Game(seed=7)))
    'moving 6♥ onto 7♣ turns over a card in column b'
    """
    coded = {x.move: x.reason for x in ranked_hints(g)}
    worded = {x.move: x.reason for x in ranked_hints(g, card_text)}
    reason = h.reason
    if h.move in coded and coded[h.move] in reason:
        reason = reason.replace(coded[h.move], worded[h.move])
    return reason


def hint_view(g: Game, h: Hint) -> dict:
    """``view["hint"]`` for ``h``: the move (``text`` in notation, for scripts) and its reason in card words."""
    return {**h.move.to_dict(), "text": str(h.move), "reason": hint_text(g, h)}


#: A card in words inside a message (``10♥``, ``Q♠``): what :func:`hidden_named` looks for.
CARD_WORD = re.compile(r"(?<![0-9])(?:10|[2-9AJQK])[\u2660\u2665\u2666\u2663]")


def hidden_named(g: Game, text: str) -> list[str]:
    """The cards named in ``text`` (in words) that no player of ``g`` can see: face down, in the stock.

    A card counts as seen when one like it lies face up or on the foundations (two decks repeat cards).

    >>> g = Game(seed=7)
    >>> hidden_named(g, "Moved 6♥ onto 7♣"), hidden_named(g, "5♠ cannot go on 4♥")
    ([], ['5♠'])
    """
    seen = {card_text(c) for i in range(g.columns) for c in g.column(i)[g.face_down(i):]}
    seen.update(card_text(c) for run in g.foundations for c in run)
    return [w for w in CARD_WORD.findall(text) if w not in seen]


def sequence_refusal(table: Game, at: Game, e: IllegalMoveError) -> str:
    """Why move ``e.index`` of a sequence was refused, worded in ``at`` (the table after the moves before
    it) but naming only cards a player sees on ``table``: a card one of those moves would turn over is
    not named.

    >>> g = Game(seed=7)
    >>> at = g.copy(); _ = at.apply("bd")
    >>> try:
    ...     at.apply("ba")
    ... except IllegalMoveError as e:
    ...     print(sequence_refusal(g, at, IllegalMoveError(e.reason, e.move, index=2)))
    ba involves a card that an earlier move of the sequence would turn over, and it does not fit there
    """
    words = refusal(at, e)
    if not hidden_named(table, words):
        return words
    return (f"{e.move} involves a card that an earlier move of the sequence would turn over, and it does not"
            " fit there")


def _count(g: Game, src: int, dst: int) -> int:
    """The count a move without one (``"ab"``) means, as the engine reads it (1 when none fits)."""
    movable, top, onto = g.movable(src), g.top_card(src), g.top_card(dst)
    if not movable or top is None:
        return 1
    if onto is None:
        return movable
    k = rank_of(onto) - rank_of(top)
    return k if 0 < k <= len(g.column(src)) - g.face_down(src) else 1


def _cards(n: int) -> str:
    return "the top card" if n == 1 else f"the top {n} cards"


def refusal(g: Game, e: IllegalMoveError, click: tuple[int, int | None] | None = None) -> str:
    """Why the table refused a move, with the cards in words; ``g`` is the game the move was refused in.

    ``e`` is the engine's refusal (its ``move`` and ``reason``); ``click`` is ``(src, count)`` for a click
    that found no place (``e.move`` is then ``None``). Refusals that name no card keep the engine's words.

    >>> g = Game(seed=7)
    >>> try:
    ...     g.apply("ec1")
    ... except IllegalMoveError as e:
    ...     print(refusal(g, e))
    3♠ cannot go on J♣: a card goes only on a card one rank higher
    """
    m = e.move
    n = g.columns
    if m is not None and m.kind == "move" and m.src < n and m.dst < n:
        src, count, dst = m.src, m.count or _count(g, m.src, m.dst), m.dst
    elif click is not None and m is None and 0 <= click[0] < n:
        src, count, dst = click[0], click[1] or max(1, g.movable(click[0])), None
    else:
        return e.reason
    col = g.column(src)
    if not col or count > len(col) - g.face_down(src):
        return e.reason   # an empty column, more cards than lie face up: no card to name
    movable = g.movable(src)
    if count > movable:
        lower, upper = col[-movable - 1], col[-movable]
        top = _cards(movable)
        verb = "moves" if movable == 1 else "move together"
        if rank_of(lower) != rank_of(upper) + 1:
            return (f"{card_text(upper)} does not follow {card_text(lower)} in sequence: only {top} of column"
                    f" {LETTERS[src]} {verb}")
        return (f"{card_text(lower)} and {card_text(upper)} are not one {g.rules.group}: only {top} of column"
                f" {LETTERS[src]} {verb}")
    moving = col[-count]
    if dst is None:
        return f"{group_text(g, src, count)} {'has' if count == 1 else 'have'} nowhere to go"
    onto = g.top_card(dst)
    if onto is None:
        return e.reason
    if rank_of(moving) == len(RANKS):
        return f"{card_text(moving)}: a king can only go to an empty column"
    if rank_of(onto) == 1:
        return f"nothing goes on an ace ({card_text(onto)})"
    if rank_of(onto) != rank_of(moving) + 1:
        return f"{card_text(moving)} cannot go on {card_text(onto)}: a card goes only on a card one rank higher"
    return e.reason
