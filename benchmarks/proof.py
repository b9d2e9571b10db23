"""The layered proof pass on numbered deals: proven lost, winning table reached, or how far a proof still is.

    python benchmarks/proof.py [--deals 80,115,180] [--suits 4] [--tables 6000000] [--seconds S]
                               [--core both|compiled|pure] [--out rows.jsonl]

Each deal runs in a process of its own (so that its peak memory is its own) on one core:
``spiderette.players.proof.prove(Game(variant, seed=n, suits=s), node_limit=tables)``, on the compiled search
core, the pure-Python one or both, one after the other (``--core``; both where the compiled core is built).
One line a deal and core: the outcome, the tables visited, the CPU seconds, tables a CPU second, the most
tables held at once, the process's peak memory and the bytes a table held (the peak memory the pass added,
over the most tables held); for an open pass, the tables still to visit (a lower bound). With ``--out`` each
row is written as it comes and a deal and core already there is not run again (a stopped run goes on where it
stopped; a row without a core is the pure one's). A benchmark, not a test: it prints figures and asserts
nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver import deal_list  # noqa: E402

from spiderette import Game  # noqa: E402
from spiderette.engine import ccore  # noqa: E402
from spiderette.players.proof import prove  # noqa: E402

CORES = {"compiled": ["compiled"], "pure": ["pure"], "both": ["compiled", "pure"]}


def one(job: tuple[str, int, int, int | None, float | None, str]) -> dict:
    variant, suits, seed, tables, seconds, core = job
    g = Game(variant, seed=seed, suits=suits)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss   # (KiB: the interpreter and the package)
    t0 = time.process_time()
    with contextlib.nullcontext() if core == "compiled" else ccore.pure_python():
        p = prove(g, node_limit=tables, time_limit=seconds)
    took = time.process_time() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"deal": seed, "core": core, "outcome": str(p.outcome), "tables": p.tables, "still": p.still,
            "seconds": round(took, 2), "per_second": round(p.tables / max(took, 1e-9)), "peak_tables": p.peak,
            "peak_mib": round(peak / 1024), "held_bytes": round((peak - before) * 1024 / max(p.peak, 1), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="80,115,180", help="deal numbers: first-last, or a list such as 3,21,35-40")
    ap.add_argument("--variant", default="spiderette")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--tables", type=int, default=6_000_000, help="the most tables a deal's pass visits")
    ap.add_argument("--seconds", type=float, default=None, help="a time limit per deal as well")
    ap.add_argument("--core", choices=list(CORES), default="both" if ccore.COMPILED else "pure",
                    help="the search core (default: both where the compiled one is built)")
    ap.add_argument("--out", type=Path, default=None, help="rows written as they come; deals there are skipped")
    args = ap.parse_args()
    done = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[row["deal"], row.get("core", "pure")] = row
    deals = deal_list(args.deals)
    if args.core != "pure" and not ccore.COMPILED:
        ap.error(f"the compiled core is not here ({ccore.WHY_PURE})")
    print(f"python {platform.python_version()} on {platform.machine()}; {args.variant}, {args.suits} suit(s), "
          f"deals {args.deals} ({len(deals)}), at most {args.tables:,} tables"
          f"{f' and {args.seconds:g} s' if args.seconds else ''} each, CPU time")
    print(f"{'deal':>5} {'core':>8} {'outcome':>7} {'tables':>11} {'seconds':>8} {'tables/s':>9} {'peak held':>10}"
          f" {'MiB':>6} {'B/held':>7}  still")
    rows = []
    for seed in deals:
        for core in CORES[args.core]:
            row = done.get((seed, core))
            if row is None:
                with ProcessPoolExecutor(max_workers=1, max_tasks_per_child=1) as pool:
                    row = pool.submit(one, (args.variant, args.suits, seed, args.tables, args.seconds, core)).result()
                if args.out:
                    with args.out.open("a") as f:
                        f.write(json.dumps(row) + "\n")
            rows.append(row)
            still = f"{row['still']:,}" if row["outcome"] == "open" else ""
            held_bytes = f"{row['held_bytes']:>7.1f}" if "held_bytes" in row else f"{'':>7}"
            print(f"{row['deal']:>5} {row.get('core', 'pure'):>8} {row['outcome']:>7} {row['tables']:>11,} "
                  f"{row['seconds']:>8.2f} {row['per_second']:>9,} {row['peak_tables']:>10,} {row['peak_mib']:>6} "
                  f"{held_bytes}  {still}", flush=True)
    for core in CORES[args.core]:
        mine = [r for r in rows if r.get("core", "pure") == core]
        lost = [r["deal"] for r in mine if r["outcome"] == "lost"]
        print(f"{core}: proven lost: {len(lost)} of {len(mine)} ({', '.join(map(str, lost)) or 'none'}); "
              f"won: {sum(r['outcome'] == 'won' for r in mine)}; open: {sum(r['outcome'] == 'open' for r in mine)}")


if __name__ == "__main__":
    main()
