"""The learned value of the visible table: its training data, and its fit.

    python benchmarks/train_value.py generate [--suits 4] [--deals 10000001-10004000] [--processes 2]
                                              [--scheduler tcp://host:8786]
                                              [--explore 0.1] [--out benchmarks/data/value/spiderette-4.jsonl]
    python benchmarks/train_value.py fit [--data benchmarks/data/value/spiderette-4.jsonl] [--run-weight 3]
                                         [--out src/spiderette/players/value_model.json]

The shipped model is ``generate`` with its defaults (four suits, deals 10000001-10004000, the hand-made
planner, 10% exploration; about 5 minutes on one core), then ``fit`` with its defaults. The data of that run
is committed as ``benchmarks/data/value/spiderette-4.jsonl.gz`` (``fit`` reads it when the ``.jsonl`` is not
there), so ``fit`` alone remakes the model.

``generate`` plays the planner on training deals (far from deals 1-1000 and from every test's deals), with a
share ``--explore`` of its moves replaced by another useful move (seeded by the deal), and writes one line per
deal: every table it met as a player saw it (per column the cards face down and the face-up cards, the stock's
size, the runs finished) and how the game ended (cards still hidden, runs finished, won). ``fit`` reads the
features of :mod:`spiderette.players.features` from those tables, so new features need no new games. It is
resumable: deals already in the file are skipped, and each deal is written as soon as it is played, so an
interrupted run loses nothing.

``fit`` labels each position by how its game ended (the cards still hidden at the end, counting a won game as
none: a Monte Carlo return of the planner's own play, lower is better), fits a ridge regression on the
features of the positions of three quarters of the deals, and reports the fit on the other quarter (R^2, and
how often the value orders two positions of the same stage as their games ended), with a learning curve. The
model is written as JSON: the features' names, their weights, and the report.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from solver import deal_range  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import Game  # noqa: E402
from spiderette.engine.predicates import hidden_count, visible_key  # noqa: E402
from spiderette.engine.variants import RULES  # noqa: E402
from spiderette.players.features import FEATURES, feature_vector  # noqa: E402
from spiderette.players.planner import PlannerStrategy  # noqa: E402
from spiderette.players.ranking import useful_hints  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "value"
MAX_MOVES = 1000


def play(deal: int, variant: str, suits: int, explore: float, value: str = "handmade") -> dict:
    """One training game: the planner (steering by ``value``), with a share ``explore`` of its moves replaced by
    another useful move."""
    g = Game(variant, seed=deal, suits=suits)
    planner = PlannerStrategy(value=value)
    pick = random.Random(deal)
    positions = []
    while g.status == "playing" and g.move_count < MAX_MOVES:
        # the table as a player sees it: per column, the cards face down and the face-up cards; the stock's size
        positions.append([[[d, list(up)] for d, up in visible_key(g)[0]], g.stock_count, g.runs_completed])
        move = planner(g)
        if move is None:
            break
        if pick.random() < explore:
            others = [h.move for h in useful_hints(g) if h.move != move]
            if others:
                move = pick.choice(others)
        g.apply(move)
    return {"deal": deal, "variant": variant, "suits": suits, "value": value, "tables": positions,
            "end": {"hidden": 0 if g.is_won else hidden_count(g), "runs": g.runs_completed, "won": g.is_won,
                    "moves": g.move_count}}


def generate(args: argparse.Namespace) -> None:
    out = Path(args.out or DATA / f"{args.variant}-{args.suits}.jsonl")
    out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            try:
                done.add(json.loads(line)["deal"])
            except (ValueError, KeyError):
                pass   # a line cut by an interrupted run: that deal is played again
    deals = [d for d in deal_range(args.deals) if d not in done]
    print(f"{len(done)} deals already in {out}; {len(deals)} to play", flush=True)
    t0 = time.perf_counter()
    with out.open("a") as f, _executor(args) as pool:
        futures = [pool.submit(play, d, args.variant, args.suits, args.explore, args.value) for d in deals]
        bar = _bar(len(deals))
        for i, fut in enumerate(as_completed(futures), start=1):
            f.write(json.dumps(fut.result(), separators=(",", ":")) + "\n")
            f.flush()
            if bar is not None:
                bar.update(1)
            elif i % 20 == 0 or i == len(deals):
                print(f"{i}/{len(deals)} deals, {time.perf_counter() - t0:.0f} s", flush=True)
        if bar is not None:
            bar.close()


def _executor(args: argparse.Namespace):
    """Where the games are played: ``--processes`` local processes, or the Dask cluster at ``--scheduler``
    (the studies' way: any ``concurrent.futures`` executor; the workers need spiderette installed; Dask sends
    :func:`play` itself, defined in this script, by value)."""
    if not args.scheduler:
        return ProcessPoolExecutor(args.processes)
    try:
        from distributed import Client
    except ImportError:
        sys.exit('--scheduler needs Dask: pip install -e ".[teach]"')
    return Client(args.scheduler).get_executor()


def _bar(total: int):
    """A progress bar (tqdm, from the ``teach`` extra), or ``None``: then a line every 20 deals."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="deal")


