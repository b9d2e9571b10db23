"""A Gymnasium environment: ``SpideretteEnv``, for reinforcement learning (``pip install "spiderette[rl]"``).

One episode is one game. The agent sees what a player sees, never a face-down or stock card; it picks
from a fixed set of numbered actions, and ``info["action_mask"]`` tells which of them are legal now.

**Actions** (``Discrete``; ``n`` columns: 7, or 10 in spider):

* ``0 .. 13·n·(n−1) − 1``: move the top ``count`` cards (1 to 13) of column ``src`` to column ``dst``,
  action ``(src·(n−1) + j)·13 + count − 1`` where ``j`` is ``dst`` counted among the columns other than
  ``src`` (``dst``, or ``dst − 1`` when ``dst > src``);
* ``13·n·(n−1)`` (``env.deal_action``): the deal;
* with ``auto_remove=False`` only, ``n`` more: send the complete run of column ``c``, ``deal_action + 1 + c``.

Spiderette has 547 actions (554 with ``auto_remove=False``), spider 1171 (1181). ``env.action_to_move(a)``
and ``env.move_to_action(m)`` translate both ways.

**Observation** (a ``Dict`` of ``int8`` arrays), made from :meth:`spiderette.Game.observation` alone:

* ``"columns"`` (``n × L``): the face-up cards of each column, bottom to top, then zeros. A card is
  ``13·suit + rank``: rank 1 (ace) to 13 (king), suit 0 to 3 for spades, hearts, clubs, diamonds, so ``AS``
  is 1, ``KS`` 13, ``AH`` 14, ``KD`` 52; 0 is no card (dense, for a network's embedding table). The engine's
  cards are ``16·suit + rank`` (:mod:`spiderette.engine.cards`, where
  :func:`~spiderette.engine.cards.card_number` and :func:`~spiderette.engine.cards.card_of_number` convert
  between them and the observation's codes). ``L`` is the most face-up cards a column can hold:
  ``min(cards in the deck, 13 × (deals + 1))``, 52 in spiderette, 78 in spider;
* ``"face_down"`` (``n``): how many face-down cards lie under each column;
* ``"stock"`` (1): how many cards are left in the stock;
* ``"runs"`` (1): the runs completed so far;
* ``"foundations"`` (``runs_total``): the king of each completed run in the order they left, then zeros.

**Reward** (``reward="runs"``, the default): +1 for each run completed by the step (with
``auto_remove=False``, when it is sent), 0 otherwise: no cost per move, so the return of an episode is the
number of runs completed. With four suits a beginner completes none, so ``reward="shaped"`` adds a
potential-based shaping (Ng, Harada and Russell, 1999, which leaves the best policy unchanged): the change
of ``SHAPED_TURN`` × minus the cards still face down, plus ``SHAPED_LINK`` × the
in-suit links among face-up cards (a card on the next higher card of its suit):
:func:`spiderette.engine.predicates.shaped_potential`, which a learner in plain Python uses on a ``Game``.
Turning a card over earns 0.1, making an in-suit link 0.02; undoing either costs the same. The only other reward is
``illegal_reward`` (default −1) for an **illegal action**: a number of the action space whose
move is not legal now. It changes nothing in the game, counts as a step and sets ``info["illegal_action"]``;
training does not crash on it. A number outside the action space is a ``ValueError``.

**End**: ``terminated`` when the game is won, or lost (no legal action, or a dead end: cards are left in the
stock but no deal can ever be made again); ``truncated`` after ``max_steps`` steps (``None``: never).

**Deals**: ``reset(seed=N)`` plays deal number ``N``, the very deal of ``Game(seed=N)`` (``0 <= N < 2**64``).
A ``reset()`` without a seed draws the next deal number (1 to 10⁹) from ``env.np_random``, so the episodes
after a seeded reset repeat too. ``info["deal"]`` is the deal number (``Game(variant, seed=info["deal"],
suits=suits)`` replays it).
``reset(options={"game": g})`` starts from a copy of the game ``g`` (of the environment's variant, suits and
``auto_remove``) instead. A ``reset`` refused (a bad ``seed`` or ``options``) changes nothing: the episode
under way goes on. ``info`` also has ``"status"`` (``Game.status``), ``"runs_completed"`` and ``"steps"``.

A masked random agent playing one game:

>>> from spiderette.env import SpideretteEnv
>>> env = SpideretteEnv(suits=1)
>>> obs, info = env.reset(seed=7)                  # deal 7: the cards of Game(seed=7, suits=1)
>>> obs["columns"][0][:3], obs["face_down"], obs["stock"]
(array([4, 0, 0], dtype=int8), array([0, 1, 2, 3, 4, 5, 6], dtype=int8), array([24], dtype=int8))
>>> _ = env.action_space.seed(0)                   # the agent's own random numbers
>>> total, done = 0.0, False
>>> while not done:
...     action = env.action_space.sample(mask=info["action_mask"])   # a legal action, at random
...     obs, reward, terminated, truncated, info = env.step(action)
...     total += reward
...     done = terminated or truncated
>>> total == info["runs_completed"], info["status"] in ("won", "lost", "dead_end", "playing")
(True, True)
>>> print(env.action_to_move(0), env.action_to_move(env.deal_action), env.move_to_action("ba1"))
ab1 d 78

The environment is registered as ``"spiderette/Spiderette-v0"`` for ``gymnasium.make`` (keyword arguments
as for ``SpideretteEnv``).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from typing import Any

from .engine.cards import SUITS, card_number
from .engine.deals import check_seed
from .engine.errors import is_whole, quote
from .engine.game import Game, as_move
from .engine.move import DEAL, SENDS, Move, move_table
from .engine.predicates import shaped_potential
from .engine.variants import get_rules
from .engine.words import plural

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as e:  # gymnasium is optional: the engine needs nothing
    from .engine.platform import install_advice

    raise ImportError(f"spiderette.env needs gymnasium and numpy ({e.name} is missing): "
                      + install_advice('pip install "spiderette[rl]"')) from e

__all__ = ["SpideretteEnv", "ENV_ID", "REWARDS", "SHAPED_TURN", "SHAPED_LINK"]

ENV_ID = "spiderette/Spiderette-v0"
MAX_COUNT = 13  # a movable group is at most king to ace
RANKS = "A23456789TJQK"


_NUMBERS = {r + s: card_number(r + s) for s in SUITS for r in RANKS}


def _real(value: object, name: str) -> float:
    """``value`` as a float if it is a finite real number (``int``, ``float`` or a NumPy number, not a
    ``bool``): a reward. A wrong type is a ``TypeError``, NaN, infinity or a number too large a ``ValueError``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {quote(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, not {quote(value)}")
    return number


#: The rewards an environment can give (see the module's text).
REWARDS = ("runs", "shaped")
#: Shaped reward: for each card turned face up, and for each in-suit link made among face-up cards.
SHAPED_TURN = 0.1
SHAPED_LINK = 0.02


class SpideretteEnv(gym.Env):
    """Spiderette (or another variant of the family) as a Gymnasium environment; see :mod:`spiderette.env`.

    ``variant`` and ``suits`` as for :class:`spiderette.Game`; ``auto_remove=False`` keeps complete runs in
    the tableau until a send action; ``max_steps`` truncates an episode (``None``: never); ``reward``:
    ``"runs"`` (+1 a run) or ``"shaped"`` (runs, cards turned over and in-suit links);
    ``render_mode="ansi"`` makes :meth:`render` return the text picture of the table; ``illegal_reward`` (a
    finite ``int`` or ``float``) is the reward of an illegal action.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, variant: str = "spiderette", suits: int = 4, max_steps: int | None = 1000,
                 render_mode: str | None = None, *, auto_remove: bool = True,
                 illegal_reward: float = -1.0, reward: str = "runs") -> None:
        rules = get_rules(variant)
        Game(variant, seed=0, suits=suits, auto_remove=auto_remove)  # checks suits and auto_remove
        if max_steps is not None:
            told = f"max_steps must be a whole number >= 1, or None, not {quote(max_steps)}"
            if not is_whole(max_steps):
                raise TypeError(told)
            if max_steps < 1:
                raise ValueError(told)
        if render_mode is not None and not (isinstance(render_mode, str)
                                            and render_mode in self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {quote(render_mode)}")
        if not (isinstance(reward, str) and reward in REWARDS):
            raise ValueError(f"reward must be 'runs' or 'shaped', not {quote(reward)}")
        illegal_reward = _real(illegal_reward, "illegal_reward")
        self.reward = reward
        self.variant, self.suits, self.auto_remove = rules.name, suits, auto_remove
        self.max_steps, self.render_mode, self.illegal_reward = max_steps, render_mode, illegal_reward
        n = self.columns = rules.columns
        self._runs_total = rules.runs
        table = move_table(n)
        self._actions: list[Move] = [table[s][d][k] for s in range(n) for d in range(n) if d != s
                                     for k in range(1, MAX_COUNT + 1)]
        self.deal_action = len(self._actions)
        self._actions.append(DEAL)
        if not auto_remove:
            self._actions.extend(SENDS[:n])
        self._index = {m: a for a, m in enumerate(self._actions)}
        self.action_space: spaces.Discrete = spaces.Discrete(len(self._actions))
        # The face-up cards of a column descend rank by rank, except where a deal put a card: at most 13
        # cards, then 13 more for each card dealt onto the column (one per deal).
        self.face_up_limit = min(rules.cards, MAX_COUNT * (len(rules.deal_sizes()) + 1))

        def box(high: int, shape: tuple[int, ...]) -> spaces.Box:
            return spaces.Box(0, high, shape, dtype=np.int8)

        self.observation_space = spaces.Dict({
            "columns": box(13 * len(SUITS), (n, self.face_up_limit)),
            "face_down": box(rules.cards, (n,)),
            "stock": box(rules.stock_size, (1,)),
            "runs": box(rules.runs, (1,)),
            "foundations": box(13 * len(SUITS), (rules.runs,)),
        })
        self.game: Game | None = None
        """The live game. It knows the hidden cards: it is for rendering and study, not for the agent."""
        self._deal: int | None = None
        self._steps = 0
        self._mask = np.zeros(len(self._actions), dtype=np.int8)

    # ------------------------------------------------------------------ numbering
    def action_to_move(self, action: int) -> Move:
        """The move of action number ``action``.

        >>> env = SpideretteEnv()
        >>> env.action_to_move(0), env.action_to_move(14), env.action_to_move(546)
        (Move.parse('ab1'), Move.parse('ac2'), Move.parse('d'))
        """
        return self._actions[self._check_action(action)]

    def move_to_action(self, move: Move | str) -> int:
        """The action number of ``move`` (a ``Move`` or notation with its count, like ``"ab3"``).

        >>> SpideretteEnv().move_to_action("ab1"), SpideretteEnv(variant="spider").move_to_action("d")
        (0, 1170)
        """
        m = as_move(move)
        try:
            return self._index[m]
        except KeyError:
            raise ValueError(f"{m} has no action number in {self.variant}"
                             f"{' (runs leave by themselves)' if m.kind == 'send' else ''}"
                             f"{' (give the count: ab3)' if m.kind == 'move' and m.count is None else ''}"
                             ) from None

    def describe(self, action: int) -> str:
        """Action ``action`` in words and cards, on the table now: ``"bd1: 6♥ onto 7♣"``, ``"d: deal a row"``;
        an action that is not legal now says so (no card face down is ever named).

        >>> env = SpideretteEnv()
        >>> _ = env.reset(seed=7)
        >>> env.describe(env.move_to_action("bd1")), env.describe(env.deal_action), env.describe(0)
        ('bd1: 6♥ onto 7♣', 'd: deal a row', 'ab1: not legal now')
        """
        from .engine.cards import card_text
        from .players.advice import step_words  # (the words the hints use)

        m = self.action_to_move(action)
        if self.game is None:
            raise gym.error.ResetNeeded("call reset() before describe()")
        if not self._mask[self._check_action(action)]:
            return f"{m}: not legal now"
        return f"{m}: {step_words(self.game, m, card_text)}"

    def _check_action(self, action: object) -> int:
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            a = operator.index(action)  # type: ignore[arg-type]  # (anything: a TypeError is caught below)
        except TypeError:
            raise ValueError(f"an action is a whole number from 0 to {self.action_space.n - 1},"
                             f" not {quote(action)}") from None
        if not 0 <= a < self.action_space.n:
            raise ValueError(f"action {quote(a)} is outside the action space (0 to {self.action_space.n - 1})")
        return a

    # ------------------------------------------------------------------ what the agent sees
    def _observe(self) -> dict[str, np.ndarray]:
        assert self.game is not None   # (after reset(): step and reset observe)
        o = self.game.observation()  # only what a player sees: no face-down or stock card is in it
        n = self.columns
        columns = np.zeros((n, self.face_up_limit), dtype=np.int8)
        for i, col in enumerate(o["columns"]):
            up = [_NUMBERS[c] for c in col["up"]]
            columns[i, :len(up)] = up
        foundations = np.zeros(self._runs_total, dtype=np.int8)
        foundations[:len(o["foundations"])] = [_NUMBERS[run[0]] for run in o["foundations"]]
        return {
            "columns": columns,
            "face_down": np.array([col["down"] for col in o["columns"]], dtype=np.int8),
            "stock": np.array([o["stock"]], dtype=np.int8),
            "runs": np.array([len(o["foundations"])], dtype=np.int8),
            "foundations": foundations,
        }

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as 0/1 ``int8`` (also ``info["action_mask"]``; sb3-contrib asks this).

        Legal moves depend only on what a player sees: face-up cards, empty columns, the stock count.
        """
        return self._mask.copy()

    def _info(self, status: str, illegal: bool = False) -> dict[str, Any]:
        assert self.game is not None   # (after reset())
        return {"action_mask": self._mask.copy(), "status": status, "deal": self._deal,
                "runs_completed": self.game.runs_completed, "steps": self._steps, "illegal_action": illegal}

    def _update_mask(self) -> None:
        self._mask = np.zeros(len(self._actions), dtype=np.int8)
        index = self._index
        assert self.game is not None   # (after reset())
        for m in self.game.legal_moves():
            self._mask[index[m]] = 1

    # ------------------------------------------------------------------ the Gymnasium API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start an episode: deal ``seed`` if given, else a deal drawn from ``np_random``, or
        ``options={"game": g}``. Returns the observation and the info (with ``"action_mask"``).

        A refused ``seed`` or ``options`` raises before anything changes: the episode under way goes on."""
        if seed is not None:
            check_seed(seed)
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"options must be a dict such as {{'game': g}}, or None, not {quote(options)}")
        game = (options or {}).get("game")
        if game is not None:
            if not isinstance(game, Game):
                raise TypeError(f"options['game'] must be a spiderette.Game, not {quote(game)}")
            if (game.variant, game.suits, game.auto_remove) != (self.variant, self.suits, self.auto_remove):
                raise ValueError(f"options['game'] is {game.variant} with {plural(game.suits, 'suit')}, auto_remove="
                                 f"{game.auto_remove}; this environment plays {self.variant} with {self.suits}"
                                 f" suits, auto_remove={self.auto_remove}")
            if any(len(game.column(i)) - game.face_down(i) > self.face_up_limit for i in range(self.columns)):
                raise ValueError(f"options['game'] has a column of more than {self.face_up_limit} face-up cards,"
                                 " more than a game from a deal can have: it does not fit the observation space")
        super().reset(seed=seed)  # (the checks passed: from here on nothing is refused)
        if game is not None:
            self.game, self._deal = game.copy(), game.seed
        else:
            self._deal = seed if seed is not None else int(self.np_random.integers(1, 1_000_000_000))
            self.game = Game(self.variant, seed=self._deal, suits=self.suits, auto_remove=self.auto_remove)
        self._steps = 0
        self._update_mask()
        return self._observe(), self._info(self.game.status)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play action ``action``; returns ``(observation, reward, terminated, truncated, info)``."""
        if self.game is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        a = self._check_action(action)
        g = self.game
        illegal = not self._mask[a]
        if illegal:
            reward = self.illegal_reward
        else:
            before = g.runs_completed
            potential = shaped_potential(g, SHAPED_TURN, SHAPED_LINK) if self.reward == "shaped" else 0.0
            g.apply(self._actions[a])
            reward = float(g.runs_completed - before)
            if self.reward == "shaped":
                reward += shaped_potential(g, SHAPED_TURN, SHAPED_LINK) - potential
            self._update_mask()
        self._steps += 1
        status = g.status
        terminated = status != "playing"
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        return self._observe(), reward, terminated, truncated, self._info(status, illegal)

    def render(self) -> str | None:
        """The text picture of the table (``str(game)``) with ``render_mode="ansi"``; ``None`` otherwise."""
        if self.render_mode != "ansi":
            return None
        if self.game is None:
            raise gym.error.ResetNeeded("call reset() before render()")
        return str(self.game)


# (a class is an environment creator; gymnasium's EnvCreator protocol asks for a callable of **kwargs alone)
gym.register(id=ENV_ID, entry_point=SpideretteEnv)  # type: ignore[arg-type]
