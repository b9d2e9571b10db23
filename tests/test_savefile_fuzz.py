"""Fuzzing ``Game.load`` with corrupted save files.

A good save file is damaged every way a disk, a transfer or a hand edit could: bytes flipped, inserted,
deleted, the file cut short, JSON values replaced with random JSON, keys dropped or added. ``Game.load``
either returns a game that is what its own history makes of its own start, or raises ``SaveFileError``:
never another exception.
"""

from __future__ import annotations

import json
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spiderette import Game, SaveFileError


def _good_file() -> bytes:
    g = Game(seed=7, auto_remove=False)
    g.play("bd ea d fa")
    g.undo()
    assert g.history and g.redo_list
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "good.json")
        g.save(path)
        with open(path, "rb") as f:
            return f.read()


GOOD = _good_file()
GOOD_DOC = json.loads(GOOD)

# Values too big to show in a failing example are drawn as markers and made when the file is written.
HUGE, LONG, DEEP = "<HUGE>", "<LONG>", "<DEEP>"


def make(value: object) -> object:
    if value == LONG:
        return "x" * 100_000
    if isinstance(value, list):
        return [make(v) for v in value]
    if isinstance(value, dict):
        return {k: make(v) for k, v in value.items()}
    return value


scalar = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=10),
    st.sampled_from([HUGE, LONG, DEEP, 0, 1, -1, 4, 4.0, 1.0, True, 24, 17, "d", "ab", "ab1", "zz", "KS", "|KS",
                     "spiderette", "spider", "standard", "pairs", "spiderette-save", float("nan"),
                     float("inf")]),
)
json_value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)


def _dumps(doc: object) -> bytes:
    """``doc`` as a save file's text, with a 5000-digit number for HUGE and 50,000 nested lists for DEEP."""
    text = json.dumps(doc, indent=1)
    text = text.replace(json.dumps(HUGE), "9" * 5000).replace(json.dumps(DEEP), "[" * 50_000 + "]" * 50_000)
    return text.encode("utf-8")


@st.composite
def json_edits(draw) -> bytes:
    """The good document with a few values replaced, keys dropped or added, lists cut or grown."""
    doc = json.loads(GOOD)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        parent, key = None, None
        node = doc
        for _ in range(draw(st.integers(min_value=0, max_value=5))):  # walk down a random path
            if isinstance(node, dict) and node:
                k = draw(st.sampled_from(sorted(node)))
            elif isinstance(node, list) and node:
                k = draw(st.integers(min_value=0, max_value=len(node) - 1))
            else:
                break
            parent, key, node = node, k, node[k]
        how = draw(st.sampled_from(["replace", "replace", "drop", "add", "cut", "grow"]))
        new = make(draw(json_value))
        if parent is None:
            if how == "replace":
                doc = new
            elif isinstance(doc, dict):
                doc[draw(st.text(max_size=8))] = new
            continue
        if how == "replace":
            parent[key] = new
        elif how == "drop":
            del parent[key]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = new
        elif how == "cut" and isinstance(node, list):
            del node[draw(st.integers(min_value=0, max_value=len(node))):]
        elif how == "grow" and isinstance(node, list):
            node.insert(draw(st.integers(min_value=0, max_value=len(node))), new)
        else:
            parent[key] = new
    return _dumps(doc)


@st.composite
def byte_edits(draw) -> bytes:
    """The good file's bytes flipped, inserted, deleted, replaced, or cut short."""
    data = bytearray(GOOD)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        how = draw(st.sampled_from(["flip", "insert", "delete", "replace", "truncate", "digit"]))
        i = draw(st.integers(min_value=0, max_value=max(len(data) - 1, 0)))
        if how == "flip" and data:
            data[i] ^= 1 << draw(st.integers(min_value=0, max_value=7))
        elif how == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif how == "delete":
            del data[i:i + draw(st.integers(min_value=1, max_value=40))]
        elif how == "replace":
            chunk = draw(st.binary(min_size=1, max_size=8))
            data[i:i + len(chunk)] = chunk
        elif how == "truncate":
            del data[i:]
        else:  # a digit changed: a count, a card's place, a move's column
            digits = [j for j, b in enumerate(data) if 48 <= b <= 57]
            if digits:
                j = digits[i % len(digits)]
                data[j] = draw(st.integers(min_value=48, max_value=57))
    return bytes(data)


@st.composite
def token_edits(draw) -> bytes:
    """One move, card or number of the file's text swapped for another of the same kind."""
    text = GOOD.decode("utf-8")
    tokens = sorted({t for t in ("bd1", "ea1", "fa1", '"d"', "seed", "moves", "score", "suits", "7", "24", "17",
                                 "true", "false", "standard", "KS", "AS", "4H") if t in text})
    old = draw(st.sampled_from(tokens))
    new = draw(st.sampled_from(["ab1", "ba1", "bd2", "fa", "sa", '"x"', "1", "0", "-1", "1.0", "1e3", "null",
                                "true", "[]", "{}", "9" * 5000, "KS", "QH", "|AS", '"', "\\u0000"]))
    count = text.count(old)
    which = draw(st.integers(min_value=0, max_value=count - 1))
    at = -1
    for _ in range(which + 1):
        at = text.index(old, at + 1)
    return (text[:at] + new + text[at + len(old):]).encode("utf-8")


def check_consistent(g: Game) -> None:
    """The loaded game is what its history makes of its start, and its redo list can be played."""
    start = g.copy()
    start.restart()
    again = Game.from_dict(start.to_dict())
    again.play(g.history)
    assert again.to_dict() == g.to_dict()
    assert again.position() == g.position()
    ahead = g.copy()
    ahead.play(g.redo_list)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(byte_edits(), json_edits(), token_edits()))
def test_a_damaged_save_file_loads_whole_or_is_refused(data):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "damaged.json")
        with open(path, "wb") as f:
            f.write(data)
        try:
            g = Game.load(path)
        except SaveFileError as e:
            assert len(str(e)) < 1000
            return
    check_consistent(g)


def test_the_undamaged_file_loads():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "good.json")
        with open(path, "wb") as f:
            f.write(GOOD)
        g = Game.load(path)
    check_consistent(g)
    assert [str(m) for m in g.history] == GOOD_DOC["history"] and g.redo_list
