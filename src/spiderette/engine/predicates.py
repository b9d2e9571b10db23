"""The named move predicates: what a move does, in words a student can read.

Each takes the table and a legal move and answers yes or no. The hint ranking (:mod:`spiderette.players.ranking`), the
rules of thumb (:class:`spiderette.RulesOfThumb`) and your own strategies use these same definitions, so a
rule of thumb means the same thing everywhere. Ten lines make a strategy that does what it says:

>>> from spiderette import Game, simulate
>>> from spiderette.engine.predicates import builds_in_suit, turns_over_a_card
>>> def dig_then_build(game):
...     "Turn a card over if a move does; else build in suit; else deal; else resign."
...     moves = game.legal_moves()
...     for wanted in (turns_over_a_card, builds_in_suit):
...         chosen = [m for m in moves if wanted(game, m)]
...         if chosen:
...             return chosen[0]
...     return next((m for m in moves if m.kind == "deal"), None)
>>> simulate(dig_then_build, deals=range(1, 4), suits=1, progress=False).rows[0]["end"] in ("won", "resigned",
...     "no moves", "cycle (the same table 3 times)")
True

Cards are ``int`` values (:mod:`spiderette.engine.cards`: ``rank_of``, ``suit_of``, ``card_code``, ``card_text``;
the observation writes them as codes, ``"TH"``, and that module converts); ``game.column(i)`` lists a column
bottom to top, the first ``game.face_down(i)`` of them face down. Each predicate's example plays on
:data:`EXAMPLE`, a small hand-built table.
"""

from __future__ import annotations

from .cards import RUN_LENGTH
from .core import core_for
from .game import Game
from .move import Move

EXAMPLE = ("spiderette:1 qs5S/6S/7S6S5S/ks9S3S/-/KSQSJSTS9S8S7S/6S5S4S3S2SAS ASAS2S2S3S4S4S7S8S8S9STSTSJSJSQSKS"
           " KSQSJSTS9S8S7S6S5S4S3S2SAS 20 580 -")
"""The table of the examples below (one suit, one run completed, 17 cards in the stock)::

    a  [#] 5S          (a face-down card under 5S)     e  empty
    b  6S                                              f  KS QS JS TS 9S 8S 7S
    c  7S 6S 5S                                        g  6S 5S 4S 3S 2S AS
    d  [#] 9S 3S       (3S out of order on 9S)

``ab`` turns a card over, building in suit; ``ae`` does it by spending the empty column; ``cb1`` breaks a
suited build; ``ce3`` empties c into e (no empty column gained); ``de`` parks 3S; ``gf`` finishes a run.
"""

__all__ = [
    "EXAMPLE", "visible_key", "hidden_count", "cards_in_suited_runs", "shaped_potential",
    "left_below", "finishes_a_run",
    "turns_over_a_card",
    "empties_a_column", "gains_an_empty_column",
    "fills_an_empty_column", "breaks_a_suited_build", "lands_in_suit", "builds_in_suit",
    "lies_in_sequence", "builds_down",
    "splits_a_group", "turns_over_keeping_empty_columns", "spends_an_empty_column_to_turn_over", "parks_a_group",
]


def visible_key(game: Game) -> tuple:
    """The table as a player sees it (face-up cards, face-down counts, stock size): a hashable key.

    Within one game equal keys are equal tables (hidden cards never move), so it serves to avoid going round
    in circles even on copies whose hidden cards were redealt.

    >>> g = Game(seed=7)
    >>> visible_key(g) == visible_key(g.redeal_hidden(5)), visible_key(g) == visible_key(Game(seed=8))
    (True, False)
    """
    return tuple([(col[0], tuple(col[1 + col[0]:])) for col in game.packed()]), game.stock_count


def hidden_count(game: Game) -> int:
    """Cards not yet seen: face down in the tableau, or in the stock.

    >>> hidden_count(Game.from_position(EXAMPLE))     # 2 face down, 17 in the stock
    19
    """
    return sum(game.face_down(i) for i in range(game.columns)) + game.stock_count


