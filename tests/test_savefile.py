"""Save files: round trip with history and redo, atomic writes, and refusal of every kind of bad file."""

from __future__ import annotations

import json
import os

import pytest
from spiderette_testkit import game, run

from spiderette import Game, Move, SaveFileError


def played(variant="spiderette", seed=7, steps=15, **kw) -> Game:
    g = Game(variant, seed=seed, **kw)
    for i in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(moves[(i * 5) % len(moves)])
    return g


def files(path):
    return sorted(p.name for p in path.iterdir())


@pytest.mark.parametrize("variant", ["spiderette", "red_black_spiderette", "will_o_the_wisp", "spider"])
def test_round_trip_keeps_history_and_redo(tmp_path, variant):
    g = played(variant)
    g.undo()
    g.undo()
    path = tmp_path / "game.json"
    g.save(path)
    assert files(tmp_path) == ["game.json"]  # no temporary file left behind
    h = Game.load(path)
    assert h.to_dict() == g.to_dict()
    assert h.history == g.history
    assert (h.score, h.move_count, h.seed, h.can_redo) == (g.score, g.move_count, g.seed, True)
    # redo and undo go on exactly as in the saved game
    assert h.redo() == g.redo() and h.redo() == g.redo()
    assert h.to_dict() == g.to_dict() and not h.can_redo
    while g.can_undo:
        assert h.undo() == g.undo()
        assert h.to_dict() == g.to_dict()
    assert not h.can_undo and h.to_dict() == Game(variant, seed=7).to_dict()


def test_round_trip_of_a_hand_made_position_with_options(tmp_path):
    g = game("spiderette", [["*", "AS"], ["|5H", *run("S", 13, 2)]], auto_remove=False, scoring="pairs")
    g.play("ab sb")
    path = str(tmp_path / "manual.json")  # a str path works too
    g.save(path)
    h = Game.load(path)
    assert h.to_dict() == g.to_dict() and h.history == [Move.parse("ab1"), Move.parse("sb")]
    assert (h.auto_remove, h.scoring, h.seed) == (False, "pairs", None)
    h.undo()
    h.undo()
    assert h.runs_completed == 0 and h.to_dict()["tableau"][0][-1] == "AS"


def test_a_new_game_saves_and_loads(tmp_path):
    g = Game("spider", seed=5, suits=1)
    g.save(tmp_path / "s.json")
    h = Game.load(tmp_path / "s.json")
    assert h.to_dict() == g.to_dict() and h.history == [] and not h.can_redo


def test_the_file_is_json_with_format_and_version(tmp_path):
    g = played()
    g.save(tmp_path / "g.json")
    doc = json.loads((tmp_path / "g.json").read_text("utf-8"))
    assert doc["format"] == "spiderette-save" and doc["version"] == 1
    assert doc["history"] == [str(m) for m in g.history]
    assert doc["position"] == g.to_dict()


def test_save_replaces_an_existing_file_whole(tmp_path):
    path = tmp_path / "g.json"
    path.write_text("x" * 100_000)  # longer than any save: nothing of it may remain
    g = played()
    g.save(path)
    assert Game.load(path).to_dict() == g.to_dict()
    assert "xxx" not in path.read_text()
    g2 = played(seed=8, steps=3)
    g2.save(path)
    assert Game.load(path).to_dict() == g2.to_dict()
    assert files(tmp_path) == ["g.json"]


def test_a_failed_save_leaves_nothing_behind(tmp_path):
    with pytest.raises(OSError):
        played().save(tmp_path / "no-such-dir" / "g.json")
    assert files(tmp_path) == []
    # a failing write keeps the old file as it was
    path = tmp_path / "g.json"
    g = played()
    g.save(path)
    before = path.read_bytes()
    bad = played()
    bad.seed = object()  # cannot be written as JSON
    with pytest.raises(TypeError):
        bad.save(path)
    assert path.read_bytes() == before
    assert files(tmp_path) == ["g.json"]


