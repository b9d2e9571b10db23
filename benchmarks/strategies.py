"""Win rate, with its 95% interval, of every built-in strategy on numbered deals; time per game.

    python benchmarks/strategies.py [--strategies random,greedy,rules,handmade,planner,search,solver]
                                    [--deals 1-1000]
                                    [--slow-deals 1-100] [--processes 2] [--variant spiderette] [--suits 4]
                                    [--samples 10] [--node-limit 2000] [--solver-nodes 200000]
                                    [--planner-budget 2000] [--save DIR]

``planner`` is the planner as it plays by default (steering by the learned value), ``handmade`` the same
planner steering by its hand-made value (``PlannerStrategy(value="handmade")``).
``--deals`` is for random, greedy, rules of thumb and the planner (default 1-1000), ``--slow-deals`` for the
search and the solver (default 1-100). Each game runs on one core; ``--processes`` games run side by side,
except greedy, which runs in this process on one core to measure the study's own cost (``--processes`` applies to it too
when given explicitly with ``--greedy-parallel``). A benchmark, not a test: it prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from solver import deal_range  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import (  # noqa: E402
    Comparison,
    Game,
    GreedyStrategy,
    RandomStrategy,
    RulesOfThumb,
    SearchStrategy,
    SolverStrategy,
    simulate,
)
from spiderette.players.planner import DEFAULT_BUDGET, PlannerStrategy  # noqa: E402
from spiderette.players.ranking import greedy_move  # noqa: E402
from spiderette.players.strategies import strategy_label  # noqa: E402
from spiderette.studies.intervals import format_interval  # noqa: E402

SLOW = ("search", "solver")


#: Seconds of every call of a timed strategy, in this process (a study copies strategies: the list is
#: reached by name, never held by the copy).
MOVE_SECONDS: list[float] = []


class Timed:
    """A strategy that times each call of the one it wraps (in this process: ``--processes 1``)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = strategy_label(inner)
        self.peeks = getattr(inner, "peeks", False)

    def __call__(self, game):
        t0 = time.perf_counter()
        try:
            return self.inner(game)
        finally:
            MOVE_SECONDS.append(time.perf_counter() - t0)

    @property
    def note(self):
        return getattr(self.inner, "note", None)


def move_times(seconds: list[float]) -> str:
    """The median, 90th percentile and largest time of one move, in ms."""
    if not seconds:
        return "no moves timed"
    xs = sorted(seconds)
    pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]  # noqa: E731
    return (f"per move: median {1000 * statistics.median(xs):.2f} ms, 90th percentile {1000 * pick(0.9):.1f} ms,"
            f" largest {1000 * xs[-1]:.0f} ms ({len(xs):,} moves)")