def cards_in_suited_runs(game: Game) -> int:
    """Cards in suited runs: the 13 of each completed run, and every face-up card in a suited sequence of two
    or more in the tableau (each card on the next of its suit; colour in red-black).

    The four-suit measure of a study (the rows' ``suited``): it grows as a game is sorted, even when nobody
    wins a deal.

    >>> cards_in_suited_runs(Game.from_position(EXAMPLE))   # 13 + c 3 + f 7 + g 6; not 9S 3S
    29
    """
    total = RUN_LENGTH * len(game.foundations)
    for i in range(game.columns):
        col, down = game.column(i), game.face_down(i)
        linked = [False] * len(col)
        for j in range(down + 1, len(col)):
            if game.rules.links(col[j - 1], col[j]):
                linked[j - 1] = linked[j] = True
        total += sum(linked)
    return total


def shaped_potential(game: Game, turn: float = 0.1, link: float = 0.02) -> float:
    """The potential of a table for a shaped reward: ``turn`` times minus the cards face down in the tableau,
    plus ``link`` times the in-suit links among face-up cards (a card on the next higher card of its suit).

    The change of it over a move, added to the runs completed, is the reward ``reward="shaped"`` of
    :class:`spiderette.env.SpideretteEnv` (whose ``SHAPED_TURN`` and ``SHAPED_LINK`` are these defaults):
    turning a card over earns 0.1, an in-suit link 0.02. A learner in plain Python uses it on a ``Game``.

    >>> g = Game(seed=7)
    >>> before = shaped_potential(g)
    >>> g.play("bd")                    # 6H onto 7C: a card turned over, no in-suit link
    [Move.parse('bd1')]
    >>> round(shaped_potential(g) - before, 2)
    0.1
    """
    turned = links = 0
    linked = game.rules.links
    for i in range(game.columns):
        col, down = game.column(i), game.face_down(i)
        turned -= down
        links += sum(1 for a, b in zip(col[down:], col[down + 1:]) if linked(a, b))
    return turn * turned + link * links


def _applied(game: Game, move: Move) -> tuple[bytes, bytes, bool, int]:
    """What the engine's one applier says a move (``kind == "move"``) does: ``(source, destination, finished,
    turned)`` (:meth:`spiderette.engine.core.Core.shift`)."""
    cols = game.packed()   # (the game's own columns, as the core reads them: nothing built for a question)
    src, dst = move.src, move.dst
    assert src is not None and dst is not None and move.count is not None   # (a move: all three)
    return core_for(game.rules, game.auto_remove).shift(cols[src], cols[dst], move.count)


def _under(game: Game, move: Move) -> tuple[int, int] | None:
    """``(the face-up card under the group a move takes, the group's first card)``; ``None`` when the group
    lies on a face-down card or at the bottom of its column."""
    src, k = move.src, move.count
    assert src is not None and k is not None   # (a move: all three)
    col = game.packed()[src]   # (the face-down count, then the cards: col[below] is the card under the group)
    below = len(col) - 1 - k
    return (col[below], col[-k]) if below > col[0] else None


def left_below(game: Game, move: Move) -> int:
    """The cards a move (``kind == "move"``) leaves in its column, face-down ones included.

    >>> g = Game.from_position(EXAMPLE)
    >>> left_below(g, g.parse_move("ab")), left_below(g, g.parse_move("cb1"))
    (1, 2)
    """
    assert move.src is not None and move.dst is not None and move.count is not None   # (a move: all three)
    return len(game.packed()[move.src]) - 1 - move.count   # (a packed column counts its face-down cards first)


