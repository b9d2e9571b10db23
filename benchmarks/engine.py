"""Engine speed: random playouts and greedy full games on fixed deals.

    python benchmarks/engine.py [--seconds 3] [--cpu]

Prints random-playout moves per second (legal_moves + apply, undo history kept, Move objects included),
undo speed, and full games per second with the greedy policy of ``spiderette.hints``.
One core, no timed assertions: a benchmark, not a test. ``--cpu`` times by the process's CPU time instead of the
wall clock (``time.process_time``): the same on a quiet machine, and far less changed by a busy one.
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
from spiderette.players.ranking import greedy_move  # noqa: E402

PLAYOUT_CAP = 400  # a random walk can shuffle a card back and forth forever: stop each playout here


def random_playouts(variant: str, seconds: float, clock=time.perf_counter) -> tuple[float, float]:
    rng = random.Random(2024)
    moves = undone = 0
    t_play = t_undo = 0.0
    seed = 0
    while t_play < seconds:
        g = Game(variant, seed=seed)
        seed += 1
        t0 = clock()
        for _ in range(PLAYOUT_CAP):
            legal = g.legal_moves()
            if not legal:
                break
            g.apply(rng.choice(legal))
            moves += 1
        t1 = clock()
        while g.undo() is not None:
            undone += 1
        t_undo += clock() - t1
        t_play += t1 - t0
    return moves / t_play, undone / t_undo


def greedy_games(variant: str, seconds: float, clock=time.perf_counter) -> tuple[float, float, float]:
    """Whole games with the package's one greedy policy (the hint ranking, never back to a table seen)."""
    games = won = moves = 0
    t0 = clock()
    while clock() - t0 < seconds:
        g = Game(variant, seed=games)
        seen: set = set()
        while g.status == "playing" and g.move_count < 1000:
            m = greedy_move(g, seen)
            if m is None:
                break  # every useful move leads back to a table seen before
            g.apply(m)
        moves += g.move_count
        games += 1
        won += g.is_won
    elapsed = clock() - t0
    return games / elapsed, won / games, moves / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--cpu", action="store_true", help="time by this process's CPU time, not the wall clock")
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    for variant in ("spiderette", "red_black_spiderette", "will_o_the_wisp", "spider"):
        mps, ups = random_playouts(variant, args.seconds, clock)
        gps, rate, avg = greedy_games(variant, args.seconds, clock)
        print(f"{variant:22s} random playout {mps:9,.0f} moves/s   undo {ups:9,.0f} /s   "
              f"greedy {gps:6.1f} games/s (won {rate:.1%}, {avg:.0f} moves a game)")


if __name__ == "__main__":
    main()
