"""The features of the cards still unseen (face down or in the stock): what the table's cards may still meet,
read only from what a player sees; fitting them, and the planner steering by a value that weighs them."""

from __future__ import annotations

import random

import pytest

from spiderette import Game
from spiderette.engine.cards import make_deck, parse_card
from spiderette.engine.core import columns_of
from spiderette.engine.predicates import visible_key
from spiderette.engine.variants import RULES
from spiderette.players.features import FEATURES, TABLE_FEATURES, UNSEEN_FEATURES, table_features, unseen_features
from spiderette.players.plan_costs import unseen_cards
from spiderette.players.planner import PlannerStrategy, plan
from spiderette.players.value import POINTS_PER_CARD, LearnedValue, ValueModel, fit

R = RULES["spiderette"]


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def features(columns: list[tuple[int, str]], unseen: str, stock: int = 0) -> dict[str, float]:
    """The unseen features, by name, of columns given as ``(down, "9H 8H")`` with the cards ``unseen``."""
    cols = [(down, cards(up)) for down, up in columns]
    return dict(zip(UNSEEN_FEATURES, unseen_features(cols, cards(unseen), stock, R.links, R.fits)))


def test_the_unseen_features_follow_the_table_features():
    assert FEATURES == (*TABLE_FEATURES, *UNSEEN_FEATURES)
    assert UNSEEN_FEATURES == ("next_unseen", "home_unseen", "turn_has_home", "deal_joins")
    assert not set(TABLE_FEATURES) & set(UNSEEN_FEATURES)


# ---------------------------------------------------------------------- next_unseen
def test_next_unseen_counts_a_top_card_whose_suited_next_card_is_still_unseen():
    assert features([(1, "9H")], "8H 2C")["next_unseen"] == 1
    assert features([(1, "9H")], "8S 2C")["next_unseen"] == 0   # only a card of its suit joins its group
    assert features([(1, "9H"), (0, "5D"), (2, "JC")], "8H 4D 2C")["next_unseen"] == 2
    assert features([(1, "AH")], "KH 2C")["next_unseen"] == 0   # nothing goes on an ace


def test_next_unseen_leaves_out_a_next_card_already_face_up_on_the_table():
    # 8H is seen (the top of another column, or buried in one): 9H's next card is not waiting among the unseen
    assert features([(1, "9H"), (0, "8H")], "2C 3D")["next_unseen"] == 0
    assert features([(1, "9H"), (0, "8H 3S")], "2C 4D")["next_unseen"] == 0
    # with two decks, one copy seen is enough: the other unseen copy does not count
    assert features([(1, "9H"), (0, "QS 8H")], "8H 2C")["next_unseen"] == 0


# ---------------------------------------------------------------------- home_unseen
def test_home_unseen_counts_a_column_over_cards_face_down_whose_group_has_nowhere_to_go():
    assert features([(2, "9H"), (0, "5C")], "4S")["home_unseen"] == 1          # no ten face up
    assert features([(2, "9H"), (0, "10S")], "4S")["home_unseen"] == 0         # 9H can go onto 10S
    assert features([(2, "9H"), (0, "10S 4D")], "4S")["home_unseen"] == 0      # (a ten anywhere face up)
    # the group's base counts, not its top card: 8H rides on 9H
    assert features([(2, "9H 8H"), (0, "10D")], "4S")["home_unseen"] == 0
    assert features([(2, "9H 8H"), (0, "9S")], "4S")["home_unseen"] == 1
    # a ten in the column itself is no home for the group on it
    assert features([(2, "10S 9H 8H")], "4S")["home_unseen"] == 1
    assert features([(2, "10S 9H 8H"), (0, "10D")], "4S")["home_unseen"] == 0


def test_home_unseen_leaves_out_a_king_base_and_a_column_with_nothing_face_down():
    assert features([(3, "KH QH")], "4S")["home_unseen"] == 0    # a king goes nowhere but a space: no matter
    assert features([(0, "9H"), (0, "5C")], "4S")["home_unseen"] == 0   # nothing to turn over under them
    assert features([(0, "9H"), (1, "3C"), (4, "KD"), (2, "7S 6S")], "4S")["home_unseen"] == 2
    assert features([(0, "9H"), (1, "5C"), (4, "KD"), (2, "7S 6S")], "4S")["home_unseen"] == 1   # 5C onto 6S


# ---------------------------------------------------------------------- turn_has_home
def test_turn_has_home_is_the_share_of_unseen_cards_that_could_move_at_once():
    # 8S onto 9H (any suit builds), 4C onto 5D; KD and 2H have nowhere to go
    assert features([(1, "9H"), (1, "5D")], "8S 4C KD 2H")["turn_has_home"] == pytest.approx(0.5)
    assert features([(1, "9H"), (1, "5D")], "KD 2H")["turn_has_home"] == 0.0
    assert features([(1, "9H"), (1, "5D")], "8C")["turn_has_home"] == 1.0