def finishes_a_run(game: Game, move: Move) -> bool:
    """The move completes a King-to-Ace run of one suit on its destination (the run then leaves, when runs
    leave on their own), or it is a send (runs sent by hand).

    >>> g = Game.from_position(EXAMPLE)
    >>> finishes_a_run(g, g.parse_move("gf")), finishes_a_run(g, g.parse_move("ab"))
    (True, False)
    """
    if move.kind == "send":
        return True
    if move.kind != "move":
        return False
    return _applied(game, move)[2]


def turns_over_a_card(game: Game, move: Move) -> bool:
    """The move uncovers a face-down card ("turn over cards first"): in the column it leaves, or in the
    column where it finishes a run that leaves at once.

    >>> g = Game.from_position(EXAMPLE)
    >>> turns_over_a_card(g, g.parse_move("ab")), turns_over_a_card(g, g.parse_move("cb1"))
    (True, False)
    """
    if move.kind != "move":
        return False
    return _applied(game, move)[3] != 0


def empties_a_column(game: Game, move: Move) -> bool:
    """The move (or send) leaves its own column empty, wherever its cards go ("empty columns are precious").

    A whole column moved into another empty column empties its own too, but fills the other: no empty column
    is gained (that is :func:`gains_an_empty_column`).

    >>> g = Game.from_position(EXAMPLE)
    >>> empties_a_column(g, g.parse_move("bf")), empties_a_column(g, g.parse_move("ce3"))
    (True, True)
    >>> empties_a_column(g, g.parse_move("ce2"))      # 6S 5S only: 7S stays
    False
    """
    if move.kind == "send":
        assert move.src is not None   # (a send names its column)
        return len(game.packed()[move.src]) - 1 == RUN_LENGTH
    return move.kind == "move" and left_below(game, move) == 0


def gains_an_empty_column(game: Game, move: Move) -> bool:
    """The move leaves its column empty without filling another: one more empty column than before.

    >>> g = Game.from_position(EXAMPLE)
    >>> gains_an_empty_column(g, g.parse_move("bf")), gains_an_empty_column(g, g.parse_move("ce3"))
    (True, False)
    """
    return empties_a_column(game, move) and not fills_an_empty_column(game, move)


def fills_an_empty_column(game: Game, move: Move) -> bool:
    """The move puts cards into an empty column (it spends one).

    >>> g = Game.from_position(EXAMPLE)
    >>> fills_an_empty_column(g, g.parse_move("de")), fills_an_empty_column(g, g.parse_move("ab"))
    (True, False)
    """
    if move.kind != "move":
        return False
    assert move.dst is not None   # (a move names both columns)
    return len(game.packed()[move.dst]) == 1   # (an empty column: its face-down count alone)


def breaks_a_suited_build(game: Game, move: Move) -> bool:
    """The group lies on the next card of its suit (colour in red-black), face up: moving it breaks a suited
    build, wherever it goes.

    >>> g = Game.from_position(EXAMPLE)
    >>> breaks_a_suited_build(g, g.parse_move("cb1")), breaks_a_suited_build(g, g.parse_move("ab"))
    (True, False)
    """
    if move.kind != "move":
        return False
    assert move.src is not None and move.dst is not None and move.count is not None   # (a move: all three)
    pair = _under(game, move)
    return pair is not None and game.rules.links(*pair)


def lands_in_suit(game: Game, move: Move) -> bool:
    """The group lands on the next card of its suit (colour in red-black), whatever it leaves behind.

    >>> g = Game.from_position(EXAMPLE)
    >>> lands_in_suit(g, g.parse_move("cb1")), lands_in_suit(g, g.parse_move("ae"))
    (True, False)
    """
    if move.kind != "move":
        return False
    assert move.src is not None and move.dst is not None and move.count is not None   # (a move: all three)
    cols = game.packed()
    onto = cols[move.dst]
    return len(onto) > 1 and game.rules.links(onto[-1], cols[move.src][-move.count])


