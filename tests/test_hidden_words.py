"""No published view names a card a player cannot see: every message, hint and refusal is worded from the
table as it stands, never from a scratch copy or a move list read the wrong way round.

A seeded walk plays random games through every action the table offers (moves, clicks, deals, sends,
undo, redo, hints, sequences of moves that are refused halfway, new games, restarts), from Python and as
browser intents; each view the widget publishes is checked against the face-down and stock cards of that
very moment.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from spiderette_testkit import hidden_codes, send

from spiderette import Game
from spiderette.engine.cards import code_text
from spiderette.engine.errors import IllegalMoveError
from spiderette.engine.move import LETTERS
from spiderette.notebook.widget import Widget

#: A card in a message: in words (``10♥``) or in code (``TH``).
WORD = re.compile(r"(?<![0-9])(?:10|[2-9AJQK])[\u2660\u2665\u2666\u2663]")
CODE = re.compile(r"\b[2-9TAJQK][SHDC]\b")


def hidden_words(g: Game) -> set[str]:
    return {code_text(c) for c in hidden_codes(g)}


def leaks(g: Game, v: dict) -> list[str]:
    """The hidden cards of ``g`` that the view ``v`` names anywhere: its texts and its card lists."""
    codes, words = hidden_codes(g), hidden_words(g)
    text = json.dumps(v, ensure_ascii=False)
    found = [w for w in WORD.findall(text) if w in words]
    found += [c for c in CODE.findall(text) if c in codes]
    return found


class Watch:
    """Checks every view ``w`` publishes, at the moment it is published."""

    def __init__(self, w: Widget) -> None:
        self.w, self.views, self.found = w, 0, []
        w.observe(self.check, "view")

    def check(self, change: dict) -> None:
        self.views += 1
        bad = leaks(self.w.game, change["new"])
        if bad:
            self.found.append((bad, change["new"].get("message"), self.w.game.to_text()))


def random_token(rng: random.Random, g: Game) -> str:
    legal = g.legal_moves()
    if legal and rng.random() < 0.6:
        return str(rng.choice(legal))
    a, b = rng.sample(LETTERS[:g.columns], 2)
    return a + b + (str(rng.randint(1, 4)) if rng.random() < 0.3 else "")


def act(rng: random.Random, w: Widget, raised: list | None = None) -> None:
    """One random action, from Python or as the browser would send it, or a change made on ``w.game``
    directly from a cell; refusals are expected, and what they raise is checked (into ``raised``)."""
    g = w.game
    n = g.columns
    if rng.random() < 0.08:   # a cell changes the game without going through the table
        legal = g.legal_moves()
        if legal and rng.random() < 0.6:
            g.apply(rng.choice(legal))
        else:
            g.undo()
        return
    if rng.random() < 0.01:
        w.resign()
        return
    roll = rng.random()
    try:
        if roll < 0.25 and g.legal_moves():
            m = rng.choice(g.legal_moves())
            send(w, action="move", kind=m.kind, src=m.src, dst=m.dst, count=m.count) if m.kind == "move" \
                else w.apply(m)
        elif roll < 0.35:
            send(w, action="click", src=rng.randrange(n), count=rng.choice([None, 1, 2, 3]))
        elif roll < 0.42:
            send(w, action="move", src=rng.randrange(n), dst=rng.randrange(n), count=rng.randint(1, 4))
        elif roll < 0.50:
            w.play(" ".join(random_token(rng, g) for _ in range(rng.randint(2, 5))), delay=0)
        elif roll < 0.62:
            send(w, action="undo") if rng.random() < 0.5 else w.undo()
        elif roll < 0.72:
            send(w, action="redo") if rng.random() < 0.5 else w.redo()
        elif roll < 0.78:
            send(w, action="deal")
        elif roll < 0.82:
            send(w, action="send", src=rng.randrange(n))
        elif roll < 0.90:
            send(w, action="hint")
        elif roll < 0.93:
            w.think(wait=True, budget=150)
        elif roll < 0.96:
            send(w, action="restart")
        else:
            w.new_game(seed=rng.randrange(1, 10_000))
    except IllegalMoveError as e:
        bad = [x for x in WORD.findall(str(e)) if x in hidden_words(g)] + \
              [c for c in CODE.findall(str(e)) if c in hidden_codes(g)]
        if bad and raised is not None:
            raised.append((bad, str(e)))


@pytest.mark.parametrize("variant,suits,seed", [("spiderette", 4, 1), ("spiderette", 1, 2), ("spider", 2, 3),
                                                ("red_black_spiderette", 4, 4), ("will_o_the_wisp", 4, 5)])
def test_no_view_names_a_hidden_card(variant: str, suits: int, seed: int) -> None:
    rng = random.Random(seed)
    w = Widget(variant, suits=suits, seed=rng.randrange(1, 1000), record=False)
    watch = Watch(w)
    raised: list = []
    for _ in range(700):
        act(rng, w, raised)
    assert watch.views > 600
    assert not watch.found, watch.found[:3]
    assert not raised, raised[:3]   # what a refusal raises into the cell names no hidden card either


def test_redo_names_the_move_it_plays() -> None:
    w = Widget(seed=7, record=False)
    w.play("bd ea", delay=0)
    w.undo()
    w.undo()
    assert w.redo().src == 1   # bd comes back first
    assert w.view["message"] == "Moved 6\u2665 onto 7\u2663 again"


def test_redo_from_intents_names_no_face_down_card() -> None:
    w = Widget(seed=2, record=False)
    for token in "bd1 cg1 ce1 da2 af2 fa2".split():
        w.apply(token)
    for _ in range(6):
        send(w, action="undo")
    send(w, action="redo")
    assert w.view["message"].startswith("Moved ") and w.view["message"].endswith(" again")
    assert not leaks(w.game, w.view)


def test_a_refused_sequence_names_no_card_it_would_turn_over() -> None:
    w = Widget(seed=7, record=False)
    before = w.game.to_dict()
    with pytest.raises(IllegalMoveError):
        w.play("bd ba")
    assert w.game.to_dict() == before
    message = w.view["message"]
    assert "5\u2660" not in message and not leaks(w.game, w.view)
    assert message.startswith("Not allowed (move 2 of the sequence): ba ")


def test_a_refused_sequence_still_names_the_cards_in_view() -> None:
    w = Widget(seed=7, record=False)
    with pytest.raises(IllegalMoveError):
        w.play("bd ec")
    assert w.view["message"] == ("Not allowed (move 2 of the sequence): 3\u2660 cannot go on J\u2663: a card goes"
                                 " only on a card one rank higher")
