"""Spiderette solitaire: a rules engine, a scripting API and a Jupyter widget.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> g.play("d")
[Move.parse('d')]
>>> g.deals_left
3
"""

from typing import TYPE_CHECKING

from .advice import hint, hints
from .analysis import Analysis, analyse, analyse_async
from .errors import IllegalMoveError, InvalidPositionError, NotationError, SaveFileError
from .game import Game
from .hints import Hint
from .move import Move
from .planner import PlannerStrategy
from .records import RecordsWarning, Stats, reset_stats, stats
from .results import Comparison, Simulation
from .solver import SolveResult, solve, solve_async
from .strategies import GreedyStrategy, RandomStrategy, RulesOfThumb, SearchStrategy, SolverStrategy, Strategy
from .study import StrategyError, compare, simulate
from .table import click_move
from .variants import RULES, VARIANTS, Rules

if TYPE_CHECKING:  # loaded when first asked for (__getattr__ below); named here for type checkers and the API reference
    from .replay import Replay
    from .widget import Widget

__all__ = [
    "Game", "Move", "IllegalMoveError", "InvalidPositionError", "NotationError", "SaveFileError",
    "Rules", "RULES", "VARIANTS", "Widget", "click_move", "Hint", "hint", "hints", "solve", "solve_async",
    "SolveResult", "analyse", "analyse_async", "Analysis",
    "Replay", "stats", "reset_stats", "Stats", "RecordsWarning", "simulate", "compare",
    "Simulation", "Comparison", "Strategy", "RandomStrategy", "GreedyStrategy", "RulesOfThumb", "SearchStrategy",
    "SolverStrategy", "PlannerStrategy", "StrategyError",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    # The widgets need anywidget; import them only when asked, so the engine runs without it.
    if name == "Widget":
        from .widget import Widget

        return Widget
    if name == "Replay":
        from .replay import Replay

        return Replay
    raise AttributeError(f"module 'spiderette' has no attribute {name!r}")
