"""The statistics: the results of the games played on the tables (and in the terminal), ``stats.json`` in
the data folder (:func:`~spiderette.userdata.datafolder.home`): per variant and number of suits, the games played and
won, the current and the best streak of wins, the best score and the fewest moves of a won game (:func:`stats`
reads them). The unfinished game is :mod:`spiderette.userdata.resumefile`'s.

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
:class:`spiderette.RecordsWarning`, and the records start afresh; nothing here raises for a bad file.

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

import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..engine import platform
from ..engine.errors import clip, flag, is_whole, quote, whole
from ..engine.files import SoftLock, write_atomic
from ..engine.savefile import PATH_LIMIT
from ..engine.tabular import html_table, text_table
from ..engine.variants import BUILT_IN, RULES, get_rules
from ..engine.words import plural
from .datafolder import LOCK, Damaged, home, parse_json, read_bytes, set_aside, warn

__all__ = ["Stats", "counted", "kept_apart", "read_stats", "record_result", "reset_stats", "stats", "stats_key"]

STATS_FILE = "stats.json"
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

#: The title of the statistics' tables (the text's first line, the HTML's caption).
TITLE = "Spiderette statistics"
#: The title of the rows kept apart (:func:`kept_apart`).
APART = "Kept apart: designs not read in this session, or whose suits changed (read the design to see them above)"

#: How long a write of the statistics waits for another process (another kernel) to finish its own.
LOCK_WAIT = 10.0


# ---------------------------------------------------------------------- the statistics file
def stats_key(variant: object, suits: object, *, unread_design: bool = False) -> str:
    """``"spiderette:4"``, checked: ``ValueError`` for a variant or suit count that does not exist.

    ``unread_design=True`` also takes the key of a design this process has not read (or whose suits changed
    since): a design's name and 4, 2 or 1 suits (:func:`kept_apart`), as a game of it saved for resume has.

    >>> stats_key("mine", 2, unread_design=True)
    'mine:2'
    """
    if unread_design and isinstance(variant, str) and is_whole(suits) and kept_apart(f"{variant}:{suits}"):
        return f"{variant}:{suits}"
    rules = get_rules(variant)  # type: ignore[arg-type]
    if not is_whole(suits) or suits not in rules.suit_options:
        raise ValueError(rules.suits_refusal(suits))
    return f"{rules.name}:{suits}"


def kept_apart(key: str) -> bool:
    """Is ``key`` the row of a design (:func:`spiderette.engine.cardz.from_cardz`) this process cannot show with
    the others: a design not read here (read in another process, or before a restart), or one whose suit
    options no longer hold those suits (its file was edited)? Such rows are kept as they are, shown apart.

    >>> kept_apart("mine:2"), kept_apart("spiderette:4"), kept_apart("spiderette:3"), kept_apart("spider:2")
    (True, False, False, False)
    """
    if not re.fullmatch(DESIGN_KEY, key):
        return False
    variant, _, suits = key.partition(":")
    if variant in BUILT_IN:
        return False
    rules = RULES.get(variant)
    return rules is None or int(suits) not in rules.suit_options


def _empty() -> dict:
    return {"played": 0, "won": 0, "streak": 0, "best_streak": 0, "best_score": None, "fewest_moves": None}


def _count(row: dict, name: str, nullable: bool = False, low: int | None = 0) -> None:
    value = row[name]
    if value is None and nullable:
        return
    if not is_whole(value) or (low is not None and value < low):
        raise Damaged(f"{name!r} is {quote(value)}")


#: The key of a variant read from a design file (:func:`spiderette.engine.cardz.from_cardz`): kept, even when
#: this process does not know its rules (:func:`kept_apart`).
DESIGN_KEY = r"[a-z][a-z0-9_]{0,59}:[124]"


def _check_stats(doc: object) -> tuple[dict[str, dict], list[str]]:
    """The games and counted ids of a statistics document; ``Damaged`` says what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Damaged(f"no 'format': '{FORMAT}'")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise Damaged(f"version {quote(doc.get('version'))}, not {VERSION}")
    games, ids = doc.get("games"), doc.get("recorded", [])
    if not isinstance(games, dict) or not isinstance(ids, list):
        raise Damaged("'games' must be an object and 'recorded' a list")
    out = {}
    for key, row in games.items():
        variant, _, suits = key.partition(":")
        try:
            if kept_apart(key):
                pass   # a design not read in this process, or changed since: its row is kept as it is
            elif not suits.isdigit() or len(suits) > 2 or stats_key(variant, int(suits)) != key:
                raise ValueError
        except ValueError:
            raise Damaged(f"unknown variant and suits {quote(key)}") from None
        if not isinstance(row, dict) or set(row) != set(FIELDS):
            raise Damaged(f"{key}: the fields must be {', '.join(FIELDS)}")
        for name in ("played", "won", "streak", "best_streak"):
            _count(row, name)
        _count(row, "best_score", nullable=True, low=None)
        _count(row, "fewest_moves", nullable=True)
        if not row["streak"] <= row["best_streak"] <= row["won"] <= row["played"] \
                or (row["won"] > 0) != (row["fewest_moves"] is not None) \
                or (row["played"] > 0) != (row["best_score"] is not None):
            raise Damaged(f"{key}: the numbers do not add up")
        out[key] = dict(row)
    if not all(isinstance(i, str) and 0 < len(i) <= 64 for i in ids):
        raise Damaged("'recorded' must list game ids")
    return out, list(ids)


