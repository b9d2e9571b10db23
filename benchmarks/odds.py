"""What an undecided verdict means: of the positions the solver leaves undecided at a budget, how many turn out
winnable (or lost) with ten times the search. Issue 32's measurement behind the odds the verdicts quote.

    python benchmarks/odds.py measure --source deals --first 50001 --count 400 [--budget 200000]
    python benchmarks/odds.py measure --source games --first 60001 --count 60 [--every 5] [--budget 200000]
    python benchmarks/odds.py report [--budget 200000]
    python benchmarks/odds.py table [--budgets 40000,200000] [--held-out 50401,60101]
    python benchmarks/odds.py check [--budgets 40000,200000] [--held-out 50401,60101]
    python benchmarks/odds.py markdown          # the rows and their check, as the Speed guide's table

``measure`` solves each position with ``solve(g, node_limit=budget)`` and, when that finds neither a win nor a
proof, again with ten times the budget; each position's row is appended to
``benchmarks/data/odds/<source>-<budget>.jsonl`` as soon as it is known, so a run stopped anywhere goes on
where it was (rows already there are skipped). The positions: ``deals``, the starting position of each four-suit
deal from ``--first``; ``games``, every ``--every``-th position of a game the honest planner plays on each
deal from ``--first`` (it sees no hidden card; the solver, as always, sees all). The deal numbers are far from
those the tests and the other benchmarks use. Budgets are in tables, so the rows are the same on any machine.
``report`` prints, by cards still hidden, how many undecided positions turned out winnable, lost or still
unknown, with 95% intervals. ``table`` writes the rows the verdicts quote (``src/spiderette/players/odds.json``)
from the deals below the ``--held-out`` numbers (one for each source: deals, games); ``check`` compares each row
with the positions of the held-out deals: is their winnable share within the row's interval? A benchmark, not a
test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from spiderette import Game, PlannerStrategy, solve  # noqa: E402
from spiderette.studies.intervals import wilson_interval  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "odds"
#: How much more search the second solve has.
FACTOR = 10
#: The rows of the shipped table: ranges of cards hidden (face down and in the stock), each joined with the next
#: until it holds at least ``MIN_ROW`` undecided positions (the last with the one before), so that every count
#: of hidden cards has a row and no row stands on a handful of positions.
HIDDEN = ((0, 10), (11, 15), (16, 20), (21, 25), (26, 30), (31, 35), (36, 40), (41, 52))
MIN_ROW = 12
TABLE = Path(__file__).resolve().parents[1] / "src" / "spiderette" / "players" / "odds.json"
#: The most moves of a game the planner plays for ``--source games``.
MAX_MOVES = 400


def hidden(g: Game) -> int:
    """The cards a player cannot see: face down on the table and in the stock."""
    return sum(g.face_down(i) for i in range(g.columns)) + g.stock_count


def positions(source: str, deal: int, every: int) -> list[tuple[str, str]]:
    """The positions to measure of one deal: (an id, the position text)."""
    g = Game(seed=deal)
    if source == "deals":
        return [(f"{deal}", g.position())]
    play = PlannerStrategy()
    out = []
    for n in range(MAX_MOVES):
        if g.status != "playing":
            break
        if n % every == 0:
            out.append((f"{deal}:{n}", g.position()))
        move = play(g.redeal_hidden(deal * 1000 + n))   # honest: a copy whose hidden cards are shuffled
        if move is None:
            break
        g.apply(move)
    return out


def measure(args: argparse.Namespace) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    out = DATA / f"{args.source}-{args.budget}.jsonl"
    done = set()
    if out.exists():
        done = {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines() if line.strip()}
    print(f"{out.name}: {len(done)} positions measured already", flush=True)
    for deal in range(args.first, args.first + args.count):
        for pid, text in positions(args.source, deal, args.every):
            if pid in done:
                continue
            g = Game.from_position(text)
            t0 = time.perf_counter()
            first = solve(g, time_limit=None, node_limit=args.budget)
            row = {"id": pid, "position": text, "hidden": hidden(g), "face_down": hidden(g) - g.stock_count,
                   "budget": args.budget, "result": str(first.result), "nodes": first.nodes}
            if first.result == "unknown":
                second = solve(g, time_limit=None, node_limit=FACTOR * args.budget)
                row.update(again=str(second.result), again_nodes=second.nodes)
            row["seconds"] = round(time.perf_counter() - t0, 2)
            with out.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            print(f"  {pid}: {row['result']}{' then ' + row['again'] if 'again' in row else ''}"
                  f" ({row['hidden']} hidden, {row['seconds']} s)", flush=True)


def report(args: argparse.Namespace) -> None:
    for path in sorted(DATA.glob(f"*-{args.budget}.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        undecided = [r for r in rows if r["result"] == "unknown"]
        print(f"{path.name}: {len(rows)} positions, {len(undecided)} undecided at {args.budget:,} tables")
        for lo, hi in spans(undecided):
            part = [r for r in undecided if lo <= r["hidden"] <= hi]
            if not part:
                continue
            won = sum(r["again"] == "win" for r in part)
            lost = sum(r["again"] == "loss" for r in part)
            a, b = wilson_interval(won, len(part))
            print(f"  {lo}-{hi} hidden: {len(part)} undecided; with {FACTOR}x the search {won} winnable"
                  f" ({won / len(part):.0%}, 95% interval {a:.0%}-{b:.0%}), {lost} lost,"
                  f" {len(part) - won - lost} still unknown")


def undecided_rows(budget: int, held_out: tuple[int, int], want_held_out: bool) -> list[dict]:
    """The positions undecided at ``budget`` (both sources), those of the held-out deals or the others."""
    out = []
    for source, split in zip(("deals", "games"), held_out):
        path = DATA / f"{source}-{budget}.jsonl"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line) if line.strip() else None
            if r and r["result"] == "unknown" and (int(r["id"].split(":")[0]) >= split) == want_held_out:
                out.append(r)
    return out


def spans(positions: list[dict]) -> list[tuple[int, int]]:
    """The ranges of hidden cards of the rows: ``HIDDEN`` joined until each holds ``MIN_ROW`` positions."""
    out: list[tuple[int, int]] = []
    start = None
    for lo, hi in HIDDEN:
        start = lo if start is None else start
        if sum(start <= r["hidden"] <= hi for r in positions) >= MIN_ROW:
            out.append((start, hi))
            start = None
    if start is not None:   # a short tail joins the row before it (or is the only row)
        out[-1:] = [(out[-1][0] if out else start, HIDDEN[-1][1])]
    return out


def rows_of(budget: int, positions: list[dict]) -> list[dict]:
    rows = []
    for lo, hi in spans(positions):
        part = [r for r in positions if lo <= r["hidden"] <= hi]
        if not part:
            continue
        n = len(part)
        won = sum(r["again"] == "win" for r in part)
        lost = sum(r["again"] == "loss" for r in part)
        a, b = wilson_interval(won, n)
        rows.append({"variant": "spiderette", "suits": 4, "budget": budget, "hidden": [lo, hi], "undecided": n,
                     "winnable": won, "lost": lost, "interval": [round(a, 4), round(b, 4)],
                     "open_high": round(wilson_interval(n - lost, n)[1], 4)})
    return rows


def table(args: argparse.Namespace) -> None:
    rows = [row for budget in args.budgets for row in rows_of(budget, undecided_rows(budget, args.held_out, False))]
    command = (f"python benchmarks/odds.py table --budgets {','.join(map(str, args.budgets))} --held-out"
               f" {','.join(map(str, args.held_out))}")
    head = json.dumps({"made_by": command, "factor": FACTOR})[:-1]
    TABLE.write_text(head + ', "rows": [\n' + ",\n".join(json.dumps(r) for r in rows) + "\n]}\n", encoding="utf-8")
    for r in rows:
        print(f"  {r['budget']:>9,} tables, {r['hidden'][0]:2d}-{r['hidden'][1]:2d} hidden: {r['winnable']} of"
              f" {r['undecided']} winnable, {r['lost']} lost")
    print(f"wrote {TABLE}")


def check(args: argparse.Namespace) -> None:
    held = 0
    for budget in args.budgets:
        shipped = {tuple(r["hidden"]): r for r in rows_of(budget, undecided_rows(budget, args.held_out, False))}
        for r in rows_of(budget, undecided_rows(budget, args.held_out, True)):
            row = shipped.get(tuple(r["hidden"]))
            if row is None:
                continue
            share = r["winnable"] / r["undecided"]
            inside = row["interval"][0] <= share <= row["interval"][1]
            held += inside
            print(f"  {budget:>9,} tables, {r['hidden'][0]}-{r['hidden'][1]} hidden: held-out {r['winnable']} of"
                  f" {r['undecided']} ({share:.0%}); the table's interval {row['interval'][0]:.0%}-"
                  f"{row['interval'][1]:.0%}: {'within' if inside else 'OUTSIDE'}")
    print(f"{held} rows within their interval")


def markdown(args: argparse.Namespace) -> None:
    """The rows and their check on the held-out positions, as the Speed guide's table."""
    print("| budget (tables) | cards hidden | undecided | winnable with 10x the search | proven lost | still undecided"
          " | winnable share, 95% interval | held-out positions: winnable | within the interval |")
    print("|---|---|---|---|---|---|---|---|---|")
    for budget in args.budgets:
        for r in rows_of(budget, undecided_rows(budget, args.held_out, False)):
            n, won, lost = r["undecided"], r["winnable"], r["lost"]
            lo, hi = r["interval"]
            part = [x for x in undecided_rows(budget, args.held_out, True)
                    if r["hidden"][0] <= x["hidden"] <= r["hidden"][1]]
            hw = sum(x["again"] == "win" for x in part)
            check = "" if not part else ("yes" if lo <= hw / len(part) <= hi else "no")
            print(f"| {budget:,} | {r['hidden'][0]}-{r['hidden'][1]} | {n} | {won} | {lost} | {n - won - lost} |"
                  f" {won / n:.0%} ({lo:.0%}-{hi:.0%}) | {f'{hw} of {len(part)}' if part else 'none yet'} |"
                  f" {check or '-'} |")


def numbers(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(","))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--source", choices=("deals", "games"), required=True)
    m.add_argument("--first", type=int, required=True)
    m.add_argument("--count", type=int, required=True)
    m.add_argument("--every", type=int, default=5)
    m.add_argument("--budget", type=int, default=200_000)
    r = sub.add_parser("report")
    r.add_argument("--budget", type=int, default=200_000)
    for name in ("table", "check", "markdown"):
        t = sub.add_parser(name)
        t.add_argument("--budgets", type=numbers, default=(40_000, 200_000))
        t.add_argument("--held-out", type=numbers, default=(50401, 60101),
                       help="the first held-out deal of each source (deals, games)")
    args = ap.parse_args()
    {"measure": measure, "report": report, "table": table, "check": check, "markdown": markdown}[args.command](args)


if __name__ == "__main__":
    main()
