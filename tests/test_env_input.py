"""Bad arguments to the Gymnasium environment (issue 20): a ``TypeError`` or ``ValueError`` that names the
argument and quotes at most about 60 characters of it, and a refused call leaves the episode as it was."""

from __future__ import annotations

import copy
import fractions
import math

import pytest

gym = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from spiderette import Game  # noqa: E402
from spiderette.engine.cards import card_number  # noqa: E402
from spiderette.env import SpideretteEnv  # noqa: E402

#: Error messages stay short whatever the input.
SHORT = 300


def short_error(error, call, *names: str) -> str:
    with pytest.raises(error) as e:
        call()
    message = str(e.value)
    assert len(message) < SHORT, message
    for name in names:
        assert name in message
    return message


def snapshot(env: SpideretteEnv) -> tuple:
    """What a refused call must leave alone: the game, the episode's counters and the random numbers."""
    return (None if env.game is None else (env.game.position(), list(env.game.history)), env._deal, env._steps,
            env.action_masks().tolist(), copy.deepcopy(env.np_random.bit_generator.state))


def in_play() -> SpideretteEnv:
    env = SpideretteEnv()
    env.reset(seed=7)
    env.step(env.move_to_action("bd1"))
    return env


# ------------------------------------------------------------------------------------------------ the constructor
@pytest.mark.parametrize("value, error, words", [
    (10**400, ValueError, "illegal_reward must be a finite number, not a whole number of 401 digits"),
    (math.inf, ValueError, "illegal_reward must be a finite number, not inf"),
    (math.nan, ValueError, "illegal_reward must be a finite number, not nan"),
    ("7", TypeError, "illegal_reward must be a number, not '7'"),
    ("x", TypeError, "illegal_reward must be a number, not 'x'"),
    (True, TypeError, "illegal_reward must be a number, not True"),
    (None, TypeError, "illegal_reward must be a number, not None"),
    ([-1.0], TypeError, "illegal_reward must be a number, not [-1.0]"),
], ids=["10^400", "inf", "nan", "text-7", "text-x", "True", "None", "list"])
def test_illegal_reward_is_a_finite_number(value, error, words):
    assert short_error(error, lambda: SpideretteEnv(illegal_reward=value)) == words


@pytest.mark.parametrize("value", [-2, 0.5, np.float32(-0.25), np.int64(-3)])
def test_illegal_reward_numbers_are_the_reward_of_an_illegal_action(value):
    env = SpideretteEnv(illegal_reward=value)
    env.reset(seed=7)
    _, reward, *_ = env.step(0)  # ab1: 4H onto JC, not legal
    assert type(reward) is float and reward == float(value)


LONG = "x" * 100_000


@pytest.mark.parametrize("kwargs, error, name", [
    ({"max_steps": LONG}, TypeError, "max_steps"),
    ({"max_steps": [1] * 100_000}, TypeError, "max_steps"),
    ({"max_steps": 0}, ValueError, "max_steps"),
    ({"max_steps": 1.5}, TypeError, "max_steps"),
    ({"render_mode": LONG}, ValueError, "render_mode"),
    ({"render_mode": np.array([1, 2])}, ValueError, "render_mode"),
    ({"reward": LONG}, ValueError, "reward"),
    ({"reward": np.array(["runs", "shaped"])}, ValueError, "reward"),
    ({"variant": LONG}, ValueError, "variant"),
    ({"suits": LONG}, TypeError, "suits"),
    ({"auto_remove": LONG}, TypeError, "auto_remove"),
    ({"illegal_reward": LONG}, TypeError, "illegal_reward"),
])
def test_constructor_errors_name_the_argument_and_stay_short(kwargs, error, name):
    message = short_error(error, lambda: SpideretteEnv(**kwargs), name)
    if isinstance(next(iter(kwargs.values())), str):
        assert "(100000 characters)" in message


# ------------------------------------------------------------------------------------------------ reset
@pytest.mark.parametrize("kwargs, error, name", [
    ({"seed": 2**64}, ValueError, "seed"),
    ({"seed": -1}, ValueError, "seed"),
    ({"seed": True}, TypeError, "seed"),
    ({"seed": 7.0}, TypeError, "seed"),
    ({"seed": "7"}, TypeError, "seed"),
    ({"seed": 10**5000}, ValueError, "seed"),
    ({"options": "x"}, TypeError, "options"),
    ({"options": ["game"]}, TypeError, "options"),
    ({"options": {"game": "x" * 100_000}}, TypeError, "options['game']"),
    ({"options": {"game": Game(seed=3, suits=1)}}, ValueError, "options['game']"),
    ({"seed": 2**64, "options": {"game": Game(seed=3)}}, ValueError, "seed"),
])
def test_a_refused_reset_leaves_the_episode_as_it_was(kwargs, error, name):
    env = in_play()
    before = snapshot(env)
    short_error(error, lambda: env.reset(**kwargs), name)
    assert snapshot(env) == before
    _, _, _, _, info = env.step(env.deal_action)
    assert info["deal"] == 7 and info["steps"] == 2 and env.game.history[0] == env.action_to_move(
        env.move_to_action("bd1"))
    assert env.game.seed == 7


