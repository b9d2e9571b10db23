"""The planner's plans on a few fixed deals, pinned field by field: a change that moves code around (issue 41's
split of the planner into its costs, its search and its plan) leaves every plan as it was.

Each case plays a whole game (at most ``MOVES`` moves) by the first move of :func:`plan`, re-planned at every
move, and hashes every plan met (every field: move, line, value, start value, alternatives, tables, what the line
achieves, alternative lines) with :func:`table_value` of the table it was made on. The cases between them meet
every kind of line (``ends_with``: turn, run, empty, better, fill, deal, prepare, send), both values, runs sent by
hand and the variants' links. A change of the planner's play changes the digest; a new digest is pinned only
with a reason (the plans were meant to change).
"""

from __future__ import annotations

import hashlib

import pytest

from spiderette import Game
from spiderette.players.planner import PlannerStrategy, plan, table_value

BUDGET = 300
MOVES = 200

#: (variant, suits, seed, value, runs leave by themselves) -> (plans made, the kinds of line met, the game's end,
#: the first 16 hex digits of the digest of every plan). Measured on the planner of commit 471f55e.
PINS = {
    ("spiderette", 1, 2, "learned", False): (
        85, "better deal empty fill prepare run send turn", "won", "665714a2b6bfcbaf"),
    ("spiderette", 1, 2, "learned", True): (81, "better deal empty fill prepare run turn", "won", "29c4343270a01267"),
    ("spiderette", 1, 1, "handmade", True): (87, "deal empty fill run turn", "won", "a3c1284dd5420977"),
    ("spiderette", 2, 5, "learned", False): (51, "better deal prepare turn", "playing", "bd25437ce07c6654"),
    ("spiderette", 4, 1, "learned", True): (29, "better deal turn", "lost", "0312b8ee5e779e03"),
    ("red_black_spiderette", 4, 3, "learned", True): (34, "better deal turn", "playing", "f12da94a0fa62ac7"),
    ("will_o_the_wisp", 4, 7, "handmade", True): (17, "better deal turn", "lost", "ffef6dc7bc55e502"),
}


def played(variant: str, suits: int, seed: int, value: str, auto_remove: bool) -> tuple[int, str, str, str]:
    """Play the deal by the plans: (plans made, the kinds of line met, the game's end, the digest)."""
    g = Game(variant, seed=seed, suits=suits, auto_remove=auto_remove)
    digest = hashlib.sha256()
    kinds: set[str] = set()
    plans = 0
    while plans < MOVES and g.status == "playing":
        p = plan(g, budget=BUDGET, value=value, turns=1)
        digest.update(repr((p, table_value(g, value))).encode())
        if p is None:
            break
        plans += 1
        kinds.add(p.ends_with[0])
        g.apply(p.move)
    return plans, " ".join(sorted(kinds)), g.status, digest.hexdigest()[:16]


@pytest.mark.parametrize("case", list(PINS), ids=["-".join(map(str, c)) for c in PINS])
def test_the_plans_of_fixed_deals_are_pinned(case) -> None:
    assert played(*case) == PINS[case]


def test_the_planner_strategy_plays_a_pinned_game() -> None:
    """The player (:class:`PlannerStrategy`, default budget and value), which follows a line to its end while the
    table is the one it expected (``table_after``): deal 11 (four suits), its first 40 moves."""
    g, s = Game(seed=11), PlannerStrategy(budget=2000, turns=1)   # (the defaults these pins were made with)
    moves = []
    while g.status == "playing" and len(moves) < 40:
        m = s(g)
        if m is None:
            break
        moves.append(str(m))
        g.apply(m)
    assert hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16] == PINNED_STRATEGY, moves


PINNED_STRATEGY = "8d66f15ccb824fe4"
