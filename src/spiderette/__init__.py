"""Spiderette solitaire: a rules engine, a scripting API and a Jupyter widget.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> g.play("d")
[Move.parse('d')]
>>> g.deals_left
3
"""

from typing import TYPE_CHECKING

from .engine.cardz import DesignError, from_cardz, to_cardz
from .engine.errors import IllegalMoveError, InvalidPositionError, NotationError, SaveFileError
from .engine.game import Game
from .engine.move import Move
from .engine.variants import RULES, VARIANTS, Rules
from .notebook.view import click_move
from .players.advice import hint, hints
from .players.analysis import Analysis, analyse, analyse_async
from .players.limits import Limit
from .players.planner import PlannerStrategy
from .players.ranking import Hint
from .players.solver import SolveResult, solve, solve_async
from .players.strategies import GreedyStrategy, RandomStrategy, RulesOfThumb, SearchStrategy, SolverStrategy, Strategy
from .studies.results import Comparison, Simulation
from .studies.runner import StrategyError, compare, simulate
from .userdata.datafolder import RecordsWarning
from .userdata.statistics import Stats, reset_stats, stats

if TYPE_CHECKING:  # loaded when first asked for (__getattr__ below); named here for type checkers and the API reference
    from .notebook.replay import Replay
    from .notebook.widget import Widget

__all__ = [
    "Game", "Move", "IllegalMoveError", "InvalidPositionError", "NotationError", "SaveFileError",
    "Rules", "RULES", "VARIANTS", "from_cardz", "to_cardz", "DesignError",
    "Widget", "click_move", "Hint", "hint", "hints", "solve", "solve_async",
    "SolveResult", "Limit", "analyse", "analyse_async", "Analysis",
    "Replay", "stats", "reset_stats", "Stats", "RecordsWarning", "simulate", "compare",
    "Simulation", "Comparison", "Strategy", "RandomStrategy", "GreedyStrategy", "RulesOfThumb", "SearchStrategy",
    "SolverStrategy", "PlannerStrategy", "StrategyError",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    # The widgets need anywidget; import them only when asked, so the engine runs without it.
    if name == "Widget":
        from .notebook.widget import Widget

        return Widget
    if name == "Replay":
        from .notebook.replay import Replay

        return Replay
    raise AttributeError(f"module 'spiderette' has no attribute {name!r}")
