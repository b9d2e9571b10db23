"""``benchmarks/train_value.py rounds``: policy iteration (play, fit on every feature, tune), resumable, its
figures in ``report.json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from spiderette_testkit import src_env

from spiderette.engine.cards import make_deck
from spiderette.players.features import FEATURES
from spiderette.players.value import ValueModel

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "train_value.py"


def _rounds(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "rounds", "--rounds", "2", "--games", "3", "--tune-deals",
                           "1-3", "--budget", "100", "--processes", "1", "--dir", str(folder)],
                          capture_output=True, text=True, env=src_env(), cwd=folder.parent, timeout=600)


def test_rounds_play_fit_and_tune_and_pick_up_where_they_stopped(tmp_path):
    if not SCRIPT.exists():
        pytest.skip("the benchmarks are in the repository, not the wheel")
    folder = tmp_path / "rounds"
    run = _rounds(folder)
    assert run.returncode == 0, run.stderr
    report = json.loads((folder / "report.json").read_text())
    assert [r["round"] for r in report["rounds"]] == [1, 2]
    assert report["shipped"]["deals"] == 3 and report["budget"] == 100 and report["tune_deals"] == "1-3"
    for k, r in enumerate(report["rounds"], start=1):
        assert {"training_games", "tune", "vs_before", "vs_shipped"} <= set(r)
        assert r["training_games"] == 3 and r["tune"]["deals"] == 3
        assert set(r["vs_before"]) == set(r["vs_shipped"]) == {"only_this", "only_other", "p"}
        assert r["played_by"] == ("shipped" if k == 1 else f"round-{k - 1}")
        assert ValueModel.load(folder / f"round-{k}.json").features == FEATURES   # the cards unseen too
    # the training deals of the two rounds are their own, one after the other
    assert report["rounds"][0]["training_deals"] == "10300001-10300003"
    assert report["rounds"][1]["training_deals"] == "10300004-10300006"
    assert "| round | played by |" in run.stdout and "| 2 | round-1 |" in run.stdout

    # every table of a training game lists the cards a player has not seen: as many as face down and in the stock
    deck = make_deck(1, 4)
    games = [json.loads(line) for line in (folder / "round-1.jsonl").read_text().splitlines()]
    assert sorted(g["deal"] for g in games) == [10300001, 10300002, 10300003]
    for g in games:
        for cols, stock, _runs, unseen in g["tables"]:
            assert len(unseen) == sum(d for d, _ in cols) + stock
            face_up = [c for _, up in cols for c in up]
            assert not set(unseen) & set(face_up) and set(unseen) <= set(deck)

    # run again: nothing left to play, the same report
    text = (folder / "report.json").read_text()
    again = _rounds(folder)
    assert again.returncode == 0, again.stderr
    said = [line for line in again.stdout.splitlines() if "deals already played" in line]
    assert len(said) == 5   # the shipped value's tuning games, then each round's training and tuning games
    assert all(line.endswith("3 deals already played; 0 to play") for line in said), said
    assert (folder / "report.json").read_text() == text
