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

from ..engine.cards import RUN_LENGTH, card_text
from ..engine.errors import IllegalMoveError
from ..engine.game import Game
from ..engine.move import LETTERS, Move
from ..engine.words import plural
from ..players.ranking import DASH, Hint, group_onto, group_words


def group_text(g: Game, src: int, count: int) -> str:
    """The top ``count`` cards of column ``src``: ``"9♦"``, or the first and the last: ``"9♦–7♦"``."""
    return group_words(g.column(src), count, card_text)


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
        assert m.src is not None   # (a send names its column)
        return f"{group_text(g, m.src, RUN_LENGTH)} to the foundations"
    return group_onto(g, m, card_text)


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
    assert m.src is not None   # (a move and a send name their column)
    back = f"back to column {LETTERS[m.src]}"
    if m.kind == "send":
        return f"Took back {group_text(g, m.src, RUN_LENGTH)} from the foundations ({back})"
    assert m.dst is not None and m.count is not None   # (a move played: resolved)
    group = group_text(g, m.src, m.count)
    onto = g.top_card(m.dst)
    where = card_text(onto) if onto is not None else f"column {LETTERS[m.dst]}"
    return f"Took back {group} from {where} ({back})"


#: What the table says when a game ends, by :attr:`Game.status <spiderette.Game.status>` (the banner over the
#: felt, and the end of the status line's message); the command line says the same (``spiderette play``).
ENDINGS: dict[str, str] = {
    "won": "You won!",
    "lost": "No moves left: the game is lost",
    "dead_end": "Dead end: no deal can ever be made again; undo to go back",
}


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
        words += f" ({plural(n, 'deal')} left)"
    if runs_before is not None and g.runs_completed > runs_before:
        done = g.runs_completed - runs_before
        words += f"; {plural(done, 'run')} completed"
    status = g.status
    if status == "won":
        return f"{words}. {ENDINGS[status]} Score {g.score}."
    if status == "lost":
        return f"{words}. {ENDINGS[status]} (undo to try another way)."
    if status in ENDINGS:
        return f"{words}. {ENDINGS[status]}."
    return words


def hint_text(h: Hint) -> str:
    """The reason of ``h`` (ranked, or from the honest search or the planner) with the cards in words.

    The ranking's judgement the reason holds (``h.kind`` and ``h.cards``: :meth:`Hint.words`) is written in
    code in a hint made with card codes; it is put in words. A hint made with :func:`card_text` is kept.

    >>> from spiderette.players.ranking import best_hint
    >>> hint_text(best_hint(Game(seed=7)))
    'moving 6♥ onto 7♣ turns over a card in column b'
    """
    coded = h.words()
    return h.reason.replace(coded, h.words(card_text)) if coded else h.reason


def hint_view(h: Hint) -> dict:
    """``view["hint"]`` for ``h``: the move (``text`` in notation, for scripts) and its reason in card words."""
    assert h.move is not None   # (a hint on show has its move)
    return {**h.move.to_dict(), "text": str(h.move), "reason": hint_text(h)}


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


def sequence_refusal(table: Game, e: IllegalMoveError) -> str:
    """Why move ``e.index`` of a sequence was refused (:func:`refusal`), naming only cards a player sees on
    ``table`` (the table before the sequence): a card one of the earlier moves would turn over is not named.

    >>> g = Game(seed=7)
    >>> try:
    ...     g.play("bd ba")
    ... except IllegalMoveError as e:
    ...     print(sequence_refusal(g, e))
    ba involves a card that an earlier move of the sequence would turn over, and it does not fit there
    """
    words = refusal(e)
    if not hidden_named(table, words):
        return words
    return (f"{e.move} involves a card that an earlier move of the sequence would turn over, and it does not"
            " fit there")


def _cards(n: int) -> str:
    return "the top card" if n == 1 else f"the top {n} cards"


def refusal(e: IllegalMoveError) -> str:
    """Why the table refused a move, with the cards in words: the engine's refusal (``e.refusal``, its code
    and cards) written for players. Refusals that name no card keep the engine's words.

    >>> g = Game(seed=7)
    >>> try:
    ...     g.apply("ec1")
    ... except IllegalMoveError as e:
    ...     print(refusal(e))
    3♠ cannot go on J♣: a card goes only on a card one rank higher
    """
    r = e.refusal
    if r is None or r.code not in WORDS:
        return e.reason
    return WORDS[r.code].format(**r.facts(card_text), top=_cards(r.limit or 1),
                                verb="moves" if r.limit == 1 else "move together",
                                group=DASH.join(card_text(c) for c in r.cards), has="has" if r.count == 1 else "have")


#: The refusals that name cards, in the player's words (:func:`refusal`); the others keep the engine's.
WORDS = {
    "not-in-sequence": "{card1} does not follow {card0} in sequence: only {top} of column {col} {verb}",
    "not-one-suit": "{card0} and {card1} are not one suit: only {top} of column {col} {verb}",
    "not-one-colour": "{card0} and {card1} are not one colour: only {top} of column {col} {verb}",
    "nowhere-to-go": "{group} {has} nowhere to go",
    "king-to-a-card": "{card0}: a king can only go to an empty column",
    "onto-an-ace": "nothing goes on an ace ({target})",
    "does-not-fit": "{card0} cannot go on {target}: a card goes only on a card one rank higher",
    "not-same-suit": "{card0} cannot go on {target}: a card goes only on a card of its own suit one rank higher",
    "not-alternate-colour": "{card0} cannot go on {target}: a card goes only on a card of the other colour one"
                            " rank higher",
    "one-card-at-a-time": "{group}: only one card moves at a time in this game",
}


#: What Give up says of the statistics, by what :meth:`~spiderette.notebook.scorekeeper.TableRecords.give_up`
#: recorded (:func:`given_up`).
GIVEN_UP = {
    "recorded": "Given up: recorded as a loss",
    "counted_before": "Given up: its result was recorded before",
    "not_recording": "Given up: not recorded (this table keeps no records)",
    "not_played": "Given up: not recorded (nothing was played)",
}


def given_up(recorded: str, analysable: bool) -> str:
    """What the table says on Give up: what the statistics ``recorded`` (a key of :data:`GIVEN_UP`) and, when
    the game has moves in its history (``analysable``), that "Where did it go wrong?" looks at them.

    >>> given_up("recorded", True)
    'Given up: recorded as a loss. Where did it go wrong? finds the move that lost it'
    >>> given_up("not_played", False)
    'Given up: not recorded (nothing was played); no move to analyse'
    """
    return GIVEN_UP[recorded] + (". Where did it go wrong? finds the move that lost it" if analysable
                                 else "; no move to analyse")
