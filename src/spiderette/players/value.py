"""The value of the visible table the planner steers by: hand-made, learned from many games, or one's own.

Both are costs (lower is better) in the planner's units, summed over the columns, so that the planner caches
each column's cost once per plan:

* ``"handmade"``: the weights named in :mod:`spiderette.players.plan_costs` (``FACE_DOWN``, ``BURIED``, ...);
* ``"learned"``: a linear model of the features of :mod:`spiderette.players.features`, fitted by :func:`fit`
  on the planner's own games (the cards still hidden when the game ended), shipped as ``value_model.json``
  beside this module (:data:`MODEL`). Its weights that grow or shrink with the deals left are folded in once
  per plan (the deals left do not change within one);
* a model of one's own: a :class:`ValueModel`, fitted by :func:`fit` and saved where one says
  (``PlannerStrategy(value="my_model.json")`` steers by it, and is labelled by the file's name).

>>> from spiderette import Game
>>> v = LearnedValue(Game(seed=7))
>>> v.column_cost((0, ())) < v.column_cost((5, (33,)))   # an empty column is better than a deep one
True
>>> model = ValueModel.load(MODEL)
>>> model.name, round(model.weights["face_down"], 2)
('value_model.json', 1.08)
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..engine.cards import RUN_LENGTH, make_deck
from ..engine.errors import quote
from ..engine.game import Game
from ..engine.variants import RULES
from .features import (
    COLUMN_FEATURES,
    FEATURES,
    STAGED,
    TABLE_FEATURES,
    UNSEEN_FEATURES,
    cards_unseen,
    column_features,
    feature_vector,
    table_features,
    unseen_features,
)

__all__ = ["ValueModel", "ModelError", "LearnedValue", "predicted_end", "load_model", "read_games", "fit",
           "MODEL", "GAMES", "VALUES", "DEFAULT_VALUE", "POINTS_PER_CARD", "ROUNDS", "rounds_table"]

MODEL = Path(__file__).with_name("value_model.json")
_PACKAGE = Path(__file__).resolve().parents[1]   # (the installed spiderette: no model is saved into it unasked)
#: Training games shipped for a class's retrain: the first 1,333 games of the shipped model's data (four
#: suits, deals 10000001-10001333; :func:`fit` trains on 1,000 of them and holds the other quarter out).
GAMES = Path(__file__).with_name("value_games.jsonl.gz")
#: The report of the rounds of policy iteration (``benchmarks/train_value.py rounds --ship``): each round's
#: training games, its fit and its games on the tuning deals, paired with the value before it
#: (:func:`rounds_table` reads it as a table).
ROUNDS = Path(__file__).with_name("value_rounds.json")
#: Planner points per card left hidden at the end of a game: the learned value's unit, in the hand-made
#: value's scale (a face-down card costs ``FACE_DOWN = 24`` there).
POINTS_PER_CARD = 24
#: The values of the table named by a word; a model of one's own is a path or a :class:`ValueModel`.
VALUES = ("handmade", "learned")
#: The value the planner steers by unless told otherwise (``plan``, ``hint``, Hint and Think,
#: ``PlannerStrategy``): the learned one, which wins more (the Teach guide has the figures).
DEFAULT_VALUE = "learned"
#: The deals left of a four-suit Spiderette game, from the start (4) to the last deal made (0): the stages
#: :meth:`ValueModel.worth_by_deals_left` says a feature's worth at.
STAGES = (0, 1, 2, 3, 4)


class ModelError(ValueError):
    """A value model that cannot be read: a path with no file, a file that is not a model, or a model fitted
    on features this version does not know. The message quotes what was given."""


# ---------------------------------------------------------------------- the model
@dataclass(frozen=True)
class ValueModel:
    """A learned value of the visible table: a weight per feature (:data:`~spiderette.players.features.FEATURES`,
    all or some of them; a feature left out weighs 0) and a bias, in cards still hidden at the end of a game.

    ``features`` are the features' names and ``coefficients`` their weights, in that order (:attr:`weights`
    gives them by name); ``name`` labels it in results (a loaded model: its file's name), ``path`` the file it
    came from (``None`` for a model not saved), ``report`` how it was fitted (its data, its held-out fit, its
    learning curve). Load one with :meth:`load`, fit one with :func:`fit`.

    >>> m = ValueModel.from_dict({"features": ["face_down", "runs_done"], "weights": [1.0, -5.0], "bias": 2.0},
    ...                          name="mine")
    >>> m.weights, m.name
    ({'face_down': 1.0, 'runs_done': -5.0}, 'mine')
    >>> ValueModel.from_dict({"features": ["magic"], "weights": [1.0]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    spiderette.players.value.ModelError: a model of other features: 'magic' is not a feature of ...
    """

    features: tuple[str, ...]
    coefficients: tuple[float, ...]
    bias: float = 0.0
    name: str = "model"
    path: Path | None = field(default=None, compare=False)
    report: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def weights(self) -> dict[str, float]:
        """The weight of each feature of the model, by name, in cards still hidden at the end per count."""
        return dict(zip(self.features, self.coefficients))

    def weight(self, feature: str) -> float:
        """The weight of ``feature`` (0 for one the model leaves out)."""
        return self.weights.get(feature, 0.0)

    def worth(self, feature: str, deals_left: int) -> float:
        """What one more of ``feature`` on the table is worth with ``deals_left`` deals still to come, in cards
        hidden at the end (lower is better): its own weight plus, for a staged feature, its ``x deals_left``
        weight times the deals left."""
        staged = self.weight(f"{feature} x deals_left") if feature in STAGED else 0.0
        return self.weight(feature) + staged * deals_left

    def worth_by_deals_left(self, stages: Sequence[int] = STAGES) -> dict[str, tuple[float, ...]]:
        """The worth of each staged feature (:data:`~spiderette.players.features.STAGED`) with 0, 1, 2, 3 and 4
        deals left (``stages``), in cards hidden at the end: how the model's base and slope read at a table.

        >>> m = ValueModel.from_dict({"features": ["empty_columns", "empty_columns x deals_left"],
        ...                           "weights": [0.2, -0.3]})
        >>> [round(w, 1) for w in m.worth_by_deals_left()["empty_columns"]]
        [0.2, -0.1, -0.4, -0.7, -1.0]
        """
        return {name: tuple(self.worth(name, k) for k in stages) for name in STAGED}

    def worth_table(self, stages: Sequence[int] = STAGES) -> str:
        """:meth:`worth_by_deals_left` as a plain text table, one row per staged feature (negative: good).

        >>> print(ValueModel.load(MODEL).worth_table().splitlines()[0])
        feature (cards)  | 0 deals left | 1 deals left | 2 deals left | 3 deals left | 4 deals left
        """
        head = "feature (cards)  | " + " | ".join(f"{k} deals left" for k in stages)
        rows = [f"{name:16s} | " + " | ".join(f"{w:+12.2f}" for w in worths)
                for name, worths in self.worth_by_deals_left(stages).items()]
        return "\n".join([head, *rows])

    def weights_table(self) -> str:
        """The weights as a plain text table, most negative (the best to have) first; a staged feature's row is
        its worth with no deal left, its ``x deals_left`` row what each deal still to come adds
        (:meth:`worth_table` reads the two together).

        >>> print(ValueModel.load(MODEL).weights_table().splitlines()[1])
        runs_done                    | -5.669
        """
        rows = sorted(self.weights.items(), key=lambda t: t[1])
        return "\n".join([f"{'feature':28s} | weight", *(f"{k:28s} | {w:+.3f}" for k, w in rows)])

    def predicted_end(self, game: Game) -> float:
        """:func:`predicted_end` by this model."""
        f = table_features(game)
        return self.bias + sum(w * f[name] for name, w in zip(self.features, self.coefficients))

    # ---------------------------------------------------------------- reading and writing
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str | None = None, path: Path | None = None) -> ValueModel:
        """The model of a dict as written by :meth:`to_dict` (a model file's contents); ``ModelError`` when it
        is not one, or names a feature this version does not know."""
        if not isinstance(data, Mapping):
            raise ModelError(f"a value model is a dict of 'features' and 'weights', not {quote(data)}")
        features, weights = data.get("features"), data.get("weights")
        if not (isinstance(features, list) and isinstance(weights, list) and len(features) == len(weights)
                and all(isinstance(f, str) for f in features)
                and all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in weights)):
            raise ModelError(f"not a value model (a list of 'features' and as many 'weights'): {quote(data)}")
        unknown = [f for f in features if f not in FEATURES]
        if unknown:
            raise ModelError(f"a model of other features: {quote(unknown[0])} is not a feature of"
                             " spiderette.players.features (fit it again)")
        bias = data.get("bias", 0.0)
        if not isinstance(bias, (int, float)) or isinstance(bias, bool):
            raise ModelError(f"a value model's 'bias' is a number, not {quote(bias)}")
        told = data.get("name")
        return cls(tuple(features), tuple(float(w) for w in weights), float(bias),
                   name or (told if isinstance(told, str) and told else "model"), path,
                   {k: v for k, v in data.items() if k not in ("features", "weights", "bias", "name")})

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        """The model saved in the file ``path`` (by :meth:`save`, or ``benchmarks/train_value.py fit``), named
        by the file's name; ``ModelError`` when there is no such file or it is not a model."""
        if not isinstance(path, (str, Path)):
            raise TypeError(f"a model's path is a str or a pathlib.Path, not {quote(path)}")
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise ModelError(f"no value model in {quote(str(path), 200)}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise ModelError(f"{quote(str(path), 200)} is not a value model (not text)") from None
        try:
            data = json.loads(text)
        except ValueError:
            raise ModelError(f"{quote(str(path), 200)} is not a value model (not JSON)") from None
        try:
            return cls.from_dict(data, name=p.name, path=p)
        except ModelError as e:
            raise ModelError(f"{quote(str(path), 200)}: {e}") from None

    def to_dict(self) -> dict[str, Any]:
        """The model as a model file holds it: its report, features, weights and bias (and its name)."""
        return {**self.report, "name": self.name, "features": list(self.features),
                "weights": [round(w, 6) for w in self.coefficients], "bias": round(self.bias, 6)}

    def save(self, path: str | Path, *, ship: bool = False) -> ValueModel:
        """Write the model to the file ``path`` (JSON); the model as loaded from there (named by the file). A path
        inside the installed package (the shipped model's folder) is refused, a ``ModelError``, unless ``ship``
        (a release replacing the shipped model)."""
        if not isinstance(path, (str, Path)):
            raise TypeError(f"a model's path is a str or a pathlib.Path, not {quote(path)}")
        p = Path(path)
        if not ship and _PACKAGE in p.resolve().parents:
            raise ModelError(f"refusing to write {quote(str(path), 200)} inside the package: name a file of your own")
        p.write_text(json.dumps({**self.to_dict(), "name": p.name}, indent=1) + "\n", encoding="utf-8")
        return ValueModel.from_dict(self.to_dict(), name=p.name, path=p)


@lru_cache(maxsize=4)
def _shipped(path: str) -> ValueModel:
    return ValueModel.load(path)


def load_model(path: str | Path = MODEL) -> dict:
    """The contents of a model file (the shipped one by default): its features' names, weights and report."""
    _shipped(str(path))   # (checked: a model of these features)
    return json.loads(Path(path).read_text(encoding="utf-8"))


def model_of(value: object) -> ValueModel:
    """The model ``value`` names: ``"learned"`` (the shipped one), a path to a model file, a dict as in a model
    file, or a :class:`ValueModel` as it is."""
    if isinstance(value, ValueModel):
        return value
    if value == "learned":
        return _shipped(str(MODEL))
    if isinstance(value, (str, Path)):
        return ValueModel.load(value)
    if isinstance(value, Mapping):
        return ValueModel.from_dict(value)
    raise ModelError(f"not a value model: {quote(value)}")


class LearnedValue:
    """The learned cost of the columns of one game's table, at its stage (the deals left)."""

    def __init__(self, game: Game, model: ValueModel | Mapping | None = None, deals_left: int | None = None) -> None:
        m = model_of(model if model is not None else "learned")
        left = game.deals_left if deals_left is None else deals_left
        # one weight per column feature at this stage: its own, plus its "x deals_left" weight times the deals
        self.weights = [POINTS_PER_CARD * m.worth(name, left) for name in COLUMN_FEATURES]
        #: A finished run, in points (the model's weight of ``runs_done``: negative, a bonus).
        # (never less than the run's own suited pairs and group were worth on the table, and a card more: a model
        # that weighs suited pairs highly would otherwise keep a finished run on the table for ever)
        run = RUN_LENGTH - 1, RUN_LENGTH if game.rules.unit is None else 1
        kept = POINTS_PER_CARD * (run[0] * m.worth("in_suit", left) + run[1] * m.worth("top_group", left))
        self.run_cost = round(min(POINTS_PER_CARD * m.weight("runs_done"), kept - POINTS_PER_CARD))
        #: The stage's own cost, in points: the model's weight of ``deals_left`` times the deals left (constant
        #: within one plan; it counts when a table before a deal is weighed against one after it).
        self.stage_cost = round(POINTS_PER_CARD * m.weight("deals_left") * left)
        self.links = game.rules.links
        self.fits = None if game.rules.build == "any" else game.rules.fits
        self.unit = game.rules.unit
        self.cache: dict = {}
        #: The weights of the cards still unseen (:data:`~spiderette.players.features.UNSEEN_FEATURES`), in points
        #: (all 0 for a model without them: then :meth:`unseen_cost` is 0).
        self.unseen_weights = [POINTS_PER_CARD * m.weight(name) for name in UNSEEN_FEATURES]
        self.fits_any = game.rules.fits
        #: Does the model weigh the cards unseen at all?
        self.sees_unseen = any(self.unseen_weights)

    def unseen_cost(self, columns: Sequence[tuple[int, Sequence[int]]], unseen: Sequence[int], stock: int) -> float:
        """The cost of what the cards ``unseen`` may bring to the table ``columns`` (``(down, up)`` per column),
        ``stock`` cards still in the stock: the model's weights of
        :func:`~spiderette.players.features.unseen_features`, in points."""
        if not self.sees_unseen:
            return 0.0
        f = unseen_features(columns, unseen, stock, self.links, self.fits_any)
        return sum(w * x for w, x in zip(self.unseen_weights, f))

    def column_cost(self, col: tuple) -> int:
        """The cost of one column ``(down, up)``, a whole number of points (cached by its contents)."""
        got = self.cache.get(col)
        if got is None:
            down, up = col
            features = column_features(down, up, self.links, self.fits, self.unit)
            got = round(sum(w * x for w, x in zip(self.weights, features)))
            self.cache[col] = got
        return got


def predicted_end(game: Game, model: ValueModel | Mapping | str | Path | None = None) -> float:
    """What a learned model (the shipped one by default) expects of the table a player sees in ``game``: the
    cards still hidden when the planner's game ends, plus the model's ``run_weight`` for each run not finished
    (0 for a won game). Lower is better; the planner steers by the same sum, in whole points.

    >>> from spiderette import Game
    >>> 0 < predicted_end(Game(seed=7)) < 60
    True
    """
    return model_of(model if model is not None else "learned").predicted_end(game)


# ---------------------------------------------------------------------- training
def read_games(path: str | Path) -> list[dict]:
    """The training games of a data file (``.jsonl``, or ``.jsonl.gz``; one game a line, as
    ``benchmarks/train_value.py generate`` writes them), by deal; a line cut short is skipped."""
    p = Path(path)
    if not p.exists() and Path(f"{p}.gz").exists():
        p = Path(f"{p}.gz")
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise ModelError(f"no training games in {quote(str(path), 200)}: {e.strerror or e}") from None
    try:
        text = (gzip.decompress(raw) if p.suffix == ".gz" else raw).decode("utf-8")
    except (OSError, UnicodeDecodeError, EOFError):
        raise ModelError(f"{quote(str(path), 200)} is not a file of training games") from None
    games = []
    for line in text.splitlines():
        try:
            game = json.loads(line)
        except ValueError:
            continue
        if isinstance(game, dict) and "tables" in game and "end" in game:
            games.append(game)
    if not games:
        raise ModelError(f"{quote(str(path), 200)} holds no training games")
    return sorted(games, key=lambda x: x["deal"])


def _rows(games: Iterable[dict], run_weight: float, columns_of: Sequence[int]) -> tuple[list, list, list]:
    """The features (in ``columns_of``'s order) of every table of ``games``, their labels and stages. The
    features of the cards unseen are read only when asked for: from the cards unseen a table's record lists
    (its fourth item), or, in an older record without them, the deck less the face-up cards (exact until a run
    is finished: the cards of a finished run are then counted as unseen)."""
    xs: list[list[float]] = []
    ys: list[float] = []
    stages: list[tuple[int, int]] = []
    unseen_too = any(i >= len(TABLE_FEATURES) for i in columns_of)
    for g in games:
        rules = RULES[g["variant"]]
        runs_total = rules.decks * 4
        end = g["end"]
        y = 0.0 if end["won"] else end["hidden"] + run_weight * (runs_total - end["runs"])
        fits = None if rules.build == "any" else rules.fits
        deck = make_deck(rules.decks, g.get("suits", 4)) if unseen_too else []
        for cols, stock, runs, *told in g["tables"]:
            left = -(-stock // len(cols))
            table = [(d, tuple(up)) for d, up in cols]
            v: list[float] = [*feature_vector(table, left, runs, rules.links, fits, rules.unit)]
            if unseen_too:
                unseen = told[0] if told else cards_unseen(deck, [c for _, up in table for c in up])
                v += unseen_features(table, unseen, stock, rules.links, rules.fits)
            xs.append([float(v[i]) for i in columns_of])
            ys.append(y)
            stages.append((left, runs))
    return xs, ys, stages


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting; ``a`` symmetric positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        pivot = m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / pivot
            if f:
                row, top = m[r], m[c]
                for k in range(c, n + 1):
                    row[k] -= f * top[k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


class _Fit:
    """A ridge regression on standardised features, its sums gathered once: ``solve`` for any ridge and prior."""

    def __init__(self, xs: list[list[float]], ys: list[float]) -> None:
        n, d = len(xs), len(xs[0])
        self.n, self.d = n, d
        self.mean = [sum(x[j] for x in xs) / n for j in range(d)]
        var = [sum((x[j] - self.mean[j]) ** 2 for x in xs) / n for j in range(d)]
        # (a feature that never varies in the games, as runs_done where no game finished a run, is left at 0, or
        # at the weight of the model the fit pulls toward)
        self.scale = [v ** 0.5 if v > 1e-12 else 1.0 for v in var]
        self.ymean = sum(ys) / n
        # Z'Z and Z'y of the standardised features (Z = (X - mean) / scale) and the centred labels
        zz = [[0.0] * d for _ in range(d)]
        zy = [0.0] * d
        mean, scale, ym = self.mean, self.scale, self.ymean
        for x, y in zip(xs, ys):
            z = [(x[j] - mean[j]) / scale[j] for j in range(d)]
            yc = y - ym
            for i in range(d):
                zi = z[i]
                row = zz[i]
                for j in range(i, d):
                    row[j] += zi * z[j]
                zy[i] += zi * yc
        for i in range(d):
            for j in range(i):
                zz[i][j] = zz[j][i]
        self.zz, self.zy = zz, zy

    def solve(self, ridge: float, prior: Sequence[float] | None = None) -> tuple[list[float], float]:
        """The raw weights and bias: ridge ``ridge`` (per position's worth of data: scaled by the positions),
        shrinking toward the raw weights ``prior`` (``None``: toward 0)."""
        lam = ridge * self.n
        tiny = 1e-9 * self.n   # (keeps the system solvable when features move together or never vary)
        a = [[v + (lam + tiny if i == j else 0.0) for j, v in enumerate(row)] for i, row in enumerate(self.zz)]
        toward = [0.0] * self.d if prior is None else [w * s for w, s in zip(prior, self.scale)]
        b = [v + lam * t for v, t in zip(self.zy, toward)]
        z = _solve(a, b)
        raw = [w / s for w, s in zip(z, self.scale)]
        bias = self.ymean - sum(w * m for w, m in zip(raw, self.mean))
        return raw, bias


def _report(raw: list[float], bias: float, xs: list, ys: list, stages: list) -> tuple[float, float]:
    """The held-out R² of a fit and how often it orders two tables of one stage as their games ended."""
    p = [bias + sum(w * x for w, x in zip(raw, row)) for row in xs]
    ym = sum(ys) / len(ys)
    total = sum((y - ym) ** 2 for y in ys) or 1.0
    r2 = 1 - sum((a - y) ** 2 for a, y in zip(p, ys)) / total
    rng = random.Random(1)
    by_stage: dict = {}
    for i, s in enumerate(stages):
        by_stage.setdefault(s, []).append(i)
    agree = pairs = 0
    for idx in by_stage.values():
        for _ in range(min(2000, len(idx) * 2)):
            a, b = rng.choice(idx), rng.choice(idx)
            if ys[a] == ys[b]:
                continue
            pairs += 1
            agree += (p[a] < p[b]) == (ys[a] < ys[b])
    return r2, agree / pairs if pairs else float("nan")


def _number(x: float) -> float | None:
    """``x`` to 4 places, or ``None`` where it is not a number (no pair of tables to order): valid JSON."""
    return round(x, 4) if x == x else None


def fit(games: Sequence[dict] | str | Path, *, ridge: float = 0.0, toward: ValueModel | str | Path | None = None,
        features: Sequence[str] = TABLE_FEATURES, run_weight: float = 3.0, held_out: bool = True,
        curve: Sequence[float] = (), name: str = "model") -> ValueModel:
    """A value model fitted on training games (a list as :func:`read_games` gives, or a data file's path): a
    ridge regression of how each game ended (the cards still hidden, plus ``run_weight`` for each run not
    finished; 0 for a won game) on the ``features`` of every table met (the table's own by default,
    :data:`~spiderette.players.features.TABLE_FEATURES`; ``features=FEATURES`` adds the cards unseen). In
    plain Python (no numpy): about a second per 100 games.

    ``ridge`` is the penalty per table, on standardised features: 0 is plain least squares, 0.01 a strong pull;
    it pulls the weights toward 0, or toward the model ``toward`` (the shipped one: ``toward="learned"``), so
    a small class set adjusts a good model rather than learning from nothing. With ``held_out`` a quarter of
    the deals (those divisible by 4) is kept apart and the fit reported on it (R², and how often two tables of
    one stage are ordered as their games ended); ``curve`` lists shares of the training deals to report a
    learning curve on. Save the model with :meth:`ValueModel.save`, to a file of your own.

    >>> m = fit(GAMES, ridge=0.1)   # the 1,000 games shipped for a class (and 333 held out)
    >>> m.report["trained_on"]["deals"], m.weights["runs_done"] < 0 < m.weights["face_down"]
    (1000, True)
    """
    names = list(features)
    unknown = [f for f in names if f not in FEATURES]
    if unknown or not names:
        raise ModelError(f"features must be some of spiderette.players.features.FEATURES, not {quote(names)}")
    if not isinstance(ridge, (int, float)) or isinstance(ridge, bool) or not ridge >= 0:
        raise ValueError(f"ridge must be a number >= 0, not {quote(ridge)}")
    prior = None
    if toward is not None:
        base = model_of(toward)
        prior = [base.weight(f) for f in names]
    if isinstance(games, (str, Path)):
        games = read_games(games)
    if not games:
        raise ModelError("no training games to fit on")
    columns_of = [FEATURES.index(f) for f in names]
    test = [g for g in games if held_out and g["deal"] % 4 == 0]
    train = [g for g in games if not (held_out and g["deal"] % 4 == 0)]
    xs, ys, _ = _rows(train, run_weight, columns_of)
    solver = _Fit(xs, ys)
    raw, bias = solver.solve(ridge, prior)
    report: dict[str, Any] = {
        "target": f"cards still hidden at the end of the planner's game, plus {run_weight:g} for each run"
                  " not finished (0 when won); lower is better", "run_weight": run_weight, "ridge": ridge,
        "toward": None if toward is None else model_of(toward).name,
        "trained_on": {"deals": len(train), "positions": len(xs)}}
    if test:
        xv, yv, sv = _rows(test, run_weight, columns_of)
        r2, ordered = _report(raw, bias, xv, yv, sv)
        report["trained_on"].update(held_out_deals=len(test), held_out_positions=len(xv))
        report["held_out"] = {"r2": round(r2, 4), "ordered": _number(ordered)}
        points = []
        for share in curve:
            part = train[: max(1, int(len(train) * share))]
            px, py, _ = _rows(part, run_weight, columns_of)
            w, b = _Fit(px, py).solve(ridge, prior)
            r2, ordered = _report(w, b, xv, yv, sv)
            points.append({"deals": len(part), "positions": len(px), "r2": round(r2, 4), "ordered": _number(ordered)})
        if points:
            report["learning_curve"] = points
    return ValueModel(tuple(names), tuple(raw), bias, name, None, report)


# ---------------------------------------------------------------------- the rounds of learning
def rounds_table(report: dict) -> str:
    """The rounds of a report (:data:`ROUNDS`, or ``report.json`` as ``benchmarks/train_value.py rounds`` writes it)
    as a Markdown table: each round's training games, its fit and its games on the tuning deals.

    >>> print(rounds_table(json.loads(ROUNDS.read_text())).splitlines()[2])   # doctest: +ELLIPSIS
    | round | played by | training games won | ...
    """
    s = report["shipped"]
    rows = [f"Tuning deals {report['tune_deals']} ({report['suits']} suits, {report['budget']:,} tables a plan);"
            f" the shipped value: {s['won']} won ({100 * s['share']:.2f}%), {s['hidden']} cards face down.", "",
            "| round | played by | training games won | held-out R² | tuning deals won | face down |"
            " vs the value it learned from | vs the shipped value |", "|---|---|---|---|---|---|---|---|"]
    for r in report["rounds"]:
        t, vb, vs = r["tune"], r["vs_before"], r["vs_shipped"]
        r2 = (r["held_out"] or {}).get("r2")
        fitted = "—" if r2 is None else f"{r2:.3f}"
        rows.append(f"| {r['round']} | {r['played_by']} | {r['training_won']} of {r['training_games']} | {fitted} |"
                    f" {t['won']} ({100 * t['share']:.2f}%) | {t['hidden']} | {vb['only_this']} vs {vb['only_other']},"
                    f" p = {vb['p']:.3g} | {vs['only_this']} vs {vs['only_other']}, p = {vs['p']:.3g} |")
    return "\n".join(rows)