def test_turn_has_home_is_certain_with_an_empty_column():
    assert features([(1, "9H"), (0, "")], "KD 2H 3C")["turn_has_home"] == 1.0


# ---------------------------------------------------------------------- deal_joins
def test_deal_joins_needs_a_stock():
    assert features([(1, "9H"), (1, "5D")], "8H 4D 3C KS", stock=0)["deal_joins"] == 0.0


def test_deal_joins_looks_at_the_columns_a_deal_reaches_only():
    cols = [(1, "9H"), (1, "5D")]
    # 8H joins 9H's group, 4D joins 5D's; 8S would fit on 9H but not join it
    assert features(cols, "8H 4D 3C KS", stock=1)["deal_joins"] == pytest.approx(1 / 4)   # the first column only
    assert features(cols, "8H 4D 3C KS", stock=2)["deal_joins"] == pytest.approx(2 / 4)
    assert features(cols, "8H 4D 3C KS", stock=7)["deal_joins"] == pytest.approx(2 / 4)   # no more than its columns
    assert features(cols, "8S 4C 3C KS", stock=2)["deal_joins"] == 0.0
    assert features([(1, "5D"), (1, "9H")], "8H 3C KS QS", stock=1)["deal_joins"] == 0.0   # 9H is not reached


def test_no_card_unseen_is_no_division_by_zero():
    assert features([(0, "9H"), (0, "")], "", stock=0) == {
        "next_unseen": 0, "home_unseen": 0, "turn_has_home": 0.0, "deal_joins": 0.0}
    assert features([(2, "9H"), (0, "5C")], "", stock=3) == {
        "next_unseen": 0, "home_unseen": 1, "turn_has_home": 0.0, "deal_joins": 0.0}
    assert features([], "") == {"next_unseen": 0, "home_unseen": 0, "turn_has_home": 0.0, "deal_joins": 0.0}


# ---------------------------------------------------------------------- a game's table
def _planned(deal: int, moves: int) -> Game:
    g = Game(seed=deal)
    s = PlannerStrategy(budget=300, turns=1)
    while g.status == "playing" and g.move_count < moves:
        m = s(g)
        if m is None:
            break
        g.apply(m)
    return g


def test_a_games_table_has_every_feature_by_name():
    f = table_features(Game(seed=7))
    assert list(f) == list(FEATURES)
    assert 0.0 <= f["turn_has_home"] <= 1.0 and 0.0 <= f["deal_joins"] <= 1.0
    assert f["home_unseen"] <= f["face_down"]


@pytest.mark.parametrize(("deal", "moves"), [(7, 0), (7, 6), (1, 10), (2, 20)])
def test_the_unseen_features_of_a_game_read_only_what_a_player_sees(deal, moves):
    g = _planned(deal, moves)
    a, b = g.redeal_hidden(3), g.redeal_hidden(4)
    assert a.observation() == g.observation() == b.observation()
    assert table_features(a) == table_features(g) == table_features(b)


def test_the_cards_of_a_finished_run_are_seen_not_unseen():
    g = Game(seed=1, suits=1)
    s = PlannerStrategy(budget=2000, turns=1)
    while g.status == "playing" and not g.runs_completed:
        g.apply(s(g))
    assert g.status == "playing" and g.runs_completed == 1
    unseen = unseen_cards(g, columns_of(g, visible=True))
    assert len(unseen) == sum(g.face_down(i) for i in range(g.columns)) + g.stock_count
    f = table_features(g)
    cols = visible_key(g)[0]
    assert [f[name] for name in UNSEEN_FEATURES] == unseen_features(cols, unseen, g.stock_count, R.links, R.fits)
    assert table_features(g.redeal_hidden(5)) == f


# ---------------------------------------------------------------------- fitting them
def _record(deal: int, told: bool) -> dict:
    """A training game of one table made up at random (seeded), its unseen cards listed when ``told``."""
    rng = random.Random(deal)
    deck = make_deck(1, 4)
    rng.shuffle(deck)
    cols = [[rng.randrange(0, 5), [deck.pop()]] for _ in range(7)]
    table = [cols, rng.choice([0, 7, 14]), 0]
    if told:
        table.append(deck[: 10])
    hidden = sum(d for d, _ in cols)
    return {"deal": deal, "variant": "spiderette", "suits": 4, "tables": [table],
            "end": {"hidden": hidden, "runs": 0, "won": False}}