def test_a_refused_first_reset_leaves_the_environment_unreset():
    env = SpideretteEnv()
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=2**64)
    assert env.game is None
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)


def test_after_a_refused_reset_unseeded_resets_draw_the_same_deals():
    env, twin = in_play(), in_play()
    with pytest.raises(ValueError):
        env.reset(seed=2**64)
    assert env.reset()[1]["deal"] == twin.reset()[1]["deal"]


def test_reset_options_may_be_any_mapping():
    from types import MappingProxyType

    g = Game(seed=11)
    _, info = SpideretteEnv().reset(options=MappingProxyType({"game": g}))
    assert info["deal"] == 11


# ------------------------------------------------------------------------------------------------ step
@pytest.mark.parametrize("action", ["x" * 100_000, ["x"] * 100_000, 10**5000, 2**64, b"x" * 100_000],
                         ids=["long-text", "long-list", "huge-number", "2^64", "long-bytes"])
def test_a_bad_action_is_refused_briefly_and_changes_nothing(action):
    env = in_play()
    before = snapshot(env)
    short_error(ValueError, lambda: env.step(action), "action")
    assert snapshot(env) == before


@pytest.mark.parametrize("code, error", [("x", ValueError), ("ASS", ValueError), ("1S", ValueError),
                                         ("x" * 100_000, ValueError), (None, TypeError), (1, TypeError)],
                         ids=["x", "ASS", "1S", "long-text", "None", "1"])
def test_card_number_refuses_what_is_not_a_card(code, error):
    short_error(error, lambda: card_number(code), "a card is written like 'AS'")


# ------------------------------------------------------------------------------------------------ any object
ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63), st.floats(), st.text(max_size=20),
    st.binary(max_size=10), st.complex_numbers(), st.fractions(), st.decimals(),
    st.sampled_from(["spiderette", "spider", "ansi", "runs", "shaped", "game", "human", 4, 2, 1, 0]),
    st.lists(st.integers(), max_size=3), st.tuples(st.integers()), st.dictionaries(st.text(max_size=5),
                                                                                     st.integers(), max_size=3),
    st.builds(np.int64, st.integers(min_value=-5, max_value=600)), st.builds(np.float64, st.floats()),
    st.just(np.array([1, 2])), st.just(np.array(3)), st.just(object()), st.just(fractions.Fraction(1, 3)),
    st.just(10**400), st.just(-(10**5000)), st.builds(lambda n: "x" * n, st.integers(100, 100_000)),
    st.builds(lambda n: [0] * n, st.integers(100, 100_000)),
)
REAL = (int, float, np.integer, np.floating)
ERRORS = (TypeError, ValueError)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["variant", "suits", "max_steps", "render_mode", "auto_remove",
                                        "illegal_reward", "reward"]), ANYTHING, max_size=3))
def test_any_constructor_arguments_raise_only_type_or_value_errors(kwargs):
    try:
        env = SpideretteEnv(**kwargs)
    except ERRORS as e:
        assert len(str(e)) < SHORT, str(e)
    else:
        obs, info = env.reset(seed=1)
        assert env.observation_space.contains(obs)
        assert math.isfinite(env.illegal_reward) and type(env.illegal_reward) is float
        given = kwargs.get("illegal_reward", -1.0)
        assert isinstance(given, REAL) and not isinstance(given, (bool, np.bool_))  # ("7" is not a number)


GAMES = st.builds(Game, seed=st.integers(0, 99), suits=st.sampled_from([4, 1]))


@settings(max_examples=60, deadline=None)
@given(seed=st.one_of(st.none(), st.integers(min_value=0, max_value=2**64 - 1), ANYTHING),
       options=st.one_of(st.none(), ANYTHING, st.fixed_dictionaries({"game": st.one_of(ANYTHING, GAMES)})))
def test_any_reset_arguments_raise_only_type_or_value_errors_and_a_refusal_changes_nothing(seed, options):
    env = in_play()
    before = snapshot(env)
    try:
        obs, info = env.reset(seed=seed, options=options)
    except ERRORS as e:
        assert len(str(e)) < SHORT, str(e)
        assert snapshot(env) == before
    else:
        assert env.observation_space.contains(obs) and info["steps"] == 0 and env.game.history == []
        game = options.get("game") if isinstance(options, dict) else None
        if game is not None:
            assert info["deal"] == game.seed and env.game.position() == game.position()
        elif seed is not None:
            assert info["deal"] == seed and env.game.position() == Game(seed=seed).position()


@settings(max_examples=60, deadline=None)
@given(action=st.one_of(ANYTHING, st.integers(min_value=-3, max_value=550)))
def test_any_action_raises_only_a_value_error_and_a_refusal_changes_nothing(action):
    env = in_play()
    before = snapshot(env)
    try:
        obs, reward, terminated, truncated, info = env.step(action)
    except ValueError as e:
        assert len(str(e)) < SHORT and "action" in str(e), str(e)
        assert snapshot(env) == before
    else:
        assert info["steps"] == 2 and isinstance(reward, float) and env.observation_space.contains(obs)
