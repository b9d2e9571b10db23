"""Fuzzing the widget's message handler with what a broken or hostile front end could send.

Whatever arrives (random JSON, malformed or stale intents, replays of old ones), no exception escapes,
the game stays what its history makes of its start, the message line stays short and is a refusal rather
than "Something went wrong", the table keeps answering, and no hidden card reaches a synced trait.
"""

from __future__ import annotations

import json
import random
import types
from contextlib import contextmanager
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spiderette_testkit import hidden_codes, send

import spiderette.engine.game
from spiderette import Game
from spiderette.engine.variants import VARIANTS
from spiderette.notebook.intents import ACTIONS
from spiderette.notebook.widget import MAX_MESSAGE, Widget

# Values too big to show in a failing example are drawn as markers and made when the message is sent.
HUGE, NEG_HUGE, LONG, DEEP = "<HUGE>", "<-HUGE>", "<LONG>", "<DEEP>"


def make(value: object) -> object:
    """``value`` with the markers replaced by what they stand for."""
    if value == HUGE:
        return 10 ** 5000
    if value == NEG_HUGE:
        return -10 ** 5000
    if value == LONG:
        return "x" * 100_000
    if value == DEEP:
        deep: list = []
        for _ in range(200):
            deep = [deep]
        return deep
    if isinstance(value, list):
        return [make(v) for v in value]
    if isinstance(value, dict):
        return {k: make(v) for k, v in value.items()}
    return value


edge = st.sampled_from([HUGE, NEG_HUGE, LONG, DEEP, -1, 0, 1, 2, 6, 7, 9, 10, 13, 99, 100, 2 ** 31, 2 ** 63, -2 ** 63,
                        0.5, 1.0, -0.0, float("nan"), float("inf"), -float("inf"), True, False, None, "", "a", "0",
                        "1", [], {}, [1, [2, [3]]], {"a": None}])
scalar = st.one_of(edge, st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12))
json_value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
column = st.one_of(st.integers(min_value=0, max_value=9), edge)
version = st.one_of(st.sampled_from(["current", "current", "stale", "future"]), edge)

valid_looking = st.fixed_dictionaries(
    {"action": st.sampled_from(ACTIONS), "version": version},
    optional={"src": column, "dst": column, "count": st.one_of(st.integers(min_value=1, max_value=13), edge),
              "variant": st.one_of(st.sampled_from(VARIANTS), edge, st.text(max_size=8)),
              "suits": st.one_of(st.sampled_from([1, 2, 4, 3, 4.0, True]), edge),
              "extra": json_value})
random_keys = st.dictionaries(st.one_of(st.sampled_from(["action", "version", "src", "dst", "count", "suits",
                                                         "variant"]), st.text(max_size=8)),
                              json_value, max_size=5)

steps = st.lists(st.one_of(
    st.tuples(st.just("intent"), valid_looking),
    st.tuples(st.just("legal"), st.integers(min_value=0, max_value=50), st.booleans()),
    st.tuples(st.just("raw"), json_value),
    st.tuples(st.just("raw"), random_keys),
    st.tuples(st.just("replay"), st.integers(min_value=0, max_value=50)),
), min_size=1, max_size=25)


def start_of(g: Game) -> dict:
    s = g.copy()
    s.restart()
    return s.to_dict()



def check_table(w: Widget) -> None:
    message = w.view["message"]
    assert len(message) <= MAX_MESSAGE, len(message)
    assert not message.startswith("Something went wrong"), message
    g = w.game
    again = Game.from_dict(start_of(g))
    again.play(g.history)
    assert again.to_dict() == g.to_dict()
    state = json.dumps(w.get_state())
    leaked = sorted(c for c in hidden_codes(g) if f'"{c}"' in state)
    assert not leaked, leaked
    v = w.view["version"]
    w._intents.handle(w, {"action": "hint", "version": v}, [])   # the table still answers
    assert w.view["version"] > v
    assert not w.view["message"].startswith("Something went wrong"), w.view["message"]


@contextmanager
def fixed_new_deals():
    """New games from a "new" intent get deal numbers from a seeded generator, so examples repeat."""
    rng = random.Random(99)
    fake = types.SimpleNamespace(SystemRandom=lambda: rng)
    with mock.patch.object(spiderette.engine.game, "random", fake):
        yield


def deliver(w: Widget, msg: object) -> None:
    w._intents.handle(w, msg, [])     # any exception escaping here fails the test


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=50), variant=st.sampled_from(VARIANTS), steps=steps)
def test_the_table_survives_any_messages(seed, variant, steps):
    with fixed_new_deals():
        w = Widget(variant, seed=seed)
        sent: list[object] = []
        for step in steps:
            kind = step[0]
            if kind == "intent":
                msg = make(step[1])
                spec = msg["version"]
                now = w.view["version"]
                msg["version"] = {"current": now, "stale": now - 1, "future": now + 1}.get(spec, spec) \
                    if isinstance(spec, str) else spec
            elif kind == "legal":
                moves = w.game.legal_moves()
                if not moves:
                    continue
                m = moves[step[1] % len(moves)]
                if m.kind == "move":
                    msg = {"action": "move", "src": m.src, "dst": m.dst, "count": m.count}
                elif m.kind == "deal":
                    msg = {"action": "deal"}
                else:
                    msg = {"action": "send", "src": m.src}
                msg["version"] = w.view["version"] if step[2] else w.view["version"] - 1
            elif kind == "raw":
                msg = make(step[1])
            else:
                if not sent:
                    continue
                msg = sent[step[1] % len(sent)]   # the very message again, its version now old
            deliver(w, msg)
            sent.append(msg)
            check_table(w)


# ---------------------------------------------------------------------------------------- plain cases

def test_an_unknown_action_of_100000_characters_leaves_a_short_message():
    w = Widget(seed=7)
    before = w.game.to_dict()
    send(w, action="x" * 100_000)
    message = w.view["message"]
    assert len(message) < MAX_MESSAGE and "unknown action" in message and "xxxx" in message, message
    assert w.game.to_dict() == before


def test_a_new_game_with_suits_that_are_not_a_whole_number_is_refused_with_a_reason():
    w = Widget(seed=7)
    g, before = w.game, w.game.to_dict()
    for suits in (4.0, 2.0, True, "4", [4], 10 ** 5000):
        v = w.view["version"]
        send(w, action="new", suits=suits)
        message = w.view["message"]
        assert w.view["version"] > v
        assert "suits" in message and not message.startswith("Something went wrong"), message
        assert len(message) <= MAX_MESSAGE
        assert w.game is g and w.game.to_dict() == before
    send(w, action="new", suits=2)
    assert w.game is not g and w.game.suits == 2


def test_huge_and_long_fields_give_short_refusals():
    w = Widget(seed=7)
    before = w.game.to_dict()
    for msg in ({"action": "move", "src": 10 ** 5000, "dst": 0, "count": 1},
                {"action": "move", "src": 1, "dst": 3, "count": -10 ** 5000},
                {"action": "click", "src": "x" * 100_000},
                {"action": "move", "src": 1, "dst": 3, "count": 1, "version": 10 ** 5000},
                {"action": "deal", "version": "v" * 100_000},
                {"action": "new", "variant": "v" * 100_000},
                {"action": ["move"] * 100_000}):
        msg.setdefault("version", w.view["version"])
        w._intents.handle(w, msg, [])
        message = w.view["message"]
        assert len(message) <= MAX_MESSAGE and not message.startswith("Something went wrong"), message
        assert ("Refused" in message or "older table" in message) and w.game.to_dict() == before, message
