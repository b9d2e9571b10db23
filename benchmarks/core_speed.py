"""The search cores' speed: tables a second of the compiled core's solver search against the pure-Python one's.

    python benchmarks/core_speed.py --build [--debug]  # compile src/spiderette/engine/_ccore.c in place, only that
    python benchmarks/core_speed.py [--tables 60000] [--deals 1-4] [--suits 4]

For each deal it runs the solver's complete search (``solver._best_first`` on ``_Search(g)``: weighted A*,
the BALANCED weights, the COMPLETE pruning) for the same number of tables, once in pure Python and once in the
compiled core's (``_ccore.CCore.search``), and prints both speeds in tables expanded a second, whether
the two searches agree (outcome, tables expanded, tables held, open tables, the line), and the C search's
memory per table held. One process, one core, short runs: a benchmark, not a test
(``tests/test_cores_tables.py`` checks the same answers).

``pip install -e .`` builds the compiled core in place (``hatch_build.py``); ``--build`` does the same in a few
seconds after a change of the C, with the compiler Python was built with (``_ccore<EXT_SUFFIX>`` beside its
source, ignored by git; ``--debug``: ``-O0 -g``, for gdb and valgrind). ``--prove``: the proof pass instead.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from spiderette import Game  # noqa: E402
from spiderette.engine.ccore import compiled_core as make_ccore  # noqa: E402
from spiderette.engine.ccore import pure_python, step_of  # noqa: E402

SOURCE = REPO / "src" / "spiderette" / "engine" / "_ccore.c"


def build(quiet: bool = False, debug: bool = False) -> Path:
    """Compile the core beside its source with the C compiler Python was built with (``-O2``; ``debug``:
    ``-O0 -g``, for gdb and valgrind)."""
    out = SOURCE.with_name("_ccore" + sysconfig.get_config_var("EXT_SUFFIX"))
    cc = (sysconfig.get_config_var("CC") or "gcc").split()
    cmd = [*cc, *(["-O0", "-g"] if debug else ["-O2"]), "-shared", "-fPIC", "-Wall", "-Wextra",
           "-Wno-missing-field-initializers",
           f"-I{sysconfig.get_paths()['include']}", str(SOURCE), "-o", str(out)]
    if not quiet:
        print(" ".join(cmd))
    subprocess.run(cmd, check=True)
    return out


def compare(seed: int, tables: int, suits: int = 4, variant: str = "spiderette") -> dict:
    """The pure and the C complete search of one deal for ``tables`` tables: speeds, and whether they agree."""
    from spiderette.players import solver

    g = Game(variant, seed=seed, suits=suits)
    # (the solver's inner search: private, so that the compiled search is measured against exactly what it
    # mirrors)
    space = solver._Search(g)  # noqa: SLF001
    w = space.w
    t0 = time.process_time()
    with pure_python():   # (the reference: the pure-Python search)
        outcome, line, nodes, best, still = solver._best_first(space, space.root(g), (None, tables, None),  # noqa: SLF001
                                                               None)
    py_s = time.process_time() - t0
    cc = make_ccore(g, solver.COMPLETE)
    weights = (w.hidden, w.buried, w.out_of_order, w.off_suit, w.in_stock, w.empty_column, w.finished_run, w.path)
    t0 = time.process_time()
    res = cc.search(0, g.runs_completed, weights, tables, 0, 0.0)
    c_s = time.process_time() - t0
    same = (outcome, nodes, best, still, [step_of(m) for m in line]) == \
        (res["outcome"], res["nodes"], res["best"], res["open"], [tuple(s) for s in res["line"]])
    held = res["held"]
    return {"seed": seed, "outcome": res["outcome"], "nodes": res["nodes"], "held": held, "same": same,
            "py_rate": nodes / py_s, "c_rate": res["nodes"] / c_s, "c_seconds": c_s, "py_seconds": py_s,
            "key_bytes": res["key_bytes"] / held,
            "held_bytes": (res["key_bytes"] + res["node_bytes"] + res["slot_bytes"] + res["heap_bytes"]) / held}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="compile the core in place, and nothing else")
    ap.add_argument("--debug", action="store_true", help="with --build: -O0 -g (for gdb and valgrind)")
    ap.add_argument("--tables", type=int, default=60_000, help="tables each search expands (default 60,000)")
    ap.add_argument("--c-tables", type=int, default=0, help="also a C-only search of this many tables a deal")
    ap.add_argument("--deals", default="1-4", help="deals, as 1-4 or 1,5,9 (default 1-4)")
    ap.add_argument("--prove", action="store_true",
                    help="instead: the C proof pass of each deal to the end (--tables 0) or for --tables tables")
    ap.add_argument("--suits", type=int, default=4)
    args = ap.parse_args()
    if args.build:   # (only that)
        build(debug=args.debug)
        return
    seeds = ([*range(int(args.deals.split("-")[0]), int(args.deals.split("-")[1]) + 1)] if "-" in args.deals
             else [int(s) for s in args.deals.split(",")])
    if args.prove:
        from spiderette.players import solver

        print(f"C proof pass, spiderette, {args.suits} suits, {args.tables or 'no limit of'} tables, CPU time")
        for seed in seeds:
            g = Game(seed=seed, suits=args.suits)
            t0 = time.process_time()
            r = make_ccore(g, solver.COMPLETE).prove(g.runs_completed, args.tables, 0, 0.0)
            s = time.process_time() - t0
            print(f"{seed:>4} {r['outcome']:>5} {r['tables']:>10,} tables {s:6.2f} s {r['tables'] / s:>11,.0f}/s"
                  f"  peak {r['peak']:,} held, {r['peak_bytes'] / max(1, r['peak']):.1f} B a table held at the"
                  f" layers' ends")
        return
    print(f"spiderette, {args.suits} suits, complete search (BALANCED), {args.tables:,} tables a deal, CPU time")
    print(f"{'deal':>4} {'outcome':>9} {'tables':>8} {'held':>9} {'same':>5} {'Python/s':>9} {'C/s':>11}"
          f" {'x':>6} {'key B':>6} {'held B':>7}")
    for seed in seeds:
        r = compare(seed, args.tables, args.suits)
        print(f"{seed:>4} {r['outcome']:>9} {r['nodes']:>8,} {r['held']:>9,} {str(r['same']):>5}"
              f" {r['py_rate']:>9,.0f} {r['c_rate']:>11,.0f} {r['c_rate'] / r['py_rate']:>6.1f}"
              f" {r['key_bytes']:>6.1f} {r['held_bytes']:>7.1f}")
    if args.c_tables:
        from spiderette.players import solver

        print(f"C alone, {args.c_tables:,} tables a deal")
        for seed in seeds:
            g = Game(seed=seed, suits=args.suits)
            w = solver.BALANCED
            weights = (w.hidden, w.buried, w.out_of_order, w.off_suit, w.in_stock, w.empty_column,
                       w.finished_run, w.path)
            t0 = time.process_time()
            res = make_ccore(g, solver.COMPLETE).search(0, 0, weights, args.c_tables, 0, 0.0)
            s = time.process_time() - t0
            held = res["held"]
            total = res["key_bytes"] + res["node_bytes"] + res["slot_bytes"] + res["heap_bytes"]
            print(f"{seed:>4} {res['outcome']:>9} {res['nodes']:>10,} tables {held:>10,} held"
                  f" {res['nodes'] / s:>11,.0f}/s  key {res['key_bytes'] / held:.1f} B,"
                  f" all {total / held:.1f} B a table held")


if __name__ == "__main__":
    main()