def builds_in_suit(game: Game, move: Move) -> bool:
    """The group lands on the next card of its suit (colour in red-black) and breaks no suited build:
    :func:`lands_in_suit` and not :func:`breaks_a_suited_build`.

    >>> g = Game.from_position(EXAMPLE)
    >>> builds_in_suit(g, g.parse_move("ab")), builds_in_suit(g, g.parse_move("cb1"))
    (True, False)
    """
    return lands_in_suit(game, move) and not breaks_a_suited_build(game, move)


def lies_in_sequence(game: Game, move: Move) -> bool:
    """The group already lies on a face-up card one rank higher (of any suit; where the variant builds in suit
    or alternate colours, one it could have been built on): moving it elsewhere only re-parks it, which pays
    off when the card it frees has somewhere to go.

    >>> g = Game.from_position(EXAMPLE)
    >>> lies_in_sequence(g, g.parse_move("cb1")), lies_in_sequence(g, g.parse_move("de"))
    (True, False)
    """
    if move.kind != "move":
        return False
    assert move.src is not None and move.dst is not None and move.count is not None   # (a move: all three)
    pair = _under(game, move)
    return pair is not None and game.rules.fits(*pair)


def builds_down(game: Game, move: Move) -> bool:
    """The group goes onto a card (one rank higher, as every move onto a card) from a place where it was not
    in sequence: on a face-down card, at the bottom of its column, or on a face-up card of another rank
    (any suit: not :func:`lies_in_sequence`).

    >>> g = Game.from_position(EXAMPLE)
    >>> builds_down(g, g.parse_move("ab")), builds_down(g, g.parse_move("cb1")), builds_down(g, g.parse_move("ae"))
    (True, False, False)
    """
    if move.kind != "move":
        return False
    assert move.dst is not None   # (a move names both columns)
    if fills_an_empty_column(game, move):
        return False
    return not lies_in_sequence(game, move)


def splits_a_group(game: Game, move: Move) -> bool:
    """The move takes only the top part of a group that could move together.

    >>> g = Game.from_position(EXAMPLE)
    >>> splits_a_group(g, g.parse_move("cb1")), splits_a_group(g, g.parse_move("ce3"))
    (True, False)
    """
    if move.kind != "move":
        return False
    assert move.src is not None and move.dst is not None and move.count is not None   # (a move: all three)
    return move.count < game.movable(move.src)


def turns_over_keeping_empty_columns(game: Game, move: Move) -> bool:
    """The move uncovers a face-down card without spending an empty column.

    >>> g = Game.from_position(EXAMPLE)
    >>> turns_over_keeping_empty_columns(g, g.parse_move("ab")), turns_over_keeping_empty_columns(g, g.parse_move("ae"))
    (True, False)
    """
    return turns_over_a_card(game, move) and not fills_an_empty_column(game, move)


def spends_an_empty_column_to_turn_over(game: Game, move: Move) -> bool:
    """The move uncovers a face-down card by putting its group into an empty column.

    >>> g = Game.from_position(EXAMPLE)
    >>> spends_an_empty_column_to_turn_over(g, g.parse_move("ae")), spends_an_empty_column_to_turn_over(
    ...     g, g.parse_move("ab"))
    (True, False)
    """
    return turns_over_a_card(game, move) and fills_an_empty_column(game, move)


def parks_a_group(game: Game, move: Move) -> bool:
    """A whole movable group that lies face up on a card not one rank higher goes into an empty column to wait
    there (a group on a face-down card turns it over instead: :func:`spends_an_empty_column_to_turn_over`).

    >>> g = Game.from_position(EXAMPLE)
    >>> parks_a_group(g, g.parse_move("de")), parks_a_group(g, g.parse_move("ae")), parks_a_group(
    ...     g, g.parse_move("ce2"))
    (True, False, False)
    """
    if not fills_an_empty_column(game, move):
        return False
    assert move.src is not None and move.dst is not None and move.count is not None   # (a move: all three)
    if move.count != game.movable(move.src):
        return False
    pair = _under(game, move)
    return pair is not None and not game.rules.fits(*pair)
