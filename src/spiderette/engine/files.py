"""Files read and written safely: a bounded read of a regular file, and a write that never loses the old file.

Every file the package reads (a save file, a design file, the statistics, the unfinished game) is read by
:func:`read_regular`: a regular file of at most a given size, refused at once otherwise (a folder, a pipe
that would block, ``/dev/zero`` that never ends). Every file it writes is written by :func:`write_atomic`:
a temporary file beside it, renamed onto its name, so that a reader sees the old file or the new one.

In a browser tab (JupyterLite's drive) a rename onto an existing file is not safe (it leaves the old entry
behind and hangs the kernel at the next look at the name), so the new file is first renamed to a **ready**
name beside it (``.<name>.ready``), the old file removed, and the ready file renamed onto the name. Should
the last step fail or be interrupted, the ready file, whole, stays: the next read or write of the name puts
it in place (:func:`settle`). Kernels of several notebooks share that drive, so these steps (and the
statistics' read-modify-write) take a lock file made with ``O_EXCL`` (:class:`SoftLock`), the one lock
there is there.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "note.json"
>>> write_atomic(path, '{"a": 1}')
>>> read_regular(path, 100)
b'{"a": 1}'
>>> try:
...     read_regular(path.parent, 100)
... except FileRefused as e:
...     print(e.kind, "-", e)
folder - a folder
"""

from __future__ import annotations

import errno
import glob
import os
import stat
import tempfile
import time
from pathlib import Path

from . import platform


class FileRefused(ValueError):
    """A file not read: ``kind`` is ``"folder"``, ``"special"`` (a pipe, a socket or a device) or ``"large"``
    (more than allowed: ``size`` says how large); ``str()`` says it in words."""

    def __init__(self, kind: str, words: str, size: int | None = None) -> None:
        super().__init__(words)
        self.kind, self.size = kind, size


def read_regular(path: str | os.PathLike, most: int) -> bytes:
    """The bytes of the regular file ``path``, of at most ``most`` bytes; never blocks, never reads more.

    :class:`FileRefused` for a folder, a pipe, a device or a larger file; ``OSError`` when it cannot be
    opened or read (``FileNotFoundError`` when there is none); ``ValueError`` for a path holding a NUL.
    In a browser tab a write interrupted before its last step is put in place first (:func:`settle`).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if platform.BROWSER:
        settle(path)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if not platform.BROWSER:
            raise
        try:   # (a write whose ready file could not be put in place yet: it is the newest file)
            fd = os.open(ready_name(Path(path)), flags)
        except OSError:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(path)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused("folder", "a folder")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("special", "not a regular file (a pipe, a socket or a device)")
        if info.st_size > most:
            raise FileRefused("large", f"{info.st_size:,} bytes, more than {most:,}", info.st_size)
        chunks, size = [], 0
        while size <= most:
            chunk = os.read(fd, min(1 << 20, most + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > most:
            raise FileRefused("large", f"more than {most:,} bytes (it grew while it was read)", size)
        return b"".join(chunks)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------- writing
def ready_name(path: Path) -> Path:
    """Where a browser tab's write keeps the new file between removing the old one and renaming it in."""
    return path.with_name(f".{path.name}.ready")


def write_atomic(path: str | os.PathLike, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, renamed onto ``path``.

    A reader sees the old file or the new one, never half of one. ``durable=True`` also flushes the file
    and the rename to the disk (``fsync``), so a power cut keeps one of the two; ``durable=False`` skips
    that, for small files written often. An existing file keeps its permission bits; a new one gets the
    usual ones (0666 less the umask). When the new file cannot be written whole, the temporary file is
    removed and the old file is kept. In a browser tab, when the new file was whole but the last rename
    failed, the new file stays under its ready name (:func:`ready_name`) and the next read puts it in place.
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
    clean_stale(folder, path.name)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, mode)
        if platform.BROWSER:
            _swap_in(tmp, path)
        else:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)   # (gone already when it became the ready file: that one is kept)
        except OSError:
            pass
        raise
    if durable:
        _fsync_folder(folder)


def _swap_in(tmp: str, path: Path) -> None:
    """The browser tab's rename: never onto an existing file. The whole new file takes its ready name, the
    old file is removed, the ready file takes the name; a failure after the first step leaves the ready file."""
    with SoftLock(path.with_name(f".{path.name}.swap")):
        settle(path, locked=True)   # (an earlier write's ready file first: it is older than this one)
        ready = ready_name(path)
        os.rename(tmp, ready)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.rename(ready, path)


def settle(path: str | os.PathLike, *, locked: bool = False) -> bool:
    """Put in place a new file left under its ready name by a browser tab's write that did not finish (the old
    file removed, or the last rename failed); whether there was one. Never raises: a file that cannot be put
    in place now is tried again at the next read or write."""
    path = Path(path)
    ready = ready_name(path)
    if not os.path.lexists(ready):
        return False
    try:
        if locked:
            return _settle(path, ready)
        with SoftLock(path.with_name(f".{path.name}.swap")):
            return _settle(path, ready)
    except OSError:
        return False


def _settle(path: Path, ready: Path) -> bool:
    if not os.path.lexists(ready):   # (another kernel put it in place meanwhile)
        return False
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    os.rename(ready, path)
    return True


# ---------------------------------------------------------------------- a lock where there is no other
class SoftLock:
    """An exclusive lock held by a file made with ``O_CREAT | O_EXCL``: the lock of a browser tab's drive,
    where kernels of several notebooks share the files and no ``fcntl`` lock exists. A lock file older than
    ``stale`` seconds was left by a kernel that stopped while holding it and is broken; waiting longer than
    ``wait`` seconds is an ``OSError``.

    >>> import pathlib, tempfile
    >>> lock = SoftLock(pathlib.Path(tempfile.mkdtemp()) / "x.lock")
    >>> with lock:
    ...     lock.path.exists()
    True
    >>> lock.path.exists()
    False
    """

    def __init__(self, path: str | os.PathLike, wait: float = 10.0, stale: float = 5.0) -> None:
        self.path, self.wait, self.stale = Path(path), wait, stale

    def acquire(self) -> None:
        give_up = time.monotonic() + self.wait
        while True:
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    if time.time() - os.stat(self.path).st_mtime > self.stale:
                        os.unlink(self.path)   # left by a kernel that stopped holding it
                        continue
                except FileNotFoundError:
                    continue
                if time.monotonic() > give_up:
                    raise OSError(errno.EAGAIN, f"locked by another process for more than {self.wait:g} s",
                                  str(self.path)) from None
                time.sleep(0.005)
                continue
            os.close(fd)
            return

    def release(self) -> None:
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def __enter__(self) -> SoftLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# ---------------------------------------------------------------------- housekeeping
#: A temporary file this old was left by a writer that was killed: the next write removes it.
STALE_SECONDS = 600


def clean_stale(folder: Path, name: str) -> None:
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
