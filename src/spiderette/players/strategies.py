"""Strategies: ways to play a whole game, to be measured with :func:`spiderette.simulate`.

A strategy is anything callable as ``strategy(game) -> Move | None``: it is shown the table and answers
with a legal move, or ``None`` to resign. Five lines make one:

>>> from spiderette import simulate
>>> def first_move(game):
...     "Play the first legal move; resign when there is none."
...     moves = game.legal_moves()
...     return moves[0] if moves else None
>>> simulate(first_move, deals=range(1, 4), progress=False).rows[0]["end"]
'cycle (the same table 3 times)'

(A plain function has no memory: a study stops it when it brings the same table back three times.)

**Strategies play honestly unless they say otherwise**: a study hands a strategy a copy of the game whose
face-down and stock cards have been shuffled afresh (:meth:`spiderette.Game.redeal_hidden`), never the real
one, so reading a hidden card gives noise. A strategy with the attribute ``peeks = True`` is given (a copy of)
the real game, and is labelled "peeks" in every table and plot. Other optional attributes: ``name`` (the
label in tables) and ``note`` (set during a game: added to the row's ``end``). A study gives every deal a
fresh copy of the strategy (``copy.deepcopy``), so a strategy may remember the game in its attributes.

The built-in strategies are a few lines each over the named heuristics of :mod:`spiderette.engine.predicates`
(``turns_over_a_card``, ``builds_in_suit``, ``empties_a_column``, …); every random choice comes from the
table seen and the strategy's ``seed``, never from global state, so a study gives the same rows on every
machine.
"""

from __future__ import annotations

import functools
import inspect
import random
from collections.abc import Callable, Iterable
from typing import cast

from ..engine.errors import quote, whole
from ..engine.game import Game
from ..engine.move import Move
from ..engine.predicates import (
    builds_down,
    builds_in_suit,
    fills_an_empty_column,
    finishes_a_run,
    gains_an_empty_column,
    hidden_count,
    left_below,
    parks_a_group,
    spends_an_empty_column_to_turn_over,
    turns_over_a_card,
    turns_over_keeping_empty_columns,
    visible_key,
)
from .limits import Limit, budget_of, samples_of, seed_of
from .ranking import greedy_move
from .search import STUDY_NODES, STUDY_SAMPLES, search_hint
from .solver import solve

__all__ = [
    "Strategy", "RandomStrategy", "GreedyStrategy", "RulesOfThumb", "SearchStrategy", "SolverStrategy",
    "strategy_name", "strategy_label", "RULES_OF_THUMB",
]


