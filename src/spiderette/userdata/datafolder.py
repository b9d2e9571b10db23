"""The player's data folder: where it is, and how its files (the statistics, the unfinished game) are read
and, when damaged, set aside. ``SPIDERETTE_HOME`` names it when set, else, in a
browser tab with JupyterLite's drive, ``/drive/.spiderette`` (kept by the browser), else
``platformdirs.user_data_dir("spiderette")``."""

from __future__ import annotations

import errno
import json
import os
import secrets
import threading
import time
import warnings
from pathlib import Path

from ..engine import platform
from ..engine.errors import clip, quote
from ..engine.files import FileRefused, read_regular
from ..engine.savefile import PATH_LIMIT

ENV = "SPIDERETTE_HOME"
#: One read-modify-write of the folder's files at a time in this process.
LOCK = threading.RLock()


class RecordsWarning(UserWarning):
    """A statistics or resume file that was damaged (and set aside), or could not be read or written."""


class Damaged(Exception):
    """A file whose content is not what it should be (the message says what): it is set aside."""


# ---------------------------------------------------------------------- where
def home(folder: str | os.PathLike | None = None) -> Path:
    """The folder of the records: ``folder`` if given, else ``$SPIDERETTE_HOME``, else the browser's drive
    (:func:`~spiderette.engine.platform.browser_data_folder`), else the user data folder.

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
    drive = platform.browser_data_folder()
    if drive is not None:
        return Path(drive)
    import platformdirs

    return Path(platformdirs.user_data_dir("spiderette", appauthor=False))


def new_id() -> str:
    """A new game id (16 hex digits)."""
    return secrets.token_hex(8)


def warn(text: str) -> None:
    """A :class:`RecordsWarning`, pointing at the caller's caller."""
    warnings.warn(text, RecordsWarning, stacklevel=3)


def set_aside(path: Path, why: str) -> None:
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
        warn(f"{path} is damaged ({why}) and could not be set aside ({e.strerror or e}); it is ignored")
        return
    warn(f"{path} is damaged ({why}); it was set aside as {target.name} and a new one is started")


def read_bytes(path: Path, most: int) -> bytes | None:
    """The bytes of ``path`` (``None`` if there is no file); ``Damaged`` for a folder, a pipe, a huge file."""
    try:
        return read_regular(path, most)
    except FileNotFoundError:
        return None
    except FileRefused as e:
        raise Damaged(str(e)) from None


def parse_json(raw: bytes) -> object:
    """The JSON in ``raw``; ``Damaged`` when it is not JSON."""
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise Damaged(f"not valid JSON: {type(e).__name__}") from None
