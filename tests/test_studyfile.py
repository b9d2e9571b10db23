"""A study saved to a file and read back: the same figures, the command kept, and a damaged file refused with
words that say what is wrong (every game in it is replayed on its numbered deal)."""

from __future__ import annotations

import json

import pytest
from spiderette_testkit import oversized

from spiderette import Comparison, GreedyStrategy, Simulation, simulate
from spiderette.studies.studyfile import MAX_BYTES, StudyFileError, load, save, shipped, shipped_names


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    sim = simulate(GreedyStrategy(), deals=range(1, 6), suits=2, progress=False)
    path = tmp_path_factory.mktemp("study") / "greedy.json"
    sim.save(path, command="simulate(GreedyStrategy(), deals=range(1, 6), suits=2)")
    return sim, path


def damaged(tmp_path, path, change):
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    out = tmp_path / "damaged.json"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_a_saved_study_reads_back_with_its_figures_and_command(study):
    sim, path = study
    back = Simulation.load(path)
    assert back.rows == sim.rows and back.lines == sim.lines
    assert (back.strategy, back.variant, back.suits, back.wins, back.win_rate) == \
        (sim.strategy, "spiderette", 2, sim.wins, sim.win_rate)
    assert back.command == "simulate(GreedyStrategy(), deals=range(1, 6), suits=2)"
    assert str(back) == str(sim)
    # what a lesson does with it: compare it with a study played now, and replay one of its games
    assert "greedy" in str(Comparison([back, sim]))
    assert back.game(3).move_count == sim.rows[2]["moves"]


def test_saving_writes_no_half_file(study, tmp_path):
    sim, _ = study
    target = tmp_path / "again.json"
    save(sim, target)
    assert [p.name for p in tmp_path.iterdir()] == ["again.json"]
    with pytest.raises(TypeError, match="writes a Simulation"):
        save("not a study", tmp_path / "x.json")
    with pytest.raises(TypeError, match="command must be a string"):
        save(sim, tmp_path / "x.json", command=3)
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(format="a spreadsheet"), "not a study file"),
    (lambda d: d.update(version=2), "version 2 is not one this spiderette reads"),
    (lambda d: d.pop("strategy"), "the field 'strategy' is missing"),
    (lambda d: d.update(suits="two"), "'suits' must be a whole number"),
    (lambda d: d.update(suits=3), "'suits'"),
    (lambda d: d.update(variant="klondike"), "'variant' 'klondike' is not a variant"),
    (lambda d: d.update(wall_seconds=float("nan")), "'wall_seconds' must be a number"),
    (lambda d: d["rows"][0].pop("won"), "row 0 lacks won"),
    (lambda d: d["rows"][1].update(score="lots"), "row 1: 'score' must be a whole number"),
    (lambda d: d["rows"][1].update(moves=-4), "row 1: 'moves' is out of range"),
    (lambda d: d["rows"].append(dict(d["rows"][0])), "a deal appears twice"),
    (lambda d: d["lines"].pop("2"), "'lines' must give the moves of exactly the deals"),
    (lambda d: d["lines"].update({"2": 7}), "the moves of deal 2 must be a string"),
    (lambda d: d["lines"].update({"2": "zz9"}), "the moves of deal 2 do not replay"),
    (lambda d: d["lines"].update({"2": "d d d d d d"}), "the moves of deal 2 do not replay"),
    (lambda d: d["rows"][2].update(score=d["rows"][2]["score"] + 100), "deal 3 replays to score"),
    (lambda d: d["rows"][0].update(won=not d["rows"][0]["won"]), "deal 1 replays to won"),
    (lambda d: d["lines"].update({"4": d["lines"]["5"]}), "deal 4"),
])
def test_a_damaged_study_is_refused_with_what_is_wrong(study, tmp_path, change, words):
    _, path = study
    with pytest.raises(StudyFileError, match=words):
        load(damaged(tmp_path, path, change))


def test_a_file_that_is_no_study_is_refused(tmp_path):
    with pytest.raises(StudyFileError, match="cannot read the study file"):
        load(tmp_path / "missing.json")
    (tmp_path / "notes.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(StudyFileError, match="not JSON"):
        load(tmp_path / "notes.json")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(StudyFileError, match="not a study file"):
        load(tmp_path / "list.json")
    (tmp_path / "latin1.json").write_bytes(b"\xff\xfe{}")
    with pytest.raises(StudyFileError, match="not JSON"):
        load(tmp_path / "latin1.json")
    with pytest.raises(StudyFileError, match="a study file holds at most"):
        load(oversized(tmp_path / "big.json", MAX_BYTES + 1))
    assert issubclass(StudyFileError, ValueError)


def test_the_shipped_solver_rung_loads_and_says_how_it_was_made():
    assert "solver-spiderette-4-suits-1-30" in shipped_names()
    solver = shipped("solver-spiderette-4-suits-1-30")
    assert (solver.variant, solver.suits, len(solver.rows), solver.peeks) == ("spiderette", 4, 30, True)
    assert [r["deal"] for r in solver.rows] == list(range(1, 31))
    assert solver.command.startswith("python benchmarks/strategies.py --strategies solver --slow-deals 1-30")
    assert 0 < solver.wins <= 30
    with pytest.raises(ValueError, match="no shipped study 'nothing'"):
        shipped("nothing")
