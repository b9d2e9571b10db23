"""How long each lesson notebook runs, top to bottom, on a loaded machine: the times the notebooks and the
Teach guide's "Lessons for a class" state.

    python benchmarks/notebook_times.py                     # every notebook, with a busy loop on each core
    python benchmarks/notebook_times.py 04-the-ladder 06    # some of them (a prefix of the file name)
    python benchmarks/notebook_times.py --load 0            # a quiet machine (not what the notebooks state)

Each notebook runs in a fresh kernel (nbclient, as ``tests/test_notebooks.py`` runs them) while ``--load``
processes (default: one per core) spin on the processor, so that the times are those of a class laptop
doing other things, not of an idle one. It records the whole notebook's time, each code cell's time and a
fingerprint of the code cells, and writes ``benchmarks/data/notebook_times.json`` after each notebook (an
interrupted run keeps what it measured; a notebook measured again replaces its entry).
``tests/test_notebooks.py`` checks, without a clock, that each notebook's stated "Expected run time" is at
least the recorded time and that the record is of the notebook as it is (the fingerprint): a change to a
notebook's code needs a new measurement.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
RECORD = ROOT / "benchmarks" / "data" / "notebook_times.json"


def fingerprint(path: Path) -> str:
    """A hash of a notebook's code cells (their source only): the record is of this code."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n\x00".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def spin() -> None:
    """A busy loop: the load. In a session of its own, as another program would be: Linux shares the processor
    between sessions first (autogroups), so loops in the benchmark's own session would share one core's worth
    while the notebook's kernel, which runs in a session of its own, kept a whole core."""
    os.setsid()
    while True:
        pass


def run(path: Path) -> dict:
    """Run one notebook in a fresh kernel: its total time and each code cell's time (seconds)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SPIDERETTE_HOME"] = str(Path(tmp) / "home")
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
        os.environ["MPLBACKEND"] = "Agg"
        client = nbclient.NotebookClient(nb, timeout=1800, kernel_name="python3",
                                         resources={"metadata": {"path": tmp}})
        start = time.perf_counter()
        with client.setup_kernel():
            for i, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                t = time.perf_counter()
                client.execute_cell(cell, i)
                times.append(round(time.perf_counter() - t, 1))
        total = time.perf_counter() - start
    return {"seconds": round(total, 1), "cells": times, "longest_cell": max(times, default=0.0),
            "fingerprint": fingerprint(path)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="notebooks to measure (a prefix of the file name); default all")
    parser.add_argument("--load", type=int, default=os.cpu_count() or 1,
                        help="busy processes spinning meanwhile (default: one per core)")
    parser.add_argument("--out", type=Path, default=RECORD)
    args = parser.parse_args(argv)
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    if args.only:
        paths = [p for p in paths if any(p.name.startswith(o) for o in args.only)]
    record = json.loads(args.out.read_text()) if args.out.exists() else {}
    load = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for p in load:
        p.start()
    try:
        for path in paths:
            got = run(path)
            got.update(load=args.load, cores=os.cpu_count(), machine=f"{os.cpu_count()} cores",
                       measured=time.strftime("%Y-%m-%d"))
            record[path.name] = got
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(dict(sorted(record.items())), indent=1) + "\n")
            print(f"{path.name:40} {got['seconds']:7.1f} s   longest cell {got['longest_cell']:6.1f} s", flush=True)
    finally:
        for p in load:
            p.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