def strategy_name(strategy: object) -> str:
    """The name of a strategy in tables: its ``name``, a function's name, or its class's name."""
    name = getattr(strategy, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(strategy, "__name__", None) or type(strategy).__name__


def strategy_label(strategy: object) -> str:
    """The name, with "(peeks)" for a strategy that sees the hidden cards.

    >>> strategy_label(SolverStrategy())
    'solver (peeks)'
    """
    return strategy_name(strategy) + (" (peeks)" if getattr(strategy, "peeks", False) is True else "")


def _seed_from(game: Game, salt: object) -> int:
    """A seed from the table seen (not its hidden cards) and ``salt``: the same everywhere (no ``hash()``)."""
    return random.Random(f"{salt!r}|{game.observation()!r}").getrandbits(63)


# ---------------------------------------------------------------------- the base class
_REQUIRED = object()   # a parameter without a default: always shown


def _differs(default: object, value: object) -> bool:
    try:
        return bool(default != value)
    except Exception:   # (a value whose comparison fails or is not a bool, as an array's)
        return default is not value


@functools.cache
def _parameters(cls: type) -> dict:
    """The settings of a strategy class, ``{name: default}``: the ``_defaults`` of the nearest class that
    says them, else the parameters of the nearest ``__init__`` (but ``self``, ``name``, ``*args`` and
    ``**kwargs``; one without a default maps to ``_REQUIRED``)."""
    for klass in cls.__mro__:
        if klass.__dict__.get("_defaults") is not None:
            return dict(klass.__dict__["_defaults"])
        if "__init__" in klass.__dict__:
            try:
                signature = inspect.signature(klass.__dict__["__init__"])
            except (TypeError, ValueError):
                return {}
            return {p.name: _REQUIRED if p.default is p.empty else p.default
                    for p in list(signature.parameters.values())[1:]
                    if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "name"}
    return {}


class Strategy:
    """A base for strategies: a label and a repr that show the settings, and a memory of the tables seen.

    Write :meth:`choose`; the rest comes with the class. ``__call__`` (a study calls the strategy) calls
    :meth:`new_game` when a new game starts (its first call, or a table with fewer moves than the last), then
    remembers the table shown and asks :meth:`choose`. :meth:`first_new` picks the first of some moves that
    does not lead back to a table already seen in this game.

    **Settings in the label and the repr, by themselves.** The parameters of your ``__init__`` (each kept as
    an attribute of the same name) are the strategy's settings: the repr shows them all, the label
    (:attr:`name`) those that differ from their defaults. A study labels its rows, tables and plots with
    :attr:`name`, so ``Mine()`` and ``Mine(weight=2)`` are told apart without passing ``name=``:

    >>> from spiderette import Game, simulate
    >>> from spiderette.engine.predicates import builds_in_suit, turns_over_a_card
    >>> class Mine(Strategy):
    ...     "Turn over a card, else build in suit (``weight`` builds count as one turn-over), else deal."
    ...     def __init__(self, weight: int = 1, name: str | None = None) -> None:
    ...         super().__init__(name)
    ...         self.weight = weight
    ...     def choose(self, game):
    ...         moves = game.legal_moves()
    ...         score = lambda m: self.weight * turns_over_a_card(game, m) + builds_in_suit(game, m)
    ...         best = [m for m in sorted(moves, key=score, reverse=True) if m.kind == "deal" or score(m) > 0]
    ...         return self.first_new(game, best)
    >>> Mine().name, Mine(weight=2).name, repr(Mine(weight=2)), Mine(weight=2, name="digger").name
    ('Mine', 'Mine(weight=2)', 'Mine(weight=2)', 'digger')
    >>> simulate(Mine(weight=2), deals=range(1, 3), suits=1, progress=False).strategy
    'Mine(weight=2)'

    A class may say its label with ``short_name`` (``"greedy"``: the settings then follow in brackets,
    ``"search (samples=40)"``), and its settings with ``_defaults`` (``{"seed": 0}``: only these are
    shown, as the built-in strategies do). ``name=`` sets the label outright.
    """

    peeks: bool = False
    #: Said in the row's ``end`` after the game (set during a game); ``None``: nothing to add.
    note: str | None = None
    _defaults: dict | None = None
    _name: str | None = None
    _last_moves = -1
    _seen: set = frozenset()  # type: ignore[assignment]

    def __init__(self, name: str | None = None) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a string, not {quote(name)}")
        self._name = name

    @property
    def name(self) -> str:
        """The label in tables and plots: ``name=`` if given; else the ``short_name`` with the settings that
        differ from their defaults in brackets (``"search (samples=40)"``); else, for a class without a
        ``short_name`` of its own, the class name with those settings (``"Mine(weight=2)"``)."""
        if self._name:
            return self._name
        # (a class is hashable: mypy checks the instances' __hash__ signature against Hashable's)
        defaults = _parameters(type(self))  # type: ignore[arg-type]
        changed = [f"{k}={quote(v)}" for k, v in self._settings().items() if defaults[k] is _REQUIRED
                   or _differs(defaults[k], v)]
        if "short_name" in type(self).__dict__:
            return self.short_name + (f" ({', '.join(changed)})" if changed else "")
        return type(self).__name__ + (f"({', '.join(changed)})" if changed else "")

    short_name = "strategy"
    """The label of the class in tables (``"greedy"``), the settings that differ following in brackets; a
    subclass without a ``short_name`` of its own is labelled by its class name."""

    def _settings(self) -> dict:
        return {k: getattr(self, k) for k in _parameters(type(self))  # type: ignore[arg-type]  # (as in name)
                if hasattr(self, k)}

    def __repr__(self) -> str:
        # (quote: a short value as its repr, a long one described briefly, so that repr never fails or floods)
        args = [f"{k}={quote(v)}" for k, v in self._settings().items()]
        if self._name:
            args.append(f"name={quote(self._name)}")
        return f"{type(self).__name__}({', '.join(args)})"

    def __call__(self, game: Game) -> Move | None:
        if game.move_count < self._last_moves or self._last_moves < 0:
            self.new_game()
        self._last_moves = game.move_count
        self._seen.add(visible_key(game))
        return self.choose(game)

    def new_game(self) -> None:
        """Forget the last game (called before the first move of each game). A subclass that remembers more
        clears it here too, after ``super().new_game()``."""
        self._seen = set()
        self.note = None

    def choose(self, game: Game) -> Move | None:  # pragma: no cover - the subclasses say
        """The move to play on ``game`` (a legal :class:`~spiderette.Move`, or notation as ``"ab"``), or
        ``None`` to resign: what a subclass writes.

        ``game`` is a copy, its hidden cards redealt unless the strategy ``peeks``: change it at will. The
        tables met so far in this game are :attr:`seen`; :meth:`first_new` avoids them.
        """
        raise NotImplementedError

    @property
    def seen(self) -> frozenset:
        """The tables met so far in this game, the one being chosen for included, each as a player sees it
        (:func:`~spiderette.engine.predicates.visible_key`: no hidden card), read only: ask whether a move
        leads back to one with ``visible_key(after) in self.seen`` (:meth:`first_new` does).

        >>> from spiderette import Game, GreedyStrategy
        >>> from spiderette.engine.predicates import visible_key
        >>> s, g = GreedyStrategy(), Game(seed=7)
        >>> move = s(g)
        >>> s.seen == {visible_key(g)}
        True
        """
        return frozenset(self._seen)

    def first_new(self, game: Game, moves: Iterable[Move]) -> Move | None:
        """The first of ``moves`` that does not lead back to a table seen in this game (a deal always may)."""
        probe = None
        for m in moves:
            if m.kind == "deal" or turns_over_a_card(game, m):
                return m  # the table cannot have been seen: fewer cards are hidden after it
            probe = probe or game.copy()
            probe.apply(m)
            key = visible_key(probe)
            probe.undo()
            if key not in self._seen:
                return m
        return None


# ---------------------------------------------------------------------- the built-in strategies
class RandomStrategy(Strategy):
    """Any legal move, at random: the baseline. The choice depends only on ``seed`` and the table seen.

    >>> g = Game(seed=7)
    >>> RandomStrategy(seed=1)(g) == RandomStrategy(seed=1)(g.redeal_hidden(5))
    True
    """

    short_name = "random"
    _defaults = {"seed": 0}

    def __init__(self, seed: int = 0, name: str | None = None) -> None:
        super().__init__(name)
        self.seed = seed_of(seed)

    def choose(self, game: Game) -> Move | None:
        moves = game.legal_moves()
        return random.Random(_seed_from(game, self.seed)).choice(moves) if moves else None


class GreedyStrategy(Strategy):
    """The hint ranking (:func:`spiderette.hints`), one move deep, never back to a table already seen:
    :func:`spiderette.players.ranking.greedy_move`, with the tables this strategy has seen in the game.

    >>> GreedyStrategy()(Game(seed=7))
    Move.parse('bd1')
    """

    short_name = "greedy"

    def choose(self, game: Game) -> Move | None:
        return greedy_move(game, self._seen)


#: The rules of thumb by name, for :class:`RulesOfThumb`.
RULES_OF_THUMB: dict[str, Callable[[Game, Move], bool]] = {
    "finish a run": finishes_a_run,
    "turn over a card": turns_over_keeping_empty_columns,
    "build in suit": builds_in_suit,
    "empty a column": gains_an_empty_column,
    "build down": builds_down,
    "spend an empty column to turn over a card": spends_an_empty_column_to_turn_over,
    "park a group in an empty column": parks_a_group,
}


class RulesOfThumb(Strategy):
    """The classic advice (the seed texts' tips): the first rule that offers a move decides.

    1. **finish a run** (King to Ace: it leaves, and frees its place);
    2. **turn over a card** (nearest an empty column first: the fewest face-down cards);
    3. **build in suit** (colour in red-black);
    4. **empty a column**;
    5. **build down** in any suit, from a card out of order;
    6. **keep an empty column**: spend one only now, to turn over a card, or to park a whole group;
    7. **deal only when stuck** (an empty column is first filled with a whole group, as the rules require).

    Never back to a table already seen; resign when nothing is left. ``rules`` (names from
    :data:`RULES_OF_THUMB`) changes the order or leaves rules out: a way to test a piece of advice.

    >>> RulesOfThumb()(Game(seed=7))
    Move.parse('bd1')
    >>> RulesOfThumb(rules=["build in suit", "turn over a card"]).name
    "rules of thumb (rules=('build in suit', 'turn over a card'))"
    """

    short_name = "rules of thumb"
    _defaults = {"rules": tuple(RULES_OF_THUMB)}

    def __init__(self, rules: Iterable[str] = tuple(RULES_OF_THUMB), name: str | None = None) -> None:
        super().__init__(name)
        if isinstance(rules, str) or not isinstance(rules, Iterable):
            raise TypeError(f"rules must be a list of rule names, not {quote(rules)}")
        self.rules = tuple(rules)
        for r in self.rules:
            if r not in RULES_OF_THUMB:
                raise ValueError(f"unknown rule {quote(r)} in rules: one of {', '.join(map(repr, RULES_OF_THUMB))}")

    def choose(self, game: Game) -> Move | None:
        moves = game.legal_moves()
        for rule in self.rules:
            applies = RULES_OF_THUMB[rule]
            chosen = sorted((m for m in moves if applies(game, m)), key=lambda m: self._preference(game, m))
            move = self.first_new(game, chosen)
            if move is not None:
                return move
        deal = [m for m in moves if m.kind == "deal"]
        if deal:
            return deal[0]
        if game.stock_count:  # stuck with an empty column: fill it with a whole group, then deal
            fill = [m for m in moves if fills_an_empty_column(game, m) and m.src is not None
                    and m.count == game.movable(m.src) and left_below(game, m) > 0]
            return self.first_new(game, sorted(fill, key=lambda m: -cast(int, m.count)))   # (moves: counted)
        return None

    @staticmethod
    def _preference(game: Game, m: Move) -> tuple:
        # a send first (runs sent by hand), then the fewest face-down cards left in the source column, then the
        # longest group, then the leftmost
        if m.kind != "move":
            return 0, 0, 0, m.src, -1
        assert m.src is not None and m.count is not None   # (a legal move, resolved)
        return 1, game.face_down(m.src), -m.count, m.src, m.dst


class SearchStrategy(Strategy):
    """The honest search (:func:`spiderette.players.search.search_hint`) at every move: it redeals the hidden cards
    ``samples`` times, solves each draw within ``node_limit`` tables, and plays the move that wins most.

    At most ``samples * node_limit`` tables per move. A move back to a table already seen is replaced by the
    greedy choice. The draws depend only on ``seed`` and the table seen. ``limit``: the tables for each draw,
    a :class:`~spiderette.Limit` of tables only (``node_limit`` is its shorthand).

    >>> SearchStrategy(Limit(tables=500), samples=4)
    SearchStrategy(samples=4, node_limit=500, seed=0)
    """

    short_name = "search"
    _defaults = {"samples": STUDY_SAMPLES, "node_limit": STUDY_NODES, "seed": 0}

    def __init__(self, limit: Limit | None = None, *, samples: int = STUDY_SAMPLES, node_limit: int = STUDY_NODES,
                 seed: int = 0, name: str | None = None) -> None:
        super().__init__(name)
        self.samples = samples_of(samples)
        checked = Limit.of(node_limit=node_limit, none=False).tables
        tables = budget_of("SearchStrategy", limit, {"node_limit": (checked, STUDY_NODES)}).tables
        assert tables is not None   # (budget_of gives a Limit without tables the shorthand's number)
        self.node_limit = tables
        self.seed = seed_of(seed)

    def choose(self, game: Game) -> Move | None:
        hint = search_hint(game, self.samples, seed=_seed_from(game, self.seed), node_limit=self.node_limit)
        if hint is None:
            return None
        assert hint.move is not None   # (a search hint has its move)
        move = self.first_new(game, [hint.move])
        return move if move is not None else greedy_move(game, self._seen)


class SolverStrategy(Strategy):
    """The upper bound: the solver, which **peeks** at every hidden card.

    It solves once and plays the winning line, solving again if the game leaves the line; it resigns when
    the deal is proven lost. When the solver gives up (``node_limit`` tables, or ``time_limit`` seconds: a
    time limit makes a study depend on the machine), ``fallback`` (greedy) plays, and the solver tries again
    once ``retry_after`` more cards have come into view; the row's ``end`` says so. ``limit``: the solver's
    budget, a :class:`~spiderette.Limit` of tables and seconds (``node_limit`` and ``time_limit`` are its
    shorthands; a field left out is the shorthand's default).

    >>> SolverStrategy()
    SolverStrategy(node_limit=200000, time_limit=None, retry_after=6, fallback=GreedyStrategy())
    >>> SolverStrategy(Limit(tables=30_000))
    SolverStrategy(node_limit=30000, time_limit=None, retry_after=6, fallback=GreedyStrategy())
    """

    short_name = "solver"
    peeks = True
    _defaults = {"node_limit": 200_000, "time_limit": None, "retry_after": 6}

    def __init__(self, limit: Limit | None = None, *, node_limit: int | None = 200_000,
                 time_limit: float | None = None, retry_after: int = 6,
                 fallback: Callable[[Game], Move | None] | None = None, name: str | None = None) -> None:
        super().__init__(name)
        given = Limit.of(time_limit, node_limit)
        limit = budget_of("SolverStrategy", limit, {"node_limit": (given.tables, 200_000),
                                                    "time_limit": (given.seconds, None)})
        if limit.tables is None and limit.seconds is None:
            raise ValueError("give node_limit or time_limit (or both): the solver needs a budget")
        self.node_limit, self.time_limit = limit.tables, limit.seconds
        self.retry_after = whole(retry_after, "retry_after", 1, 104)
        if fallback is not None and not callable(fallback):
            raise TypeError(f"fallback must be a strategy (a callable), not {quote(fallback)}")
        self.fallback = fallback if fallback is not None else GreedyStrategy()
        self._line: list[Move] = []
        self._expect: tuple | None = None
        self._gave_up_at: int | None = None  # hidden cards when the solver last gave up
        self._events: list[str] = []

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f", fallback={quote(self.fallback)})"

    def new_game(self) -> None:
        super().new_game()
        self._line, self._expect, self._gave_up_at, self._events = [], None, None, []

    def choose(self, game: Game) -> Move | None:
        if self._line and game.state_key() == self._expect:
            return self._next(game)
        if self._gave_up_at is None or hidden_count(game) <= self._gave_up_at - self.retry_after:
            result = solve(game, time_limit=self.time_limit, node_limit=self.node_limit)
            if result.result == "win":
                if self._gave_up_at is not None:
                    self._say(f"line found at move {game.move_count}")
                self._gave_up_at = None
                self._line = list(result.moves)
                return self._next(game)
            if result.result == "loss":
                self._say(f"proven lost at move {game.move_count}")
                return None
            if self._gave_up_at is None:
                self._say(f"solver gave up at move {game.move_count}, {strategy_name(self.fallback)} played")
            self._gave_up_at = hidden_count(game)
        self._line = []
        return self.fallback(game)

    def _say(self, event: str) -> None:
        self._events.append(event)
        self.note = "; ".join(self._events)

    def _next(self, game: Game) -> Move:
        move = self._line.pop(0)
        probe = game.copy()
        probe.apply(move)
        self._expect = probe.state_key()
        return move
