"""Spiderette solitaire: a rules engine, a scripting API and a Jupyter widget.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> g.play("d")
[Move.parse('d')]
>>> g.deals_left
3
"""

from .errors import IllegalMoveError, InvalidPositionError, NotationError, SaveFileError
from .game import Game
from .move import Move
from .variants import RULES, VARIANTS, Rules

__all__ = [
    "Game", "Move", "IllegalMoveError", "InvalidPositionError", "NotationError", "SaveFileError",
    "Rules", "RULES", "VARIANTS",
]
__version__ = "0.1.0"
