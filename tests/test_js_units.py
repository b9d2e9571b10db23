"""The front end's pure modules, tested against Python: ``js/test/*.test.js`` run by ``node --test``.

The browser draws a click's destination and a move's outcome before Python answers (``js/predict.js``), from
the view alone; these tests hold it to Python's own answers. ``js/test/fixtures/python-answers.json`` holds
them (positions of every variant, each with the column Python's ``click_move`` sends every group to, and
the view after some legal moves); the first test keeps it equal to what this Python says, and
``python tests/test_js_units.py`` writes it afresh.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from spiderette import Game, IllegalMoveError, Move
from spiderette.engine.move import DEAL
from spiderette.engine.predicates import finishes_a_run
from spiderette.notebook.view import click_move, view
from spiderette.players.strategies import RulesOfThumb

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "js" / "test" / "fixtures" / "python-answers.json"
# (variant, suits, completed runs leave on their own)
VARIANTS = [("spiderette", 4, True), ("spiderette", 1, True), ("red_black_spiderette", 4, True),
            ("will_o_the_wisp", 4, True), ("spider", 2, True), ("spiderette", 1, False)]
RUN = "KSQSJSTS9S8S7S6S5S4S3S2S"   # a King-to-2 run of spades, over a face-down 5H in column a
#: Made by hand: a move that completes a run (the AS of column g onto it), a deal that may (the AS first), and
#: two deals that may (a King-to-3 run: the 2S first, the AS next).
HANDMADE = [
    "spiderette:4 5h" + RUN + "/qhkhad2d3D/4d5d6d7d8D/9dtdjdqdKD/ac2c3c4c5C/6c7c8c9C/tcjcqckcAS "
    "AH2H3H4H6H7H8H9HTHJH - 20 480 -",
    "spiderette:4 5h" + RUN + "/jhqhkhad2D/3d4d5d6d7D/8d9dtdjdQD/kdac2c3c4C/5c6c7c8c9C/tcjcqcKC "
    "ASAH2H3H4H6H7H8H9HTH - 20 480 -",
    "spiderette:4 5h" + RUN[:-2] + "/jhqhkhad2D/3d4d5d6d7D/8d9dtdjdQD/kdac2c3c4C/5c6c7c8c9C/tcjcqcKCTH "
    "2SAH2H3H4H6H7HAS8H9H - 20 480 -",
]
SEEN = ("columns", "tableau", "foundations", "targets", "clicks", "unforeseen", "unforeseen_deal", "run_length",
        "stock", "deals_left", "can_deal", "sendable", "deals", "after")


def _table(g: Game) -> dict:
    v = view(g)
    return {k: v[k] for k in SEEN}


def _after(g: Game, *moves: Move) -> dict:
    """The cards of the table after ``moves`` (what a prediction is held to)."""
    h = g.copy()
    for m in moves:
        h.apply(m)
    v = view(h)
    return {k: v[k] for k in ("tableau", "foundations", "stock")}


def _notation(m: Move) -> list | str:
    return [m.src, m.dst, m.count] if m.kind == "move" else m.kind


def _position(name: str, g: Game, rng: random.Random, clicks: bool = True) -> dict:
    """Python's answers at ``g``: click destinations, the table after some legal moves (every one that
    completes a run among them), after a deal, and after two intents in a row (the queue's chains; among
    them every move that empties a column followed by a deal: ``view`` null when Python
    refuses it)."""
    out = []
    for src in range(g.columns) if clicks else ():
        for k in range(1, g.movable(src) + 1):
            try:
                out.append([src, k, click_move(g, src, k).dst])
            except IllegalMoveError:
                out.append([src, k, None])
    legal = g.legal_moves()
    moves = [m for m in legal if m.kind == "move"]
    finishing = [m for m in moves if finishes_a_run(g, m)]
    chosen = finishing + [m for m in rng.sample(moves, min(3, len(moves))) if m not in finishing]
    after = [{"move": _notation(m), "view": _after(g, m)} for m in chosen]
    deal = next((m for m in legal if m.kind == "deal"), None)
    chains = []
    emptying = [m for m in moves if m.count == len(g.column(m.src)) and m not in finishing]
    for i, m in enumerate(rng.sample(moves, min(1, len(moves))) + finishing + emptying):
        h = g.copy()
        h.apply(m)
        then = [x for x in h.legal_moves() if x.kind == "deal" or finishes_a_run(h, x)]
        rest = [x for x in h.legal_moves() if x.kind == "move" and x not in then]
        for x in then + (rng.sample(rest, min(2, len(rest))) if i < 1 + len(finishing) else []):
            # (waits: Python's view after the first says the second's outcome is hidden)
            waits = bool(view(h)["unforeseen_deal"]) if x.kind == "deal" else h.auto_remove and finishes_a_run(h, x)
            chains.append({"moves": [_notation(m), _notation(x)], "view": _after(g, m, x), "waits": waits})
        if h.deal_error() is not None and m.kind == "move" and g.deal_error() is None:
            chains.append({"moves": [_notation(m), "deal"], "view": None, "waits": False})   # Python refuses it
    twice = None   # (a deal on the deal: Python's table after both, or null when it refuses the second)
    if deal is not None:
        h = g.copy()
        h.deal()
        twice = {"view": _after(h, DEAL) if h.deal_error() is None else None,
                 "waits": bool(view(h)["unforeseen_deal"])}
    return {"name": name, "view": _table(g), "clicks": out, "after": after,
            "deal": None if deal is None else _after(g, deal), "twice": twice, "chains": chains}


def python_answers() -> list[dict]:
    """Positions along seeded random games, with Python's click destinations and the views after moves;
    positions where a move completes a run (met by a player who follows the rules of thumb), where a move
    empties a column while a deal can be made; handmade ones."""
    out = []
    for variant, suits, auto in VARIANTS:
        kind = f"{variant}-{suits}{'' if auto else '-manual'}"
        for seed in range(1, 5):
            g = Game(variant, seed=seed, suits=suits, auto_remove=auto)
            rng = random.Random(seed)
            for step in range(48):
                if step % 6 == 0:
                    out.append(_position(f"{kind} deal {seed} move {g.move_count}", g, rng))
                legal = g.legal_moves()
                if not legal:
                    break
                g.apply(rng.choice(legal))
        met = 0
        for seed in range(1, 40):
            g, rng, player = Game(variant, seed=seed, suits=suits, auto_remove=auto), random.Random(seed), \
                RulesOfThumb()
            for _ in range(150):
                legal = g.legal_moves()
                if not legal or met >= 8:
                    break
                if any(finishes_a_run(g, m) for m in legal):
                    out.append(_position(f"{kind} deal {seed} move {g.move_count}, a run to complete", g, rng,
                                         clicks=False))
                    met += 1
                send = next((m for m in legal if m.kind == "send"), None)   # (by hand: a finished run goes)
                g.apply(send or (rng.random() < 0.8 and player(g)) or rng.choice(legal))
        met = 0
        for seed in range(40, 80):   # (a move that empties a column, then a deal: Python refuses it, or deals)
            g, rng = Game(variant, seed=seed, suits=suits, auto_remove=auto), random.Random(seed)
            for _ in range(150):
                legal = g.legal_moves()
                if not legal or met >= 4:
                    break
                if g.deal_error() is None and any(m.kind == "move" and m.count == len(g.column(m.src))
                                                  and not finishes_a_run(g, m) for m in legal):
                    out.append(_position(f"{kind} deal {seed} move {g.move_count}, a column to empty", g, rng,
                                         clicks=False))
                    met += 1
                    break
                g.apply(rng.choice(legal))
    for i, text in enumerate(HANDMADE):
        out.append(_position(f"handmade {i}", Game.from_position(text), random.Random(i)))
    return json.loads(json.dumps(out))


# The intent queue's bursts (js/test/queue.test.js): what Python receives, in order, and the view it answers
# each with, from the widget itself. Deal 7: a 4H, b 6H, c JC, d 7C, e 3S, f 8H, g AS; legal: b->d, d->f, e->a.
# (name, the table: a deal number or a position, moves made behind the table's back, the intents received)
BURSTS = [
    ("burst", 7, "", [{"action": "click", "src": 1, "count": 1}, {"action": "move", "src": 4, "dst": 0, "count": 1},
                      {"action": "deal"}, {"action": "undo"}, {"action": "undo"}]),
    ("completes a run", HANDMADE[0], "", [{"action": "move", "src": 6, "dst": 0, "count": 1},
                                          {"action": "move", "src": 2, "dst": 5, "count": 1}, {"action": "undo"}]),
    ("completes a run, then a card gone", HANDMADE[0], "", [{"action": "move", "src": 6, "dst": 0, "count": 1},
                                                            {"action": "deal"}]),
    ("changed behind the table", 7, "bd", [{"action": "move", "src": 3, "dst": 5, "count": 1}]),
    ("a refusal in the middle", 7, "", [{"action": "click", "src": 1, "count": 1},
                                        {"action": "move", "src": 4, "dst": 5, "count": 1}, {"action": "deal"}]),
]
QUEUE_FIXTURE = REPO / "js" / "test" / "fixtures" / "queue-answers.json"


def queue_answers() -> list[dict]:
    """Each burst: Python's view first, then each intent received and the view that answers it."""
    from spiderette import Widget

    def seen(w: Widget) -> dict:
        return {k: x for k, x in w.view.items() if k != "clock"}   # (the clock: the time of day)

    out = []
    for name, table, behind, intents in BURSTS:
        g = Game(seed=table) if isinstance(table, int) else Game.from_position(table)
        w = Widget(game=g, record=False)
        start = seen(w)
        if behind:
            w.game.play(behind)
        steps = []
        for i, intent in enumerate(intents, start=1):
            msg = {**intent, "version": w.view["version"], "id": f"py-{i}"}
            w._intents.handle(w, msg, [])
            steps.append({"msg": intent, "view": seen(w)})
        out.append({"name": name, "start": start, "steps": steps})
    return json.loads(json.dumps(out))


