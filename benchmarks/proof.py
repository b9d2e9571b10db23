"""The layered proof pass on numbered deals: proven lost, winning table reached, or how far a proof still is.

    python benchmarks/proof.py [--deals 80,115,180] [--suits 4] [--tables 6000000] [--seconds S]
                               [--out rows.jsonl]

Each deal runs in a process of its own (so that its peak memory is its own) on one core:
``spiderette.players.proof.prove(Game(variant, seed=n, suits=s), node_limit=tables)``. One line a deal: the
outcome, the tables visited, the seconds, tables a second, the most tables held at once and the process's
peak memory; for an open pass, the tables still to visit (a lower bound). With ``--out`` each row is written as
it comes and a deal already there is not run again (a stopped run goes on where it stopped). A benchmark, not
a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
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
from spiderette.players.proof import prove  # noqa: E402


def one(job: tuple[str, int, int, int | None, float | None]) -> dict:
    variant, suits, seed, tables, seconds = job
    t0 = time.perf_counter()
    p = prove(Game(variant, seed=seed, suits=suits), node_limit=tables, time_limit=seconds)
    took = time.perf_counter() - t0
    return {"deal": seed, "outcome": str(p.outcome), "tables": p.tables, "still": p.still, "seconds": round(took, 2),
            "per_second": round(p.tables / max(took, 1e-9)), "peak_tables": p.peak,
            "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="80,115,180", help="deal numbers: first-last, or a list such as 3,21,35-40")
    ap.add_argument("--variant", default="spiderette")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--tables", type=int, default=6_000_000, help="the most tables a deal's pass visits")
    ap.add_argument("--seconds", type=float, default=None, help="a time limit per deal as well")
    ap.add_argument("--out", type=Path, default=None, help="rows written as they come; deals there are skipped")
    args = ap.parse_args()
    done = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[row["deal"]] = row
    deals = deal_list(args.deals)
    print(f"python {platform.python_version()} on {platform.machine()}; {args.variant}, {args.suits} suit(s), "
          f"deals {args.deals} ({len(deals)}), at most {args.tables:,} tables"
          f"{f' and {args.seconds:g} s' if args.seconds else ''} each")
    print(f"{'deal':>5} {'outcome':>7} {'tables':>11} {'seconds':>8} {'tables/s':>9} {'peak held':>10} {'MiB':>6}"
          "  still")
    rows = []
    for seed in deals:
        row = done.get(seed)
        if row is None:
            with ProcessPoolExecutor(max_workers=1, max_tasks_per_child=1) as pool:
                row = pool.submit(one, (args.variant, args.suits, seed, args.tables, args.seconds)).result()
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
        rows.append(row)
        still = f"{row['still']:,}" if row["outcome"] == "open" else ""
        print(f"{row['deal']:>5} {row['outcome']:>7} {row['tables']:>11,} {row['seconds']:>8.2f} "
              f"{row['per_second']:>9,} {row['peak_tables']:>10,} {row['peak_mib']:>6}  {still}", flush=True)
    lost = [r["deal"] for r in rows if r["outcome"] == "lost"]
    print(f"proven lost: {len(lost)} of {len(rows)} ({', '.join(map(str, lost)) or 'none'}); "
          f"won: {sum(r['outcome'] == 'won' for r in rows)}; open: {sum(r['outcome'] == 'open' for r in rows)}")


if __name__ == "__main__":
    main()
