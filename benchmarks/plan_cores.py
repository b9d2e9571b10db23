"""The planner on both search cores: its inner search (plan_search.search) pure Python against compiled C.

    python benchmarks/plan_cores.py [--deals 1-10] [--budget 2000] [--moves 100] [--variant spiderette]
                                    [--suits 4] [--value learned]

Plays each deal with :class:`~spiderette.players.planner.PlannerStrategy` (at most ``--moves`` moves) on the
compiled core, then on the pure one, checks the two games made the same moves, and prints, by CPU time
(``time.process_time``: the machine may be shared), each core's whole games: their time, the searches a second
(a plan searches once, twice when it fills an empty column) and the tables expanded. Then the search alone: the
positions of those games searched again with each core, tables a second. Skips the compiled side (says why)
where ``_ccore`` is not built. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from solver import deal_list  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import Game  # noqa: E402
from spiderette.engine import ccore  # noqa: E402
from spiderette.engine.core import Core, columns_of  # noqa: E402
from spiderette.players import plan_search  # noqa: E402
from spiderette.players.memory import tables_met  # noqa: E402
from spiderette.players.plan_costs import PlanCosts, unseen_cards  # noqa: E402
from spiderette.players.planner import DEFAULT_BUDGET, PLANNER_MOVES, PlannerStrategy  # noqa: E402


class Counted:
    """plan_search.search, counting its calls and the tables it expanded (the planner calls it by name)."""

    def __init__(self) -> None:
        self.inner = plan_search.search
        self.calls = self.tables = 0

    def __call__(self, *args, **kw):
        got = self.inner(*args, **kw)
        self.calls += 1
        self.tables += got[2]
        return got


def play(variant: str, suits: int, seed: int, budget: int, moves: int, value: str) -> tuple[list, list, dict]:
    """One game of the player: its moves, the positions it planned at, and its counts and CPU time."""
    from spiderette.players import planner

    counted = Counted()
    planner.search = counted   # (the planner's own name for it)
    g, player = Game(variant, seed=seed, suits=suits), PlannerStrategy(budget=budget, value=value)
    made, at = [], []
    start = time.process_time()
    try:
        while g.status == "playing" and len(made) < moves:
            before = counted.calls
            m = player(g)
            if counted.calls > before:
                at.append(g.copy())
            if m is None:
                break
            made.append(str(m))
            g.apply(m)
    finally:
        planner.search = counted.inner
    return made, at, {"seconds": time.process_time() - start, "searches": counted.calls, "tables": counted.tables}


def search_alone(positions: list, budget: int, value: str) -> tuple[float, int, int]:
    """CPU seconds, searches and tables expanded of searching every position again (cores and costs built
    once per position, outside the clock)."""
    jobs = []
    for g in positions:
        core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
        jobs.append((core, PlanCosts(g, core, value), table, g.stock_count, tables_met(g), budget,
                     unseen_cards(g, table), False))
    tables = 0
    start = time.process_time()
    for job in jobs:
        tables += plan_search.search(*job)[2]
    return time.process_time() - start, len(jobs), tables


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", default="1-10")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--variant", default="spiderette")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--value", default="learned")
    a = ap.parse_args()
    deals = deal_list(a.deals)
    print(f"{a.variant}, {a.suits} suits, budget {a.budget}, value {a.value}, at most {a.moves} moves a game;"
          f" {ccore.describe()}; CPU time")
    cores = [("C", False), ("Python", True)] if ccore.COMPILED else [("Python", True)]
    totals = {name: {"seconds": 0.0, "searches": 0, "tables": 0, "alone": 0.0, "alone_tables": 0}
              for name, _ in cores}
    print(f"{'deal':>5} {'moves':>5} {'same':>5} " + " ".join(f"{name + ' s':>9} {name + ' searches/s':>13}"
                                                          for name, _ in cores))
    for seed in deals:
        games = {}
        for name, pure in cores:
            if pure:
                with ccore.pure_python():
                    games[name] = play(a.variant, a.suits, seed, a.budget, a.moves, a.value)
            else:
                games[name] = play(a.variant, a.suits, seed, a.budget, a.moves, a.value)
        same = len({tuple(g[0]) for g in games.values()}) == 1
        positions = games[cores[0][0]][1]
        for name, pure in cores:
            t = totals[name]
            for k in ("seconds", "searches", "tables"):
                t[k] += games[name][2][k]
            if pure:
                with ccore.pure_python():
                    s, _, n = search_alone(positions, a.budget, a.value)
            else:
                s, _, n = search_alone(positions, a.budget, a.value)
            t["alone"] += s
            t["alone_tables"] += n
        row = " ".join(f"{g[2]['seconds']:9.2f} {g[2]['searches'] / max(g[2]['seconds'], 1e-9):13.1f}"
                       for g in games.values())
        print(f"{seed:5d} {len(games[cores[0][0]][0]):5d} {'yes' if same else 'NO':>5} {row}")
    print()
    for name, _ in cores:
        t = totals[name]
        print(f"{name:>6}: games {t['seconds']:.2f} s CPU, {t['searches'] / max(t['seconds'], 1e-9):.1f} searches/s"
              f" ({t['searches']} searches, {t['tables']:,} tables); search alone {t['alone']:.2f} s,"
              f" {t['alone_tables'] / max(t['alone'], 1e-9):,.0f} tables/s")
    if len(cores) == 2:
        c, p = totals["C"], totals["Python"]
        print(f"speed-up: whole games x{p['seconds'] / max(c['seconds'], 1e-9):.1f},"
              f" search alone x{p['alone'] / max(c['alone'], 1e-9):.1f}")


if __name__ == "__main__":
    main()
