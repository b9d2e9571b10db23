"""Hostile design files: how long ``from_cardz`` takes to refuse each, and how much memory it needs.

    python benchmarks/design_files.py

Each input runs in a process of its own, so that its peak memory is its own: the line gives the verdict (the
start of the ``DesignError``), the seconds, the peak of Python's allocations while it was read (tracemalloc)
and the growth of the process's resident memory over an empty run (its peak, less the peak of the process
before the call). The inputs are issue 40's: more columns than the notation names, a deal rule naming a
tableau 160,000 times (a 960 KB file), ``/dev/zero``, a FIFO, deep nesting, a number of 5,000 digits, a NUL in
a path, an empty string, and the largest file read (a design padded to just under 1,000,000 bytes). A
benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
SHIPPED = SRC / "spiderette" / "engine" / "spiderette.cardz"

#: The child: reads one input (``design`` in its globals), prints a JSON line of what happened.
CHILD = """
import json, resource, sys, time, tracemalloc
from spiderette import from_cardz, DesignError
design = eval(sys.stdin.read())
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
t0 = time.perf_counter()
try:
    from_cardz(design)
    verdict = "accepted"
except DesignError as e:
    verdict = "DesignError: " + str(e)
except BaseException as e:
    verdict = type(e).__name__ + ": " + str(e)
took = time.perf_counter() - t0
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"verdict": verdict, "seconds": took, "traced": peak, "rss_growth": (after - before) * 1024}))
"""


def cases(folder: Path) -> list[tuple[str, str]]:
    """(what, a Python expression of the input)."""
    seed = json.loads(SHIPPED.read_text(encoding="utf-8"))
    wide = {**seed, "name": "Wide", "depots": [*seed["depots"][:2], {**seed["depots"][2], "repeat": 13}]}
    many = {**seed, "name": "Many", "dealRules": [{"kind": "dealGroup", "to": ["tab"] * 160_000, "faceUp": 1,
                                                   "roundRobin": True}]}
    many_text = json.dumps(many, separators=(",", ":"))
    (folder / "many.cardz").write_text(many_text, encoding="utf-8")
    padded = json.dumps({**seed, "name": "Padded", "description": "x" * (999_000 - len(json.dumps(seed)))})
    (folder / "padded.cardz").write_text(padded, encoding="utf-8")
    fifo = folder / "fifo.cardz"
    os.mkfifo(fifo)
    return [
        ("13 columns", repr(json.dumps(wide))),
        (f"'tab' 160,000 times, text of {len(many_text):,} bytes", repr(many_text)),
        ("the same, as a file", repr(str(folder / "many.cardz"))),
        ("/dev/zero", repr("/dev/zero")),
        ("a FIFO", repr(str(fifo))),
        ('"[" * 100,000', repr("[" * 100_000)),
        ("a number of 5,000 digits", repr('{"name": "X", "decks": ' + "7" * 5000 + "}")),
        ("a NUL in a path", repr("design\0.cardz")),
        ("an empty string", repr("")),
        (f"the seed's design padded to {len(padded):,} bytes (accepted)", repr(str(folder / "padded.cardz"))),
        ("the seed's design (accepted: for scale)", repr(str(SHIPPED))),
    ]


def main() -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    print(f"{'input':<62} {'seconds':>8} {'traced MiB':>10} {'RSS +MiB':>9}  verdict")
    with tempfile.TemporaryDirectory() as tmp:
        for what, expr in cases(Path(tmp)):
            out = subprocess.run([sys.executable, "-c", CHILD], input=expr, capture_output=True, text=True, env=env,
                                 timeout=600)
            try:
                row = json.loads(out.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                print(f"{what:<62} failed: {out.stderr.strip()[-300:]}")
                continue
            verdict = row["verdict"]
            print(f"{what:<62} {row['seconds']:8.3f} {row['traced'] / 2**20:10.1f} {row['rss_growth'] / 2**20:9.1f}"
                  f"  {verdict[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
