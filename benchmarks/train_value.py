"""The learned value of the visible table: its training data, and its fit.

    python benchmarks/train_value.py generate [--suits 4] [--deals 10000001-10004000] [--processes 2]
                                              [--scheduler tcp://host:8786]
                                              [--explore 0.1] [--out benchmarks/data/value/spiderette-4.jsonl]
    python benchmarks/train_value.py fit --out my_model.json [--data benchmarks/data/value/spiderette-4.jsonl]
                                         [--games 300] [--ridge 0.1] [--toward learned] [--run-weight 3]
                                         [--ship]

``fit`` writes where ``--out`` says, and refuses a path inside the package (the shipped model) unless
``--ship`` is given; ``PlannerStrategy(value="my_model.json")`` then steers by the model written. The shipped
model is ``generate`` with its defaults (four suits, deals 10000001-10004000, the hand-made planner, 10%
exploration; about 5 minutes on one core), then ``fit --out src/spiderette/players/value_model.json --ship``.
The data of that run is committed as ``benchmarks/data/value/spiderette-4.jsonl.gz`` (``fit`` reads it when
the ``.jsonl`` is not there), so ``fit`` alone remakes the model.

``generate`` plays the planner on training deals (far from deals 1-1000 and from every test's deals), with a
share ``--explore`` of its moves replaced by another useful move (seeded by the deal), and writes one line per
deal: every table it met as a player saw it (per column the cards face down and the face-up cards, the stock's
size, the runs finished) and how the game ended (cards still hidden, runs finished, won). ``fit`` reads the
features of :mod:`spiderette.players.features` from those tables, so new features need no new games. It is
resumable: deals already in the file are skipped, and each deal is written as soon as it is played, so an
interrupted run loses nothing.

``fit`` (:func:`spiderette.players.value.fit`, plain Python) labels each position by how its game ended (the
cards still hidden at the end, counting a won game as none: a Monte Carlo return of the planner's own play,
lower is better), fits a ridge regression on the features of the positions of three quarters of the deals,
and reports the fit on the other quarter (R^2, and how often the value orders two positions of the same stage
as their games ended), with a learning curve. The model is written as JSON: the features' names, their
weights, and the report.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from solver import deal_range  # noqa: E402 - benchmarks/solver.py, beside this file

from spiderette import Game  # noqa: E402
from spiderette.engine.core import columns_of  # noqa: E402
from spiderette.engine.predicates import hidden_count, visible_key  # noqa: E402
from spiderette.players.features import FEATURES  # noqa: E402
from spiderette.players.plan_costs import unseen_cards  # noqa: E402
from spiderette.players.planner import DEFAULT_BUDGET, DEFAULT_TURNS, PlannerStrategy  # noqa: E402
from spiderette.players.ranking import useful_hints  # noqa: E402
from spiderette.players.value import MODEL, ROUNDS, ValueModel, read_games, rounds_table  # noqa: E402
from spiderette.players.value import fit as fit_model  # noqa: E402
from spiderette.studies.intervals import mcnemar  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "value"
PACKAGE = MODEL.resolve().parents[1]   # src/spiderette (or the installed package)
MAX_MOVES = 1000
#: The first training deal of the rounds of policy iteration (``rounds``): round k plays ``--games`` deals from
#: ``ROUNDS_FIRST + (k - 1) * games``, far from deals 1-2000, the tuning deals and every test's deals.
ROUNDS_FIRST = 10_300_001


def play(deal: int, variant: str, suits: int, explore: float, value: str = "handmade", budget: int = DEFAULT_BUDGET,
         tables: bool = True, turns: int = DEFAULT_TURNS) -> dict:
    """One training game: the planner (steering by ``value``, ``budget`` tables a plan), with a share ``explore`` of
    its moves replaced by another useful move; with ``tables``, every table met as a player saw it."""
    g = Game(variant, seed=deal, suits=suits)
    planner = PlannerStrategy(budget=budget, value=value, turns=turns)
    pick = random.Random(deal)
    positions = []
    while g.status == "playing" and g.move_count < MAX_MOVES:
        if tables:   # the table as a player sees it: per column, the cards face down and the face-up cards; the
            # stock's size, the runs finished, and the cards unseen (a player counts them: the deck less those seen)
            columns = visible_key(g)[0]
            positions.append([[[d, list(up)] for d, up in columns], g.stock_count, g.runs_completed,
                              unseen_cards(g, columns_of(g, visible=True))])
        move = planner(g)
        if move is None:
            break
        if explore and pick.random() < explore:
            others = [h.move for h in useful_hints(g) if h.move != move]
            if others:
                move = pick.choice(others)
        g.apply(move)
    return {"deal": deal, "variant": variant, "suits": suits, "value": Path(value).name, "budget": budget,
            "turns": turns, "tables": positions,
            "end": {"hidden": 0 if g.is_won else hidden_count(g), "runs": g.runs_completed, "won": g.is_won,
                    "moves": g.move_count}}


def generate(args: argparse.Namespace) -> None:
    out = Path(args.out or DATA / f"{args.variant}-{args.suits}.jsonl")
    play_into(out, deal_range(args.deals), args, args.value, args.explore, args.budget)


def read_played(path: Path) -> dict[int, dict]:
    """The games of a file that :func:`play_into` writes (one a line), by deal; none when there is no file. A line
    cut short by an interrupted run is not read: that deal is played again."""
    games: dict[int, dict] = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            game = json.loads(line)
        except ValueError:
            continue
        if isinstance(game, dict) and isinstance(game.get("deal"), int):
            games[game["deal"]] = game
    return games


def play_into(out: Path, deals: Iterable[int], args: argparse.Namespace, value: str, explore: float, budget: int,
              tables: bool = True, turns: int = DEFAULT_TURNS) -> list[dict]:
    """Play the deals not yet in ``out`` (in parallel: ``--processes`` or ``--scheduler``), each written as soon as
    it is played; every game of the file, as read back (resumable: an interrupted run loses nothing)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = read_played(out).keys()
    todo = [d for d in deals if d not in done]
    print(f"{out.name}: {len(done)} deals already played; {len(todo)} to play", flush=True)
    t0 = time.perf_counter()
    if todo:
        if out.exists() and not out.read_bytes().endswith(b"\n") and out.stat().st_size:
            with out.open("a") as f:
                f.write("\n")   # (after a line cut short: the next game starts a line of its own)
        with out.open("a") as f, _executor(args) as pool:
            futures = [pool.submit(play, d, args.variant, args.suits, explore, value, budget, tables, turns)
                       for d in todo]
            bar = _bar(len(todo))
            for i, fut in enumerate(as_completed(futures), start=1):
                f.write(json.dumps(fut.result(), separators=(",", ":")) + "\n")
                f.flush()
                if bar is not None:
                    bar.update(1)
                elif i % 200 == 0 or i == len(todo):
                    print(f"{i}/{len(todo)} deals, {time.perf_counter() - t0:.0f} s", flush=True)
            if bar is not None:
                bar.close()
    wanted, games = set(deals), read_played(out)
    return [games[d] for d in sorted(games) if d in wanted]


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


