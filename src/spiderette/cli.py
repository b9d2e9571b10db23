"""The ``spiderette`` command: ``lab``, ``play``, ``solve`` and ``stats`` (also ``python -m spiderette``).

Each subcommand is a function ``cmd_NAME(args)`` returning the exit code; :func:`main` parses and runs one.

Exit codes: 0 done; 1 a command that could not do its work, or a standard output closed (``>&-``), full or
broken: the command stops there, without a traceback, quietly for a reader that went away (``| head -1``)
and with one line on standard error otherwise; 2 bad arguments (the message quotes at most about 60
characters of a bad value); 130 Ctrl+C. A closed standard input ends ``play`` as the end of input does. A
terminal whose encoding lacks the suit symbols gets letters instead (``6H`` for ``6♥``), and ``?`` for any
other character it cannot show.
"""

from __future__ import annotations

import argparse
import codecs
import importlib.util
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from .engine.cards import card_code, card_text
from .engine.errors import MAX_SECONDS, QUOTE_LIMIT, clip, printable, quote
from .engine.game import Game
from .engine.positions import text_picture
from .engine.variants import RULES, VARIANTS
from .notebook.wording import ENDINGS
from .players.advice import hint
from .players.limits import MAX_TABLES
from .players.proof import DEFAULT_MAX_HELD, prove

#: The name of the play notebook that ``spiderette lab`` puts in the folder it serves.
NOTEBOOK_NAME = "spiderette-play.ipynb"
#: The play notebook in the repository (``notebooks/``) and in the wheel (``spiderette/notebooks/``).
PLAY_NOTEBOOK = "01-play.ipynb"
LAB_MISSING = 'JupyterLab is not installed: pip install "spiderette[lab]"'

VERDICTS = {
    "win": "win (a winning line, replayed by the engine)",
    "loss": "loss (proven: every table the game can reach was visited)",
}
PLAY_HELP = """\
Type moves in notation, several at once if you like (all or nothing):
  ab     move from column a to column b the group that fits there
  ab3    move the top 3 cards of column a to column b
  d      deal a row from the stock
  sc     send the complete run on column c (only when runs are sent by hand)
Commands:
  u, undo    take back the last move        r, redo   play it again
  h, hint    the best move, and why         m, moves  every legal move
  t, table   show the table again           ?, help   this text
  w, wrong   where did it go wrong? (the solver looks at every card)
  q, quit    stop (so does end of input)"""


# ---------------------------------------------------------------------- output streams
#: What a terminal that cannot show a character gets instead (``PYTHONIOENCODING=ascii``, an old console).
PLAIN = {"♠": "S", "♥": "H", "♣": "C", "♦": "D", "·": "-", "…": "...", "—": "-", "–": "-"}
PLAIN_ERRORS = "spiderette-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler :data:`PLAIN_ERRORS`: suit letters for suit symbols, ``?`` for the rest."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(PLAIN.get(c, "?") for c in error.object[error.start:error.end]), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def _fit_streams() -> None:
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


def table_text(g: Game, stream=None) -> str:
    """The terminal's picture of the table: ``10♣`` where ``stream`` (standard output) can show the suit symbols,
    else the ASCII codes (``TC``) of ``print(g)``."""
    return text_picture(g, card_text if shows_suits(sys.stdout if stream is None else stream) else card_code)


class _OutputFailed(Exception):
    """Standard output could not be written: a reader that went away, a closed or full output."""


