"""Move text too long to play: a sequence is capped at MAX_SEQUENCE moves before any of it is parsed, at
``Game.play``, ``Widget.play`` and the ``spiderette play`` prompt; and a game longer than the cap still saves and
loads back."""

from __future__ import annotations

import io
import sys
import tracemalloc

import pytest

from spiderette import Game, NotationError
from spiderette.cli import main
from spiderette.engine.game import MAX_SEQUENCE
from spiderette.notebook.widget import Widget

#: Three million moves in six million characters: once 22 s and 724 MiB before the first move was refused.
MILLIONS = "ab " * 3_000_000
CAP = "a sequence holds at most 100,000 moves; this one holds more"
# A two-suit position with the stock dealt out: 5♥ (column d) moves onto 6♠ (column a) and back, for ever.
BACK_AND_FORTH = ("spiderette:2 4H3H6S/8s2STH8HKS/th6h5S7S/9has4hTS6S9S8S7H6H5H/qskhjs2s4S8H9H3S2HAH/"
                  "qhasqs3s2hTS3HAHKHQHJH/5h9s7s4s7h5sJHJSKS - - 25 475 33")


def refused_in_flat_memory(play, most_mib: float = 4) -> NotationError:
    """``play()`` refuses the sequence as too long, its peak memory under ``most_mib``."""
    tracemalloc.start()
    try:
        with pytest.raises(NotationError, match=CAP) as e:
            play()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < most_mib * 2**20, f"{peak / 2**20:.0f} MiB to refuse it"
    return e.value


def test_millions_of_moves_in_a_string_are_refused_at_once_and_nothing_is_played():
    g = Game(seed=7)
    refused_in_flat_memory(lambda: g.play(MILLIONS))
    assert g.move_count == 0 and g.history == []
    refused_in_flat_memory(lambda: g.play(", ".join(["bd"] * (MAX_SEQUENCE + 1))))   # commas separate too


def test_the_cap_counts_moves_not_characters():
    g = Game(seed=7)
    with pytest.raises(ValueError, match=r"move 1 \(ab\)"):   # as many moves as the cap: each one is played
        g.play("ab " * MAX_SEQUENCE)
    with pytest.raises(ValueError, match="4H cannot go on 6H"):   # long, but few moves
        g.play(" " * (3 * MAX_SEQUENCE) + "ab")
    assert g.move_count == 0


def test_the_table_refuses_millions_of_moves_at_once_and_shows_nothing():
    w = Widget(seed=7, record=False)
    shown = dict(w.view)
    refused_in_flat_memory(lambda: w.play(MILLIONS, delay=0))
    assert w.game.move_count == 0 and w.view == shown


def test_the_prompt_refuses_a_line_of_too_many_moves(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("ab " * (MAX_SEQUENCE + 1) + "\nbd\nq\n"))
    assert main(["play", "7"]) == 0
    out = capsys.readouterr().out
    assert f"not played: {CAP}" in out
    assert out.rstrip().endswith("score 499 · 1 move · runs 0/4"), "the game goes on: bd was played"


def test_a_game_longer_than_one_sequence_saves_and_loads_back(tmp_path):
    g = Game.from_position(BACK_AND_FORTH)
    g.play(["da", "ad"] * (MAX_SEQUENCE // 2))
    g.play("da ad")
    g.undo()
    assert (len(g.history), len(g.redo_list)) == (MAX_SEQUENCE + 1, 1)
    g.save(tmp_path / "long.json")
    back = Game.load(tmp_path / "long.json")
    assert back.history == g.history and back.redo_list == g.redo_list
    assert back.position() == g.position()


def test_the_prompt_echoes_piped_control_bytes_escaped(capsys, monkeypatch):
    """Piped input is echoed into the transcript: an escape sequence (clear the screen), a bell or a carriage
    return are shown as escapes, not sent to the terminal; a huge line is cut, its length said."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("bd\x1b[2J\x07\rzz\n" + "x" * 5000 + "\nq\n"))
    assert main(["play", "7"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "> bd\\x1b[2J\\x07\\rzz\n" in out
    assert "… (5000 characters)" in out and "x" * 1000 not in out
