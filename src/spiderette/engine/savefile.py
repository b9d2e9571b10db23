"""Save files: JSON with a format name and version, the start position, the moves and the redo list.

Loading replays the moves from the start and checks that they lead to the saved position, so a file that
was edited by hand or cut short is refused whole. Only a regular file of at most :data:`MAX_BYTES` is read.
"""

from __future__ import annotations

import errno
import glob
import json
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from . import platform
from .errors import MAX_SECONDS, SaveFileError, clip, is_number, quote
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


def _rename_over(tmp: str, path: Path) -> None:
    """``os.replace(tmp, path)``; in a browser tab, remove ``path`` first and then rename: on JupyterLite's
    drive (0.8.6) a rename over an existing file leaves the old file's entry behind, and the next look at the
    name after it is removed hangs the kernel. (One kernel in one tab: nobody reads between the two steps.)"""
    if platform.BROWSER:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.rename(tmp, path)
    else:
        os.replace(tmp, path)


def write_atomic(path: str | os.PathLike, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, renamed over it (``os.replace``).

    A reader sees the old file or the new one, never half of one. ``durable=True`` also flushes the file
    and the rename to the disk (``fsync``), so a power cut keeps one of the two; ``durable=False`` skips
    that, for small files written often. An existing file keeps its permission bits; a new one gets the
    usual ones (0666 less the umask). On an error the temporary file is removed and the old file is kept.
    """
    path = Path(os.path.realpath(path))   # through a symbolic link: its target is what is replaced
    folder = path.parent
    try:
        st = os.stat(path)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    else:
        if not stat.S_ISREG(st.st_mode):   # a folder, a pipe, a device: never replaced by a file
            raise IsADirectoryError(errno.EISDIR, "a folder, not a file", str(path)) if stat.S_ISDIR(st.st_mode) \
                else OSError(errno.EINVAL, "not a regular file (a pipe, a socket or a device)", str(path))
        mode = stat.S_IMODE(st.st_mode)
    _clean_stale(folder, path.name)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, mode)
        _rename_over(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        _fsync_folder(folder)


#: A temporary file this old was left by a writer that was killed: the next write removes it.
STALE_SECONDS = 600


def _clean_stale(folder: Path, name: str) -> None:
    """Remove the temporary files of ``name`` left in ``folder`` by writers killed mid-write (never raises)."""
    now = time.time()
    try:
        for tmp in folder.glob(f".{glob.escape(name)}.*.tmp"):
            try:
                if now - tmp.lstat().st_mtime > STALE_SECONDS:
                    tmp.unlink()
            except OSError:
                pass
    except OSError:
        pass


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); where folders cannot be opened, there is nothing to do."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _read(path: str | os.PathLike) -> bytes:
    """The bytes of a regular file of at most ``MAX_BYTES``; anything else is refused without blocking."""
    name = quote(str(path), PATH_LIMIT)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise SaveFileError(f"cannot read save file {name}: {e.strerror or e}") from None
    except (TypeError, ValueError) as e:
        raise SaveFileError(f"cannot read save file {name}: {e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise SaveFileError(f"{name} is {kind}, not a save file")
        if info.st_size > MAX_BYTES:
            raise SaveFileError(f"{name} is {info.st_size:,} bytes: too large for a save file"
                                f" (at most {MAX_BYTES:,})")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise SaveFileError(f"{name} grew past {MAX_BYTES:,} bytes while it was read")
        return b"".join(chunks)
    except OSError as e:
        raise SaveFileError(f"cannot read save file {name}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def _canonical(data: object) -> str:
    """JSON text that tells ``4`` from ``4.0`` and ``true`` from ``1`` (Python's ``==`` does not)."""
    return json.dumps(data, sort_keys=True)


def load(cls: type[Game], path: str | os.PathLike) -> Game:
    """Read a game written by :func:`save`; ``SaveFileError`` says what is wrong with any other file."""
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
        g.play(history)
        if _canonical(g.to_dict()) != _canonical(doc["position"]):
            raise SaveFileError(f"{name} is damaged: its moves do not lead to its saved position")
        g.play(redo)
        for _ in redo:
            g.undo()
    except SaveFileError:
        raise
    except (ValueError, TypeError, RecursionError) as e:
        raise SaveFileError(f"{name} is damaged: {clip(str(e))}") from None
    if elapsed:
        g.elapsed = elapsed
    return g
