"""The records in a browser tab (JupyterLite's drive): a write whose last step fails or is interrupted loses
nothing, and kernels of several notebooks recording on one drive at once keep every row.

On that drive a rename onto an existing file is not safe, so a write removes the old file before the new one
takes its name (``spiderette.engine.files``). These tests play the browser tab on a local folder
(``platform.BROWSER`` set), failing each step in turn."""

from __future__ import annotations

import json
import os

import pytest
from spiderette_testkit import count_at_once

from spiderette import Game, stats
from spiderette.engine import files, platform
from spiderette.userdata.resumefile import load_resume, save_resume
from spiderette.userdata.statistics import record_result


@pytest.fixture
def drive(tmp_path, monkeypatch):
    """A browser tab's data folder on its drive."""
    monkeypatch.setattr(platform, "BROWSER", True)
    folder = tmp_path / "drive" / ".spiderette"
    folder.mkdir(parents=True)
    return folder


def record(folder, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        record_result("spiderette", 4, won=i % 2 == 0, score=500 + i, moves=50 + i, game_id=f"g{i}", folder=folder)


def played(folder) -> int:
    return stats(folder=folder)["spiderette", 4]["played"]


def fail_at(monkeypatch, step: str, error: BaseException) -> None:
    """Make the browser write fail at ``step``: ``"ready"`` (the whole new file taking its ready name),
    ``"unlink"`` (the old file removed) or ``"rename"`` (the ready file taking the name, the old one gone)."""
    rename, unlink = os.rename, os.unlink

    def renaming(a, b):
        is_ready = str(b).endswith(".ready")
        if (step == "ready" and is_ready) or (step == "rename" and not is_ready):
            raise error
        rename(a, b)

    def unlinking(p, *args, **kwargs):
        if step == "unlink" and str(p).endswith("stats.json"):
            raise error
        unlink(p, *args, **kwargs)

    monkeypatch.setattr(files.os, "rename", renaming)
    monkeypatch.setattr(files.os, "unlink", unlinking)


@pytest.mark.parametrize("error", [OSError(5, "Input/output error"), KeyboardInterrupt()],
                         ids=["fails", "interrupted"])
def test_a_write_stopped_after_the_old_file_was_removed_loses_no_game(drive, monkeypatch, error):
    """The old statistics file removed, the new one not yet renamed in: 3 games recorded became 0 before; now
    the new file waits whole under its ready name and the next read puts it in place: 4 games."""
    record(drive, 3)
    with monkeypatch.context() as m:
        fail_at(m, "rename", error)
        with pytest.raises(type(error)):
            record(drive, 1, start=3)
        assert not (drive / "stats.json").exists() and (drive / ".stats.json.ready").exists()
    assert played(drive) == 4
    assert sorted(os.listdir(drive)) == ["stats.json"], "put in place; nothing left beside it"
    record(drive, 1, start=4)
    assert played(drive) == 5


def test_a_read_that_cannot_put_the_new_file_in_place_still_reads_it(drive, monkeypatch):
    record(drive, 3)
    with monkeypatch.context() as m:
        fail_at(m, "rename", OSError(5, "Input/output error"))
        with pytest.raises(OSError):
            record(drive, 1, start=3)
        assert played(drive) == 4, "read from its ready name while it cannot be renamed"
    assert played(drive) == 4


@pytest.mark.parametrize("step", ["ready", "unlink"])
def test_a_write_stopped_before_the_old_file_was_removed_keeps_the_old_file(drive, monkeypatch, step):
    record(drive, 3)
    before = (drive / "stats.json").read_bytes()
    with monkeypatch.context() as m:
        fail_at(m, step, OSError(28, "No space left on device"))
        with pytest.raises(OSError):
            record(drive, 1, start=3)
    if step == "ready":
        assert (drive / "stats.json").read_bytes() == before
        assert sorted(os.listdir(drive)) == ["stats.json"], "no temporary file is left"
    assert played(drive) in (3, 4)   # (the old file; or, the new one being whole already, the new)
    record(drive, 1, start=10)
    assert played(drive) in (4, 5) and (drive / "stats.json").exists()


def test_the_unfinished_game_survives_an_interrupted_write(drive, monkeypatch):
    g = Game(seed=7)
    g.play("bd")
    save_resume(g, "abc", folder=drive)
    g.play("d")
    with monkeypatch.context() as m:
        fail_at(m, "rename", KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):
            save_resume(g, "abc", folder=drive)
    game, game_id = load_resume(folder=drive)
    assert game_id == "abc" and [str(m) for m in game.history] == ["bd1", "d"]


def test_outside_a_browser_the_old_file_is_replaced_in_one_step(tmp_path, monkeypatch):
    monkeypatch.setattr(platform, "BROWSER", False)
    record(tmp_path, 2)
    monkeypatch.setattr(files.os, "unlink", lambda *a, **k: pytest.fail("the old file was removed first"))
    record(tmp_path, 1, start=2)
    assert played(tmp_path) == 3 and not (tmp_path / ".stats.json.ready").exists()


def test_kernels_of_several_notebooks_on_one_drive_keep_every_row(tmp_path):
    """Four kernels on one browser drive record 50 games each at once: all 200 are kept (20 were, before)."""
    assert count_at_once(tmp_path, 4, 50, browser=True) == [0, 0, 0, 0]
    row = stats(folder=tmp_path)["spiderette", 4]
    assert (row["played"], row["won"]) == (200, 100)
    assert len(json.loads((tmp_path / "stats.json").read_text())["recorded"]) == 200
    assert sorted(os.listdir(tmp_path)) == ["stats.json"], "no lock, ready or temporary file is left"


def test_a_lock_left_by_a_kernel_that_stopped_is_broken(tmp_path):
    lock = files.SoftLock(tmp_path / "x.lock", wait=5, stale=0.2)
    (tmp_path / "x.lock").write_text("")
    old = os.stat(tmp_path / "x.lock").st_mtime - 10
    os.utime(tmp_path / "x.lock", (old, old))
    with lock:
        pass
    assert not (tmp_path / "x.lock").exists()
    held = files.SoftLock(tmp_path / "y.lock", wait=0.05, stale=60)
    with held, pytest.raises(OSError, match="locked by another process"):
        files.SoftLock(tmp_path / "y.lock", wait=0.05, stale=60).acquire()