def _load_stats(path: Path) -> tuple[dict[str, dict], list[str]]:
    """The statistics in ``path``; a damaged file is set aside (with a warning) and nothing is returned.

    ``OSError`` when the file cannot be read at all (its folder is unreadable, say): it is left alone.
    """
    try:
        raw = read_bytes(path, MAX_BYTES)
        return ({}, []) if raw is None else _check_stats(parse_json(raw))
    except Damaged as e:
        set_aside(path, str(e))
        return {}, []


def _write_stats(path: Path, games: dict[str, dict], ids: list[str]) -> None:
    """(Under ``_stats_lock``, which made the folder.)"""
    doc = {"format": FORMAT, "version": VERSION, "games": games, "recorded": ids[-KEEP_IDS:]}
    write_atomic(path, json.dumps(doc, indent=1) + "\n")


@contextmanager
def _stats_lock(path: Path) -> Iterator[None]:
    """One read-modify-write of the statistics file ``path`` at a time, in this process and across processes
    (two kernels finishing games together both count): an exclusive lock on ``<path>.lock`` beside it (in a
    browser tab, whose drive has no file locks, a lock file made with ``O_EXCL``: :class:`SoftLock`).

    Raises ``OSError`` when another process holds it for more than ``LOCK_WAIT`` seconds.
    """
    with LOCK:
        path.parent.mkdir(parents=True, exist_ok=True)
        if platform.BROWSER:   # kernels of several notebooks share the drive, which has no fcntl locks
            with SoftLock(path.with_name(path.name + ".lock"), wait=LOCK_WAIT):
                yield
            return
        from filelock import FileLock, Timeout

        lock = FileLock(path.with_name(path.name + ".lock"), timeout=LOCK_WAIT)
        try:
            lock.acquire(poll_interval=0.01)
        except Timeout as e:
            raise OSError(f"the statistics file {path} stays locked by another process") from e
        try:
            yield
        finally:
            lock.release()


def record_result(variant: str, suits: int, *, won: bool, score: int, moves: int, game_id: str,
                  folder: str | os.PathLike | None = None, unread_design: bool = False) -> bool:
    """Count one finished game; ``False`` (and nothing changes) if the game ``game_id`` was counted before.

    ``unread_design=True``: the variant may be a design this process has not read (a saved game of it given
    up): its row is kept apart (:func:`kept_apart`). Raises ``OSError`` if the file cannot be written (the
    widget reports that and plays on).
    """
    key = stats_key(variant, suits, unread_design=unread_design)
    flag(won, "won")
    for name, value in (("score", score), ("moves", moves)):
        whole(value, name)
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
    with LOCK:
        return game_id in _load_stats(home(folder) / STATS_FILE)[1]


def _shown(variant: str, title: str, suits: int, n: dict) -> dict:
    """One row of :class:`Stats` as it is shown: the counts ``n`` of a file's row, and what follows from them."""
    return {"variant": variant, "title": title, "suits": suits, "played": n["played"], "won": n["won"],
            "lost": n["played"] - n["won"], "win_rate": n["won"] / n["played"] if n["played"] else None,
            "streak": n["streak"], "best_streak": n["best_streak"], "best_score": n["best_score"],
            "fewest_moves": n["fewest_moves"]}


