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

from spiderette import Game, IllegalMoveError
from spiderette.engine.predicates import finishes_a_run
from spiderette.notebook.view import click_move, view

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "js" / "test" / "fixtures" / "python-answers.json"
VARIANTS = [("spiderette", 4), ("spiderette", 1), ("red_black_spiderette", 4), ("will_o_the_wisp", 4),
            ("spider", 2)]


def _table(g: Game) -> dict:
    v = view(g)
    return {k: v[k] for k in ("columns", "tableau", "foundations", "targets", "clicks")}


def python_answers() -> list[dict]:
    """Positions along seeded random games, with Python's click destinations and the views after moves."""
    out = []
    for variant, suits in VARIANTS:
        for seed in range(1, 5):
            g = Game(variant, seed=seed, suits=suits)
            rng = random.Random(seed)
            for step in range(48):
                if step % 6 == 0:
                    clicks = []
                    for src in range(g.columns):
                        for k in range(1, g.movable(src) + 1):
                            try:
                                clicks.append([src, k, click_move(g, src, k).dst])
                            except IllegalMoveError:
                                clicks.append([src, k, None])
                    moves = [m for m in g.legal_moves() if m.kind == "move" and not finishes_a_run(g, m)]
                    after = []
                    for m in rng.sample(moves, min(3, len(moves))):
                        h = g.copy()
                        h.apply(m)
                        after.append({"move": [m.src, m.dst, m.count], "view": _table(h)})
                    out.append({"name": f"{variant}-{suits} deal {seed} move {g.move_count}", "view": _table(g),
                                "clicks": clicks, "after": after})
                legal = g.legal_moves()
                if not legal:
                    break
                g.apply(rng.choice(legal))
    return json.loads(json.dumps(out))


def test_the_fixture_holds_pythons_answers():
    assert FIXTURE.exists() and json.loads(FIXTURE.read_text()) == python_answers(), \
        "the rules changed: write the fixture afresh with  python tests/test_js_units.py"


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_front_ends_unit_tests_pass():
    p = subprocess.run(["node", "--test", "js/test/"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(python_answers(), separators=(",", ":")) + "\n")
    print(f"wrote {FIXTURE.relative_to(REPO)}")
