"""Save files: JSON with a format name and version, the start position, the moves and the redo list.

Loading replays the moves from the start and checks that they lead to the saved position, so a file that
was edited by hand or cut short is refused whole.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .errors import SaveFileError
from .game import Game
from .move import Move

FORMAT = "spiderette-save"
VERSION = 1


def save(g: Game, path: str | os.PathLike) -> None:
    start = g.copy()
    while start.undo() is not None:
        pass
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "start": start.to_dict(),
        "history": [str(m) for m in g.history],
        "redo": [str(m) for m in reversed(g._redo)],
        "position": g.to_dict(),
    }
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(cls: type[Game], path: str | os.PathLike) -> Game:
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise SaveFileError(f"cannot read save file {str(path)!r}: {e.strerror or e}") from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SaveFileError(f"{str(path)!r} is not a spiderette save file (not valid JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveFileError(f"{str(path)!r} is not a spiderette save file (no 'format': '{FORMAT}')")
    if doc.get("version") != VERSION:
        raise SaveFileError(f"{str(path)!r} has save format version {doc.get('version')!r};"
                            f" this spiderette reads version {VERSION}")
    for key, kind in (("start", dict), ("history", list), ("redo", list), ("position", dict)):
        if not isinstance(doc.get(key), kind):
            raise SaveFileError(f"{str(path)!r} is damaged: '{key}' is missing or not a {kind.__name__}")
    try:
        g = cls.from_dict(doc["start"])
        history = [Move.parse(t) for t in doc["history"]]
        redo = [Move.parse(t) for t in doc["redo"]]
        g.play(history)
        if g.to_dict() != doc["position"]:
            raise SaveFileError(f"{str(path)!r} is damaged: its moves do not lead to its saved position")
        g.play(redo)
        for _ in redo:
            g.undo()
    except SaveFileError:
        raise
    except ValueError as e:
        raise SaveFileError(f"{str(path)!r} is damaged: {e}") from None
    return g
