"""A player's memory of a game: the tables met along its history, as a player saw them (:func:`tables_met`).

Advice (:func:`spiderette.players.advice.hint`), the planner and the table's Hint and Think read it never to
lead back to a table already met; it is kept from one call to the next for each live game.
"""

from __future__ import annotations

import threading
import weakref

from ..engine.game import Game
from ..engine.move import Move
from ..engine.predicates import visible_key


def tables_met(game: Game) -> set[tuple]:
    """The visible tables (:func:`~spiderette.engine.predicates.visible_key`) met along the game's history,
    the table now included.

    The game's memory as a player has it: each table as it looked when it was on show, read from a copy
    taken back move by move (no hidden card is read). Advice uses it never to lead back to one of them.

    >>> g = Game(seed=7); g.play("bd ea")
    [Move.parse('bd1'), Move.parse('ea1')]
    >>> len(tables_met(g)), visible_key(Game(seed=7)) in tables_met(g)
    (3, True)
    """
    with game.locked():   # one whole snapshot: play may go on in another thread
        history = game.history
        known = _MET.get(game)
        if known is not None and known[0] == history:
            return set(known[2])
        same = 0
        if known is not None:   # the moves both histories begin with lead to the same tables
            for a, b in zip(known[0], history):
                if a != b:
                    break
                same += 1
        probe = game.copy()
    first = same + 1 if known is not None else 0   # the first table after the start not known yet
    later = []   # the tables after moves first .. len(history), the last first
    if first <= len(history):
        later.append(visible_key(probe))
        for _ in range(len(history) - first):
            probe.undo()
            later.append(visible_key(probe))
    keys = (known[1][:same + 1] if known is not None else []) + later[::-1]
    if known is not None and same == len(known[0]):   # moves were added: the set grows
        met = set(known[2])
        met.update(later)
    else:
        met = set(keys)
    with _MET_LOCK:
        _MET[game] = (history, keys, met)
    return set(met)


#: The tables met by each live game, kept from one call to the next (advice asks once a move): its history,
#: the key of the table after each of its moves (the start first), and their set.
_MET: weakref.WeakKeyDictionary[Game, tuple[list[Move], list[tuple], set[tuple]]] = weakref.WeakKeyDictionary()
_MET_LOCK = threading.Lock()
