"""Solver strength and speed on numbered deals: won, proven lost, unknown; median and 90th percentile time.

    python benchmarks/solver.py [--deals 1-200] [--variant spiderette] [--suits 4] [--seconds 10 | --nodes N]
                                [--processes 2] [--core both|compiled|pure]

Each deal is solved on one core with ``spiderette.solve(Game(variant, seed=n, suits=s), time_limit=seconds)``;
``--processes`` deals run side by side. Every win is replayed by the solver itself before it is reported.
``--core``: the search core (:mod:`spiderette.engine.ccore`): ``both`` (the default where the compiled core is
built) runs every deal on the compiled core, then on the pure-Python one, and prints both summaries.
A benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spiderette import Game, solve  # noqa: E402
from spiderette.engine import ccore  # noqa: E402


def one(job: tuple[str, int, int, float, int | None, str]) -> tuple[int, str, float, int, int, float]:
    variant, suits, seed, seconds, nodes, core = job
    cpu = time.process_time()
    g = Game(variant, seed=seed, suits=suits)
    with ccore.pure_python() if core == "pure" else contextlib.nullcontext():
        r = solve(g, time_limit=None, node_limit=nodes) if nodes else solve(g, time_limit=seconds)
    return seed, r.result, r.seconds, r.nodes, len(r.moves), time.process_time() - cpu


def cores(choice: str) -> list[str]:
    """The cores a run compares: ``both`` where the compiled core is built, else the one asked for."""
    if choice == "both":
        return ["compiled", "pure"] if ccore.COMPILED else ["pure"]
    if choice == "compiled" and not ccore.COMPILED:
        sys.exit(f"the compiled core is not here ({ccore.WHY_PURE})")
    return [choice]


def deal_range(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def deal_list(text: str) -> list[int]:
    """Deal numbers from ``"1-200"``, ``"7"`` or a list of both, ``"3,21,35-40"``."""
    return [d for part in text.split(",") for d in deal_range(part)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-200", help="deal numbers: first-last, or a list such as 3,21,35-40"
                                                     " (default 1-200)")
    ap.add_argument("--variant", default="spiderette")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10.0, help="time limit per deal")
    ap.add_argument("--nodes", type=int, default=None,
                    help="a budget in tables instead of seconds (the same on every machine)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--verbose", action="store_true", help="one line per deal")
    ap.add_argument("--core", choices=("both", "compiled", "pure"), default="both",
                    help="the search core: both (compiled, then pure Python; the default), compiled or pure")
    args = ap.parse_args()
    deals = deal_list(args.deals)
    print(f"python {platform.python_version()} on {platform.machine()}; {args.variant}, {args.suits} suit(s), "
          f"deals {args.deals} ({len(deals)}), "
          f"{f'{args.nodes:,} tables' if args.nodes else f'{args.seconds:g} s'} each, {args.processes} process(es);"
          f" {ccore.describe()}")
    for core in cores(args.core):
        print(f"-- the {core} core")
        summary(run(args, deals, core), args.verbose)


def run(args: argparse.Namespace, deals: list[int], core: str) -> tuple[list, float]:
    t0 = time.perf_counter()
    jobs = [(args.variant, args.suits, seed, args.seconds, args.nodes, core) for seed in deals]
    with ProcessPoolExecutor(args.processes) as pool:
        rows = list(pool.map(one, jobs))
    return rows, time.perf_counter() - t0


def summary(done: tuple[list, float], verbose: bool) -> None:
    rows, wall = done
    counts = {"win": 0, "loss": 0, "unknown": 0}
    for seed, result, seconds, nodes, length, _ in rows:
        counts[result] += 1
        if verbose:
            print(f"  deal {seed:4d}: {result:7s} {seconds:6.2f} s {nodes:9,d} tables  line {length}")
    times = sorted(r[2] for r in rows)
    n = len(rows)
    decided = counts["win"] + counts["loss"]
    p90 = times[min(n - 1, int(0.9 * n))]
    speed = sum(r[3] for r in rows) / max(1e-9, sum(r[2] for r in rows))
    cpu_share = sum(r[5] for r in rows) / max(1e-9, sum(r[2] for r in rows))
    print(f"won {counts['win']} ({counts['win'] / n:.1%}), proven lost {counts['loss']}, "
          f"unknown {counts['unknown']}; decided {decided / n:.1%}")
    print(f"time per deal: median {statistics.median(times):.2f} s, 90th percentile {p90:.2f} s; "
          f"{speed:,.0f} tables expanded per second; wall {wall:.0f} s")
    print(f"the solving processes had {cpu_share:.0%} of a core each (less than 100%: other jobs shared the machine);"
          f" {sum(r[3] for r in rows) / max(1e-9, sum(r[5] for r in rows)):,.0f} tables per second of their own"
          f" processor time")

if __name__ == "__main__":
    main()
