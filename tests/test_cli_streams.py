"""The command line with odd standard streams and long arguments (issue 20): a closed standard input, a closed,
broken or full standard output, an ASCII terminal, a 100,000-character option. Never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from spiderette_testkit import src_env

from spiderette.cli import main
from spiderette.cli.streams import PLAIN_ERRORS

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX shell redirections")
ENDING = "Spiderette · deal 7 · 4 suits: not finished · score 500 · 0 moves · runs 0/4"


def spiderette(*argv: str, stdin: bytes | None = b"", redirect: str = "", buffered: bool = True,
               **env: str) -> subprocess.CompletedProcess:
    """``python -m spiderette ARGV`` in a real process, its streams redirected by a POSIX shell (``<&-``)."""
    environ = {**src_env(), **env}
    if buffered:  # (the default for users; a test runner may set PYTHONUNBUFFERED)
        environ.pop("PYTHONUNBUFFERED", None)
    script = f'exec "$0" -m spiderette "$@" {redirect}'
    return subprocess.run(["sh", "-c", script, sys.executable, *argv], input=stdin, env=environ,
                          capture_output=True, timeout=120)


# ------------------------------------------------------------------------------------------------ standard input
def test_a_closed_stdin_ends_the_game_as_end_of_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["play", "7"]) == 0
    out, err = capsys.readouterr()
    assert out.rstrip().splitlines()[-1] == ENDING and not err


@POSIX
def test_a_closed_stdin_in_a_real_process():
    p = spiderette("play", "7", stdin=None, redirect="<&-")
    assert p.returncode == 0 and p.stderr == b""
    assert p.stdout.decode().rstrip().splitlines()[-1] == ENDING


def test_undecodable_input_is_a_bad_move_not_a_traceback():
    p = spiderette("play", "7", "--no-record", stdin=b"\xff\xe9\nq\n", PYTHONIOENCODING="utf-8")
    out = p.stdout.decode()
    assert p.returncode == 0 and p.stderr == b""
    assert "not played: bad move '\ufffd\ufffd'" in out and out.rstrip().endswith("runs 0/4")


# ------------------------------------------------------------------------------------------------ standard output
def test_a_closed_stdout_exits_1_playing_nothing(capsys, monkeypatch, spiderette_home):
    monkeypatch.setattr(sys, "stdin", io.StringIO("bd\n"))
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["play", "7"]) == 1
    assert capsys.readouterr().err == "spiderette: standard output is closed\n"
    assert not spiderette_home.exists()  # the game was not played, so not counted


@POSIX
@pytest.mark.parametrize("command", [["play", "7"], ["solve", "7", "--suits", "1", "--seconds", "1"], ["stats"]])
def test_a_closed_stdout_in_a_real_process(command, spiderette_home):
    p = spiderette(*command, stdin=b"bd\n", redirect=">&-")
    assert (p.returncode, p.stderr) == (1, b"spiderette: standard output is closed\n")
    assert not (spiderette_home / "stats.json").exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("command", [["play", "7", "--no-record"], ["stats"]])
def test_a_full_stdout_exits_1_saying_so(command, buffered):
    p = spiderette(*command, stdin=b"q\n", redirect=">/dev/full", buffered=buffered)
    assert (p.returncode, p.stderr.decode()) == (1, "spiderette: cannot write to standard output: No space left"
                                                    " on device\n")


@POSIX
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_a_reader_that_goes_away_ends_the_command_quietly(buffered):
    environ = src_env()
    if buffered:
        environ.pop("PYTHONUNBUFFERED", None)
    reader = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.buffer.read(1)"],
                              stdin=subprocess.PIPE)
    p = subprocess.run([sys.executable, "-m", "spiderette", "play", "7", "--no-record"], input=b"t\n" * 2000,
                       stdout=reader.stdin, stderr=subprocess.PIPE, env=environ, timeout=120)
    reader.stdin.close()
    reader.wait(timeout=60)
    assert (p.returncode, p.stderr) == (1, b"")


def test_an_error_that_is_not_the_output_s_is_not_hidden(capsys, monkeypatch):
    def broken(args):
        raise OSError(28, "No space left on device")  # (say, a file the command writes: not stdout)

    monkeypatch.setattr("spiderette.cli.cmd_stats", broken)
    with pytest.raises(OSError, match="No space left"):
        main(["stats"])


# ------------------------------------------------------------------------------------------------ an ASCII terminal
def test_an_ascii_terminal_gets_letters_for_suits():
    p = spiderette("play", "7", "--no-record", stdin="bd\nh\nm\n\u00e9\nq\n".encode(), PYTHONIOENCODING="ascii")
    out = p.stdout.decode("ascii")  # (nothing but ASCII)
    assert p.returncode == 0 and p.stderr == b""
    assert "Spiderette - deal 7 - 4 suits. Type moves" in out and "stock: 24 cards - foundations: none" in out
    assert "not played: bad move '??'" in out and "hint: " in out
    assert out.rstrip().splitlines()[-1] == ("Spiderette - deal 7 - 4 suits: not finished - score 499 - 1 move"
                                             " - runs 0/4")


def table_lines(out: str) -> list[str]:
    """The lines of the table pictures in ``play``'s output (between a column-letter line and the stock line)."""
    lines, inside = [], False
    for line in out.splitlines():
        if line.split() == list("abcdefg"):
            inside = True
        elif line.startswith("stock:"):
            inside = False
        elif inside:
            lines.append(line)
    return lines


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "latin-1", "cp437"])
def test_the_table_shows_suit_symbols_where_the_terminal_can(encoding):
    """Deal 6 shows the ten of clubs: ``10♣`` on a terminal whose encoding has the suit symbols, ``TC`` (ASCII)
    on one that has not."""
    p = spiderette("play", "6", "--no-record", stdin=b"q\n", PYTHONIOENCODING=encoding)
    assert p.returncode == 0 and p.stderr == b""
    cells = " ".join(table_lines(p.stdout.decode(encoding))).split()
    assert cells and "##" in cells
    if encoding == "utf-8":
        assert "10♣" in cells and "TC" not in cells
        assert all(c == "##" or c[-1] in "♠♥♣♦" for c in cells), cells
    else:
        assert "TC" in cells and "10♣" not in cells
        assert all(c == "##" or (len(c) == 2 and c[-1] in "SHCD") for c in cells), cells