def load(path: Path) -> list[dict]:
    """The games of a data file (``.jsonl``, or ``.jsonl.gz`` as committed); a line cut short is skipped."""
    path = Path(path)
    if not path.exists() and Path(f"{path}.gz").exists():
        path = Path(f"{path}.gz")
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    games = []
    for line in text.splitlines():
        try:
            games.append(json.loads(line))
        except ValueError:
            pass
    return sorted(games, key=lambda x: x["deal"])


def fit(args: argparse.Namespace) -> None:
    import numpy as np

    games = [x for path in args.data for x in load(Path(path))]
    runs_total = {"spider": 8}.get(games[0]["variant"], 4)

    def label(end: dict) -> float:
        """How the game ended, as a cost: the cards still hidden, and each run not finished worth
        ``--run-weight`` of them (0 for a won game)."""
        return 0.0 if end["won"] else end["hidden"] + args.run_weight * (runs_total - end["runs"])

    test = [x for x in games if x["deal"] % 4 == 0]
    train = [x for x in games if x["deal"] % 4 != 0]

    links = RULES[games[0]["variant"]].links
    columns = len(games[0]["tables"][0][0])

    def arrays(part):
        xs, ys, stage = [], [], []
        for x in part:
            for cols, stock, runs in x["tables"]:
                left = -(-stock // columns)
                xs.append(feature_vector([(d, tuple(up)) for d, up in cols], left, runs, links))
                ys.append(label(x["end"]))
                stage.append((left, runs))
        return np.array(xs, float), np.array(ys, float), stage

    xt, yt, _ = arrays(train)
    xv, yv, stage_v = arrays(test)
    mean, scale = xt.mean(axis=0), xt.std(axis=0) + 1e-9

    def solve(x, y, ridge=1.0):
        z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
        w = np.linalg.solve(z.T @ z + ridge * np.eye(z.shape[1]), z.T @ y)
        return w

    def predict(w, x):
        return np.hstack([(x - mean) / scale, np.ones((len(x), 1))]) @ w

    def report(w):
        p = predict(w, xv)
        r2 = 1 - ((p - yv) ** 2).sum() / ((yv - yv.mean()) ** 2).sum()
        # pairs of positions of the same stage from different games: does the value order them as they ended?
        rng = random.Random(1)
        by_stage: dict = {}
        for i, s in enumerate(stage_v):
            by_stage.setdefault(s, []).append(i)
        agree = total = 0
        for idx in by_stage.values():
            for _ in range(min(2000, len(idx) * 2)):
                a, b = rng.choice(idx), rng.choice(idx)
                if yv[a] == yv[b]:
                    continue
                total += 1
                agree += (p[a] < p[b]) == (yv[a] < yv[b])
        return float(r2), agree / total if total else float("nan")

    curve = []
    for share in (0.1, 0.25, 0.5, 1.0):
        part = train[: max(1, int(len(train) * share))]
        x, y, _ = arrays(part)
        w = solve(x, y)
        r2, order = report(w)
        curve.append({"deals": len(part), "positions": len(x), "r2": round(r2, 4), "ordered": round(order, 4)})
        print(f"trained on {len(part)} deals ({len(x)} positions): held-out R^2 {r2:.3f},"
              f" same-stage pairs ordered {order:.3f}", flush=True)
    w = solve(xt, yt)
    # weights on the raw features (the planner adds them up per column): value = bias + sum(weight * feature)
    raw = w[:-1] / scale
    bias = float(w[-1] - (raw * mean).sum())
    model = {"target": f"cards still hidden at the end of the planner's game, plus {args.run_weight} for each run"
                       " not finished (0 when won); lower is better", "run_weight": args.run_weight,
             "features": list(FEATURES), "weights": [round(float(v), 6) for v in raw], "bias": round(bias, 6),
             "trained_on": {"data": [_shown(Path(p)) for p in args.data], "deals": len(train), "positions": len(xt),
                            "held_out_deals": len(test), "held_out_positions": len(xv)},
             "learning_curve": curve}
    Path(args.out).write_text(json.dumps(model, indent=1) + "\n")
    for name, v in sorted(zip(FEATURES, raw), key=lambda t: -abs(t[1] * scale[FEATURES.index(t[0])])):
        print(f"  {name:28s} {v:+.4f}")
    print(f"wrote {args.out}")


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it lies inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--variant", default="spiderette")
    g.add_argument("--suits", type=int, default=4)
    g.add_argument("--deals", default="10000001-10004000")
    g.add_argument("--processes", type=int, default=2)
    g.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786): play there instead")
    g.add_argument("--explore", type=float, default=0.1)
    g.add_argument("--value", default="handmade", help="the value the planner steers by while it plays")
    g.add_argument("--out")
    f = sub.add_parser("fit")
    f.add_argument("--data", default=[str(DATA / "spiderette-4.jsonl")], nargs="+")
    f.add_argument("--run-weight", type=float, default=3.0)
    f.add_argument("--out", default=str(ROOT / "src" / "spiderette" / "players" / "value_model.json"))
    args = ap.parse_args()
    (generate if args.command == "generate" else fit)(args)


if __name__ == "__main__":
    main()