def bare_greedy_seconds(deals: range, variant: str, suits: int) -> float:
    """The same policy without the study around it (no redeal, no copy, no rows): the engine's share."""
    t0 = time.perf_counter()
    for seed in deals:
        g, seen = Game(variant, seed=seed, suits=suits), set()
        while g.status == "playing" and g.move_count < 1000 and (m := greedy_move(g, seen)) is not None:
            g.apply(m)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategies", default="random,greedy,rules,planner,search,solver")
    ap.add_argument("--deals", default="1-1000", help="deals for random, greedy, rules (default 1-1000)")
    ap.add_argument("--slow-deals", default="1-100", help="deals for search and solver (default 1-100)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--greedy-parallel", action="store_true", help="run greedy on --processes too")
    ap.add_argument("--variant", default="spiderette")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--samples", type=int, default=10, help="search: redeals per move")
    ap.add_argument("--node-limit", type=int, default=2000, help="search: tables per redeal")
    ap.add_argument("--solver-nodes", type=int, default=200_000, help="solver: tables per solve")
    ap.add_argument("--planner-budget", type=int, default=DEFAULT_BUDGET, help="planner: tables per move")
    ap.add_argument("--max-moves", type=int, default=1000)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--save", metavar="DIR", help="write each study to DIR/NAME-VARIANT-N-suits-A-B.json, with this"
                    " command (spiderette.studies.studyfile; the ladder's shipped solver rung is made so)")
    ap.add_argument("--move-times", action="store_true",
                    help="time every move (each strategy then runs in this process, on one core)")
    args = ap.parse_args()
    make = {
        "random": RandomStrategy, "greedy": GreedyStrategy, "rules": RulesOfThumb,
        "planner": lambda: PlannerStrategy(budget=args.planner_budget),
        "handmade": lambda: PlannerStrategy(budget=args.planner_budget, value="handmade"),
        "search": lambda: SearchStrategy(samples=args.samples, node_limit=args.node_limit),
        "solver": lambda: SolverStrategy(node_limit=args.solver_nodes),
    }
    names = [n.strip() for n in args.strategies.split(",") if n.strip()]
    unknown = [n for n in names if n not in make]
    if unknown:
        ap.error(f"unknown strategies {unknown}: choose from {', '.join(make)}")
    print(f"python {platform.python_version()} on {platform.machine()}; {args.variant}, {args.suits} suit(s);"
          f" {args.processes} process(es); max {args.max_moves} moves per game")
    if "planner" in names:
        print(f"planner budget: {args.planner_budget:,} tables expanded per plan at most")
    if "search" in names:
        print(f"search budget: {args.samples} redeals x {args.node_limit:,} tables ="
              f" {args.samples * args.node_limit:,} tables per move at most")
    lines = []
    done = {}
    for name in names:
        deals = deal_range(args.slow_deals if name in SLOW else args.deals)
        processes = 1 if (name == "greedy" and not args.greedy_parallel) or args.move_times else args.processes
        t0 = time.perf_counter()
        MOVE_SECONDS.clear()
        player = Timed(make[name]()) if args.move_times else make[name]()
        res = simulate(player, deals=deals, variant=args.variant, suits=args.suits, max_moves=args.max_moves,
                       processes=processes, progress=args.progress)
        done[name] = res
        if args.save:
            command = " ".join(["python", "benchmarks/strategies.py", *sys.argv[1:]])
            target = Path(args.save) / f"{name}-{args.variant}-{args.suits}-suits-{deals.start}-{deals.stop - 1}.json"
            res.save(target, command=command)
            print(f"wrote {target}")
        wall = time.perf_counter() - t0
        n = len(res.rows)
        per_game = sum(r["seconds"] for r in res.rows) / n
        runs = sum(r["runs"] for r in res.rows) / n
        ends = ", ".join(f"{k} {c}" for k, c in res.ends().most_common())
        line = (f"| {res.strategy} | {deals.start}–{deals.stop - 1} | {res.wins} | {100 * res.win_rate:.1f}% |"
                f" {format_interval(*res.interval)} | {runs:.2f} | {per_game * 1000:,.1f} ms |")
        lines.append(line)
        print(f"{res.strategy}: deals {deals.start}-{deals.stop - 1}: won {res.wins} of {n}"
              f" ({100 * res.win_rate:.1f}%, 95% CI {format_interval(*res.interval)}); runs per game {runs:.2f};"
              f" {per_game * 1000:,.1f} ms per game; wall {wall:.1f} s on {processes} process(es); ends: {ends}",
              flush=True)
        if args.move_times:
            print(f"  {move_times(MOVE_SECONDS)}", flush=True)
        if name == "greedy":
            bare = bare_greedy_seconds(deals, args.variant, args.suits)
            print(f"  study overhead: {n} greedy games in {wall:.1f} s on one core; the same policy without the"
                  f" study (no redeal, no rows) {bare:.1f} s", flush=True)
    if "planner" in done:   # paired tests: the planner against each other strategy on the deals both played
        for name, res in done.items():
            if name != "planner":
                cmp = Comparison([done["planner"], res])
                print(f"planner vs {res.strategy} on {len(cmp.deals)} deals: {cmp.paired(0, 1)};"
                      f" {cmp.paired(0, 1, 'face_down_left')}")
    print("\n| strategy | deals | won | win rate | 95% CI | runs per game | time per game (one core) |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
