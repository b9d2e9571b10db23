"""The Winnable? indicator along played games: the share of positions it decides within its budget.

    python benchmarks/winnable.py [--deals 1-10] [--strategy planner|greedy] [--suits 4] [--processes 2]
                                  [--max-moves 250] [--memory] [--core both|compiled|pure]

Each deal is played by an honest strategy (the planner by default) on a real ``Widget(winnable=True)``, one
move at a time through ``w.play``; after every move the benchmark waits for the indicator's verdict (its
``view["winnable"]``: a background solve of ``WINNABLE_TIME_LIMIT`` seconds, or no search at all when the
game follows a winning line already found, or descends from a position proven lost) and counts it:
winnable, lost, or unknown. Target: at least 95% of positions decided.

``--memory``: at every position it waits for all the indicator's rounds (its budget, ten times it, the proof
pass: while the player thinks), one deal after another in this process, and prints the resident set before,
its peak (``benchmarks/rss.py``) and after, for each deal: what a kernel holds while the indicator searches.
Use it with few moves (``--deals 3 --max-moves 2``): an undecided four-suit table takes a few minutes.

``--core``: the search core (:mod:`spiderette.engine.ccore`): ``both`` (the default where the compiled core is
built) plays the deals with the compiled core, then again with the pure-Python one (its processes started with
``SPIDERETTE_PURE_PYTHON=1``), the indicator's budget the same, and prints both summaries.
A benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rss import Peak  # noqa: E402 - benchmarks/rss.py, beside this file
from solver import cores, deal_range  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import Game, GreedyStrategy, PlannerStrategy  # noqa: E402
from spiderette.engine import ccore  # noqa: E402
from spiderette.notebook.widget import Widget  # noqa: E402
from spiderette.notebook.winnable import WINNABLE_TABLES, WINNABLE_TIME_LIMIT  # noqa: E402

TARGET = 0.85   # (issue 44: at least 85% of the positions met along played games decided)


def verdict(w: Widget, rounds: bool = False) -> tuple[str, float]:
    """Wait for the indicator's answer about the table on show (``rounds``: its last, once it searches no
    more): its state and the seconds waited."""
    t0 = time.perf_counter()
    while True:
        shown = w.view.get("winnable") or {}
        state = shown.get("state")
        if state not in (None, "thinking") and not (rounds and shown.get("searching")):
            return state, time.perf_counter() - t0
        time.sleep(0.005)


def one(job: tuple[int, int, str, int, bool]) -> tuple[int, dict[str, int], float, str]:
    seed, suits, strategy, max_moves, rounds = job
    play = PlannerStrategy() if strategy == "planner" else GreedyStrategy()
    w = Widget(game=Game(seed=seed, suits=suits), winnable=True, record=False)
    counts = {"win": 0, "loss": 0, "unknown": 0}
    waited = 0.0
    for _ in range(max_moves):
        state, seconds = verdict(w, rounds)
        counts[state] += 1
        waited += seconds
        g = w.game
        if g.status != "playing":
            break
        move = play(g.redeal_hidden(seed))   # honest: the strategy sees a copy whose hidden cards are shuffled
        if move is None:
            break
        w.play([move], delay=0)
    w.winnable = False
    return seed, counts, waited, w.game.status


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-10", help="first-last deal numbers (default 1-10)")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--strategy", choices=("planner", "greedy"), default="planner")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--max-moves", type=int, default=250)
    ap.add_argument("--memory", action="store_true",
                    help="every round at every position, in this process, with the memory it took")
    ap.add_argument("--core", choices=("both", "compiled", "pure"), default="both",
                    help="the search core: both (compiled, then pure Python; the default), compiled or pure")
    args = ap.parse_args()
    deals = deal_range(args.deals)
    if args.memory:
        print(f"python {platform.python_version()}; {args.suits} suit(s), deals {deals.start}-{deals.stop - 1}"
              f" played by {args.strategy}, at most {args.max_moves} positions each; every round of the indicator")
        for seed in deals:
            t0 = time.perf_counter()
            with Peak() as peak:
                _, counts, _, status = one((seed, args.suits, args.strategy, args.max_moves, True))
            print(f"  deal {seed} ({status}): winnable {counts['win']}, lost {counts['loss']}, unknown"
                  f" {counts['unknown']}; {time.perf_counter() - t0:.0f} s; {peak}")
        return
    print(f"python {platform.python_version()}; spiderette, {args.suits} suit(s), deals {deals.start}-"
          f"{deals.stop - 1} played by {args.strategy}; the indicator's budget {WINNABLE_TABLES:,} tables or"
          f" {WINNABLE_TIME_LIMIT:g} s per search; {args.processes} process(es)")
    jobs = [(seed, args.suits, args.strategy, args.max_moves, False) for seed in deals]
    for core in cores(args.core):
        print(f"-- the {core} core")
        run(jobs, args.processes, core)


def run(jobs: list, processes: int, core: str) -> None:
    """Play ``jobs`` in new processes on ``core`` (a fresh interpreter each: the core is chosen at import)."""
    total = {"win": 0, "loss": 0, "unknown": 0}
    waited = 0.0
    was = os.environ.get(ccore.PURE_PYTHON_VARIABLE)
    os.environ[ccore.PURE_PYTHON_VARIABLE] = "1" if core == "pure" else "0"
    try:
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
            for seed, counts, seconds, status in pool.map(one, jobs):
                n = sum(counts.values())
                print(f"  deal {seed:4d} ({status}): {n} positions, winnable {counts['win']}, lost {counts['loss']},"
                      f" unknown {counts['unknown']}; {seconds / max(1, n):.2f} s per verdict", flush=True)
                for k in total:
                    total[k] += counts[k]
                waited += seconds
    finally:
        if was is None:
            os.environ.pop(ccore.PURE_PYTHON_VARIABLE, None)
        else:
            os.environ[ccore.PURE_PYTHON_VARIABLE] = was
    n = sum(total.values())
    decided = (total["win"] + total["loss"]) / max(1, n)
    print(f"{n} positions: winnable {total['win']}, lost {total['loss']}, unknown {total['unknown']}; "
          f"decided {decided:.1%} (target {TARGET:.0%}: {'met' if decided >= TARGET else 'not met'}); "
          f"{waited / max(1, n):.2f} s per verdict on average", flush=True)

if __name__ == "__main__":
    main()
