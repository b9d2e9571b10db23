"""Save files: JSON with a format name and version, the start position, the moves and the redo list.

Loading replays the moves from the start and checks that they lead to the saved position, so a file that
was edited by hand or cut short is refused whole. Only a regular file of at most :data:`MAX_BYTES` is read.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from .errors import MAX_SECONDS, SaveFileError, clip, is_number, quote
from .files import FileRefused, read_regular, write_atomic
from .move import Move

if TYPE_CHECKING:
    from .game import Game

FORMAT = "spiderette-save"
VERSION = 1
#: The largest save file read (a game of a million moves fits several times over).
MAX_BYTES = 16 * 1024 * 1024
#: How much of a path an error message quotes (a path is worth seeing whole, within reason).
PATH_LIMIT = 300


def document(g: Game) -> dict:
    """The save document of ``g``: its start, history, redo list and position, and ``elapsed`` (the seconds
    played, :attr:`Game.elapsed`) when it is more than 0 (an optional field: older files have none)."""
    with g.locked():
        start = g.copy()
        while start.undo() is not None:
            pass
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "start": start.to_dict(),
            "history": [str(m) for m in g.history],
            "redo": [str(m) for m in g.redo_list],
            "position": g.to_dict(),
        }
        if g.elapsed > 0:
            doc["elapsed"] = round(float(g.elapsed), 3)
        return doc


def _elapsed(doc: dict, name: str) -> float:
    """The optional ``elapsed`` field: a number of seconds >= 0 (0 when absent)."""
    value = doc.get("elapsed", 0)
    if not is_number(value) or not 0 <= value <= MAX_SECONDS:
        raise SaveFileError(f"{name} is damaged: 'elapsed' must be a number of seconds >= 0, not {quote(value)}")
    return float(value)


def save(g: Game, path: str | os.PathLike) -> None:
    """Write ``g`` to ``path`` atomically: a temporary file beside it, flushed, renamed over it.

    An existing file keeps its permission bits; a new one gets the usual ones (0666 less the umask).
    """
    write_atomic(path, json.dumps(document(g), indent=1) + "\n")


def _read(path: str | os.PathLike) -> bytes:
    """The bytes of a regular file of at most ``MAX_BYTES``; anything else is refused without blocking."""
    name = quote(str(path), PATH_LIMIT)
    try:
        return read_regular(path, MAX_BYTES)
    except FileRefused as e:
        if e.kind == "large":
            raise SaveFileError(f"{name} is {e}: too large for a save file (at most {MAX_BYTES:,})") from None
        raise SaveFileError(f"{name} is {e}, not a save file") from None
    except OSError as e:
        raise SaveFileError(f"cannot read save file {name}: {e.strerror or e}") from None
    except (TypeError, ValueError) as e:
        raise SaveFileError(f"cannot read save file {name}: {e}") from None


def _canonical(data: object) -> str:
    """JSON text that tells ``4`` from ``4.0`` and ``true`` from ``1`` (Python's ``==`` does not)."""
    return json.dumps(data, sort_keys=True)


def load(cls: type[Game], path: str | os.PathLike) -> Game:
    """Read a game written by :func:`save`; ``SaveFileError`` says what is wrong with any other file."""
    from .game import MAX_SEQUENCE

    name = quote(str(path), PATH_LIMIT)
    raw = _read(path)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        if isinstance(e, (UnicodeDecodeError, json.JSONDecodeError)):
            why = clip(str(e))
        else:  # Python refuses whole numbers of thousands of digits, and deep nesting
            why = "nested too deeply" if isinstance(e, RecursionError) else "a number with too many digits"
        raise SaveFileError(f"{name} is not a spiderette save file (not valid JSON: {why})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveFileError(f"{name} is not a spiderette save file (no 'format': '{FORMAT}')")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise SaveFileError(f"{name} has save format version {quote(doc.get('version'))};"
                            f" this spiderette reads version {VERSION}")
    for key, kind in (("start", dict), ("history", list), ("redo", list), ("position", dict)):
        if not isinstance(doc.get(key), kind):
            raise SaveFileError(f"{name} is damaged: '{key}' is missing or not a {kind.__name__}")
    elapsed = _elapsed(doc, name)
    try:
        g = cls.from_dict(doc["start"])
        history = [Move.parse(t) for t in doc["history"]]
        redo = [Move.parse(t) for t in doc["redo"]]
        for i in range(0, len(history), MAX_SEQUENCE):   # (a game may be longer than one sequence's cap)
            g.play(history[i:i + MAX_SEQUENCE])
        if _canonical(g.to_dict()) != _canonical(doc["position"]):
            raise SaveFileError(f"{name} is damaged: its moves do not lead to its saved position")
        for i in range(0, len(redo), MAX_SEQUENCE):
            g.play(redo[i:i + MAX_SEQUENCE])
        for _ in redo:
            g.undo()
    except SaveFileError:
        raise
    except (ValueError, TypeError, RecursionError) as e:
        raise SaveFileError(f"{name} is damaged: {clip(str(e))}") from None
    if elapsed:
        g.elapsed = elapsed
    return g
