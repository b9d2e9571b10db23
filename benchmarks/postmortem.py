"""The table's "Where did it go wrong?" on lost games: how often it finds the turning point, a range, nothing.

    python benchmarks/postmortem.py [--deals 1-30] [--suits 4] [--nodes 40000] [--solves 12] [--processes 2]
                                    [--verbose]
    python benchmarks/postmortem.py --memory 3 [--suits 4]

Each deal is played by the planner (``PlannerStrategy()``, honest) until it wins or resigns; every game it
does not win is analysed as the table analyses it, ``analyse(game, planner=False)`` with the table's budget
(``--nodes`` tables a solve, at most ``--solves`` solves). Each analysis is counted as one of:

* **turning point**: the move that lost a winnable game is known;
* **range**: the last position known winnable and the first proven lost are both known, with positions
  undecided between them ("lost between move 9 and move 17");
* **winnable all along** (the planner resigned a game still winnable) or **lost from the start**;
* **winnable only** / **lost only**: one end known, not the other (no range);
* **nothing**: no position decided.

It prints the counts, the time each analysis took (median, the slowest) and the tables it expanded.

``--memory DEAL``: the memory of the table's post-mortem of that deal's game (lost by the planner), in this
process as in a kernel: the table's analysis (:class:`~spiderette.notebook.postmortem.PostMortem`, its budget
and its bound on the tables held), then its longer analysis (ten times the tables a solve), with the resident
set before, its peak (``benchmarks/rss.py``) and after each. A benchmark, not a test: it prints figures and
asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rss import Peak  # noqa: E402 - benchmarks/rss.py, beside this file
from solver import deal_range  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import Game, PlannerStrategy, analyse  # noqa: E402
from spiderette.players.analysis import LOST, WINNABLE  # noqa: E402

KINDS = ("turning point", "range", "winnable all along", "lost from the start", "winnable only", "lost only",
         "nothing")


def played(seed: int, suits: int) -> Game:
    """The planner's game of one deal, played until it wins or resigns."""
    g = Game(seed=seed, suits=suits)
    s = PlannerStrategy()
    s.new_game()
    while g.status == "playing" and len(g.history) < 1000:
        m = s(g)
        if m is None:
            break
        g.apply(m)
    return g


def kind(a) -> str:
    """Which of KINDS an analysis is."""
    verdicts = [s.verdict for s in a.steps]
    winnable = [k for k, v in enumerate(verdicts) if v == WINNABLE]
    lost = [k for k, v in enumerate(verdicts) if v == LOST]
    if a.turning_point is not None:
        return "turning point"
    if verdicts[-1] == WINNABLE:
        return "winnable all along"
    if verdicts[0] == LOST:
        return "lost from the start"
    if winnable and lost:
        return "range"
    return "winnable only" if winnable else "lost only" if lost else "nothing"


def one(job: tuple[int, int, int, int]) -> tuple[int, bool, int, str, float, float, int, int, str]:
    seed, suits, nodes, solves = job
    g = played(seed, suits)
    if g.is_won:
        return seed, True, len(g.history), "", 0.0, 0.0, 0, 0, ""
    t0, cpu = time.perf_counter(), time.process_time()
    a = analyse(g, node_limit=nodes, max_solves=solves, planner=False)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu
    strip = "".join({WINNABLE: "W", LOST: "L"}.get(s.verdict, "?") for s in a.steps)
    return seed, False, len(g.history), kind(a), wall, cpu, a.solves, getattr(a, "tables", -1), strip


def memory(seed: int, suits: int) -> None:
    """``--memory``: the table's two analyses of one lost game, with the memory each took."""
    import threading

    from spiderette.notebook.postmortem import PostMortem

    g = played(seed, suits)
    print(f"python {platform.python_version()}; deal {seed}, {suits} suit(s), played by the planner:"
          f" {len(g.history)} moves, {g.status}")
    if g.is_won:
        return
    post = PostMortem(threading.RLock())
    for name, run in (("the analysis", lambda: post.start(g, lambda a: None)),
                      ("the longer analysis", lambda: post.search_on(g, lambda a: None))):
        t0 = time.perf_counter()
        with Peak() as peak:
            future = run()
            a = future.result() if future is not None else None
        said = "not run" if a is None else f"{a.solves} solves, {a.tables:,} tables; {kind(a)}"
        print(f"  {name}: {said}; {time.perf_counter() - t0:.0f} s; {peak}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-30", help="first-last deal numbers (default 1-30)")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--nodes", type=int, default=None, help="tables a solve (default: the table's, ANALYSIS_NODES)")
    ap.add_argument("--solves", type=int, default=None, help="the most solves (default: ANALYSIS_SOLVES)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--verbose", action="store_true", help="one line per deal, with its verdicts W / L / ?")
    ap.add_argument("--memory", type=int, default=None, metavar="DEAL",
                    help="the memory of the table's two analyses of this deal's game, in this process")
    args = ap.parse_args()
    if args.memory is not None:
        return memory(args.memory, args.suits)
    from spiderette.players import analysis

    nodes = args.nodes or analysis.ANALYSIS_NODES
    solves = args.solves or analysis.ANALYSIS_SOLVES
    deals = deal_range(args.deals)
    print(f"python {platform.python_version()} on {platform.machine()}; {args.suits} suit(s), deals "
          f"{deals.start}-{deals.stop - 1} played by the planner; analyse: {nodes:,} tables a solve, at most "
          f"{solves} solves; {args.processes} process(es)")
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.processes) as pool:
        rows = list(pool.map(one, [(seed, args.suits, nodes, solves) for seed in deals]))
    lost = [r for r in rows if not r[1]]
    counts = Counter(r[3] for r in lost)
    if args.verbose:
        for seed, _, length, k, wall, cpu, n_solves, tables, strip in lost:
            print(f"  deal {seed:4d}: {length:3d} moves  {k:19s} {wall:5.1f} s ({cpu:5.1f} s CPU) {n_solves:2d} solves"
                  f" {tables:9,d} tables  {strip}")
    print(f"won {len(rows) - len(lost)} of {len(rows)}; of the {len(lost)} lost games: "
          + ", ".join(f"{k} {counts[k]}" for k in KINDS))
    print(f"  at least a range (turning point or range): {counts['turning point'] + counts['range']} of {len(lost)}")
    if lost:
        walls, cpus = [r[4] for r in lost], [r[5] for r in lost]
        print(f"time per analysis: median {statistics.median(walls):.1f} s, slowest {max(walls):.1f} s "
              f"(CPU: median {statistics.median(cpus):.1f} s, most {max(cpus):.1f} s); solves: median "
              f"{statistics.median(r[6] for r in lost):g}, most {max(r[6] for r in lost)}"
              + (f"; tables: most {max(r[7] for r in lost):,}" if min(r[7] for r in lost) >= 0 else ""))
    print(f"wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
