"""The command's standard streams: safe for what it writes and reads, and a failure to write told apart.

A terminal whose encoding lacks the suit symbols gets letters instead (``6H`` for ``6♥``), and ``?`` for any
other character it cannot show; input that cannot be decoded becomes replacement characters. A standard
output that cannot be written (closed, full, a reader gone) raises :class:`OutputFailed`.
"""

from __future__ import annotations

import codecs
import os
import sys

#: What a terminal that cannot show a character gets instead (``PYTHONIOENCODING=ascii``, an old console).
PLAIN = {"♠": "S", "♥": "H", "♣": "C", "♦": "D", "·": "-", "…": "...", "—": "-", "–": "-"}
PLAIN_ERRORS = "spiderette-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler :data:`PLAIN_ERRORS`: suit letters for suit symbols, ``?`` for the rest."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(PLAIN.get(c, "?") for c in error.object[error.start:error.end]), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def fit_streams() -> None:
    """Make the standard streams safe for what the command writes and reads.

    Output whose encoding cannot write the suit symbols writes letters (:data:`PLAIN`) instead of failing;
    input that cannot be decoded becomes replacement characters (then a bad move) instead of a traceback.
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if encoding is None or not hasattr(stream, "reconfigure"):
            continue
        try:
            "".join(PLAIN).encode(encoding)
        except (UnicodeEncodeError, LookupError):
            try:
                stream.reconfigure(errors=PLAIN_ERRORS)
            except (ValueError, OSError):  # (a closed stream: nothing will be written to it anyway)
                pass
    if getattr(sys.stdin, "errors", None) == "strict" and hasattr(sys.stdin, "reconfigure"):
        try:
            sys.stdin.reconfigure(errors="replace")
        except (ValueError, OSError):
            pass


def shows_suits(stream) -> bool:
    """Whether ``stream``'s encoding can write the suit symbols ♠♥♣♦ (UTF-8 can; ASCII, Latin-1 cannot)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return False
    try:
        "♠♥♣♦".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class OutputFailed(Exception):
    """Standard output could not be written: a reader that went away, a closed or full output."""


class GuardedOutput:
    """Standard output, except that a failure to write it raises :class:`OutputFailed`, told apart from
    the other ``OSError`` (a statistics file that cannot be written, say)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as e:
            raise OutputFailed(e) from e

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise OutputFailed(e) from e

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def silence_stdout() -> None:
    """Point the standard output's file at the null device, so that the flush at exit finds nowhere to fail."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, ValueError, OSError):  # (not a real file, as under pytest's capture)
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def warn(text: str) -> None:
    """A line on standard error, if there is one to write to."""
    try:
        print(f"spiderette: {text}" if text else "", file=sys.stderr)
    except (AttributeError, ValueError, OSError):
        pass
