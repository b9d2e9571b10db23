"""A study as a file: :func:`save` writes a :class:`~spiderette.studies.results.Simulation` as JSON, with the
command that made it; :func:`load` reads one back and replays every game to check it; :func:`shipped` loads a
study that comes with the package (the slow rungs of the ladder, ready for a lesson).

A file is trusted no further than its games: ``load`` plays each deal's recorded moves on the numbered deal
and refuses the file (a :class:`StudyFileError`, a ``ValueError``) unless the game ends as its row says.

>>> import tempfile, pathlib
>>> from spiderette import GreedyStrategy, simulate
>>> sim = simulate(GreedyStrategy(), deals=range(1, 4), suits=1, progress=False)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "greedy.json"
>>> save(sim, path, command="simulate(GreedyStrategy(), deals=range(1, 4), suits=1)")
>>> back = load(path)
>>> back.wins == sim.wins, back.command
(True, 'simulate(GreedyStrategy(), deals=range(1, 4), suits=1)')
"""

from __future__ import annotations

import json
import math
import os
from importlib import resources
from pathlib import Path
from typing import cast

from ..engine.errors import IllegalMoveError, NotationError, quote
from ..engine.game import Game
from ..engine.predicates import cards_in_suited_runs
from ..engine.variants import VARIANTS
from .results import Simulation

FORMAT = "spiderette study"
VERSION = 1
#: The largest study file :func:`load` reads (a study of the runner's largest size is far smaller).
MAX_BYTES = 50_000_000
#: What a row must hold, and of which type (``seconds`` and ``end`` are what the game took and how it ended).
ROW_KEYS = {"deal": int, "won": bool, "runs": int, "score": int, "moves": int, "face_down_left": int,
            "suited": int, "seconds": float, "end": str}
#: The columns a replay of the recorded moves must give again.
REPLAYED = ("won", "runs", "score", "moves", "face_down_left", "suited")


class StudyFileError(ValueError):
    """A study file that cannot be read, or whose games do not replay to its rows."""


