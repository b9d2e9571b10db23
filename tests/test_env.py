"""The Gymnasium environment (``spiderette.env``); skipped when gymnasium is not installed."""

import warnings

import pytest

gym = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from spiderette_testkit import game  # noqa: E402

from spiderette import VARIANTS, Game, Move  # noqa: E402
from spiderette.engine.cards import card_code, card_number, make_deck  # noqa: E402
from spiderette.env import ENV_ID, SpideretteEnv  # noqa: E402
from spiderette.players.ranking import greedy_move  # noqa: E402


def legal_actions(env: SpideretteEnv) -> set[int]:
    return {env.move_to_action(m) for m in env.game.legal_moves()}


def masked(info: dict) -> set[int]:
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
    return set(np.flatnonzero(mask).tolist())


def random_episode(env: SpideretteEnv, seed: int, check=None) -> tuple[float, list, dict]:
    """Play one episode with a masked random agent; ``check(env, obs, info)`` after every step."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    rewards = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if check:
            check(env, obs, info)
        if terminated or truncated:
            return obs, rewards, {**info, "terminated": terminated, "truncated": truncated}


# ---------------------------------------------------------------------- the Gymnasium contract
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("auto_remove", [True, False])
def test_check_env_passes_without_a_warning(variant, auto_remove):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(ENV_ID, variant=variant, auto_remove=auto_remove)  # a spec: render modes are checked
        check_env(env.unwrapped)


def test_spaces_and_numbering():
    env = SpideretteEnv()
    assert env.action_space.n == 7 * 6 * 13 + 1 == 547 and env.deal_action == 546
    assert SpideretteEnv(auto_remove=False).action_space.n == 554
    spider = SpideretteEnv("spider", suits=2)
    assert spider.action_space.n == 1171 and spider.deal_action == 1170
    assert SpideretteEnv("spider", auto_remove=False).action_to_move(1171 + 9) == Move("send", 9)
    assert env.observation_space["columns"].shape == (7, 52)
    assert spider.observation_space["columns"].shape == (10, 78)
    assert spider.observation_space["foundations"].shape == (8,)
    for e in (env, spider, SpideretteEnv(auto_remove=False)):
        n = e.columns
        for a in range(e.action_space.n):
            m = e.action_to_move(a)
            assert e.move_to_action(m) == a
            if m.kind == "move":
                j = m.dst - (m.dst > m.src)
                assert a == (m.src * (n - 1) + j) * 13 + m.count - 1
    assert [card_number(card_code(c)) for c in (1, 13, 16 + 1, 32 + 1, 48 + 13)] == [1, 13, 14, 27, 52]


def test_reset_seed_chooses_the_deal():
    env, other = SpideretteEnv(), SpideretteEnv()
    obs, info = env.reset(seed=5)
    assert info["deal"] == 5 and env.game.position() == Game(seed=5).position()
    assert info["steps"] == 0 and info["status"] == "playing" and info["illegal_action"] is False
    first = Game(seed=5).observation()["columns"]
    assert [[card_number(c) for c in col["up"]] for col in first] == [
        [x for x in row if x] for row in obs["columns"].tolist()]
    obs2, _ = other.reset(seed=5)
    for key in obs:
        assert np.array_equal(obs[key], obs2[key])
    six = SpideretteEnv()
    assert six.reset(seed=6)[1]["deal"] == 6 and six.game.position() != env.game.position()
    # after a seeded reset, unseeded resets draw the same deals again
    deals = [env.reset()[1]["deal"] for _ in range(3)]
    other.reset(seed=5)
    assert [other.reset()[1]["deal"] for _ in range(3)] == deals
    assert len(set(deals)) == 3 and all(1 <= d < 10**9 for d in deals)
    assert SpideretteEnv().reset(seed=2**64 - 1)[1]["deal"] == 2**64 - 1


def test_reset_from_a_game():
    g = Game(seed=9)
    g.play("d")
    env = SpideretteEnv()
    _, info = env.reset(options={"game": g})
    assert env.game is not g and env.game.position() == g.position() and info["deal"] == 9
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert g.move_count == 1  # the environment plays a copy
    before = env.game.position()
    with pytest.raises(ValueError, match="spider with 4 suits"):
        env.reset(options={"game": Game("spider", seed=1)})
    with pytest.raises(TypeError, match="spiderette.Game"):
        env.reset(options={"game": "ab"})
    assert env.game.position() == before  # a refused game changes nothing
    deck = [card_code(c) for c in make_deck(2)]
    tall = game("spiderette", tableau=[deck[:52]], stock_size=0)  # every card face up in column a fits
    assert env.reset(options={"game": tall})[0]["columns"][0].all()
    spider = SpideretteEnv("spider")
    assert spider.reset(options={"game": game("spider", tableau=[deck[:78], ["*"]])})[0]["columns"][0].all()
    with pytest.raises(ValueError, match="more than 78 face-up cards"):
        spider.reset(options={"game": game("spider", tableau=[deck[:79], ["*"]])})


# ---------------------------------------------------------------------- masks, rewards, the end
@pytest.mark.parametrize("variant,suits,auto_remove", [
    ("spiderette", 1, True), ("spiderette", 1, False), ("spiderette", 4, True), ("spider", 1, True),
    ("red_black_spiderette", 4, True), ("will_o_the_wisp", 2, False),
])
def test_masked_random_agent_plays_to_the_end(variant, suits, auto_remove):
    env = SpideretteEnv(variant, suits=suits, max_steps=600, auto_remove=auto_remove)
    runs = 0

    def check(env, obs, info):
        assert obs in env.observation_space
        assert masked(info) == legal_actions(env)
        assert info["status"] == env.game.status and info["illegal_action"] is False

    for seed in (0, 3, 19):  # the random agent completes a run in deals 3 and 19 with one suit
        obs, rewards, info = random_episode(env, seed, check)
        assert sum(rewards) == info["runs_completed"] == env.game.runs_completed == obs["runs"][0]
        assert all(r >= 0 and r == int(r) for r in rewards)  # one per run: a deal may complete two
        assert info["terminated"] == (info["status"] != "playing")
        assert info["truncated"] == (not info["terminated"] and info["steps"] == 600)
        runs += info["runs_completed"]
    if suits == 1 and variant == "spiderette":
        assert runs > 0, "no run completed: the reward was not exercised"


@pytest.mark.parametrize("auto_remove", [True, False])
def test_a_won_game_terminates_with_one_reward_per_run(auto_remove):
    env = SpideretteEnv(suits=1, auto_remove=auto_remove)
    obs, info = env.reset(seed=7)  # greedy play wins deal 7 with one suit (runs left by themselves or sent)
    seen, rewards, terminated = set(), [], False
    while not terminated:
        before = env.game.runs_completed
        obs, reward, terminated, truncated, info = env.step(env.move_to_action(greedy_move(env.game, seen)))
        assert reward == env.game.runs_completed - before and not truncated
        rewards.append(reward)
    assert info["status"] == "won" and sum(rewards) == 4 and rewards.count(1.0) == 4
    assert obs["runs"][0] == 4 and sorted(obs["foundations"].tolist()) == [13] * 4
    assert not obs["columns"].any() and masked(info) == set()


def test_a_dead_end_terminates():
    g = game("spiderette", tableau=[["+"], ["+"], ["+"]], stock_size=10, foundations=["S", "H", "C"])
    env = SpideretteEnv()
    obs, info = env.reset(options={"game": g})
    assert info["status"] == "dead_end" and obs["stock"][0] == 10 and list(obs["foundations"]) == [13, 26, 39, 0]
    _, _, terminated, truncated, info = env.step(env.move_to_action("ab1"))
    assert terminated and not truncated and info["status"] == "dead_end"


def test_truncation_at_max_steps():
    env = SpideretteEnv(max_steps=3)
    _, info = env.reset(seed=7)
    for step in range(1, 4):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated and truncated == (step == 3) and info["steps"] == step
    env.reset(seed=7)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    results = [env.step(illegal) for _ in range(3)]  # illegal actions count as steps too
    assert [r[3] for r in results] == [False, False, True]
    assert SpideretteEnv(max_steps=None).max_steps is None


# ---------------------------------------------------------------------- nothing hidden is seen
def test_observation_and_mask_hide_the_hidden_cards():
    """Two games that look the same to a player (different hidden cards) give the same observation and mask."""
    env, twin = SpideretteEnv(suits=2), SpideretteEnv(suits=2)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=11)
    for step in range(60):
        other = env.game.redeal_hidden(step + 1)
        assert other.position() != env.game.position() or not env.game.stock_count
        obs2, info2 = twin.reset(options={"game": other})
        for key in obs:
            assert np.array_equal(obs[key], obs2[key]), key
        assert np.array_equal(info["action_mask"], info2["action_mask"])
        # the cards in the observation are exactly the face-up cards
        shown = sorted(card_number(card_code(c)) for i in range(7)
                       for c in env.game.column(i)[env.game.face_down(i):])
        assert sorted(obs["columns"][obs["columns"] > 0].tolist()) == shown
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break


# ---------------------------------------------------------------------- illegal and bad actions
def test_an_illegal_action_changes_nothing_and_costs_the_illegal_reward():
    env = SpideretteEnv()
    obs, info = env.reset(seed=7)
    position = env.game.position()
    illegal = env.move_to_action("ab13")
    assert not info["action_mask"][illegal]
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert reward == -1.0 and not terminated and not truncated
    assert info2["illegal_action"] is True and info2["steps"] == 1
    assert env.game.position() == position and env.game.history == []
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    assert np.array_equal(info["action_mask"], info2["action_mask"])
    _, reward, _, _, info = env.step(env.move_to_action("bd1"))  # a legal action after an illegal one
    assert reward == 0.0 and info["illegal_action"] is False and env.game.history == [Move.parse("bd1")]
    env = SpideretteEnv(illegal_reward=0)
    env.reset(seed=7)
    assert env.step(illegal)[1] == 0.0


@pytest.mark.parametrize("bad", [-1, 547, 1.0, True, "ab", None, np.array([1, 2])])
def test_an_action_outside_the_space_is_a_value_error(bad):
    env = SpideretteEnv()
    env.reset(seed=7)
    with pytest.raises(ValueError, match="action"):
        env.step(bad)
    assert env.game.history == [] and env.step(np.int64(env.deal_action))[4]["illegal_action"] is False


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown variant"):
        SpideretteEnv("klondike")
    with pytest.raises(ValueError, match="suits"):
        SpideretteEnv("red_black_spiderette", suits=2)
    with pytest.raises(ValueError, match="max_steps"):
        SpideretteEnv(max_steps=0)
    with pytest.raises(ValueError, match="render_mode"):
        SpideretteEnv(render_mode="human")
    with pytest.raises(ValueError, match="no action number"):
        SpideretteEnv().move_to_action("sa")
    with pytest.raises(ValueError, match="give the count"):
        SpideretteEnv().move_to_action("ab")
    with pytest.raises(gym.error.ResetNeeded):
        SpideretteEnv().step(0)


def test_render():
    env = SpideretteEnv(render_mode="ansi")
    env.reset(seed=7)
    assert env.render() == str(Game(seed=7))
    quiet = SpideretteEnv()
    quiet.reset(seed=7)
    assert quiet.render() is None


def test_shaped_rewards_turning_over_and_in_suit_links_and_still_pass_check_env():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(ENV_ID, reward="shaped").unwrapped)
    env = SpideretteEnv(reward="shaped")
    env.reset(seed=7)
    _, r, *_ = env.step(env.move_to_action("bd1"))   # 6H onto 7C: a card turned over, no in-suit link
    assert r == pytest.approx(0.1)
    plain = SpideretteEnv()
    plain.reset(seed=7)
    assert plain.step(plain.move_to_action("bd1"))[1] == 0.0
    # the shaped return telescopes: the runs completed, plus the last table's potential less the first's
    from spiderette.engine.predicates import shaped_potential  # (its defaults: SHAPED_TURN, SHAPED_LINK)

    obs, info = env.reset(seed=3)
    first, total, done, rng = shaped_potential(env.game), 0.0, False, np.random.default_rng(1)
    while not done:
        obs, r, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += r
        done = terminated or truncated
    assert total == pytest.approx(info["runs_completed"] + shaped_potential(env.game) - first)
    with pytest.raises(ValueError, match="reward must be 'runs' or 'shaped', not 'score'"):
        SpideretteEnv(reward="score")


def test_describe_says_an_action_in_cards_and_the_card_numbers_convert():
    from spiderette.engine.cards import card_code, card_number, card_of_number

    env = SpideretteEnv()
    env.reset(seed=7)
    assert env.describe(env.move_to_action("bd1")) == "bd1: 6\u2665 onto 7\u2663"
    assert env.describe(0) == "ab1: not legal now"
    assert env.describe(env.deal_action) == "d: deal a row"
    for code in ("AS", "KS", "4H", "QC", "KD"):
        assert card_code(card_of_number(card_number(code))) == code
    with pytest.raises(ValueError, match="a card number is a whole number from 1 to 52"):
        card_of_number(53)
