"""The learned value of the visible table (issue 27): features read from what a player sees, a shipped model
fitted on the planner's games, and the planner steering by it, honest by construction."""

from __future__ import annotations

import json
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spiderette import Game, compare
from spiderette.engine.cards import parse_card
from spiderette.engine.variants import RULES
from spiderette.players.features import (
    COLUMN_FEATURES,
    FEATURES,
    STAGE_FEATURES,
    STAGED,
    TABLE_FEATURES,
    column_features,
    table_features,
)
from spiderette.players.planner import DEFAULT_BUDGET, DEFAULT_TURNS, PlannerStrategy, plan, table_value
from spiderette.players.value import (
    GAMES,
    MODEL,
    LearnedValue,
    ModelError,
    ValueModel,
    fit,
    load_model,
    predicted_end,
    read_games,
)

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
    assert model["features"] == list(TABLE_FEATURES) and len(model["weights"]) == len(TABLE_FEATURES)
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
    with pytest.raises(ValueError, match="value must be one of 'handmade', 'learned', a model file's path or a"
                                         " ValueModel, not 'magic'"):
        plan(Game(seed=1), value="magic")
    with pytest.raises(TypeError, match="value must be one of"):
        PlannerStrategy(value=3)


# ---------------------------------------------------------------------- a value of one's own (issue 43)
REPO = Path(__file__).resolve().parents[1]
#: A model that wants cards face down: a planner steering by it plays unlike the shipped one.
CONTRARY = {"features": ["face_down", "runs_done"], "weights": [-1.0, -5.0], "bias": 30.0}


def test_a_model_file_of_ones_own_steers_the_planner_and_labels_it(tmp_path):
    path = tmp_path / "my_model.json"
    path.write_text(json.dumps(CONTRARY))
    mine = PlannerStrategy(value=str(path))
    assert mine.name == "planner (value='my_model.json')"   # by the file's name, not its folder
    assert PlannerStrategy(value=path).name == mine.name   # a pathlib.Path too
    assert repr(mine) == f"PlannerStrategy(budget={DEFAULT_BUDGET}, value='my_model.json', turns={DEFAULT_TURNS})"
    assert PlannerStrategy(value=MODEL).name == "planner (value='value_model.json')"
    g = Game(seed=7)
    moves = [plan(g, value=v) for v in ("learned", path, ValueModel.load(path), CONTRARY)]
    assert moves[0] != moves[1] and moves[1] == moves[2] == moves[3]   # its own play, however it is given
    assert table_value(g, value=path) == round(24 * -1.0 * 21)
    res = compare([PlannerStrategy(value="handmade"), mine], deals=range(1, 3), suits=4, progress=False)
    assert "planner (value='my_model.json')" in str(res.table())


def test_a_model_of_ones_own_goes_to_other_processes(tmp_path):
    path = tmp_path / "my_model.json"
    path.write_text(json.dumps(CONTRARY))
    mine = pickle.loads(pickle.dumps(PlannerStrategy(value=path)))
    assert mine.name == "planner (value='my_model.json')"
    assert mine(Game(seed=7)) == PlannerStrategy(value=path)(Game(seed=7))


def test_a_model_without_a_file_is_labelled_by_its_name():
    mine = ValueModel.from_dict(CONTRARY, name="contrary")
    assert PlannerStrategy(value=mine).name == "planner (value='contrary')"
    assert PlannerStrategy(value=CONTRARY).name == "planner (value='model')"


@pytest.mark.parametrize("text, said", [
    (None, "no value model in"),                                          # no file there
    ("not json at all", "is not a value model (not JSON)"),
    ('{"deals": 3}', "not a value model (a list of 'features' and as many 'weights')"),
    ('{"features": ["face_down", "magic"], "weights": [1, 2]}', "'magic' is not a feature"),   # other features
    ('{"features": ["face_down"], "weights": [1, 2]}', "not a value model"),
])
def test_a_file_that_is_not_a_model_is_refused_in_words_quoting_it(tmp_path, text, said):
    path = tmp_path / "mine.json"
    if text is not None:
        path.write_text(text)
    for make in (lambda: PlannerStrategy(value=str(path)), lambda: plan(Game(seed=1), value=path),
                 lambda: ValueModel.load(path)):
        with pytest.raises(ModelError, match=re.escape(said)) as e:
            make()
        assert isinstance(e.value, ValueError) and "mine.json" in str(e.value)


def test_the_worth_by_deals_left_reads_the_staged_weights_at_a_table():
    worth = ValueModel.load(MODEL).worth_by_deals_left()
    assert list(worth) == list(STAGED)
    # an empty column: a small cost with no deal left, worth more and more while deals remain (the issue's
    # +0.22, -0.12, -0.46, -0.81, -1.15)
    assert [round(w, 2) for w in worth["empty_columns"]] == [0.22, -0.12, -0.46, -0.81, -1.15]
    table = ValueModel.load(MODEL).worth_table()
    assert "empty_columns" in table and "-1.15" in table and "4 deals left" in table