def test_the_plain_error_handler_writes_suit_letters():
    assert "6♥ onto 7♣ · K♠ … Q♦ ✓".encode("ascii", PLAIN_ERRORS) == b"6H onto 7C - KS ... QD ?"
    assert "5♥".encode("latin-1", PLAIN_ERRORS) == b"5H"


# ------------------------------------------------------------------------------------------------ long arguments
LONG = "x" * 100_000


@pytest.mark.parametrize("argv, words", [
    (["play", "--suits", LONG], "argument --suits: the number of suits must be 4, 2 or 1, not 'xxx"),
    (["play", "--suits", "9" * 5000], "the number of suits must be 4, 2 or 1, not '999"),
    (["play", "--variant", LONG], "argument --variant: invalid choice: 'xxx"),
    (["play", "7", "--" + LONG], "unrecognized arguments: --xxx"),
    (["play", "7", "8", LONG], "unrecognized arguments: 8 xxx"),
    ([LONG], "argument COMMAND: invalid choice: 'xxx"),
    (["play", LONG], "the deal number must be a whole number, not 'xxx"),
    (["solve", "1", "--seconds", LONG], "seconds must be a number > 0, not 'xxx"),
    (["lab", "--port", LONG], "the port must be a whole number from 1 to 65535, not 'xxx"),
    (["play", "7", "--variant", " ".join([LONG[:100]] * 1000)], "invalid choice: 'xxx"),
])
def test_a_long_argument_is_quoted_briefly(capsys, argv, words):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and not out and "Traceback" not in err
    message = err.splitlines()[-1]
    assert words in message and len(message) < 300, message
    assert "xxxx" not in message or "characters)" in message


def test_a_short_bad_argument_is_quoted_whole(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--suits", "three"])
    assert capsys.readouterr().err.splitlines()[-1] == ("spiderette play: error: argument --suits: the number of"
                                                        " suits must be 4, 2 or 1, not 'three'")
