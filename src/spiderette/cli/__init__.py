"""The ``spiderette`` command: ``lab``, ``play``, ``solve`` and ``stats`` (also ``python -m spiderette``).

Each subcommand is a function ``cmd_NAME(args)`` returning the exit code; :func:`main` parses and runs one.
Here: the arguments, ``main``, ``solve`` and ``stats``; ``lab`` in :mod:`spiderette.cli.lab`, ``play`` in
:mod:`spiderette.cli.play`, the standard streams in :mod:`spiderette.cli.streams`.

Exit codes: 0 done; 1 a command that could not do its work, or a standard output closed (``>&-``), full or
broken: the command stops there, without a traceback, quietly for a reader that went away (``| head -1``)
and with one line on standard error otherwise; 2 bad arguments (the message quotes at most about 60
characters of a bad value); 130 Ctrl+C. A closed standard input ends ``play`` as the end of input does. A
terminal whose encoding lacks the suit symbols gets letters instead (``6H`` for ``6♥``), and ``?`` for any
other character it cannot show.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..engine.ccore import describe
from ..engine.errors import MAX_SECONDS, QUOTE_LIMIT, clip, quote
from ..engine.variants import VARIANTS
from ..engine.words import plural
from ..players.limits import MAX_TABLES
from ..players.proof import DEFAULT_MAX_HELD, prove
from .lab import NOTEBOOK_NAME, cmd_lab
from .play import cmd_play, game_from, title
from .streams import GuardedOutput, OutputFailed, fit_streams, silence_stdout, warn

VERDICTS = {
    "win": "win (a winning line, replayed by the engine)",
    "loss": "loss (proven: every table the game can reach was visited)",
}


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
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}; {describe()}",
                        help="show the version, and the search core in use (compiled or pure Python), and exit")
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
    from .. import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code.

    Bad arguments print a message on stderr and raise ``SystemExit(2)``, as argparse does. A closed or broken
    standard output returns 1 (see the module's text).
    """
    fit_streams()
    args = build_parser().parse_args(argv)
    if sys.stdout is None and args.command != "lab":  # (``>&-``: Python then drops every print silently)
        warn("standard output is closed")
        return 1
    real = sys.stdout
    guarded = sys.stdout = GuardedOutput(real) if real is not None else None
    try:
        code = args.func(args)
        if guarded is not None:
            guarded.flush()  # (now, not at exit, where a failure is a traceback-like message and exit code 120)
        return code
    except KeyboardInterrupt:
        warn("")
        return 130
    except OutputFailed as e:
        sys.stdout = real
        silence_stdout()
        cause = e.args[0]
        if not isinstance(cause, BrokenPipeError):  # (a reader that went away wants no message)
            warn(f"cannot write to standard output: {cause.strerror or cause}")
        return 1
    finally:
        if guarded is not None and sys.stdout is guarded:
            sys.stdout = real


# ---------------------------------------------------------------------- solve
def cmd_solve(args: argparse.Namespace) -> int:
    """``spiderette solve``: the solver's verdict, its line in notation, the tables searched and the time."""
    start = time.perf_counter()
    from ..players.solver import solve

    g = game_from(args)
    print(title(g))
    res = solve(g, time_limit=args.seconds)
    proof = None
    if args.prove and res.result == "unknown":   # every table the game can reach, layer by layer
        proof = prove(g, time_limit=args.seconds, max_held=args.max_held)
    outcome = "loss" if proof is not None and proof.outcome == "lost" else res.result
    print("verdict:", VERDICTS.get(outcome) or f"unknown ({res.reason or 'budget spent'})")
    if res.odds is not None and outcome == "unknown":   # what an unknown means, measured (spiderette.players.odds)
        print(f"odds: {res.odds.head}: {res.odds.words()}")
    if proof is not None:
        print(f"proof: {proof}")
    if res.result == "win":
        replay, tokens = g.copy(), []
        for m in res.moves:
            tokens.append(replay.notation(m))
            replay.apply(m)
        print(f"line: {' '.join(tokens)} ({plural(len(tokens), 'move')})")
    print(f"nodes: {plural(res.nodes, 'table')} expanded")
    print(describe())
    print(time_line(time.perf_counter() - start, res.seconds, proof.seconds if proof is not None else None))
    return 0


def time_line(total: float, solver: float, proof: float | None = None) -> str:
    """What the solve command's time covers: the whole command, and the searches' part of it.

    >>> time_line(17.349, 10.45, 6.9)
    'time: 17.35 s in all (the solver 10.45 s, the proof pass 6.90 s)'
    """
    parts = f"the solver {solver:.2f} s" + (f", the proof pass {proof:.2f} s" if proof is not None else "")
    return f"time: {total:.2f} s in all ({parts})"


# ---------------------------------------------------------------------- stats
def cmd_stats(args: argparse.Namespace) -> int:
    """``spiderette stats``: prints ``str(spiderette.stats())``."""
    try:  # lazy: only this command needs it (``spiderette.stats``: the function, or a module holding it)
        from .. import stats
    except ImportError:
        print("spiderette stats: this version of spiderette keeps no statistics", file=sys.stderr)
        return 1
    print(str(getattr(stats, "stats", stats)()))
    return 0
