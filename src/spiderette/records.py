"""Statistics and resume: the results of the games played on the widget, and the unfinished game.

Two files live in :func:`home`: the folder named by the environment variable ``SPIDERETTE_HOME`` when it
is set, else ``platformdirs.user_data_dir("spiderette")``.

* ``stats.json``: per variant and number of suits, the games played and won, the current and the best
  streak of wins, the best score and the fewest moves of a won game (:func:`stats` reads them);
* ``resume.json``: the unfinished game last played on a table (the :meth:`Game.save` format, plus the
  game's id), saved after every change; ``Widget(resume=True)`` and the Resume button bring it back.

The counting rules (the widget applies them; see the README, "Statistics and resume"):

* a game counts once a move, deal or send is played on its table; a game never touched does not count;
* a game is **won** the first time it reaches the won status; it counts once, even if the player undoes
  and wins it again;
* a played game that is not won counts as **lost** when it is given up: New game or Restart on its table
  (Restart deals the same cards as a new game), Resume of another game, or another game taking its place
  in ``resume.json`` (the first move of a game on another table, after a kernel restart for instance).
  Lost and dead-end tables are not final: the player may undo;
* a game's first result stands; the streak counts wins in a row, a loss sets it to 0; the best score is
  the highest score of any counted game when it ended, the fewest moves those of the shortest won game.

Writes are atomic (a temporary file renamed over the old one). A damaged file (not JSON, or not of the
shape described) is set aside as ``stats.json.corrupt-<time>`` (or ``resume.json.corrupt-<time>``) with a
:class:`RecordsWarning`, and the records start afresh; nothing here raises for a bad file.

>>> import tempfile
>>> folder = tempfile.mkdtemp()           # (leave folder out to use SPIDERETTE_HOME or the data folder)
>>> record_result("spiderette", 4, won=True, score=612, moves=88, game_id="a1", folder=folder)
True
>>> s = stats(folder=folder)
>>> s["spiderette", 4]["won"], s["spiderette", 4]["fewest_moves"]
(1, 88)
>>> print(s)  # doctest: +ELLIPSIS
Spiderette statistics
variant     suits  played  won  win rate  streak  best streak  best score  fewest moves
Spiderette      4       1    1      100%       1            1         612            88
(kept in .../stats.json)
"""

from __future__ import annotations

import errno
import html
import json
import os
import secrets
import stat
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import SaveFileError, clip, flag, quote
from .game import Game
from .savefile import FORMAT as SAVE_FORMAT
from .savefile import PATH_LIMIT, document, write_atomic
from .savefile import VERSION as SAVE_VERSION
from .variants import RULES, get_rules

ENV = "SPIDERETTE_HOME"
STATS_FILE = "stats.json"
RESUME_FILE = "resume.json"
FORMAT = "spiderette-stats"
VERSION = 1
#: The ids of the last games counted are kept, so that no game is counted twice.
KEEP_IDS = 1000
#: The largest statistics file read (a bigger one is damaged).
MAX_BYTES = 4 * 1024 * 1024
FIELDS = ("played", "won", "streak", "best_streak", "best_score", "fewest_moves")
#: The columns of the tables: (field, heading).
COLUMNS = (("played", "played"), ("won", "won"), ("win_rate", "win rate"), ("streak", "streak"),
           ("best_streak", "best streak"), ("best_score", "best score"), ("fewest_moves", "fewest moves"))

_LOCK = threading.RLock()           # one read-modify-write of stats.json at a time in this process
#: How long a write of the statistics waits for another process (another kernel) to finish its own.
LOCK_WAIT = 10.0
_RESUME_SEEN: dict[str, tuple] = {}  # resume.json path -> (stat signature, what it holds), to skip re-reading


class RecordsWarning(UserWarning):
    """A statistics or resume file that was damaged (and set aside), or could not be read or written."""


class _Damaged(Exception):
    """A file whose content is not what it should be (the message says what)."""


