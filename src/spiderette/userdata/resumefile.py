"""The unfinished game: ``resume.json`` in the data folder (:mod:`spiderette.userdata.datafolder`), the
:meth:`Game.save` format plus the game's id, saved after every change of a table; ``Widget(resume=True)`` and
the Resume button bring it back. A damaged file is set aside with a
:class:`~spiderette.userdata.datafolder.RecordsWarning`; nothing here raises for a bad file.

>>> import tempfile
>>> from spiderette import Game
>>> folder = tempfile.mkdtemp()
>>> g = Game(seed=7); _ = g.play("bd")
>>> save_resume(g, "a1", folder=folder)
>>> resume_info(folder)["moves"], load_resume(folder)[0].history == g.history
(1, True)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..engine import platform
from ..engine.errors import SaveFileError, quote
from ..engine.files import settle, write_atomic
from ..engine.game import Game
from ..engine.savefile import FORMAT as SAVE_FORMAT
from ..engine.savefile import MAX_BYTES, document
from ..engine.savefile import VERSION as SAVE_VERSION
from .datafolder import LOCK, Damaged, home, parse_json, read_bytes, set_aside
from .statistics import kept_apart, stats_key

RESUME_FILE = "resume.json"
_RESUME_SEEN: dict[str, tuple] = {}  # resume.json path -> (stat signature, what it holds), to skip re-reading


def _signature(path: Path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _check_resume(doc: object) -> dict:
    """What a resume document holds, for the Resume button (the moves are checked only on resume)."""
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT or doc.get("version") != SAVE_VERSION:
        raise Damaged(f"not a '{SAVE_FORMAT}' version {SAVE_VERSION} file")
    gid, pos = doc.get("game_id"), doc.get("position")
    if not isinstance(gid, str) or not 0 < len(gid) <= 64 or not isinstance(pos, dict):
        raise Damaged("no 'game_id' or no 'position'")
    info: dict[str, Any] = {"id": gid}
    for name, kind in (("variant", str), ("suits", int), ("seed", int), ("moves", int), ("score", int)):
        value = pos.get(name)
        if not (type(value) is kind or (name == "seed" and value is None)):
            raise Damaged(f"the position's {name!r} is {quote(value)}")
        info[name] = value
    try:
        stats_key(info["variant"], info["suits"], unread_design=True)
    except ValueError as e:
        raise Damaged(str(e)) from None
    # a game of a design not read in this process (or whose suits changed): kept, offered once it is read
    info["playable"] = not kept_apart(f"{info['variant']}:{info['suits']}")
    return info


def resume_info(folder: str | os.PathLike | None = None) -> dict | None:
    """The saved unfinished game, in short: ``{"id", "variant", "suits", "seed", "moves", "score",
    "playable"}``, or ``None``. Cheap to call often: the file is read again only when it changed. A damaged
    file is set aside (with a :class:`RecordsWarning`). A game of a design this process has not read (or
    whose suits changed since) is kept, with ``"playable": False``: it can be resumed once the design is
    read again (:func:`spiderette.engine.cardz.from_cardz`)."""
    path = home(folder) / RESUME_FILE
    with LOCK:
        if platform.BROWSER:
            settle(path)   # (a write interrupted after the old file was removed: the new one is put in place)
        sig = _signature(path)
        if sig is None:
            return None
        seen = _RESUME_SEEN.get(str(path))
        if seen is not None and seen[0] == sig:
            info = seen[1]   # (whether it can be played is asked again: its design may have been read since)
            return None if info is None else {**info, "playable": not kept_apart(f"{info['variant']}:{info['suits']}")}
        try:
            raw = read_bytes(path, MAX_BYTES)
            info = None if raw is None else _check_resume(parse_json(raw))
        except Damaged as e:
            set_aside(path, str(e))
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
    with LOCK:
        try:
            write_atomic(path, text, durable=False)
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text, durable=False)
        pos = doc["position"]
        _RESUME_SEEN[str(path)] = (_signature(path), {
            "id": game_id, "variant": pos["variant"], "suits": pos["suits"], "seed": pos["seed"],
            "moves": pos["moves"], "score": pos["score"], "playable": True})


def load_resume(folder: str | os.PathLike | None = None) -> tuple[Game, str] | None:
    """The saved unfinished game and its id, checked move by move; ``None`` if there is none.

    A damaged file is set aside with a :class:`RecordsWarning` and ``None`` is returned. A game of a design
    not read in this process is kept and ``None`` is returned (read the design, then load it).
    """
    path = home(folder) / RESUME_FILE
    with LOCK:
        info = resume_info(folder)
        if info is None or not info["playable"]:
            return None
        try:
            return Game.load(path), info["id"]
        except SaveFileError as e:
            _RESUME_SEEN.pop(str(path), None)
            set_aside(path, str(e))
            return None


def clear_resume(game_id: str | None = None, folder: str | os.PathLike | None = None) -> bool:
    """Delete the saved unfinished game (only if it is ``game_id``, when given); ``True`` if deleted."""
    path = home(folder) / RESUME_FILE
    with LOCK:
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
