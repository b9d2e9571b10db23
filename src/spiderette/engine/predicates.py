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

Cards are ``int`` values (:mod:`spiderette.engine.cards`: ``rank_of``, ``suit_of``, ``card_code``, ``card_text``);
``game.column(i)`` lists a column bottom to top, the first ``game.face_down(i)`` of them face down.
"""

from __future__ import annotations

from .cards import is_complete_run, rank_of
from .game import Game
from .move import Move

__all__ = [
    "visible_key", "tables_met", "hidden_count", "left_below", "finishes_a_run", "turns_over_a_card",
    "empties_a_column",
    "fills_an_empty_column", "breaks_a_suited_build", "lands_in_suit", "builds_in_suit",
    "lies_in_sequence", "builds_down",
    "splits_a_group", "turns_over_keeping_empty_columns", "spends_an_empty_column_to_turn_over", "parks_a_group",
]


def visible_key(game: Game) -> tuple:
    """The table as a player sees it (face-up cards, face-down counts, stock size): a hashable key.

    Within one game equal keys are equal tables (hidden cards never move), so it serves to avoid going round
    in circles even on copies whose hidden cards were redealt.
    """
    return (tuple((game.face_down(i), game.column(i)[game.face_down(i):]) for i in range(game.columns)),
            game.stock_count)


def tables_met(game: Game) -> set[tuple]:
    """The visible tables (:func:`visible_key`) met along the game's history, the table now included.

    The game's memory as a player has it: each table as it looked when it was on show, read from a copy
    taken back move by move (no hidden card is read). Advice uses it never to lead back to one of them.

    >>> from spiderette import Game
    >>> g = Game(seed=7); g.play("bd ea")
    [Move.parse('bd1'), Move.parse('ea1')]
    >>> len(tables_met(g)), visible_key(Game(seed=7)) in tables_met(g)
    (3, True)
    """
    probe = game.copy()   # (under the game's lock: one whole snapshot)
    met = {visible_key(probe)}
    while probe.undo() is not None:
        met.add(visible_key(probe))
    return met


def hidden_count(game: Game) -> int:
    """Cards not yet seen: face down in the tableau, or in the stock."""
    return sum(game.face_down(i) for i in range(game.columns)) + game.stock_count


def left_below(game: Game, move: Move) -> int:
    """The cards the move leaves in its column (face down ones included)."""
    return len(game.column(move.src)) - move.count


def finishes_a_run(game: Game, move: Move) -> bool:
    """The move completes a King-to-Ace run (which then leaves), or sends one (when runs are sent by hand)."""
    if move.kind == "send":
        return True
    if move.kind != "move":
        return False
    return lands_in_suit(game, move) and is_complete_run(game.movable(move.dst) + move.count, game.top_card(move.src))


def turns_over_a_card(game: Game, move: Move) -> bool:
    """The move uncovers a face-down card ("turn over cards first"): in the column it leaves, or in the
    column where it finishes a run that leaves at once."""
    if move.kind != "move":
        return False
    if 0 < left_below(game, move) == game.face_down(move.src):
        return True
    if game.auto_remove and finishes_a_run(game, move):
        under = len(game.column(move.dst)) - (13 - move.count)   # the cards left once the run has gone
        return 0 < under == game.face_down(move.dst)
    return False


def empties_a_column(game: Game, move: Move) -> bool:
    """The move leaves its column empty ("empty columns are precious")."""
    return move.kind == "move" and left_below(game, move) == 0 and game.top_card(move.dst) is not None


def fills_an_empty_column(game: Game, move: Move) -> bool:
    """The move puts cards into an empty column (it spends one)."""
    return move.kind == "move" and game.top_card(move.dst) is None


def breaks_a_suited_build(game: Game, move: Move) -> bool:
    """The group already lies on the next card of its suit: moving it breaks a suited build."""
    below = left_below(game, move)
    col = game.column(move.src)
    return below > game.face_down(move.src) and game.rules.links(col[below - 1], col[-move.count])


def lands_in_suit(game: Game, move: Move) -> bool:
    """The group lands on the next card of its suit (colour in red-black), whatever it leaves behind."""
    if move.kind != "move":
        return False
    onto = game.top_card(move.dst)
    return onto is not None and game.rules.links(onto, game.column(move.src)[-move.count])


def builds_in_suit(game: Game, move: Move) -> bool:
    """The group lands on the next card of its suit (colour in red-black) and breaks no suited build."""
    return lands_in_suit(game, move) and not breaks_a_suited_build(game, move)


def lies_in_sequence(game: Game, move: Move) -> bool:
    """The group already lies on a face-up card one rank higher (of any suit): moving it elsewhere only
    re-parks it, which pays off when the card it frees has somewhere to go."""
    if move.kind != "move":
        return False
    below = left_below(game, move)
    col = game.column(move.src)
    return below > game.face_down(move.src) and rank_of(col[below - 1]) == rank_of(col[-move.count]) + 1


def builds_down(game: Game, move: Move) -> bool:
    """The group goes onto a card one rank higher from a place where it was out of order (any suit)."""
    if move.kind != "move" or game.top_card(move.dst) is None:
        return False
    return not lies_in_sequence(game, move)


def splits_a_group(game: Game, move: Move) -> bool:
    """The move takes only the top part of a group that could move together."""
    return move.kind == "move" and move.count < game.movable(move.src)


def turns_over_keeping_empty_columns(game: Game, move: Move) -> bool:
    """The move uncovers a face-down card without spending an empty column."""
    return turns_over_a_card(game, move) and not fills_an_empty_column(game, move)


def spends_an_empty_column_to_turn_over(game: Game, move: Move) -> bool:
    """The move uncovers a face-down card by putting its group into an empty column."""
    return turns_over_a_card(game, move) and fills_an_empty_column(game, move)


def parks_a_group(game: Game, move: Move) -> bool:
    """A whole movable group, out of order where it lies, goes into an empty column to wait there."""
    if not fills_an_empty_column(game, move) or move.count != game.movable(move.src):
        return False
    below = left_below(game, move)
    col = game.column(move.src)
    return below > game.face_down(move.src) and rank_of(col[below - 1]) != rank_of(col[-move.count]) + 1
