"""A value of one's own in class time: which retrain learns? (The Teach guide, "What the expert learned".)

    python benchmarks/value_options.py games      # the games shipped for a class: players/value_games.jsonl.gz
    python benchmarks/value_options.py fit        # the options' models: benchmarks/data/value/options/*.json
    python benchmarks/value_options.py play [--deals 30001-30200]   # each on the same four-suit deals
    python benchmarks/value_options.py table      # the figures: paired against the hand-made value
    python benchmarks/value_options.py samples    # ten sets of 300 games, three of 1,000, side by side
    python benchmarks/value_options.py signs      # the weights' signs as the training games grow

Each option is a model fitted by :func:`spiderette.players.value.fit` on the first games of the shipped data
(``benchmarks/data/value/spiderette-4.jsonl.gz``, deals 10000001-10004000, a quarter held out): 300 games as
a class would make them (48 s on one core), more games, a ridge, fewer features, or a pull toward the shipped
model. ``play`` plays the planner steering by each on four-suit deals never used in training nor by the
lesson (30001-30200 by default), one process, and writes a row per deal as it goes to
``benchmarks/data/value/options/games.jsonl`` (resumable: the rows there are not played again).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from solver import deal_range  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import PlannerStrategy, simulate  # noqa: E402
from spiderette.players.value import GAMES, MODEL, ValueModel, fit, read_games  # noqa: E402
from spiderette.studies.intervals import binomial_two_sided, mcnemar, p_text  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "value" / "spiderette-4.jsonl.gz"
OUT = ROOT / "benchmarks" / "data" / "value" / "options"
#: Fewer features: what a player is told to count, and the stage.
FEW = ("face_down", "last_face_down", "buried", "out_of_order", "off_suit", "in_suit", "empty_columns",
       "deals_left", "runs_done", "empty_columns x deals_left")
#: name -> (deals of the data read (a quarter of them held out), fit's keywords)
OPTIONS: dict[str, tuple[int, dict]] = {
    "g300": (400, {}),
    "g300-ridge": (400, {"ridge": 0.1}),
    "g300-toward": (400, {"ridge": 0.1, "toward": "learned"}),
    "g1000": (1333, {}),
    "g1000-ridge": (1333, {"ridge": 0.1}),
    "g300-few": (400, {"features": FEW}),
    "g300b": (-400, {}),          # (another 300 games: the data's last 400 deals)
    "g300b-ridge": (-400, {"ridge": 0.1}),
    "g3000-ridge": (4000, {"ridge": 0.1}),
    "g300-ridge.01": (400, {"ridge": 0.01}),
    "g1000-ridge.01": (1333, {"ridge": 0.01}),
}
#: Class-sized sets side by side: the data's ten disjoint sets of 400 deals (300 games trained on each) and its
#: three of 1,333 (1,000 games), each fitted by least squares and with the ridge (``samples``: on 200 deals).
SAMPLES: dict[str, tuple[tuple[int, int], dict]] = {
    **{f"s300-{k}{tag}": ((400 * k, 400 * (k + 1)), kw) for k in range(10)
       for tag, kw in (("", {}), ("-ridge", {"ridge": 0.1}))},
    **{f"s1000-{k}{tag}": ((1333 * k, 1333 * (k + 1)), kw) for k in range(3)
       for tag, kw in (("", {}), ("-ridge", {"ridge": 0.1}))},
}


def games_of(n: int | tuple[int, int], games: list[dict]) -> list[dict]:
    if isinstance(n, tuple):
        return games[n[0]:n[1]]
    return games[:n] if n > 0 else games[n:]


def do_games(_: argparse.Namespace) -> None:
    """The games shipped in the package for a class's retrain (``spiderette.players.value.GAMES``): the first
    1,333 deals of the data (1,000 to train on, a quarter held out), as they are."""
    lines = gzip.decompress(DATA.read_bytes()).decode().splitlines()
    first = sorted(lines, key=lambda line: json.loads(line)["deal"])[:1333]
    GAMES.write_bytes(gzip.compress(("\n".join(first) + "\n").encode(), 9, mtime=0))
    print(f"wrote {GAMES}: {len(first)} games, {GAMES.stat().st_size:,} bytes")


def do_fit(_: argparse.Namespace) -> None:
    games = read_games(DATA)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (n, kw) in {**OPTIONS, **SAMPLES}.items():
        t0 = time.process_time()
        m = fit(games_of(n, games), name=name, **kw)
        m.save(OUT / f"{name}.json")
        print(f"{name}: {m.report['trained_on']['deals']} games, fitted in {time.process_time() - t0:.1f} s CPU,"
              f" held-out R² {m.report['held_out']['r2']}", flush=True)


def strategies() -> dict[str, PlannerStrategy]:
    found = {"handmade": PlannerStrategy(value="handmade"), "shipped": PlannerStrategy(value=MODEL)}
    for name in {**OPTIONS, **SAMPLES}:
        found[name] = PlannerStrategy(value=OUT / f"{name}.json")
    return found


def do_play(args: argparse.Namespace) -> None:
    rows_file = OUT / "games.jsonl"
    done = set()
    if rows_file.exists():
        for line in rows_file.read_text().splitlines():
            try:
                r = json.loads(line)
                done.add((r["option"], r["deal"]))
            except (ValueError, KeyError):
                pass
    deals = list(deal_range(args.deals))
    with rows_file.open("a") as f:
        found = strategies()
        for name in args.only.split(",") if args.only else found:   # (in the order asked)
            s = found[name]
            todo = [d for d in deals if (name, d) not in done]
            for i in range(0, len(todo), 20):
                chunk = todo[i:i + 20]
                t0 = time.perf_counter()
                res = simulate(s, deals=chunk, suits=4, progress=False)
                for r in res.rows:
                    f.write(json.dumps({"option": name, "deal": r["deal"], "won": r["won"],
                                        "face_down_left": r["face_down_left"]}) + "\n")
                f.flush()
                print(f"{name}: deals {chunk[0]}-{chunk[-1]} in {time.perf_counter() - t0:.0f} s", flush=True)


def do_table(args: argparse.Namespace) -> None:
    rows: dict[str, dict[int, dict]] = {}
    for line in (OUT / "games.jsonl").read_text().splitlines():
        r = json.loads(line)
        rows.setdefault(r["option"], {})[r["deal"]] = r
    base = rows["handmade"]
    print("| value | games | fit | won | McNemar | cards left face down (mean) | sign test |")
    print("|---|---|---|---|---|---|---|")
    for name, got in rows.items():
        if name in SAMPLES:
            continue
        deals = sorted(set(got) & set(base))
        if args.deals:
            deals = [d for d in deals if d in set(deal_range(args.deals))]
        won = sum(got[d]["won"] for d in deals)
        won_h = sum(base[d]["won"] for d in deals)
        fd = sum(got[d]["face_down_left"] for d in deals) / len(deals)
        fd_h = sum(base[d]["face_down_left"] for d in deals) / len(deals)
        only = sum(got[d]["won"] and not base[d]["won"] for d in deals)
        only_h = sum(base[d]["won"] and not got[d]["won"] for d in deals)
        fewer = sum(got[d]["face_down_left"] < base[d]["face_down_left"] for d in deals)
        more = sum(got[d]["face_down_left"] > base[d]["face_down_left"] for d in deals)
        if name == "handmade":
            print(f"| hand-made | | | {won} of {len(deals)} | | {fd:.2f} | |")
            continue
        spec = OPTIONS.get(name)
        games = 3000 if spec is None else abs(spec[0]) * 3 // 4
        how = "shipped model" if spec is None else ", ".join(f"{k}={v if k != 'features' else len(v)}"
                                                             for k, v in spec[1].items()) or "least squares"
        print(f"| {name} | {games} | {how} | {won} vs {won_h} | {only} to {only_h},"
              f" {p_text(mcnemar(only, only_h).p_value)} | {fd:.2f} vs {fd_h:.2f} | fewer on {fewer}, more on {more},"
              f" {p_text(binomial_two_sided(min(fewer, more), fewer + more))} |")


def do_samples(args: argparse.Namespace) -> None:
    """Class-sized sets side by side (the Teach guide's table): the games of each that were won, its weight of
    ``runs_done``, and its play against the hand-made value on the same deals, by least squares and with the
    ridge."""
    rows: dict[str, dict[int, dict]] = {}
    for line in (OUT / "games.jsonl").read_text().splitlines():
        r = json.loads(line)
        rows.setdefault(r["option"], {})[r["deal"]] = r
    base = rows["handmade"]
    deals = list(deal_range(args.deals))
    games = read_games(DATA)

    def cell(name: str) -> tuple[str, str]:
        got = rows[name]
        won = sum(got[d]["won"] for d in deals)
        only = sum(got[d]["won"] and not base[d]["won"] for d in deals)
        only_h = sum(base[d]["won"] and not got[d]["won"] for d in deals)
        fewer = sum(got[d]["face_down_left"] < base[d]["face_down_left"] for d in deals)
        more = sum(got[d]["face_down_left"] > base[d]["face_down_left"] for d in deals)
        fd = sum(got[d]["face_down_left"] for d in deals) / len(deals)
        return (f"{won} ({p_text(mcnemar(only, only_h).p_value).replace('p = ', '')})",
                f"{fd:.2f} ({fewer} to {more}, {p_text(binomial_two_sided(min(fewer, more), fewer + more))})"
                .replace("p = ", "").replace("< 0.001", "<0.001"))

    def signed(x: float) -> str:
        return f"{x:+.2f}".replace("-", "\u2212")

    print(f"| deals (a quarter held out) | games | won among them | `runs_done` | won of {len(deals)} (McNemar p) |"
          " cards face down (fewer to more, sign test p) | ridge 0.1: `runs_done` | won | cards face down |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, (span, kw) in SAMPLES.items():
        if kw or name not in rows or f"{name}-ridge" not in rows:
            continue
        assert isinstance(span, tuple)
        part = [g for g in games_of(span, games) if g["deal"] % 4]
        first = games[span[0]]["deal"]
        last = games[min(span[1], len(games)) - 1]["deal"]
        ls, rg = (ValueModel.load(OUT / f"{n}.json").weights["runs_done"] for n in (name, f"{name}-ridge"))
        (w1, f1), (w2, f2) = cell(name), cell(f"{name}-ridge")
        print(f"| {first}\u2013{last} | {len(part):,} | {sum(g['end']['won'] for g in part)} | {signed(ls)} | {w1} |"
              f" {f1} | {signed(rg)} | {w2} | {f2} |")


def do_signs(_: argparse.Namespace) -> None:
    games = read_games(DATA)
    sizes = (400, 800, 1333, 2667, 4000)   # 300, 600, 1000, 2000, 3000 games trained on
    for ridge in (0.0, 0.1):
        models = [fit(games[:n], ridge=ridge, held_out=True) for n in sizes]
        print(f"\nridge={ridge}: weights as the games grow ({', '.join(str(n * 3 // 4) for n in sizes)})")
        flips = 0
        for name in models[0].features:
            ws = [m.weights[name] for m in models]
            changes = sum((a > 0) != (b > 0) for a, b in zip(ws, ws[1:]))
            flips += changes
            print(f"  {name:28s} " + " ".join(f"{w:+7.2f}" for w in ws)
                  + (f"   sign changes {changes}" if changes else ""))
        print(f"  sign changes in all: {flips}")
        for m in models[::2]:
            print(f"  worth by deals left, {m.report['trained_on']['deals']} games:")
            print("   " + m.worth_table().replace("\n", "\n   "))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("fit")
    sub.add_parser("games")
    p = sub.add_parser("play")
    p.add_argument("--deals", default="30001-30200")
    p.add_argument("--only", help="these options only, comma-separated")
    t = sub.add_parser("table")
    t.add_argument("--deals")
    sub.add_parser("signs")
    sm = sub.add_parser("samples")
    sm.add_argument("--deals", default="30001-30200")
    args = ap.parse_args()
    commands = {"fit": do_fit, "games": do_games, "play": do_play, "table": do_table, "signs": do_signs,
                "samples": do_samples}
    commands[args.command](args)


if __name__ == "__main__":
    main()
