"""Statistics and resume (spiderette.userdata.statistics, and the widget's Statistics panel and Resume button).

Every test has its own SPIDERETTE_HOME (the autouse fixture ``spiderette_home`` in conftest.py).
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest
from spiderette_testkit import build, count_at_once, run, send

import spiderette
from spiderette import Game, RecordsWarning, reset_stats, stats
from spiderette.notebook.widget import Widget
from spiderette.userdata import datafolder
from spiderette.userdata import statistics as R


def won_in_one() -> Game:
    """Spiderette with three runs home: moving AC (column b) onto 2C (column a) wins."""
    return Game.from_dict(build("spiderette", tableau=[run("C", 13, 2), ["AC"]], foundations=["S", "H", "D"]))


def row(variant: str = "spiderette", suits: int = 4) -> dict:
    return stats()[variant, suits]


def counts(variant: str = "spiderette", suits: int = 4) -> tuple:
    r = row(variant, suits)
    return r["played"], r["won"], r["streak"], r["best_streak"], r["best_score"], r["fewest_moves"]


def files(folder: Path) -> list[str]:
    return sorted(os.listdir(folder)) if folder.exists() else []


# ---------------------------------------------------------------------- counting rules
def test_an_untouched_game_does_not_count(spiderette_home):
    w = Widget(seed=7)
    w.hint()
    w.new_game()
    w.restart()
    Widget(seed=8).new_game()
    assert stats().rows == []
    assert files(spiderette_home) == []   # nothing written for games nobody played


def test_a_played_game_given_up_by_new_game_is_a_loss():
    w = Widget(seed=7)
    w.move(1, 3)
    assert stats().rows == []             # not over yet: the player may still win it
    w.new_game()
    assert counts() == (1, 0, 0, 0, 499, None)
    w.new_game()                          # the new game was not played: it does not count
    assert counts()[0] == 1


def test_restart_and_undo_back_to_the_start():
    w = Widget(seed=7)
    w.deal()
    w.undo()                              # back at the start: the game was played all the same
    w.restart()
    assert counts()[:2] == (1, 0)
    w.restart()                           # the restarted deal is a new game, not played yet
    assert counts()[:2] == (1, 0)


def test_a_won_game_counts_once_even_if_won_again():
    w = Widget(game=won_in_one())
    w.move(1, 0)
    assert w.game.is_won
    assert counts() == (1, 1, 1, 1, 895, 5)
    w.undo()
    w.redo()                              # won again: still one game
    w.undo()
    w.new_game()                          # given up after a win: not a loss
    assert counts() == (1, 1, 1, 1, 895, 5)


def test_streaks_best_score_and_fewest_moves():
    results = [(True, 700, 90), (True, 650, 80), (False, 800, 120), (True, 600, 100), (False, 300, 30)]
    for i, (won, score, moves) in enumerate(results):
        assert R.record_result("spiderette", 2, won=won, score=score, moves=moves, game_id=f"g{i}")
        r = row("spiderette", 2)
        if i == 1:
            assert (r["streak"], r["best_streak"]) == (2, 2)
        if i == 3:
            assert (r["streak"], r["best_streak"]) == (1, 2)
    r = row("spiderette", 2)
    assert (r["played"], r["won"], r["lost"], r["streak"], r["best_streak"]) == (5, 3, 2, 0, 2)
    assert r["best_score"] == 800                      # of any game
    assert r["fewest_moves"] == 80                     # of a won game only
    assert r["win_rate"] == pytest.approx(0.6)
    assert not R.record_result("spiderette", 2, won=True, score=999, moves=1, game_id="g0")  # counted before
    assert row("spiderette", 2)["played"] == 5
    assert row("spiderette", 4)["played"] == 0 and stats().rows[0]["suits"] == 2   # kept apart by suits


def test_another_game_taking_the_saved_ones_place_gives_it_up(spiderette_home):
    w = Widget(seed=7)
    w.move(1, 3)                          # the game in resume.json
    w2 = Widget(seed=8)                   # a new session: the saved game is still offered...
    assert counts()[0] == 0
    w2.deal()                             # ... until another game is played in its place: a loss
    assert counts() == (1, 0, 0, 0, 499, None)
    w.move(4, 0)                          # the first table plays on: counted already, never again
    w.new_game()
    assert counts()[0] == 1
    w2.new_game()
    assert counts()[0] == 2


def test_record_false_keeps_the_table_out(spiderette_home):
    w = Widget(seed=7, record=False)
    w.move(1, 3)
    w.new_game()
    assert stats().rows == [] and files(spiderette_home) == []
    assert w.view["resume"] is None


# ---------------------------------------------------------------------- the file
def test_spiderette_home_is_honoured(tmp_path, monkeypatch):
    monkeypatch.setenv("SPIDERETTE_HOME", str(tmp_path / "mine"))
    assert datafolder.home() == tmp_path / "mine"
    R.record_result("spider", 1, won=True, score=900, moves=99, game_id="x")
    doc = json.loads((tmp_path / "mine" / "stats.json").read_text())
    assert doc["format"] == "spiderette-stats" and doc["version"] == 1
    assert doc["games"]["spider:1"]["won"] == 1 and doc["recorded"] == ["x"]
    assert stats(folder=tmp_path / "mine")["spider", 1]["won"] == 1


def test_the_default_folder_is_the_user_data_folder(monkeypatch):
    platformdirs = pytest.importorskip("platformdirs")
    monkeypatch.delenv("SPIDERETTE_HOME", raising=False)
    assert datafolder.home() == Path(platformdirs.user_data_dir("spiderette", appauthor=False))
    monkeypatch.setenv("SPIDERETTE_HOME", "")           # empty: not set
    assert datafolder.home() == Path(platformdirs.user_data_dir("spiderette", appauthor=False))


def test_writes_are_atomic(spiderette_home, monkeypatch):
    R.record_result("spiderette", 4, won=True, score=700, moves=90, game_id="a")
    before = (spiderette_home / "stats.json").read_bytes()

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        R.record_result("spiderette", 4, won=False, score=1, moves=1, game_id="b")
    monkeypatch.undo()
    assert (spiderette_home / "stats.json").read_bytes() == before   # the old file, whole
    assert files(spiderette_home) == ["stats.json", "stats.json.lock"]  # no temporary file left behind


GOOD_ROW = {"played": 2, "won": 1, "streak": 0, "best_streak": 1, "best_score": 600, "fewest_moves": 90}


def stats_doc(games: object = None, **extra) -> str:
    return json.dumps({"format": "spiderette-stats", "version": 1,
                       "games": {"spiderette:4": GOOD_ROW} if games is None else games,
                       "recorded": [], **extra})


@pytest.mark.parametrize("text", [
    "not json {",
    "",
    "\xff\xfe",
    "[1, 2]",
    json.dumps({"format": "other", "version": 1, "games": {}}),
    stats_doc(version=2),
    stats_doc(games=[]),
    stats_doc(recorded="abc"),
    stats_doc(recorded=[1]),
    stats_doc(games={"Poker!:4": GOOD_ROW}),   # (a well-formed name of another variant is a design's, kept)
    stats_doc(games={"spiderette:3": GOOD_ROW}),
    stats_doc(games={"spiderette:04": GOOD_ROW}),
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "played": "2"}}),
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "played": 2.0}}),
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "won": True}}),
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "streak": -1}}),
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "won": 3}}),            # more won than played
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "fewest_moves": None}}),  # a win without its moves
    stats_doc(games={"spiderette:4": {k: v for k, v in GOOD_ROW.items() if k != "streak"}}),
    stats_doc(games={"spiderette:4": {**GOOD_ROW, "extra": 1}}),
    stats_doc(games={"spiderette:4": [1, 2]}),
], ids=lambda t: t[:40])
def test_a_damaged_statistics_file_is_set_aside(spiderette_home, text):
    spiderette_home.mkdir(parents=True)
    (spiderette_home / "stats.json").write_text(text, encoding="latin-1")
    with pytest.warns(RecordsWarning, match="set aside as stats.json.corrupt-"):
        s = stats()
    assert s.rows == []
    aside = [f for f in files(spiderette_home) if f.startswith("stats.json.corrupt-")]
    assert len(aside) == 1 and (spiderette_home / aside[0]).read_text(encoding="latin-1") == text
    # and the next result starts a fresh file, without another warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        R.record_result("spiderette", 4, won=False, score=400, moves=100, game_id="z")
    assert counts()[0] == 1


def test_a_good_file_is_read_as_written(spiderette_home):
    spiderette_home.mkdir(parents=True)
    (spiderette_home / "stats.json").write_text(stats_doc())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert counts() == (2, 1, 0, 1, 600, 90)


def test_a_folder_that_cannot_be_written_is_reported_once(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("in the way")
    monkeypatch.setenv("SPIDERETTE_HOME", str(tmp_path / "file" / "home"))   # cannot be a folder
    w = Widget(seed=7)
    with pytest.warns(RecordsWarning, match="Could not save the game for resume"):
        w.move(1, 3)
    assert "Could not save the game for resume" in w.view["message"]
    assert "6♥" in w.view["message"]                                        # the move is still told
    with warnings.catch_warnings():
        warnings.simplefilter("error")                                      # said once, not every move
        w.move(4, 0)
        w.new_game()
        send(w, action="stats", open=True)
    assert "Could not" not in w.view["message"]
    assert w.game.move_count == 0 and w.view["panel"] == "stats"


# ---------------------------------------------------------------------- stats(), reset_stats()
def test_stats_tables():
    s = stats()
    assert str(s).startswith("No games recorded yet.") and "<p>" in s._repr_html_()
    R.record_result("spiderette", 4, won=True, score=712, moves=88, game_id="a")
    R.record_result("spiderette", 4, won=False, score=450, moves=50, game_id="b")
    R.record_result("spider", 1, won=False, score=420, moves=80, game_id="c")
    s = stats()
    assert [(r["variant"], r["suits"]) for r in s.rows] == [("spiderette", 4), ("spider", 1)]
    text = str(s).splitlines()
    assert text[1].split()[:4] == ["variant", "suits", "played", "won"]
    assert text[2].split() == ["Spiderette", "4", "2", "1", "50%", "0", "1", "712", "88"]
    assert text[3].split()[-3:] == ["0", "420", "—"]
    assert text[-1] == f"(kept in {datafolder.home() / 'stats.json'})"
    html = s._repr_html_()
    assert html.count("<tr>") == 3 and "Spider" in html and "50%" in html
    assert s["will_o_the_wisp", 4]["played"] == 0 and s["will_o_the_wisp", 4]["win_rate"] is None
    assert [r["current"] for r in s.table(("spiderette", 2))] == [False, True, False]
    assert repr(s) == "<Stats: 3 games in 2 variants>" and len(s) == 2
    assert spiderette.stats is stats


@pytest.mark.parametrize("key, error", [
    (("poker", 4), ValueError), (("spiderette", 3), ValueError), (("spider", True), ValueError),
    ("spiderette", TypeError), (("spiderette", 4, 1), TypeError),
])
def test_stats_lookup_checks_its_key(key, error):
    with pytest.raises(error):
        stats()[key]


def test_reset_stats_keeps_a_copy(spiderette_home):
    R.record_result("spiderette", 4, won=True, score=700, moves=90, game_id="a")
    R.record_result("spiderette", 1, won=True, score=700, moves=90, game_id="b")
    R.record_result("spider", 2, won=False, score=300, moves=90, game_id="c")
    cleared = reset_stats("spiderette", 1)
    assert [(r["variant"], r["suits"]) for r in cleared.rows] == [("spiderette", 1)]
    assert [(r["variant"], r["suits"]) for r in stats().rows] == [("spiderette", 4), ("spider", 2)]
    assert reset_stats().rows and stats().rows == []
    backups = [f for f in files(spiderette_home) if f.startswith("stats.json.reset-")]
    assert backups, "the old file is kept"
    # a game counted before the reset is not counted again
    assert not R.record_result("spiderette", 4, won=True, score=700, moves=90, game_id="a")


@pytest.mark.parametrize("args, kwargs, error", [
    (("poker",), {}, ValueError), (("spiderette", 3), {}, ValueError), ((), {"suits": 4}, ValueError),
    ((), {"folder": 12}, TypeError),
])
def test_reset_stats_checks_its_arguments(args, kwargs, error):
    with pytest.raises(error):
        reset_stats(*args, **kwargs)


@pytest.mark.parametrize("kwargs, error", [
    ({"variant": "poker"}, ValueError), ({"suits": 3}, ValueError), ({"won": 1}, TypeError),
    ({"score": 1.5}, TypeError), ({"moves": None}, TypeError), ({"game_id": ""}, ValueError),
])
def test_record_result_checks_its_arguments(kwargs, error):
    args = {"variant": "spiderette", "suits": 4, "won": True, "score": 1, "moves": 1, "game_id": "a", **kwargs}
    variant, suits = args.pop("variant"), args.pop("suits")
    with pytest.raises(error):
        R.record_result(variant, suits, **args)


# ---------------------------------------------------------------------- resume
def test_resume_round_trip(spiderette_home):
    w = Widget(seed=7)
    w.play("bd ea d fa", delay=0)
    w.undo()                              # the redo list is kept too
    assert (spiderette_home / "resume.json").exists()
    assert Game.load(spiderette_home / "resume.json").position() == w.game.position()   # Game.save's format
    w2 = Widget(resume=True)
    assert w2.game.position() == w.game.position()
    assert w2.game.history == w.game.history and w2.game.redo_list == w.game.redo_list
    assert w2.view["tableau"] == w.view["tableau"] and w2.view["resume"] is None
    assert w2.view["message"] == "Resumed the saved game: Spiderette, deal 7, 3 moves"
    w2.redo()                             # the resumed game goes on, and counts as the same game
    w2.new_game()
    assert counts()[0] == 1


def test_resume_without_a_saved_game_deals_as_asked():
    w = Widget(variant="spider", suits=1, seed=3, resume=True)
    assert (w.game.variant, w.game.suits, w.game.seed) == ("spider", 1, 3)
    assert w.resume() is False and w.view["message"] == "No saved game to resume"


def test_the_resume_button(spiderette_home):
    w = Widget(seed=7)
    assert w.view["resume"] is None
    w.move(1, 3)
    assert w.view["resume"] is None       # the saved game is the one on the table
    w2 = Widget(variant="spider", suits=2, seed=9)      # after a kernel restart, say
    lock = w2.game.lock
    assert w2.view["resume"] == {"variant": "spiderette", "suits": 4, "seed": 7, "moves": 1, "score": 499}
    v = send(w2, action="resume")
    assert v["resume"] is None and v["variant"] == "spiderette" and v["tableau"] == w.view["tableau"]
    assert v["last"] == {"kind": "new"} and v["message"].startswith("Resumed the saved game")
    assert w2.game.lock is lock and w2.game is not w.game
    w2.deal()                             # the resumed game is saved again, under its own id
    assert Game.load(spiderette_home / "resume.json").history == w2.game.history
    assert counts("spider", 2)[0] == 0    # the untouched spider deal given up: not counted


def test_resume_gives_up_a_played_game_on_the_table():
    w = Widget(seed=7)
    w.move(1, 3)
    w2 = Widget(seed=8)
    assert w2.view["resume"] is not None
    w2.game.play("d")                     # changed by script: the table did not play it
    w2.refresh()
    assert w2.view["resume"] is not None
    w2.resume()
    assert counts()[0] == 0
    w2.new_game()                         # now the resumed game is given up
    assert counts() == (1, 0, 0, 0, 499, None)


def test_changes_made_by_script_alone_do_not_count(spiderette_home):
    w = Widget(game=won_in_one())
    w.game.play("ac")
    w.refresh()
    w.undo()
    assert not (spiderette_home / "resume.json").exists()   # nothing played on the table yet
    w.game.play("ba")
    w.refresh()
    assert w.game.is_won and stats().rows == []


def test_a_won_game_clears_the_saved_file(spiderette_home):
    w = Widget(game=won_in_one())
    w.move(0, 2)                          # KC..2C to the empty column c: played, not won
    assert (spiderette_home / "resume.json").exists()
    w.move(1, 2)
    assert w.game.is_won and not (spiderette_home / "resume.json").exists()
    assert counts() == (1, 1, 1, 1, 894, 6)


RESUME_DAMAGE = {
    "not JSON": lambda doc: "{oops",
    "a list": lambda doc: "[]",
    "no game id": lambda doc: json.dumps({k: v for k, v in doc.items() if k != "game_id"}),
    "a bad position": lambda doc: json.dumps({**doc, "position": {**doc["position"], "suits": "4"}}),
    "moves that do not lead to the position": lambda doc: json.dumps({**doc, "history": doc["history"][:-1]}),
    "an unknown variant": lambda doc: json.dumps({**doc, "position": {**doc["position"], "variant": "Poker!"}}),
    "a built-in variant's unknown suits": lambda doc: json.dumps({**doc, "position": {**doc["position"], "suits": 3}}),
}


@pytest.mark.parametrize("damage", list(RESUME_DAMAGE), ids=list(RESUME_DAMAGE))
def test_a_damaged_resume_file_gives_a_new_game(spiderette_home, damage):
    w = Widget(seed=7)
    w.play("bd ea", delay=0)
    path = spiderette_home / "resume.json"
    path.write_text(RESUME_DAMAGE[damage](json.loads(path.read_text())))
    with pytest.warns(RecordsWarning, match="set aside as resume.json.corrupt-"):
        w2 = Widget(seed=5, resume=True)
    assert w2.game.seed == 5 and w2.game.move_count == 0
    assert w2.view["resume"] is None
    assert "set aside" in w2.view["message"]
    assert not path.exists() and any(f.startswith("resume.json.corrupt-") for f in files(spiderette_home))
    w2.deal()                                               # plays on, saves afresh
    assert Game.load(path).history == w2.game.history


def test_resume_checks_its_arguments():
    with pytest.raises(ValueError, match="resume=True"):
        Widget(game=Game(seed=1), resume=True)
    with pytest.raises(ValueError, match="resume=True"):
        Widget(resume=True, record=False)
    with pytest.raises(TypeError, match="resume must be True or False"):
        Widget(resume="yes")
    with pytest.raises(TypeError, match="record must be True or False"):
        Widget(record=1)


# ---------------------------------------------------------------------- the Statistics panel
def test_the_statistics_panel():
    w = Widget(seed=7)
    assert w.view["panel"] is None and w.stats == {}
    v = send(w, action="stats")                         # the toolbar button: toggles
    assert v["panel"] == "stats"
    assert w.stats["rows"] == [{**stats()["spiderette", 4], "current": True}]
    assert w.stats["rows"][0]["played"] == 0
    w.move(1, 3)
    send(w, action="new")
    assert w.view["panel"] == "stats" and w.stats["rows"][0]["played"] == 1 and w.stats["rows"][0]["lost"] == 1
    send(w, action="new", variant="spider", suits=1)    # the current variant's row, even never played
    assert [(r["variant"], r["suits"], r["current"]) for r in w.stats["rows"]] == [
        ("spiderette", 4, False), ("spider", 1, True)]
    assert send(w, action="stats")["panel"] is None
    assert send(w, action="stats", open=False)["panel"] is None
    assert send(w, action="stats", open=True)["panel"] == "stats"
    assert send(w, action="stats", open="yes")["message"].startswith("Refused: 'open' must be true or false")
    w.show_stats(False)
    assert w.view["panel"] is None
    with pytest.raises(TypeError):
        w.show_stats("no")


def test_the_panel_shows_a_win_at_once():
    w = Widget(game=won_in_one())
    w.show_stats()
    w.move(1, 0)
    assert w.stats["rows"][0]["won"] == 1 and w.stats["rows"][0]["streak"] == 1


def test_the_statistics_intent_leaves_a_play_running():
    w = Widget(seed=7)
    f = w.play("bd ea d", delay=0.2, wait=False)
    send(w, action="stats", open=True)
    assert [str(m) for m in f.result(timeout=10)] == ["bd1", "ea1", "d"]


def test_kernels_counting_at_once_lose_no_game(tmp_path):
    """Four processes (four kernels) count games into one statistics file at the same time: every game counts."""
    assert count_at_once(tmp_path, 4, 30) == [0, 0, 0, 0]
    row = stats(folder=tmp_path)["spiderette", 4]
    assert (row["played"], row["won"]) == (120, 60)
    assert row["best_score"] == 529 and row["fewest_moves"] == 10
    assert len(json.loads((tmp_path / "stats.json").read_text())["recorded"]) == 120