def test_the_fixture_holds_pythons_answers():
    assert FIXTURE.exists() and json.loads(FIXTURE.read_text()) == python_answers(), \
        "the rules changed: write the fixture afresh with  python tests/test_js_units.py"
    assert QUEUE_FIXTURE.exists() and json.loads(QUEUE_FIXTURE.read_text()) == queue_answers(), \
        "the widget's answers changed: write the fixtures afresh with  python tests/test_js_units.py"


def test_the_view_marks_exactly_the_moves_whose_outcome_only_python_knows():
    """``unforeseen`` lists a move's target when, and only when, it completes a run that leaves;
    ``unforeseen_deal`` reads no hidden card: the same table with another stock lists the same columns; and
    the facts a prediction is made of (each column's, the stock's deals, those ``after`` each move) say
    what Python's own view says after the move and after the deal."""
    checked = 0
    for variant, suits, auto in VARIANTS:
        for seed in range(1, 8):
            g, rng, player = Game(variant, seed=seed, suits=suits, auto_remove=auto), random.Random(seed), \
                RulesOfThumb()
            for _ in range(120):
                legal = g.legal_moves()
                if not legal:
                    break
                v = view(g)
                blocked = any(c.get("blocks_deal") for c in v["tableau"])
                assert v["can_deal"] == (bool(v["deals"]) and not blocked), "a deal as the columns and stock say"
                if v["can_deal"]:
                    h = g.copy()
                    h.deal()
                    assert [h.stock_count, h.deals_left] == [v["deals"][0]["stock"], v["deals"][0]["deals_left"]]
                for key, after in v["after"].items():   # (the columns a move changes, and the others: as after it)
                    if key.startswith("send:"):
                        continue
                    src, k, dst = map(int, key.split(":"))
                    h = g.copy()
                    h.apply(Move("move", src, dst, k))
                    w = view(h)
                    cols = [after["src"] if i == src else after["dst"] if i == dst else c
                            for i, c in enumerate(v["tableau"])]
                    assert w["can_deal"] == (bool(v["deals"]) and not any(c.get("blocks_deal") for c in cols)), key
                    n = v["deals"][0]["dealt"] if v["deals"] else 0
                    assert w["unforeseen_deal"] == [i for i in range(n) if cols[i].get("completes_in") == 0], key
                    assert after["dst"]["movable"] == w["tableau"][dst]["movable"], key
                for m in legal:
                    if m.kind == "move":
                        h = g.copy()
                        h.apply(m)
                        leaves = h.runs_completed > g.runs_completed
                        assert (m.dst in v["unforeseen"].get(f"{m.src}:{m.count}", [])) == (auto and leaves), m
                        checked += leaves
                send = next((m for m in legal if m.kind == "send"), None)
                g.apply(send or (rng.random() < 0.8 and player(g)) or rng.choice(legal))
    assert checked > 20
    ace_first = Game.from_position(HANDMADE[1])
    stock = ace_first.position().split()[2]
    other = Game.from_position(HANDMADE[1].replace(stock, stock[2:] + stock[:2]))   # the AS dealt last
    assert view(ace_first)["unforeseen_deal"] == view(other)["unforeseen_deal"] == [0]
    h = ace_first.copy()
    h.deal()
    assert h.runs_completed == 1, "the deal completes the run on column a"


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_front_ends_unit_tests_pass():
    p = subprocess.run(["node", "--test", "js/test/"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]


if __name__ == "__main__":
    for path, answers in ((FIXTURE, python_answers()), (QUEUE_FIXTURE, queue_answers())):
        path.write_text(json.dumps(answers, separators=(",", ":")) + "\n")
        print(f"wrote {path.relative_to(REPO)}")