# ---------------------------------------------------------------------- where
def home(folder: str | os.PathLike | None = None) -> Path:
    """The folder of the records: ``folder`` if given, else ``$SPIDERETTE_HOME``, else the user data folder.

    >>> home("somewhere").name
    'somewhere'
    """
    if folder is not None:
        if not isinstance(folder, (str, os.PathLike)):
            raise TypeError(f"folder must be a path, not {quote(folder)}")
        return Path(folder)
    env = os.environ.get(ENV)
    if env:
        try:
            return Path(env).expanduser()
        except RuntimeError:   # "~someone/..." for no such user: a folder that cannot be found
            raise FileNotFoundError(errno.ENOENT, f"{ENV} names the home of no such user",
                                    clip(env, PATH_LIMIT)) from None
    import platformdirs

    return Path(platformdirs.user_data_dir("spiderette", appauthor=False))


def new_id() -> str:
    """A new game id (16 hex digits)."""
    return secrets.token_hex(8)


def _warn(text: str) -> None:
    warnings.warn(text, RecordsWarning, stacklevel=3)


def _set_aside(path: Path, why: str) -> None:
    """Rename a damaged file to ``<name>.corrupt-<time>`` and warn; never raises."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    try:
        os.replace(path, target)
    except OSError as e:
        _warn(f"{path} is damaged ({why}) and could not be set aside ({e.strerror or e}); it is ignored")
        return
    _warn(f"{path} is damaged ({why}); it was set aside as {target.name} and a new one is started")


def _read(path: Path) -> bytes | None:
    """The bytes of ``path`` (``None`` if there is no file); ``_Damaged`` for a folder, a pipe, a huge file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Damaged("not a regular file")
        if info.st_size > MAX_BYTES:
            raise _Damaged(f"{info.st_size:,} bytes, more than {MAX_BYTES:,}")
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(MAX_BYTES + 1)
    finally:
        os.close(fd)


def _json(raw: bytes) -> object:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise _Damaged(f"not valid JSON: {type(e).__name__}") from None


# ---------------------------------------------------------------------- the statistics file
def _key(variant: object, suits: object) -> str:
    """``"spiderette:4"``, checked: ``ValueError`` for a variant or suit count that does not exist."""
    rules = get_rules(variant)  # type: ignore[arg-type]
    if isinstance(suits, bool) or not isinstance(suits, int) or suits not in rules.suit_options:
        raise ValueError(rules.suits_refusal(suits))
    return f"{rules.name}:{suits}"


def _empty() -> dict:
    return {"played": 0, "won": 0, "streak": 0, "best_streak": 0, "best_score": None, "fewest_moves": None}


def _count(row: dict, name: str, nullable: bool = False, low: int | None = 0) -> None:
    value = row[name]
    if value is None and nullable:
        return
    if isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low):
        raise _Damaged(f"{name!r} is {quote(value)}")