def test_fit_in_plain_python_finds_the_weights_that_made_the_labels():
    rng = random.Random(5)
    games = []
    for deal in range(1, 201):
        cols = [[rng.randrange(0, 6), []] for _ in range(7)]
        hidden = sum(d for d, _ in cols)
        # the game ended with as many cards hidden as this table had face down, no run finished
        games.append({"deal": deal, "variant": "spiderette", "tables": [[cols, 4, 0]],
                      "end": {"hidden": hidden, "runs": 0, "won": False}})
    m = fit(games, features=["face_down", "empty_columns"])
    assert m.weights["face_down"] == pytest.approx(1.0, abs=1e-6)
    assert m.weights["empty_columns"] == pytest.approx(0.0, abs=1e-6)
    assert m.bias == pytest.approx(12.0)   # each of the 4 runs not finished is worth 3 cards
    assert m.report["trained_on"] == {"deals": 150, "positions": 150, "held_out_deals": 50, "held_out_positions": 50}
    assert m.report["held_out"]["r2"] == pytest.approx(1.0)
    # a strong ridge pulls the weights toward 0, or toward the model named
    assert abs(fit(games, features=["face_down"], ridge=100).weights["face_down"]) < 0.01
    toward = fit(games, features=["face_down"], ridge=1000, toward=CONTRARY)
    assert toward.weights["face_down"] == pytest.approx(-1.0, abs=0.01)


def test_fit_remakes_the_shipped_model_from_its_data():
    data = REPO / "benchmarks" / "data" / "value" / "spiderette-4.jsonl.gz"
    if not data.exists():
        pytest.skip("the training data is in the repository, not the wheel")
    shipped = ValueModel.load(MODEL)
    m = fit(data)
    assert m.features == shipped.features and m.report["trained_on"]["deals"] == 3000
    for name in shipped.features:
        assert m.weights[name] == pytest.approx(shipped.weights[name], abs=0.03), name


def test_a_feature_no_game_shows_is_left_at_zero_not_a_crash():
    games = [{"deal": d, "variant": "spiderette", "tables": [[[[d % 5, []]] * 7, 4, 0]],
              "end": {"hidden": d % 5 * 7, "runs": 0, "won": False}} for d in range(1, 41)]
    m = fit(games, features=["face_down", "runs_done"])   # no run finished in any game: runs_done never varies
    assert m.weights["runs_done"] == 0 and m.weights["face_down"] == pytest.approx(1.0, abs=1e-6)
    assert fit(games, features=["face_down", "runs_done"], ridge=0.1, toward=CONTRARY).weights["runs_done"] \
        == pytest.approx(-5.0)   # (pulled toward a model: its weight)


def test_a_saved_model_loads_as_it_was_and_steers_by_its_name(tmp_path):
    m = fit([{"deal": d, "variant": "spiderette", "tables": [[[[d % 5, []]] * 7, 4, 0]],
              "end": {"hidden": d % 5 * 7, "runs": 0, "won": False}} for d in range(1, 41)], features=["face_down"])
    loaded = m.save(tmp_path / "class.json")
    assert loaded == ValueModel.load(tmp_path / "class.json") and loaded.name == "class.json"
    assert loaded.weights == pytest.approx(m.weights) and loaded.report["trained_on"] == m.report["trained_on"]
    assert predicted_end(Game(seed=7), tmp_path / "class.json") == pytest.approx(loaded.predicted_end(Game(seed=7)))
    before = MODEL.read_bytes()
    with pytest.raises(ModelError, match="inside the package"):
        m.save(MODEL)   # never over the shipped model by mistake
    with pytest.raises(ModelError, match="inside the package"):
        m.save(MODEL.parent / "mine.json")
    assert MODEL.read_bytes() == before and not (MODEL.parent / "mine.json").exists()


def test_training_writes_where_the_user_says_never_into_the_package(tmp_path):
    script = REPO / "benchmarks" / "train_value.py"
    if not (REPO / "benchmarks" / "data" / "value" / "spiderette-4.jsonl.gz").exists():
        pytest.skip("the training data is in the repository, not the wheel")
    before = MODEL.read_bytes()
    run = subprocess.run([sys.executable, str(script), "fit", "--games", "100", "--out", str(MODEL)],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "inside the package" in run.stderr and MODEL.read_bytes() == before
    run = subprocess.run([sys.executable, str(script), "fit"], capture_output=True, text=True)
    assert run.returncode != 0 and "--out" in run.stderr   # no default path at all
    out = tmp_path / "small.json"
    run = subprocess.run([sys.executable, str(script), "fit", "--games", "100", "--ridge", "0.1", "--out", str(out)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert PlannerStrategy(value=out).name == "planner (value='small.json')"
    assert ValueModel.load(out).report["trained_on"]["deals"] == 100 and MODEL.read_bytes() == before


def test_every_feature_is_defined_in_the_api_reference():
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", text, flags=re.M))
    assert [f for f in (*COLUMN_FEATURES, *STAGE_FEATURES) if f not in rows] == []


def test_the_games_shipped_for_a_class_are_the_first_of_the_shipped_models_data():
    games = read_games(GAMES)
    assert [g["deal"] for g in games] == list(range(10000001, 10001334))
    assert GAMES.stat().st_size < 1_000_000   # (in the wheel and the browser site: a small share of a first visit)
    data = REPO / "benchmarks" / "data" / "value" / "spiderette-4.jsonl.gz"
    if data.exists():
        assert read_games(data)[:1333] == games


def test_training_data_that_is_not_games_is_refused_quoting_it(tmp_path):
    bad = tmp_path / "notes.jsonl"
    bad.write_text('{"a": 1}\nhello\n')
    with pytest.raises(ModelError, match="notes.jsonl' holds no training games"):
        fit(bad)
    with pytest.raises(ModelError, match="no training games in '.*missing.jsonl'"):
        read_games(tmp_path / "missing.jsonl")
    with pytest.raises(ModelError, match="'magic'"):
        fit(GAMES, features=["face_down", "magic"])
    with pytest.raises(ValueError, match="ridge must be a number >= 0, not -1"):
        fit(GAMES, ridge=-1)
