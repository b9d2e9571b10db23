"""Engine speed: random playouts and greedy full games on fixed deals.

    python benchmarks/engine.py [--seconds 3]

Prints random-playout moves per second (legal_moves + apply, undo history kept, Move objects included),
undo speed, and full greedy games per second. One core, no timed assertions: a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spiderette import Game  # noqa: E402

PLAYOUT_CAP = 400  # a random walk can shuffle a card back and forth forever: stop each playout here


def random_playouts(variant: str, seconds: float) -> tuple[float, float]:
    rng = random.Random(2024)
    moves = undone = 0
    t_play = t_undo = 0.0
    seed = 0
    while t_play < seconds:
        g = Game(variant, seed=seed)
        seed += 1
        t0 = time.perf_counter()
        for _ in range(PLAYOUT_CAP):
            legal = g.legal_moves()
            if not legal:
                break
            g.apply(rng.choice(legal))
            moves += 1
        t1 = time.perf_counter()
        while g.undo() is not None:
            undone += 1
        t_undo += time.perf_counter() - t1
        t_play += t1 - t0
    return moves / t_play, undone / t_undo


def rank_moves(g: Game, rng: random.Random) -> list:
    """A simple greedy policy: turn a card over, build in suit, keep empty columns; deal last."""
    scored = []
    for m in g.legal_moves():
        if m.kind == "send":
            s = 1000.0
        elif m.kind == "deal":
            s = -50.0
        else:
            col = g._cols[m.src]
            below = len(col) - m.count
            s = rng.random()
            if below and g._down[m.src] == below:
                s += 100  # turns over a face-down card
            dst = g._cols[m.dst]
            if dst and dst[-1] == col[-m.count] + 1:
                s += 30  # builds in suit
            if not dst:
                s -= 20 if below else 200  # spends an empty column
            if below and col[below - 1] == col[-m.count] + 1:
                s -= 60  # breaks a suited run
        scored.append((s, m))
    scored.sort(key=lambda t: -t[0])
    return [m for _, m in scored]


def table_key(g: Game) -> tuple:
    return tuple(map(tuple, g._cols)), g._sp


def greedy_games(variant: str, seconds: float) -> tuple[float, float, float]:
    rng = random.Random(7)
    games = won = moves = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = Game(variant, seed=games)
        seen = {table_key(g)}
        while g.status == "playing" and g.move_count < 1000:
            for m in rank_moves(g, rng):
                g.apply(m)
                key = table_key(g)
                if key not in seen:
                    seen.add(key)
                    break
                g.undo()
            else:
                break  # every move leads back to a table seen before
        moves += g.move_count
        games += 1
        won += g.is_won
    elapsed = time.perf_counter() - t0
    return games / elapsed, won / games, moves / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    for variant in ("spiderette", "red_black_spiderette", "will_o_the_wisp", "spider"):
        mps, ups = random_playouts(variant, args.seconds)
        gps, rate, avg = greedy_games(variant, args.seconds)
        print(f"{variant:22s} random playout {mps:9,.0f} moves/s   undo {ups:9,.0f} /s   "
              f"greedy {gps:6.1f} games/s (won {rate:.1%}, {avg:.0f} moves a game)")


if __name__ == "__main__":
    main()