def _check_stats(doc: object) -> tuple[dict[str, dict], list[str]]:
    """The games and counted ids of a statistics document; ``_Damaged`` says what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _Damaged(f"no 'format': '{FORMAT}'")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise _Damaged(f"version {quote(doc.get('version'))}, not {VERSION}")
    games, ids = doc.get("games"), doc.get("recorded", [])
    if not isinstance(games, dict) or not isinstance(ids, list):
        raise _Damaged("'games' must be an object and 'recorded' a list")
    out = {}
    for key, row in games.items():
        variant, _, suits = key.partition(":")
        try:
            if not suits.isdigit() or _key(variant, int(suits)) != key:
                raise ValueError
        except ValueError:
            raise _Damaged(f"unknown variant and suits {quote(key)}") from None
        if not isinstance(row, dict) or set(row) != set(FIELDS):
            raise _Damaged(f"{key}: the fields must be {', '.join(FIELDS)}")
        for name in ("played", "won", "streak", "best_streak"):
            _count(row, name)
        _count(row, "best_score", nullable=True, low=None)
        _count(row, "fewest_moves", nullable=True)
        if not row["streak"] <= row["best_streak"] <= row["won"] <= row["played"] \
                or (row["won"] > 0) != (row["fewest_moves"] is not None) \
                or (row["played"] > 0) != (row["best_score"] is not None):
            raise _Damaged(f"{key}: the numbers do not add up")
        out[key] = dict(row)
    if not all(isinstance(i, str) and 0 < len(i) <= 64 for i in ids):
        raise _Damaged("'recorded' must list game ids")
    return out, list(ids)


def _load_stats(path: Path) -> tuple[dict[str, dict], list[str]]:
    """The statistics in ``path``; a damaged file is set aside (with a warning) and nothing is returned.

    ``OSError`` when the file cannot be read at all (its folder is unreadable, say): it is left alone.
    """
    try:
        raw = _read(path)
        return ({}, []) if raw is None else _check_stats(_json(raw))
    except _Damaged as e:
        _set_aside(path, str(e))
        return {}, []


def _write_stats(path: Path, games: dict[str, dict], ids: list[str]) -> None:
    """(Under ``_stats_lock``, which made the folder.)"""
    doc = {"format": FORMAT, "version": VERSION, "games": games, "recorded": ids[-KEEP_IDS:]}
    write_atomic(path, json.dumps(doc, indent=1) + "\n")


@contextmanager
def _stats_lock(path: Path) -> Iterator[None]:
    """One read-modify-write of the statistics file ``path`` at a time, in this process and across processes
    (two kernels finishing games together both count): an exclusive lock on ``<path>.lock`` beside it.

    Raises ``OSError`` when another process holds it for more than ``LOCK_WAIT`` seconds.
    """
    with _LOCK:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _lock_file(fd, path)
            yield
        finally:
            os.close(fd)  # (closing the file lets the lock go)


def _lock_file(fd: int, path: Path) -> None:
    deadline = time.monotonic() + LOCK_WAIT
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        def attempt() -> None:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        def attempt() -> None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    while True:
        try:
            attempt()
            return
        except OSError as e:
            if time.monotonic() > deadline:
                raise OSError(e.errno, f"the statistics file {path} stays locked by another process") from e
            time.sleep(0.01)


def record_result(variant: str, suits: int, *, won: bool, score: int, moves: int, game_id: str,
                  folder: str | os.PathLike | None = None) -> bool:
    """Count one finished game; ``False`` (and nothing changes) if the game ``game_id`` was counted before.

    Raises ``OSError`` if the file cannot be written (the widget reports that and plays on).
    """
    key = _key(variant, suits)
    flag(won, "won")
    for name, value in (("score", score), ("moves", moves)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be a whole number, not {quote(value)}")
    if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
        raise ValueError(f"game_id must be a string of 1 to 64 characters, not {quote(game_id)}")
    path = home(folder) / STATS_FILE
    with _stats_lock(path):
        games, ids = _load_stats(path)
        if game_id in ids:
            return False
        row = games.setdefault(key, _empty())
        row["played"] += 1
        if won:
            row["won"] += 1
            row["streak"] += 1
            row["best_streak"] = max(row["best_streak"], row["streak"])
            row["fewest_moves"] = moves if row["fewest_moves"] is None else min(row["fewest_moves"], moves)
        else:
            row["streak"] = 0
        row["best_score"] = score if row["best_score"] is None else max(row["best_score"], score)
        ids.append(game_id)
        _write_stats(path, games, ids)
        return True


def counted(game_id: str, folder: str | os.PathLike | None = None) -> bool:
    """Was the game ``game_id`` counted already (won or lost)?"""
    with _LOCK:
        return game_id in _load_stats(home(folder) / STATS_FILE)[1]


class Stats:
    """The statistics, per variant and number of suits; :func:`stats` reads them.

    ``s.rows`` lists the variants played (in the order of :data:`spiderette.RULES`), each a dict with
    ``variant``, ``title``, ``suits``, ``played``, ``won``, ``lost``, ``win_rate`` (0 to 1, ``None``
    before any game), ``streak``, ``best_streak``, ``best_score`` and ``fewest_moves`` (``None`` before a
    won game). ``s["spiderette", 4]`` is one row (zeros for a variant never played). ``str(s)`` is a
    text table; in a notebook ``s`` shows an HTML table.
    """

    def __init__(self, games: dict[str, dict] | None = None, path: Path | None = None) -> None:
        self.path = path
        self._games = {k: dict(v) for k, v in (games or {}).items()}

    def __getitem__(self, key: tuple[str, int]) -> dict:
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError(f"statistics are looked up by (variant, suits), not {quote(key)}")
        variant, suits = key
        k = _key(variant, suits)
        n = self._games.get(k, _empty())
        return {"variant": k.partition(":")[0], "title": get_rules(variant).title, "suits": suits,
                "played": n["played"], "won": n["won"], "lost": n["played"] - n["won"],
                "win_rate": n["won"] / n["played"] if n["played"] else None, "streak": n["streak"],
                "best_streak": n["best_streak"], "best_score": n["best_score"], "fewest_moves": n["fewest_moves"]}

    def table(self, current: tuple[str, int] | None = None) -> list[dict]:
        """The rows of the variants played, and of ``current`` (even if never played) marked ``"current"``."""
        out = []
        for rules in RULES.values():
            for s in rules.suit_options:
                here = (rules.name, s) == current
                if here or f"{rules.name}:{s}" in self._games:
                    out.append({**self[rules.name, s], "current": here})
        return out

    @property
    def rows(self) -> list[dict]:
        return [{k: v for k, v in row.items() if k != "current"} for row in self.table()]

    def __len__(self) -> int:
        return len(self._games)

    def __repr__(self) -> str:
        played = sum(r["played"] for r in self._games.values())
        return f"<Stats: {played} game{'s' if played != 1 else ''} in {len(self._games)} variant(s)>"

    @staticmethod
    def cell(row: dict, field: str) -> str:
        """The text of one cell: ``"33%"`` for a win rate, ``"—"`` for a number not known yet."""
        value = row[field]
        if field == "win_rate":
            return "—" if value is None else f"{100 * value:.0f}%"
        return "—" if value is None else str(value)

    def __str__(self) -> str:
        rows = self.rows
        where = f"\n(kept in {self.path})" if self.path else ""
        if not rows:
            return "No games recorded yet." + where
        head = ["variant", "suits"] + [h for _, h in COLUMNS]
        body = [[r["title"], str(r["suits"])] + [self.cell(r, f) for f, _ in COLUMNS] for r in rows]
        widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
        lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(x, widths)))
                 for x in [head, *body]]
        return "\n".join(["Spiderette statistics", *lines]) + where

    def _repr_html_(self) -> str:
        rows = self.rows
        if not rows:
            return "<p>No games recorded yet.</p>"
        head = "".join(f"<th>{h}</th>" for h in ["variant", "suits"] + [h for _, h in COLUMNS])
        body = "".join(
            f"<tr><td>{html.escape(r['title'])}</td><td>{r['suits']}</td>"
            + "".join(f"<td style='text-align:right'>{self.cell(r, f)}</td>" for f, _ in COLUMNS) + "</tr>"
            for r in rows)
        return (f"<table class='spiderette-stats'><caption>Spiderette statistics</caption>"
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def stats(folder: str | os.PathLike | None = None) -> Stats:
    """The statistics kept in ``folder`` (by default :func:`home`): a :class:`Stats`.

    A damaged file is set aside with a :class:`RecordsWarning` (the statistics start afresh).

    >>> import tempfile
    >>> stats(folder=tempfile.mkdtemp()).rows
    []
    """
    try:
        return read_stats(folder)
    except OSError as e:
        _warn(f"cannot read the statistics: {clip(e.strerror or str(e), PATH_LIMIT)}"
              f" ({clip(str(e.filename), PATH_LIMIT)})")
        try:
            where = home(folder) / STATS_FILE
        except OSError:
            where = None
        return Stats(path=where)


def read_stats(folder: str | os.PathLike | None = None) -> Stats:
    """As :func:`stats`, but a file that cannot be read at all raises ``OSError``."""
    path = home(folder) / STATS_FILE
    with _LOCK:
        return Stats(_load_stats(path)[0], path)


def reset_stats(variant: str | None = None, suits: int | None = None, *,
                folder: str | os.PathLike | None = None) -> Stats:
    """Clear the statistics (all, or those of one ``variant``, or of one ``variant`` and ``suits``).

    With care: the file as it was is first copied to ``stats.json.reset-<time>`` beside it (rename it
    back to undo). Returns the statistics that were cleared (their ``path`` is that copy). The ids of the
    games counted are kept, so a game that was counted is not counted again. ``ValueError`` for an
    unknown variant or suit count.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> record_result("spider", 1, won=False, score=420, moves=80, game_id="b2", folder=folder)
    True
    >>> reset_stats("spider", folder=folder).rows[0]["played"], stats(folder=folder).rows
    (1, [])
    """
    if suits is not None and variant is None:
        raise ValueError("suits needs a variant: reset_stats('spiderette', 4)")
    if variant is not None:
        rules = get_rules(variant)
        keys = [_key(variant, suits)] if suits is not None else [f"{rules.name}:{s}" for s in rules.suit_options]
    path = home(folder) / STATS_FILE
    with _stats_lock(path):
        games, ids = _load_stats(path)
        cleared = {k: v for k, v in games.items() if variant is None or k in keys}
        backup = None
        if cleared:
            backup = path.with_name(f"{path.name}.reset-{time.strftime('%Y%m%d-%H%M%S')}")
            write_atomic(backup, path.read_text(encoding="utf-8"))
            _write_stats(path, {k: v for k, v in games.items() if k not in cleared}, ids)
    return Stats(cleared, backup)


# ---------------------------------------------------------------------- the unfinished game
def _signature(path: Path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _check_resume(doc: object) -> dict:
    """What a resume document holds, for the Resume button (the moves are checked only on resume)."""
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT or doc.get("version") != SAVE_VERSION:
        raise _Damaged(f"not a '{SAVE_FORMAT}' version {SAVE_VERSION} file")
    gid, pos = doc.get("game_id"), doc.get("position")
    if not isinstance(gid, str) or not 0 < len(gid) <= 64 or not isinstance(pos, dict):
        raise _Damaged("no 'game_id' or no 'position'")
    info = {"id": gid}
    for name, kind in (("variant", str), ("suits", int), ("seed", int), ("moves", int), ("score", int)):
        value = pos.get(name)
        if not (type(value) is kind or (name == "seed" and value is None)):
            raise _Damaged(f"the position's {name!r} is {quote(value)}")
        info[name] = value
    try:
        _key(info["variant"], info["suits"])
    except ValueError as e:
        raise _Damaged(str(e)) from None
    return info


def resume_info(folder: str | os.PathLike | None = None) -> dict | None:
    """The saved unfinished game, in short: ``{"id", "variant", "suits", "seed", "moves", "score"}``, or
    ``None``. Cheap to call often: the file is read again only when it changed. A damaged file is set aside
    (with a :class:`RecordsWarning`)."""
    path = home(folder) / RESUME_FILE
    with _LOCK:
        sig = _signature(path)
        if sig is None:
            return None
        seen = _RESUME_SEEN.get(str(path))
        if seen is not None and seen[0] == sig:
            return seen[1]
        try:
            raw = _read(path)
            info = None if raw is None else _check_resume(_json(raw))
        except _Damaged as e:
            _set_aside(path, str(e))
            return None
        except OSError:
            return None
        _RESUME_SEEN[str(path)] = (sig, info)
        return info


def save_resume(game: Game, game_id: str, folder: str | os.PathLike | None = None) -> None:
    """Save ``game`` (the :meth:`Game.save` format with ``"game_id"``) as the unfinished game; atomic.

    Meant to run after every move: no ``fsync`` (a power cut may lose the last move, never the file).
    """
    doc = {**document(game), "game_id": game_id}
    path = home(folder) / RESUME_FILE
    text = json.dumps(doc, separators=(",", ":"))
    with _LOCK:
        try:
            write_atomic(path, text, durable=False)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text, durable=False)
        pos = doc["position"]
        _RESUME_SEEN[str(path)] = (_signature(path), {
            "id": game_id, "variant": pos["variant"], "suits": pos["suits"], "seed": pos["seed"],
            "moves": pos["moves"], "score": pos["score"]})


def load_resume(folder: str | os.PathLike | None = None) -> tuple[Game, str] | None:
    """The saved unfinished game and its id, checked move by move; ``None`` if there is none.

    A damaged file is set aside with a :class:`RecordsWarning` and ``None`` is returned.
    """
    path = home(folder) / RESUME_FILE
    with _LOCK:
        info = resume_info(folder)
        if info is None:
            return None
        try:
            return Game.load(path), info["id"]
        except SaveFileError as e:
            _RESUME_SEEN.pop(str(path), None)
            _set_aside(path, str(e))
            return None


def clear_resume(game_id: str | None = None, folder: str | os.PathLike | None = None) -> bool:
    """Delete the saved unfinished game (only if it is ``game_id``, when given); ``True`` if deleted."""
    path = home(folder) / RESUME_FILE
    with _LOCK:
        if game_id is not None:
            info = resume_info(folder)
            if info is None or info["id"] != game_id:
                return False
        try:
            os.unlink(path)
        except FileNotFoundError:
            return False
        _RESUME_SEEN.pop(str(path), None)
        return True

