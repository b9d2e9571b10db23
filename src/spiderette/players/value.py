"""The value of the visible table the planner steers by: hand-made, or learned from many games.

Both are costs (lower is better) in the planner's units, summed over the columns, so that the planner caches
each column's cost once per plan:

* ``"handmade"``: the weights named in :mod:`spiderette.players.plan_costs` (``FACE_DOWN``, ``BURIED``, ...);
* ``"learned"``: a linear model of the features of :mod:`spiderette.players.features`, fitted by
  ``benchmarks/train_value.py`` on the planner's own games (the cards still hidden when the game ended),
  shipped as ``value_model.json`` beside this module. Its weights that grow or shrink with the deals left
  are folded in once per plan (the deals left do not change within one).

>>> from spiderette import Game
>>> v = LearnedValue(Game(seed=7))
>>> v.column_cost((0, ())) < v.column_cost((5, (33,)))   # an empty column is better than a deep one
True
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from ..engine.game import Game
from .features import COLUMN_FEATURES, FEATURES, STAGED, column_features, table_features

MODEL = Path(__file__).with_name("value_model.json")
#: Planner points per card left hidden at the end of a game: the learned value's unit, in the hand-made
#: value's scale (a face-down card costs ``FACE_DOWN = 24`` there).
POINTS_PER_CARD = 24
VALUES = ("handmade", "learned")
#: The value the planner steers by unless told otherwise (``plan``, ``hint``, Hint and Think,
#: ``PlannerStrategy``): the learned one, which wins more (the Teach guide has the figures).
DEFAULT_VALUE = "learned"


@lru_cache(maxsize=4)
def load_model(path: str = str(MODEL)) -> dict:
    """The learned model: its features' names, weights and training report (cached)."""
    model = json.loads(Path(path).read_text(encoding="utf-8"))
    if model.get("features") != list(FEATURES):
        raise ValueError(f"{path} was fitted on other features: run benchmarks/train_value.py fit again")
    return model


class LearnedValue:
    """The learned cost of the columns of one game's table, at its stage (the deals left)."""

    def __init__(self, game: Game, model: dict | None = None, deals_left: int | None = None) -> None:
        model = model or load_model()
        weight = dict(zip(model["features"], model["weights"]))
        left = game.deals_left if deals_left is None else deals_left
        # one weight per column feature at this stage: its own, plus its "x deals_left" weight times the deals
        self.weights = [POINTS_PER_CARD * (weight[name] + (weight[f"{name} x deals_left"] * left
                                                            if name in STAGED else 0))
                        for name in COLUMN_FEATURES]
        #: A finished run, in points (the model's weight of ``runs_done``: negative, a bonus).
        self.run_cost = round(POINTS_PER_CARD * weight["runs_done"])
        #: The stage's own cost, in points: the model's weight of ``deals_left`` times the deals left (constant
        #: within one plan; it counts when a table before a deal is weighed against one after it).
        self.stage_cost = round(POINTS_PER_CARD * weight["deals_left"] * left)
        self.links = game.rules.links
        self.fits = None if game.rules.build == "any" else game.rules.fits
        self.unit = game.rules.unit
        self.cache: dict = {}

    def column_cost(self, col: tuple) -> int:
        """The cost of one column ``(down, up)``, a whole number of points (cached by its contents)."""
        got = self.cache.get(col)
        if got is None:
            down, up = col
            features = column_features(down, up, self.links, self.fits, self.unit)
            got = round(sum(w * x for w, x in zip(self.weights, features)))
            self.cache[col] = got
        return got


def predicted_end(game: Game, model: dict | None = None) -> float:
    """What the learned model expects of the table a player sees in ``game``: the cards still hidden when the
    planner's game ends, plus the model's ``run_weight`` for each run not finished (0 for a won game). Lower
    is better; the planner steers by the same sum, in whole points.

    >>> from spiderette import Game
    >>> 0 < predicted_end(Game(seed=7)) < 60
    True
    """
    model = model or load_model()
    f = table_features(game)
    return model["bias"] + sum(w * f[name] for name, w in zip(model["features"], model["weights"]))