def save(sim: Simulation, path: str | os.PathLike, command: str | None = None) -> None:
    """Write ``sim`` to ``path`` as JSON; ``command``: how to make it again (kept in the file and shown by
    :func:`load`'s ``Simulation.command``). The file is written whole or not at all."""
    if not isinstance(sim, Simulation):
        raise TypeError(f"save() writes a Simulation, not {quote(sim)}")
    if command is not None and not isinstance(command, str):
        raise TypeError(f"command must be a string, not {quote(command)}")
    data = {"format": FORMAT, "version": VERSION, "strategy": sim.strategy, "peeks": sim.peeks,
            "variant": sim.variant, "suits": sim.suits, "max_moves": sim.max_moves, "seed": sim.seed,
            "runs_total": sim.runs_total, "partial": sim.partial, "wall_seconds": sim.wall_seconds,
            "command": command if command is not None else sim.command,
            "rows": sim.rows, "lines": {str(d): line for d, line in sim.lines.items()}}
    path = Path(path)
    scratch = path.with_name(path.name + ".part")
    scratch.write_text(json.dumps(data, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    scratch.replace(path)


def load(path: str | os.PathLike) -> Simulation:
    """The study saved in ``path``, every game replayed and checked against its row.

    A :class:`StudyFileError` says what is wrong with a file that is not a study, is of another version, or
    whose games do not end as their rows say."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as e:
        raise StudyFileError(f"cannot read the study file {quote(str(path))}: {e.strerror or e}") from None
    if size > MAX_BYTES:
        raise StudyFileError(f"{quote(str(path))} is {size:,} bytes: a study file holds at most {MAX_BYTES:,}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StudyFileError(f"{quote(str(path))} is not a study file (not JSON: {e})") from None
    return from_data(data, str(path))


def from_data(data: object, where: str = "the study") -> Simulation:
    """The :class:`Simulation` that ``data`` (a study file's JSON, read) describes, its games checked."""
    def bad(what: str) -> StudyFileError:
        return StudyFileError(f"{where}: {what}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a study file (its 'format' must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise bad(f"version {quote(data.get('version'))} is not one this spiderette reads (it reads {VERSION})")
    field = _fields(data, bad)
    variant = field("variant", str)
    if variant not in VARIANTS:
        raise bad(f"'variant' {quote(variant)} is not a variant: choose from {', '.join(VARIANTS)}")
    suits = field("suits", int)
    try:
        Game(variant, seed=1, suits=suits)
    except ValueError as e:
        raise bad(f"'suits': {e}") from None
    rows, lines = field("rows", list), field("lines", dict)
    checked = [_row(r, i, bad) for i, r in enumerate(rows)]
    deals = [r["deal"] for r in checked]
    if len(set(deals)) != len(deals):
        raise bad("a deal appears twice in 'rows'")
    if set(lines) != {str(d) for d in deals}:
        raise bad("'lines' must give the moves of exactly the deals of 'rows'")
    played = {}
    for r in checked:
        line = lines[str(r["deal"])]
        if not isinstance(line, str):
            raise bad(f"the moves of deal {r['deal']} must be a string, not {quote(line)}")
        _replay(variant, suits, r, line, bad)
        played[r["deal"]] = line
    sim = Simulation(field("strategy", str), field("peeks", bool), checked, played, variant=variant, suits=suits,
                     max_moves=field("max_moves", int), seed=field("seed", int),
                     runs_total=field("runs_total", int), partial=field("partial", str, none=True),
                     wall_seconds=field("wall_seconds", float))
    sim.command = field("command", str, none=True)
    return sim


def shipped(name: str) -> Simulation:
    """A study that comes with the package, by name (:func:`shipped_names` lists them), checked as
    :func:`load` checks any file.

    >>> solver = shipped("solver-spiderette-4-suits-1-30")
    >>> solver.strategy, len(solver.rows), solver.peeks
    ('solver (peeks)', 30, True)
    """
    names = shipped_names()
    if name not in names:
        raise ValueError(f"no shipped study {quote(name)}: the package has {', '.join(names) or 'none'}")
    text = resources.files(__package__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return from_data(json.loads(text), f"the shipped study {name!r}")


def shipped_names() -> list[str]:
    """The names of the studies that come with the package."""
    return sorted(p.name[:-len(".json")] for p in resources.files(__package__).iterdir()
                  if p.name.endswith(".json"))


# ---------------------------------------------------------------------- checking
def _fields(data: dict, bad):
    def field(key: str, kind: type, none: bool = False):
        if key not in data:
            raise bad(f"the field {key!r} is missing")
        v = data[key]
        if v is None and none:
            return None
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if type(v) is not kind or (kind is float and not math.isfinite(cast(float, v))):
            raise bad(f"{key!r} must be {_kind_name(kind)}, not {quote(v)}")
        if kind is int and not 0 <= cast(int, v) < 2**63:
            raise bad(f"{key!r} is out of range: {quote(v)}")
        return v
    return field


def _kind_name(kind: type) -> str:
    return {int: "a whole number", bool: "true or false", float: "a number", str: "a string", list: "a list",
            dict: "an object"}[kind]


def _row(r: object, i: int, bad) -> dict:
    if not isinstance(r, dict):
        raise bad(f"row {i} must be an object, not {quote(r)}")
    missing = [k for k in ROW_KEYS if k not in r]
    if missing:
        raise bad(f"row {i} lacks {', '.join(missing)}")
    field = _fields(r, lambda what: bad(f"row {i}: {what}"))
    return {**r, **{k: field(k, kind) for k, kind in ROW_KEYS.items()}}


def _replay(variant: str, suits: int, r: dict, line: str, bad) -> None:
    try:
        g = Game(variant, seed=r["deal"], suits=suits)
    except ValueError as e:
        raise bad(f"deal {r['deal']}: {e}") from None
    try:
        g.play(line)
    except (IllegalMoveError, NotationError) as e:
        raise bad(f"the moves of deal {r['deal']} do not replay: {e}") from None
    again = {"won": g.is_won, "runs": g.runs_completed, "score": g.score, "moves": g.move_count,
             "face_down_left": sum(g.face_down(i) for i in range(g.columns)), "suited": cards_in_suited_runs(g)}
    wrong = [k for k in REPLAYED if again[k] != r[k]]
    if wrong:
        raise bad(f"deal {r['deal']} replays to {', '.join(f'{k} {again[k]}' for k in wrong)}, not what its row"
                  f" says ({', '.join(f'{k} {r[k]}' for k in wrong)})")