class Stats:
    """The statistics, per variant and number of suits; :func:`stats` reads them.

    ``s.rows`` lists the variants played (in the order of :data:`spiderette.RULES`), each a dict with
    ``variant``, ``title``, ``suits``, ``played``, ``won``, ``lost``, ``win_rate`` (0 to 1, ``None``
    before any game), ``streak``, ``best_streak``, ``best_score`` and ``fewest_moves`` (``None`` before a
    won game). ``s["spiderette", 4]`` is one row (zeros for a variant never played). ``str(s)`` is a
    text table; in a notebook ``s`` shows an HTML table. ``s.apart`` lists the rows kept for designs this
    process cannot show with the others (:func:`kept_apart`: not read here, or their suits changed), each
    with ``variant`` (the design's name in the file), ``suits`` and the same counts; they are shown apart,
    under :data:`APART`.
    """

    def __init__(self, games: dict[str, dict] | None = None, path: Path | None = None) -> None:
        self.path = path
        self._games = {k: dict(v) for k, v in (games or {}).items()}

    def __getitem__(self, key: tuple[str, int]) -> dict:
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError(f"statistics are looked up by (variant, suits), not {quote(key)}")
        variant, suits = key
        k = stats_key(variant, suits)
        return _shown(k.partition(":")[0], get_rules(variant).title, suits, self._games.get(k, _empty()))

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

    @property
    def apart(self) -> list[dict]:
        """The rows of designs not read in this process, or changed since (kept as they are, shown apart)."""
        out = []
        for key in sorted(k for k in self._games if kept_apart(k)):
            variant, _, suits = key.partition(":")
            out.append(_shown(variant, variant, int(suits), self._games[key]))
        return out

    def __len__(self) -> int:
        return len(self._games)

    def __repr__(self) -> str:
        played = sum(r["played"] for r in self._games.values())
        return f"<Stats: {plural(played, 'game')} in {plural(len(self._games), 'variant')}>"

    @staticmethod
    def cell(row: dict, field: str) -> str:
        """The text of one cell: ``"33%"`` for a win rate, ``"—"`` for a number not known yet."""
        value = row[field]
        if field == "win_rate":
            return "—" if value is None else f"{100 * value:.0f}%"
        return "—" if value is None else str(value)

    def __str__(self) -> str:
        rows, apart = self.rows, self.apart
        where = f"\n(kept in {self.path})" if self.path else ""
        align = "l" + "r" * (1 + len(COLUMNS))
        text = (f"{TITLE}\n" + text_table(*self._cells(rows), align=align, rule=False)) if rows \
            else "No games recorded yet."
        if apart:
            text += f"\n\n{APART}\n" + text_table(*self._cells(apart), align=align, rule=False)
        return text + where

    def _repr_html_(self) -> str:
        rows, apart = self.rows, self.apart
        html = html_table(*self._cells(rows), align="ll" + "r" * len(COLUMNS), caption=TITLE,
                          css_class="spiderette-stats") if rows else "<p>No games recorded yet.</p>"
        if apart:
            html += html_table(*self._cells(apart), align="ll" + "r" * len(COLUMNS), caption=APART,
                               css_class="spiderette-stats")
        return html

    def _cells(self, rows: list[dict]) -> tuple[list[str], list[list[str]]]:
        """The headers and the rows' cells as text, for :meth:`__str__` and :meth:`_repr_html_`."""
        head = ["variant", "suits"] + [h for _, h in COLUMNS]
        return head, [[r["title"], str(r["suits"])] + [self.cell(r, f) for f, _ in COLUMNS] for r in rows]


def stats(folder: str | os.PathLike | None = None) -> Stats:
    """The statistics kept in ``folder`` (by default :func:`home`): a :class:`Stats`.

    A damaged file is set aside with a :class:`spiderette.RecordsWarning` (the statistics start afresh).

    >>> import tempfile
    >>> stats(folder=tempfile.mkdtemp()).rows
    []
    """
    try:
        return read_stats(folder)
    except OSError as e:
        warn(f"cannot read the statistics: {clip(e.strerror or str(e), PATH_LIMIT)}"
              f" ({clip(str(e.filename), PATH_LIMIT)})")
        try:
            where = home(folder) / STATS_FILE
        except OSError:
            where = None
        return Stats(path=where)


def read_stats(folder: str | os.PathLike | None = None) -> Stats:
    """As :func:`stats`, but a file that cannot be read at all raises ``OSError``."""
    path = home(folder) / STATS_FILE
    with LOCK:
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
        keys = [stats_key(variant, suits)] if suits is not None else [f"{rules.name}:{s}" for s in rules.suit_options]
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


