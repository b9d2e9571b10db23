"""The learned value of the visible table (issue 27): features read from what a player sees, a shipped model
fitted on the planner's games, and the planner steering by it, honest by construction."""

from __future__ import annotations

import json

import pytest

from spiderette import Game
from spiderette.engine.cards import parse_card
from spiderette.engine.variants import RULES
from spiderette.players.features import COLUMN_FEATURES, FEATURES, column_features, table_features
from spiderette.players.planner import PlannerStrategy, plan
from spiderette.players.value import MODEL, LearnedValue, load_model

LINKS = RULES["spiderette"].links


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def named(down: int, up: str) -> dict[str, int]:
    return dict(zip(COLUMN_FEATURES, column_features(down, cards(up) if up else [], LINKS)))


def test_a_column_is_described_in_named_counts():
    empty = named(0, "")
    assert empty["empty_columns"] == 1 and sum(empty.values()) == 1
    home = named(0, "KS QS JH")
    assert home["kings_home"] == 1 and home["clear_columns"] == 0 and home["in_suit"] == 1
    assert home["off_suit"] == 1 and home["top_group"] == 1
    deep = named(3, "9H 7S 6S")
    assert (deep["face_down"], deep["face_down_squared"], deep["buried"]) == (3, 9, 3)
    assert (deep["out_of_order"], deep["in_suit"], deep["top_group"]) == (1, 1, 2)
    assert named(1, "5D")["last_face_down"] == 1 and named(2, "5D")["two_face_down"] == 1
    assert named(0, "QD")["clear_columns"] == 1   # not headed by a king: it can still be emptied


@pytest.mark.parametrize("variant, suits", [("spiderette", 4), ("spiderette", 1), ("spider", 2),
                                            ("red_black_spiderette", 4), ("will_o_the_wisp", 4)])
def test_the_features_read_only_what_a_player_sees(variant, suits):
    g = Game(variant, seed=3, suits=suits)
    for _ in range(3):
        g.apply(g.legal_moves()[0])
    a, b = g.redeal_hidden(1), g.redeal_hidden(2)
    assert a.observation() == b.observation()
    assert table_features(a) == table_features(b) == table_features(g)
    assert list(table_features(g)) == list(FEATURES)
    assert table_features(g)["face_down"] == sum(g.face_down(i) for i in range(g.columns))


def test_the_shipped_model_names_its_features_and_says_how_it_was_fitted():
    model = json.loads(MODEL.read_text())
    assert model["features"] == list(FEATURES) and len(model["weights"]) == len(FEATURES)
    assert model["trained_on"]["deals"] > 1000 and model["learning_curve"]
    assert load_model() == model
    weight = dict(zip(model["features"], model["weights"]))
    # what it learned, in the direction a player would expect: hidden cards cost, finished runs pay
    assert weight["face_down"] > 0 and weight["runs_done"] < 0


def test_the_learned_value_prefers_what_a_player_prefers():
    v = LearnedValue(Game(seed=7))
    in_suit, off_suit = (0, tuple(cards("KS QS JS"))), (0, tuple(cards("KS QH JS")))
    assert v.column_cost(in_suit) < v.column_cost(off_suit)
    assert v.column_cost((1, tuple(cards("5D")))) < v.column_cost((4, tuple(cards("5D"))))


@pytest.mark.parametrize("deal", [1, 2, 7])
def test_the_learned_planner_is_honest(deal):
    g = Game(seed=deal)
    for _ in range(2):
        g.apply(g.legal_moves()[0])
    a, b = g.redeal_hidden(11), g.redeal_hidden(12)
    assert plan(a, budget=500, value="learned") == plan(b, budget=500, value="learned")
    assert PlannerStrategy(budget=500, value="learned")(a) == PlannerStrategy(budget=500, value="learned")(b)
    p = plan(g, budget=500, value="learned")
    probe = g.copy()
    for m in p.line:
        probe.apply(m)   # every move of the line is legal


def test_the_value_is_named_and_checked():
    assert PlannerStrategy().name == "planner" and PlannerStrategy().value == "learned"   # the default
    assert PlannerStrategy(value="handmade").name == "planner (value='handmade')"
    with pytest.raises(ValueError, match="value must be one of 'handmade', 'learned', not 'magic'"):
        plan(Game(seed=1), value="magic")
    with pytest.raises(TypeError, match="value must be one of"):
        PlannerStrategy(value=3)