# ---------------------------------------------------------------------------------------- bad files
@pytest.fixture
def saved(tmp_path):
    g = played(steps=20)
    g.undo()
    path = tmp_path / "g.json"
    g.save(path)
    return path


def _edit(path, change):
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def _other_history(doc):
    h = doc["history"]
    h[-1], h[-2] = h[-2], h[-1]


def _replace_a_move(doc):
    # a legal line that ends elsewhere: drop the last move
    doc["history"].pop()


def _swap_cards(doc):
    t = doc["position"]["tableau"]
    t[0][-1], t[1][-1] = t[1][-1], t[0][-1]


@pytest.mark.parametrize("write,text", [
    (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "not valid JSON"),
    (lambda p: p.write_bytes(p.read_bytes()[:-40]), "not valid JSON"),
    (lambda p: p.write_bytes(b""), "not valid JSON"),
    (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe"), "not valid JSON"),
    (lambda p: p.write_text("hello, world"), "not valid JSON"),
    (lambda p: p.write_text("[1, 2, 3]"), "not a spiderette save file"),
    (lambda p: p.write_text('{"name": "my notes", "version": 1}'), "not a spiderette save file"),
    (lambda p: p.write_text('"spiderette-save"'), "not a spiderette save file"),
    (lambda p: _edit(p, lambda d: d.update(format="klondike-save")), "not a spiderette save file"),
    (lambda p: _edit(p, lambda d: d.update(version=2)), "version 2"),
    (lambda p: _edit(p, lambda d: d.pop("version")), "version None"),
    (lambda p: _edit(p, lambda d: d.update(version="1")), "version '1'"),
    (lambda p: _edit(p, lambda d: d.pop("history")), "'history' is missing"),
    (lambda p: _edit(p, lambda d: d.update(redo="ab")), "'redo' is missing or not a list"),
    (lambda p: _edit(p, lambda d: d.update(start=[])), "'start' is missing or not a dict"),
    (lambda p: _edit(p, lambda d: d.pop("position")), "'position' is missing"),
    (lambda p: _edit(p, _other_history), "damaged"),
    (lambda p: _edit(p, _replace_a_move), "its moves do not lead to its saved position"),
    (lambda p: _edit(p, _swap_cards), "its moves do not lead to its saved position"),
    (lambda p: _edit(p, lambda d: d["position"].update(score=1000)), "do not lead to its saved position"),
    (lambda p: _edit(p, lambda d: d["history"].append("zz")), "'zz'"),
    (lambda p: _edit(p, lambda d: d["history"].insert(0, "ag7")), "damaged"),
    (lambda p: _edit(p, lambda d: d["history"].append(17)), "damaged"),
    (lambda p: _edit(p, lambda d: d["redo"].append("ag7")), "damaged"),
    (lambda p: _edit(p, lambda d: d["start"]["tableau"][0].append("4H")), "extra 4H"),
    (lambda p: _edit(p, lambda d: d["start"].update(variant="klondike")), "unknown variant"),
    (lambda p: _edit(p, lambda d: d["start"].update(seed=8)), "damaged"),
])
def test_bad_files_are_refused_whole(saved, write, text):
    write(saved)
    with pytest.raises(SaveFileError) as e:
        Game.load(saved)
    assert isinstance(e.value, ValueError)
    assert text in str(e.value)
    assert str(saved) in str(e.value)  # the message names the file


def test_a_missing_file(tmp_path):
    with pytest.raises(SaveFileError, match="cannot read save file"):
        Game.load(tmp_path / "nothing.json")
    with pytest.raises(SaveFileError, match="is a folder, not a save file"):
        Game.load(tmp_path)


def test_the_saved_file_is_not_touched_by_loading(saved):
    before = saved.read_bytes()
    Game.load(saved)
    assert saved.read_bytes() == before
    assert os.path.exists(saved)
