"""What the end-to-end tests expect a table to show, worked out with the engine in the test process, and
predicates on what :func:`jupyter_harness.table` reads from the page."""

from __future__ import annotations

import jupyter_harness as H

from spiderette import Game
from spiderette.notebook.view import view


def game(*moves: str, seed: int = 7) -> Game:
    """Deal ``seed`` of spiderette with ``moves`` played."""
    g = Game(seed=seed)
    for m in moves:
        g.apply(m)
    return g


def cols(g: Game) -> list[dict]:
    """The columns the page should draw for ``g`` (the ``cols`` of :func:`jupyter_harness.table`)."""
    return H.cols_of_view(view(g))


def moves_are(n: int):
    """The stats bar counts ``n`` moves, and Python has answered every intent (a prediction counts too)."""
    return lambda t: t["status"].get("moves") == str(n) and t.get("pending") in (None, "0")


def message_has(text: str):
    return lambda t: text.lower() in t["status"].get("message", "").lower()