def fit(args: argparse.Namespace) -> None:
    """The model, by :func:`spiderette.players.value.fit` (plain Python), written to ``--out``: never into the
    package unless ``--ship`` says so."""
    out = Path(args.out).resolve()
    if PACKAGE in out.parents and not args.ship:   # (before the fit: ValueModel.save refuses it too)
        sys.exit(f"refusing to write {args.out} inside the package {PACKAGE}: name a file of your own"
                 " (--ship replaces the shipped model, for a release)")
    games = [x for path in args.data for x in read_games(Path(path))]
    if args.games:
        games = games[: args.games * 4 // 3]   # (a quarter of them held out: deals divisible by 4)
    model = fit_model(games, ridge=args.ridge, toward=args.toward, run_weight=args.run_weight,
                      curve=(0.1, 0.25, 0.5, 1.0), name=out.name)
    model = ValueModel.from_dict({**model.to_dict(), "trained_on": {
        "data": [_shown(Path(p)) for p in args.data], **model.report["trained_on"]}}, name=out.name)
    for point in model.report.get("learning_curve", []):
        print(f"trained on {point['deals']} deals ({point['positions']} positions): held-out R^2 {point['r2']:.3f},"
              f" same-stage pairs ordered {point['ordered']:.3f}", flush=True)
    model.save(out, ship=args.ship)
    print(model.weights_table())
    print(f"wrote {args.out}: PlannerStrategy(value={str(args.out)!r}) steers by it")


def rounds(args: argparse.Namespace) -> None:
    """Policy iteration: each round plays the planner steering by the last round's value (the first: the shipped
    one) on training deals of its own, fits a value on those games (every feature, the cards unseen too), and
    plays it on the tuning deals paired with the value it learned from. Resumable at every step; the rounds'
    figures go to ``report.json`` and print as a table."""
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    tune = list(deal_range(args.tune_deals))
    before, before_name = str(MODEL), "shipped"
    shipped = _tuned(folder, before_name, before, tune, args)
    report: dict = {"command": " ".join(["python benchmarks/train_value.py", *sys.argv[1:]]),
                    "variant": args.variant, "suits": args.suits, "budget": args.budget, "explore": args.explore,
                    "tune_deals": args.tune_deals, "shipped": _figures(shipped), "rounds": []}
    previous = shipped
    for k in range(1, args.rounds + 1):
        first = ROUNDS_FIRST + (k - 1) * args.games
        deals = range(first, first + args.games)
        games = play_into(folder / f"round-{k}.jsonl", deals, args, before, args.explore, args.budget)
        path = folder / f"round-{k}.json"
        if not path.exists():
            print(f"round {k}: fitting on {len(games)} games", flush=True)
            model = fit_model(games, features=FEATURES, ridge=args.ridge, run_weight=args.run_weight, name=path.name)
            ValueModel.from_dict({**model.to_dict(), "trained_on": {
                "deals": f"{first}-{first + args.games - 1}", "played_by": before_name, "budget": args.budget,
                "explore": args.explore, **model.report["trained_on"]}}, name=path.name).save(path)
        model = ValueModel.load(path)
        tuned = _tuned(folder, path.stem, str(path), tune, args)
        won = sum(g["end"]["won"] for g in games)
        report["rounds"].append({
            "round": k, "played_by": before_name, "training_deals": f"{first}-{first + args.games - 1}",
            "training_won": won, "training_games": len(games), "held_out": model.report.get("held_out"),
            "tune": _figures(tuned), "vs_before": _paired(tuned, previous), "vs_shipped": _paired(tuned, shipped),
            "model": _shown(path)})
        (folder / "report.json").write_text(json.dumps(report, indent=1) + "\n")
        before, before_name, previous = str(path), path.stem, tuned
    if args.ship:   # the lesson's copy (notebook 06 reads it from the package)
        ROUNDS.write_text(json.dumps(report, indent=1) + "\n")
    print(rounds_table(report))


def _tuned(folder: Path, name: str, value: str, deals: list[int], args: argparse.Namespace) -> dict[int, dict]:
    """The games of the value ``value`` on the tuning deals (``tune-<name>.jsonl``, resumable), by deal."""
    games = play_into(folder / f"tune-{name}.jsonl", deals, args, value, 0.0, args.budget, tables=False)
    return {g["deal"]: g["end"] for g in games}


def _figures(games: dict[int, dict]) -> dict:
    """Won, the share won and the cards left face down on average, of a value's games by deal."""
    won = sum(e["won"] for e in games.values())
    return {"deals": len(games), "won": won, "share": round(won / max(1, len(games)), 4),
            "hidden": round(sum(e["hidden"] for e in games.values()) / max(1, len(games)), 2)}


def _paired(a: dict[int, dict], b: dict[int, dict]) -> dict:
    """Deals won by only one of two values' games, on the deals both played, and McNemar's p."""
    both = a.keys() & b.keys()
    only_a = sum(1 for d in both if a[d]["won"] and not b[d]["won"])
    only_b = sum(1 for d in both if b[d]["won"] and not a[d]["won"])
    return {"only_this": only_a, "only_other": only_b, "p": round(mcnemar(only_a, only_b).p_value, 4)}


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
    f.add_argument("--games", type=int, help="fit on the first games of the data only (e.g. 300)")
    f.add_argument("--ridge", type=float, default=0.0, help="the pull toward 0 (or --toward), per table: 0.1 is strong")
    f.add_argument("--toward", help="a model file to pull toward instead of 0 ('learned': the shipped one)")
    f.add_argument("--out", required=True, help="the model file to write (my_model.json)")
    f.add_argument("--ship", action="store_true", help="allow --out inside the package (to replace the shipped model)")
    r = sub.add_parser("rounds")
    r.add_argument("--variant", default="spiderette")
    r.add_argument("--suits", type=int, default=4)
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--games", type=int, default=6000, help="training games a round")
    r.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="tables a plan, in training and tuning")
    r.add_argument("--explore", type=float, default=0.03)
    r.add_argument("--ridge", type=float, default=0.0)
    r.add_argument("--run-weight", type=float, default=3.0)
    r.add_argument("--tune-deals", default="50001-52000")
    r.add_argument("--processes", type=int, default=2)
    r.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786): play there instead")
    r.add_argument("--dir", default=str(DATA / "rounds"))
    r.add_argument("--ship", action="store_true", help="copy the report into the package, for the lesson")
    for p in (g,):
        p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="tables a plan")
    args = ap.parse_args()
    {"generate": generate, "fit": fit, "rounds": rounds}[args.command](args)


if __name__ == "__main__":
    main()
