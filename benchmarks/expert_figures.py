"""The honest expert's figures, by a protocol no one can tune to: the planner before and after, paired.

    python benchmarks/expert_figures.py play [--processes 2]   # every player on every game's deals (resumable)
    python benchmarks/expert_figures.py table                  # the figures: won, McNemar, cards face down
    python benchmarks/expert_figures.py hints [--deals 3001-3040]   # Hint's time: a fresh plan at every position

Every choice of the expert (its value, its budget, its rules) was made on training and tuning deals far from
these (``train_value.py rounds``: training deals from 10300001, tuning deals 50001-52000); the figures are read
on four-suit deals 1-2000 and two- and one-suit deals 1-500 only, each player on the same deals, paired with
McNemar's test against the planner as it was before (the learned value at 2,000 tables a plan). One row per
deal is written to ``benchmarks/data/expert/<suits>-<player>.jsonl`` as soon as it is played (an interrupted
run loses nothing), and the table is read from those files, which are committed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from solver import deal_range  # noqa: E402 - benchmarks/solver.py, beside this file
from train_value import play_into, read_played  # noqa: E402 - benchmarks/train_value.py, beside this file

from spiderette import Game  # noqa: E402
from spiderette.engine.ccore import describe  # noqa: E402
from spiderette.players.planner import DEFAULT_BUDGET, DEFAULT_TURNS, PlannerStrategy, plan  # noqa: E402
from spiderette.players.value import DEFAULT_VALUE  # noqa: E402
from spiderette.studies.intervals import mcnemar, p_text, wilson_interval  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "expert"
#: The games: suits -> deals.
GAMES = {4: "1-2000", 2: "1-500", 1: "1-500"}
#: The players: name -> (the value steered by, tables a plan, turns). "before" is the planner of issue 43 (the
#: learned value, 2,000 tables, the best line as found); "after", the planner's defaults.
PLAYERS = {"before": ("learned", 2000, 1), "after": (DEFAULT_VALUE, DEFAULT_BUDGET, DEFAULT_TURNS)}


def do_play(args: argparse.Namespace) -> None:
    for suits, deals in GAMES.items():
        for name, (value, budget, turns) in PLAYERS.items():
            args.suits = suits
            play_into(DATA / f"{suits}-{name}.jsonl", deal_range(deals), args, value, 0.0, budget, tables=False,
                      turns=turns)


def rows(suits: int, name: str) -> dict[int, dict]:
    """The games of a player, by deal (as ``play`` wrote them)."""
    return read_played(DATA / f"{suits}-{name}.jsonl")


def do_table(_: argparse.Namespace) -> None:
    print("| suits | deals | before: won | after: won | after vs before (McNemar) | cards face down, before → after |")
    print("|---|---|---|---|---|---|")
    for suits, deals in GAMES.items():
        a, b = rows(suits, "before"), rows(suits, "after")
        both = sorted(a.keys() & b.keys())
        if not both:
            continue
        only_b = sum(1 for d in both if b[d]["end"]["won"] and not a[d]["end"]["won"])
        only_a = sum(1 for d in both if a[d]["end"]["won"] and not b[d]["end"]["won"])
        hid = [statistics.mean(x[d]["end"]["hidden"] for d in both) for x in (a, b)]
        shown = deals if len(both) == len(deal_range(deals)) else f"{len(both)} of {deals}"
        test = p_text(mcnemar(only_b, only_a).p_value)
        print(f"| {suits} | {shown} | {won(a, both)} | {won(b, both)} | {only_b} vs {only_a}, {test}"
              f" | {hid[0]:.2f} → {hid[1]:.2f} |")
    print(f"\nbefore: the learned value at 2,000 tables a plan, turns=1; after: PlannerStrategy() ({DEFAULT_BUDGET:,}"
          f" tables, value {DEFAULT_VALUE!r}, turns={DEFAULT_TURNS}); {describe()}")


def won(games: dict[int, dict], deals: list[int]) -> str:
    """Won of ``deals``, the share and its 95% interval."""
    w = sum(games[d]["end"]["won"] for d in deals)
    lo, hi = wilson_interval(w, len(deals))
    return f"{w} ({100 * w / len(deals):.1f}%, {100 * lo:.1f}–{100 * hi:.1f}%)"


def do_hints(args: argparse.Namespace) -> None:
    """A fresh plan (what Hint asks) at every position of the planner's own games, timed, one process."""
    times = []
    for deal in deal_range(args.deals):
        g, player = Game(seed=deal, suits=args.suits), PlannerStrategy()
        while g.status == "playing" and g.move_count < 1000:
            t = time.perf_counter()
            plan(g)
            times.append(time.perf_counter() - t)
            move = player(g)
            if move is None:
                break
            g.apply(move)
    times.sort()
    n = len(times)
    print(f"Hint at the default budget ({DEFAULT_BUDGET:,} tables; {describe()}), {args.suits} suits,"
          f" deals {args.deals}: {n} positions; median {1000 * times[n // 2]:.1f} ms,"
          f" 90th percentile {1000 * times[int(0.9 * n)]:.1f} ms, largest {1000 * times[-1]:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786): play there instead")
    p.set_defaults(variant="spiderette")
    sub.add_parser("table")
    h = sub.add_parser("hints")
    h.add_argument("--deals", default="3001-3040")
    h.add_argument("--suits", type=int, default=4)
    args = ap.parse_args()
    {"play": do_play, "table": do_table, "hints": do_hints}[args.command](args)


if __name__ == "__main__":
    main()
