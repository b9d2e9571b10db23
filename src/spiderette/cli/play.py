"""``spiderette play``: a game in the terminal, moves and commands read line by line from standard input.

A game with a move made counts in the statistics (as the table's do); piped input is echoed, so the
transcript reads well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..engine.cards import card_code, card_text
from ..engine.errors import printable
from ..engine.game import MAX_SEQUENCE, Game
from ..engine.move import parse_moves
from ..engine.positions import text_picture
from ..engine.variants import RULES
from ..engine.words import plural
from ..notebook.wording import ENDINGS
from ..players.advice import planner_hint
from .streams import shows_suits

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
  q, quit    stop; after moves not yet looked at with w, first asks (y/N) whether
             to see where the game went wrong (end of input stops without asking)"""

#: The question ``q`` asks before quitting a game it has not analysed (y: the post-mortem, anything else: no).
QUIT_QUESTION = "Quit. First see where the game went wrong (the solver looks at every card)? y/N: "


def card_names(stream=None) -> Callable[[int], str]:
    """How the terminal names cards, on the table and in the hints alike: ``10♣`` where ``stream`` (standard
    output) can show the suit symbols, else the ASCII codes (``TC``) of ``print(g)``."""
    return card_text if shows_suits(sys.stdout if stream is None else stream) else card_code


def table_text(g: Game, stream=None) -> str:
    """The terminal's picture of the table, its cards named by :func:`card_names`."""
    return text_picture(g, card_names(stream))


def game_from(args: argparse.Namespace) -> Game:
    """The game the options ask for; an error the engine finds in them is a usage error (exit 2)."""
    try:
        return Game(args.variant, args.seed, args.suits)
    except (ValueError, TypeError) as e:
        args.command_parser.error(str(e))
        raise  # (not reached: error() exits)


def title(g: Game) -> str:
    """The game's title line: ``Spiderette · deal 7 · 4 suits``."""
    return f"{RULES[g.variant].title} · deal {g.seed} · {plural(g.suits, 'suit')}"


def _ending(g: Game) -> str:
    return (f"{title(g)}: {ENDINGS.get(g.status, 'not finished')} · score {g.score} · {plural(g.move_count, 'move')}"
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
        h = planner_hint(g, name=card_names())   # (hint(g), its cards named as the table names them)
        if h is None:
            return "no hint: no useful move (undo, or w: where did it go wrong?)", False
        assert h.move is not None   # (the planner's hint has its move)
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
    from ..players.analysis import analyse

    print("looking for where the game went wrong (the solver sees every card)...", flush=True)
    return analyse(g, planner=False).summary


def cmd_play(args: argparse.Namespace) -> int:
    """``spiderette play``: a game in the terminal, read line by line from standard input."""
    g = game_from(args)
    echo = sys.stdin is not None and not sys.stdin.isatty()
    print(f"{title(g)}. Type moves like ab, d, ab3; ? for help, q to quit.\n")
    print(table_text(g))
    played = False
    line: str | None = None
    analysed: str | None = None   # the position the post-mortem (w) last looked at
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
        if text in ("w", "wrong"):
            analysed = g.position()   # (quitting from here need not offer it again)
        if not said and not changed:  # not a command: moves in notation
            try:   # (a bad token is told with this game's letters, a-g in spiderette)
                g.play(parse_moves(text, MAX_SEQUENCE, columns=g.columns))
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
    if line is not None and offers_post_mortem(g, analysed):   # q (not the end of input)
        answer = _read(QUIT_QUESTION, echo)
        if answer is not None and answer.strip().lower() in ("y", "yes", "w"):
            print(_post_mortem(g))
    if played and not args.no_record:
        print(_record(g))
    print(_ending(g))
    return 0


def offers_post_mortem(g: Game, analysed: str | None) -> bool:
    """Whether quitting ``g`` asks first about the post-mortem: a game with moves played, not won, and not
    what ``w`` last looked at (``analysed``, a position)."""
    return bool(g.history) and not g.is_won and g.position() != analysed


def _record(g: Game) -> str:
    """Count a finished or abandoned terminal game in the statistics, as a table counts its games."""
    from ..userdata.datafolder import new_id
    from ..userdata.statistics import record_result

    won = g.is_won
    try:
        record_result(g.variant, g.suits, won=won, score=g.score, moves=g.move_count, game_id=new_id())
    except OSError as e:
        return f"(not counted in your statistics: {e.strerror or e})"
    return f"(counted in your statistics as a {'win' if won else 'loss'}; --no-record to play without counting)"