class _GuardedOutput:
    """Standard output, except that a failure to write it raises :class:`_OutputFailed`, told apart from
    the other ``OSError`` (a statistics file that cannot be written, say)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as e:
            raise _OutputFailed(e) from e

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise _OutputFailed(e) from e

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _silence_stdout() -> None:
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


# ---------------------------------------------------------------------- argument types
class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose error messages quote at most about :data:`QUOTE_LIMIT` characters of what
    was typed (argparse's own messages quote a bad value whole)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        super().error(_bounded(message))


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_WORD = re.compile(rf"\S{{{QUOTE_LIMIT + 12},}}")  # (longer than a quote() of a long value)


def _bounded(message: str) -> str:
    """``message`` with every quoted value, and every long word, cut to about :data:`QUOTE_LIMIT` characters."""
    def cut(m: re.Match) -> str:
        text = m.group()
        if len(text) <= QUOTE_LIMIT + 2:
            return text
        return f"{text[:QUOTE_LIMIT + 1]}{text[0]}… ({len(text) - 2} characters)"

    message = _QUOTED.sub(cut, message)
    message = _WORD.sub(lambda m: f"{m.group()[:QUOTE_LIMIT]}… ({len(m.group())} characters)", message)
    return clip(message, 400)


def _suits(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the number of suits must be 4, 2 or 1, not {quote(text)}") from None


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the deal number must be a whole number, not {quote(text)}") from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"seconds must be a number > 0, not {quote(text)}")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"seconds must be at most {MAX_SECONDS:,.0f} (about 31 years), "
                                         f"not {quote(text)}")
    return value


def _held(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_TABLES:
        raise argparse.ArgumentTypeError(f"the tables held must be a whole number from 1 to {MAX_TABLES:,}, "
                                         f"not {quote(text)}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be a whole number from 1 to 65535, not {quote(text)}")
    return value


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("seed", nargs="?", type=_seed, default=None,
                   help="the deal number (0 <= N < 2**64; default: a random deal)")
    p.add_argument("--variant", default="spiderette", choices=VARIANTS, metavar="V",
                   help=f"the variant: {', '.join(VARIANTS)} (default: spiderette)")
    p.add_argument("--suits", type=_suits, default=4, metavar="N",
                   help="the number of suits: 4, 2 or 1 (red_black_spiderette: 4 only; default: 4)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``spiderette`` command."""
    parser = _Parser(
        prog="spiderette", description="Spiderette (one-deck Spider) solitaire: play, solve, open the notebook.",
        epilog="Run 'spiderette COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("lab", help="play in JupyterLab (copies the play notebook into the folder)",
                       description=f"Start JupyterLab on {NOTEBOOK_NAME}, a copy of the play notebook put in the "
                                   "folder served (an existing file of that name is kept as it is). "
                                   'Needs JupyterLab: pip install "spiderette[lab]".')
    p.add_argument("--notebook-dir", type=Path, default=None, metavar="DIR",
                   help="the folder to serve and put the notebook in (default: the current folder)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--port", type=_port, default=None, metavar="N", help="the port to serve on")
    p.set_defaults(func=cmd_lab, command_parser=p)

    p = sub.add_parser("play", help="play a game in the terminal",
                       description="Play a game in the terminal: type moves in notation (ab, d, ab3) or "
                                   "commands (u undo, r redo, h hint, m moves, q quit, ? help). "
                                   "Reads standard input, so moves can be piped in. A game with a move "
                                   "made counts in your statistics (as the table's do).")
    _add_game_options(p)
    p.add_argument("--no-record", action="store_true", help="do not count this game in the statistics")
    p.set_defaults(func=cmd_play, command_parser=p)

    p = sub.add_parser("solve", help="solve a deal with every card known",
                       description="Solve a deal with every card known: prints the verdict (win, loss or "
                                   "unknown), the winning line in notation, the tables searched and the time.")
    _add_game_options(p)
    p.add_argument("--seconds", type=_seconds, default=10.0, metavar="S",
                   help="the time budget in seconds (default: 10)")
    p.add_argument("--prove", action="store_true",
                   help="when the solver leaves the deal undecided, run the layered proof pass for as many seconds "
                        "again: it proves lost a deal whose reachable tables fit, else says how many it still has "
                        "to visit")
    p.add_argument("--max-held", type=_held, default=DEFAULT_MAX_HELD, metavar="N",
                   help="the most tables the proof pass holds at once, about 270 bytes each (default: "
                        f"{DEFAULT_MAX_HELD:,}, about 700 MB); it stops there and says how far it got")
    p.set_defaults(func=cmd_solve, command_parser=p)

    p = sub.add_parser("stats", help="print the statistics (spiderette.stats())",
                       description="Print the statistics of spiderette.stats().")
    p.set_defaults(func=cmd_stats, command_parser=p)
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code.

    Bad arguments print a message on stderr and raise ``SystemExit(2)``, as argparse does. A closed or broken
    standard output returns 1 (see the module's text).
    """
    _fit_streams()
    args = build_parser().parse_args(argv)
    if sys.stdout is None and args.command != "lab":  # (``>&-``: Python then drops every print silently)
        _warn("standard output is closed")
        return 1
    real = sys.stdout
    guarded = sys.stdout = _GuardedOutput(real) if real is not None else None
    try:
        code = args.func(args)
        if guarded is not None:
            guarded.flush()  # (now, not at exit, where a failure is a traceback-like message and exit code 120)
        return code
    except KeyboardInterrupt:
        _warn("")
        return 130
    except _OutputFailed as e:
        sys.stdout = real
        _silence_stdout()
        cause = e.args[0]
        if not isinstance(cause, BrokenPipeError):  # (a reader that went away wants no message)
            _warn(f"cannot write to standard output: {cause.strerror or cause}")
        return 1
    finally:
        if guarded is not None and sys.stdout is guarded:
            sys.stdout = real


def _warn(text: str) -> None:
    """A line on standard error, if there is one to write to."""
    try:
        print(f"spiderette: {text}" if text else "", file=sys.stderr)
    except (AttributeError, ValueError, OSError):
        pass


def _game(args: argparse.Namespace) -> Game:
    """The game the options ask for; an error the engine finds in them is a usage error (exit 2)."""
    try:
        return Game(args.variant, args.seed, args.suits)
    except (ValueError, TypeError) as e:
        args.command_parser.error(str(e))
        raise  # (not reached: error() exits)


def _title(g: Game) -> str:
    suits = f"{g.suits} suit{'s' if g.suits != 1 else ''}"
    return f"{RULES[g.variant].title} · deal {g.seed} · {suits}"


# ---------------------------------------------------------------------- lab
def play_notebook() -> bytes:
    """The play notebook shipped with the package (in a source checkout: ``notebooks/01-play.ipynb``)."""
    packaged = resources.files("spiderette").joinpath("notebooks", PLAY_NOTEBOOK)
    if packaged.is_file():
        return packaged.read_bytes()
    checkout = Path(__file__).resolve().parents[2] / "notebooks" / PLAY_NOTEBOOK
    return checkout.read_bytes()


def lab_command(folder: Path, no_browser: bool = False, port: int | None = None) -> list[str]:
    """The command line that starts JupyterLab serving ``folder``, opening its play notebook."""
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}",
           f"--LabApp.default_url=/lab/tree/{NOTEBOOK_NAME}"]  # (also in the URLs it prints)
    if no_browser:
        cmd.append("--no-browser")
    if port is not None:
        cmd.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # Jupyter refuses to run as root without it (containers often are root)
    return cmd


#: JupyterLab's page settings for ``spiderette lab`` (a ``labconfig/page_config.json`` in a folder put first on
#: ``JUPYTER_CONFIG_PATH``; the user's own ``~/.jupyter`` still wins): no build check. The table needs no
#: JupyterLab build (anywidget's front end is prebuilt), and the check runs Node's yarn when Node is on the PATH,
#: whose failures fill the terminal with minified JavaScript.
LAB_PAGE_CONFIG = {"buildCheck": False, "buildAvailable": False}
#: A line of JupyterLab's output longer than this is cut (a line of minified JavaScript in a Node error: its
#: yarn configuration is read when ``jupyterlab`` is imported, which no setting turns off).
LONG_LINE = 400


def lab_environment(config_dir: Path) -> dict[str, str]:
    """The environment JupyterLab runs in: this one, with ``config_dir`` (where :data:`LAB_PAGE_CONFIG` is
    written) first on ``JUPYTER_CONFIG_PATH``."""
    labconfig = config_dir / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(json.dumps(LAB_PAGE_CONFIG), encoding="utf-8")
    env = dict(os.environ)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in (str(config_dir), env.get("JUPYTER_CONFIG_PATH")) if p)
    return env


def shorten_line(line: str, limit: int = LONG_LINE) -> str:
    """``line`` as is, or its start and how much was cut when it is longer than ``limit`` characters.

    >>> shorten_line("short")
    'short'
    >>> shorten_line("var a=1;" * 100, limit=20)
    'var a=1;var a=1;var  [780 characters cut]'
    """
    body = line.rstrip("\r\n")
    if len(body) <= limit:
        return line
    return f"{body[:limit]} [{len(body) - limit} characters cut]" + line[len(body):]


def _pass_on_shortened(source, sink) -> None:
    """Copy the lines of ``source`` (a binary pipe) to ``sink`` (a text stream), long lines cut, until its end."""
    with source:
        for raw in iter(source.readline, b""):
            try:
                sink.write(shorten_line(raw.decode("utf-8", "replace")))
                sink.flush()
            except (OSError, ValueError):  # a closed or broken terminal: drain the pipe, so JupyterLab never blocks
                pass


def run_jupyter(cmd: list[str], cwd: Path) -> int:
    """Run JupyterLab until it stops, and return its exit code.

    Ctrl+C is left to it (it asks before shutting down). A SIGTERM or SIGHUP sent to this process (a
    service manager stopping it, a closed terminal) is passed on to JupyterLab, which then shuts down its
    kernels, so that nothing is left running. It starts quietly: without its build check
    (:data:`LAB_PAGE_CONFIG`), and with any line of its log longer than :data:`LONG_LINE` cut.
    """
    proc: subprocess.Popen | None = None
    early: list[int] = []  # signals that came before JupyterLab started

    def forward(signum: int, _frame: object) -> None:
        if proc is None:
            early.append(signum)
        else:
            proc.send_signal(signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            previous[sig] = signal.signal(sig, forward)
        except ValueError:  # (not the main thread: signals cannot be caught there)
            break
    config_dir = Path(tempfile.mkdtemp(prefix="spiderette-lab-"))
    relay = None
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=lab_environment(config_dir), stderr=subprocess.PIPE)
        relay = threading.Thread(target=_pass_on_shortened, args=(proc.stderr, sys.stderr), daemon=True)
        relay.start()
        for signum in early:
            proc.send_signal(signum)
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                continue
    finally:
        if relay is not None:
            relay.join(timeout=5)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        shutil.rmtree(config_dir, ignore_errors=True)


def cmd_lab(args: argparse.Namespace) -> int:
    """``spiderette lab``: copy the play notebook into the folder (never over a file) and start JupyterLab."""
    if importlib.util.find_spec("jupyterlab") is None:
        print(LAB_MISSING, file=sys.stderr)
        return 1
    folder = (args.notebook_dir or Path.cwd()).resolve()
    if not folder.is_dir():
        args.command_parser.error(f"no such folder: {args.notebook_dir}")
    notebook = folder / NOTEBOOK_NAME
    if notebook.exists():
        print(f"Opening {notebook} (already there: kept as it is)")
    else:
        try:
            with open(notebook, "xb") as f:  # "x": never over a file that appeared meanwhile
                f.write(play_notebook())
        except OSError as e:
            print(f"spiderette lab: cannot write {notebook}: {e.strerror or e}", file=sys.stderr)
            return 1
        print(f"Wrote {notebook}, a copy of the play notebook")
    sys.stdout.flush()
    return run_jupyter(lab_command(folder, args.no_browser, args.port), folder)


# ---------------------------------------------------------------------- play
def _ending(g: Game) -> str:
    moves = f"{g.move_count} move{'s' if g.move_count != 1 else ''}"
    return (f"{_title(g)}: {ENDINGS.get(g.status, 'not finished')} · score {g.score} · {moves}"
            f" · runs {g.runs_completed}/{g.runs_total}")


#: How much of a piped line the transcript echoes.
ECHO_LIMIT = 500


def _read(prompt: str, echo: bool) -> str | None:
    """A line of input (``None`` at end of input, or with standard input closed); piped input is echoed so the
    transcript reads well."""
    if sys.stdin is None:  # (``<&-``)
        print()
        return None
    try:
        line = input(prompt)
    except EOFError:
        print()
        return None
    if echo:   # (control characters escaped, a long line cut: a transcript a terminal shows as it is)
        print(printable(line, ECHO_LIMIT))
    return line


def _command(g: Game, word: str) -> tuple[str, bool]:
    """Carry out a command word; returns (what to print, whether the table changed). Unknown: ``("", False)``."""
    if word in ("u", "undo"):
        if not g.can_undo:
            return "nothing to undo", False
        g.undo()
        return f"took back {g.notation(g.redo_list[0])}", True
    if word in ("r", "redo"):
        if not g.can_redo:
            return "nothing to redo", False
        said = f"played {g.notation(g.redo_list[0])} again"
        g.redo()
        return said, True
    if word in ("h", "hint"):
        h = hint(g)
        if h is None:
            return "no hint: no useful move (undo, or w: where did it go wrong?)", False
        return f"hint: {g.notation(h.move)} ({h.reason})", False
    if word in ("m", "moves"):
        moves = [g.notation(m) for m in g.legal_moves()]
        return "legal moves: " + (" ".join(moves) if moves else "none"), False
    if word in ("t", "table"):
        return "", True
    if word in ("w", "wrong"):
        return _post_mortem(g), False
    if word in ("?", "help"):
        return PLAY_HELP, False
    return "", False


def _post_mortem(g: Game) -> str:
    """Where the game went wrong (:func:`spiderette.analyse`, the solver peeking), in one paragraph."""
    if not g.history:
        return "nothing played yet: nothing to analyse"
    from .players.analysis import analyse

    print("looking for where the game went wrong (the solver sees every card)...", flush=True)
    return analyse(g, planner=False).summary


def cmd_play(args: argparse.Namespace) -> int:
    """``spiderette play``: a game in the terminal, read line by line from standard input."""
    g = _game(args)
    echo = sys.stdin is not None and not sys.stdin.isatty()
    print(f"{_title(g)}. Type moves like ab, d, ab3; ? for help, q to quit.\n")
    print(table_text(g))
    played = False
    line: str | None = None
    while not g.is_won:
        line = _read("> ", echo)
        if line is None:
            break
        text = line.strip().lower()
        if not text:
            continue
        if text in ("q", "quit", "exit"):
            break
        said, changed = _command(g, text)
        if not said and not changed:  # not a command: moves in notation
            try:
                g.play(text)
            except ValueError as e:
                print(f"not played: {e}")
                continue
            changed = played = True
        if said:
            print(said)
        if changed:
            print()
            print(table_text(g))
            if g.status in ("lost", "dead_end"):
                print(f"{ENDINGS[g.status]}. u to undo, w to see where it went wrong, q to quit")
    if played and not g.is_won and line is not None:   # quit (not the end of input): offer the post-mortem
        answer = _read("where did it go wrong? analyse the game (the solver peeks) [y/N] ", echo)
        if answer is not None and answer.strip().lower() in ("y", "yes", "w"):
            print(_post_mortem(g))
    if played and not args.no_record:
        print(_record(g))
    print(_ending(g))
    return 0


def _record(g: Game) -> str:
    """Count a finished or abandoned terminal game in the statistics, as a table counts its games."""
    from .userdata.datafolder import new_id
    from .userdata.statistics import record_result

    won = g.is_won
    try:
        record_result(g.variant, g.suits, won=won, score=g.score, moves=g.move_count, game_id=new_id())
    except OSError as e:
        return f"(not counted in your statistics: {e.strerror or e})"
    return f"(counted in your statistics as a {'win' if won else 'loss'}; --no-record to play without counting)"


# ---------------------------------------------------------------------- solve
def cmd_solve(args: argparse.Namespace) -> int:
    """``spiderette solve``: the solver's verdict, its line in notation, the tables searched and the time."""
    from .players.solver import solve

    g = _game(args)
    print(_title(g))
    res = solve(g, time_limit=args.seconds)
    proof = None
    if args.prove and res.result == "unknown":   # every table the game can reach, layer by layer
        proof = prove(g, time_limit=args.seconds, max_held=args.max_held)
    outcome = "loss" if proof is not None and proof.outcome == "lost" else res.result
    print("verdict:", VERDICTS.get(outcome) or f"unknown ({res.reason or 'budget spent'})")
    if res.odds is not None and outcome == "unknown":   # what an unknown means, measured (spiderette.players.odds)
        print(f"odds: {res.odds.short()}: {res.odds.words()}")
    if proof is not None:
        print(f"proof: {proof}")
    if res.result == "win":
        replay, tokens = g.copy(), []
        for m in res.moves:
            tokens.append(replay.notation(m))
            replay.apply(m)
        print(f"line: {' '.join(tokens)} ({len(tokens)} moves)")
    print(f"nodes: {res.nodes:,} tables expanded")
    print(f"time: {res.seconds:.2f} s")
    return 0


# ---------------------------------------------------------------------- stats
def cmd_stats(args: argparse.Namespace) -> int:
    """``spiderette stats``: prints ``str(spiderette.stats())``."""
    try:  # lazy: only this command needs it (``spiderette.stats``: the function, or a module holding it)
        from . import stats
    except ImportError:
        print("spiderette stats: this version of spiderette keeps no statistics", file=sys.stderr)
        return 1
    print(str(getattr(stats, "stats", stats)()))
    return 0