@pytest.mark.parametrize("told", [True, False], ids=["unseen-listed", "older-records"])
def test_fit_on_every_feature_reads_the_unseen_cards_with_or_without_their_list(told):
    games = [_record(d, told) for d in range(1, 81)]
    m = fit(games, features=FEATURES)
    assert m.features == FEATURES
    assert set(UNSEEN_FEATURES) <= set(m.weights)
    assert m.report["held_out"]["r2"] == pytest.approx(1.0)   # the labels are the cards face down, exactly
    for name in UNSEEN_FEATURES:
        assert m.weights[name] == pytest.approx(0.0, abs=1e-6), name
    # by default the table's own features, as the shipped model
    assert fit(games).features == TABLE_FEATURES


def test_fit_takes_records_with_and_without_the_unseen_cards_together():
    games = [_record(d, d % 2 == 0) for d in range(1, 81)]
    m = fit(games, features=FEATURES)
    assert set(m.weights) == set(FEATURES) and m.report["trained_on"]["positions"] > 0


def test_an_unseen_feature_that_changes_the_end_gets_a_weight():
    games = []
    for d in range(1, 121):
        g = _record(d, True)
        cols, stock, runs, unseen = g["tables"][0]
        f = unseen_features([(down, up) for down, up in cols], unseen, stock, R.links, R.fits)
        g["end"]["hidden"] += 3 * f[0]   # each top card waiting for its next card: three cards more left
        games.append(g)
    m = fit(games, features=FEATURES)
    assert m.weights["next_unseen"] == pytest.approx(3.0, abs=1e-6)
    assert m.report["held_out"]["r2"] == pytest.approx(1.0)


# ---------------------------------------------------------------------- the learned value
#: A model that weighs the cards unseen (and the cards face down, as the shipped one does).
UNSEEN_MODEL = {"name": "unseen", "features": ["face_down", "runs_done", "next_unseen", "home_unseen",
                                               "turn_has_home", "deal_joins"],
                "weights": [1.0, -5.0, -0.5, 0.8, -2.0, -1.0], "bias": 10.0}


def test_a_model_that_weighs_suited_pairs_highly_still_finishes_its_runs():
    model = ValueModel.from_dict({"features": ["in_suit", "runs_done"], "weights": [-2.0, -0.1]})
    v = LearnedValue(Game(seed=7), model)
    kept = POINTS_PER_CARD * 12 * -2.0   # twelve suited pairs in a run from king to ace
    assert v.run_cost <= kept - POINTS_PER_CARD
    run = (0, tuple(cards("KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS")))
    # the table after the run is sent (an empty column, a run finished) costs less than the run kept
    assert v.column_cost((0, ())) + v.run_cost < v.column_cost(run)
    # a model whose run bonus is bigger than that keeps its own
    big = LearnedValue(Game(seed=7), ValueModel.from_dict({"features": ["in_suit", "runs_done"],
                                                           "weights": [-0.1, -40.0]}))
    assert big.run_cost == round(POINTS_PER_CARD * -40.0)


def test_the_unseen_cost_is_zero_for_the_shipped_model_and_weighed_for_a_model_that_has_them():
    cols = [(2, cards("9H")), (0, cards("KS QS")), (1, cards("5D"))]
    unseen = cards("8H JD 6C 4D")
    shipped = LearnedValue(Game(seed=7))
    assert not shipped.sees_unseen and shipped.unseen_cost(cols, unseen, 2) == 0
    v = LearnedValue(Game(seed=7), ValueModel.from_dict(UNSEEN_MODEL))
    assert v.sees_unseen
    f = unseen_features(cols, unseen, 2, R.links, R.fits)   # [2, 2, 0.75, 0.25]
    want = POINTS_PER_CARD * (-0.5 * f[0] + 0.8 * f[1] - 2.0 * f[2] - 1.0 * f[3])
    assert v.unseen_cost(cols, unseen, 2) == pytest.approx(want) and want != 0


def test_the_planner_steering_by_the_unseen_cards_plays_legal_moves_and_stays_honest():
    model = ValueModel.from_dict(UNSEEN_MODEL)
    s = PlannerStrategy(budget=300, value=model)
    assert s.name == "planner (budget=300, value='unseen')"
    g = Game(seed=7)
    while g.status == "playing" and g.move_count < 40:
        m = s(g)
        if m is None:
            break
        assert g.why_illegal(m) is None, str(m)
        g.apply(m)
    assert g.move_count > 5
    if g.status == "playing":   # the same observation, the same plan
        a, b = g.redeal_hidden(11), g.redeal_hidden(12)
        assert plan(a, budget=300, value=model) == plan(b, budget=300, value=model)
