"""``Game``: one mutable table, its legal moves, apply / undo / redo, status and score.

>>> g = Game(seed=7)
>>> g.deals_left, g.score, g.status
(4, 500, 'playing')
>>> m = g.legal_moves()[0]
>>> g.apply(m)
>>> g.undo() == m
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .cards import KING, card_code, card_name, rank_of
from .deals import check_seed, lay_out, shuffled_deck
from .errors import IllegalMoveError, NotationError
from .move import DEAL, LETTERS, SENDS, Move, move_table, parse_moves
from .variants import Rules, get_rules

SCORINGS = ("standard", "pairs")
START_SCORE = 500
RUN_BONUS = 100


def _letters(n: int) -> str:
    return f"{LETTERS[0]}-{LETTERS[n - 1]}"


class Game:
    """A game of Spiderette (or another variant of the family).

    ``Game()`` deals a random numbered deal (``g.seed`` tells which); ``Game(seed=7)`` deals number 7,
    the same cards everywhere and forever. ``variant`` is one of ``spiderette``,
    ``red_black_spiderette``, ``will_o_the_wisp`` or ``spider``; ``suits`` 4, 2 or 1;
    ``auto_remove=False`` keeps complete runs in the tableau until sent (``"sc"``);
    ``scoring="pairs"`` counts same-suit pairs instead of the 500-point score.
    """

    # ------------------------------------------------------------------ set-up
    def __init__(self, variant: str = "spiderette", seed: int | None = None, suits: int = 4,
                 auto_remove: bool = True, scoring: str = "standard") -> None:
        rules = get_rules(variant)
        self._configure(rules, suits, auto_remove, scoring)
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000_000)
        self.seed: int | None = check_seed(seed)
        cols, down, stock = lay_out(rules, shuffled_deck(self.seed, rules.decks, self.suits))
        self._set_state(cols, down, stock, [], 0, START_SCORE)
        self._start = self._snapshot()

    def _configure(self, rules: Rules, suits: object, auto_remove: object, scoring: object) -> None:
        if suits not in rules.suit_options or isinstance(suits, bool):
            raise ValueError(f"{rules.name} is played with {' or '.join(map(str, rules.suit_options))} suits,"
                             f" not {suits!r}")
        if not isinstance(auto_remove, bool):
            raise ValueError(f"auto_remove must be True or False, not {auto_remove!r}")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be 'standard' or 'pairs', not {scoring!r}")
        self.rules = rules
        self.variant = rules.name
        self.suits: int = suits  # type: ignore[assignment]
        self.auto_remove = auto_remove
        self.scoring: str = scoring  # type: ignore[assignment]
        self._n = rules.columns
        self._colour = rules.group == "colour"
        self._table = move_table(self._n)
        self._runs_total = rules.runs

    def _set_state(self, cols: list[list[int]], down: list[int], stock: list[int],
                   found: list[list[int]], moves: int, score: int) -> None:
        self._cols = cols
        self._down = down
        self._stock = stock          # in deal order; self._sp is the next card to deal
        self._sp = 0
        self._found = found          # completed runs, each king first
        self._moves = moves
        self._score = score
        self._run = [self._calc_run(i) for i in range(self._n)]
        self._undo: list[tuple] = []
        self._redo: list[Move] = []

    def _snapshot(self) -> tuple:
        return ([list(c) for c in self._cols], list(self._down), self._stock[self._sp:],
                [list(r) for r in self._found], self._moves, self._score)

    def copy(self) -> Game:
        """An independent copy of the game, its history included."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._cols = [list(c) for c in self._cols]
        g._down = list(self._down)
        g._found = [list(r) for r in self._found]
        g._run = list(self._run)
        g._undo = list(self._undo)
        g._redo = list(self._redo)
        return g

    def restart(self) -> None:
        """Go back to the start of the same deal (history and redo are cleared)."""
        cols, down, stock, found, moves, score = self._start
        self._set_state([list(c) for c in cols], list(down), list(stock), [list(r) for r in found],
                        moves, score)

    # ------------------------------------------------------------------ read-only state
    @property
    def columns(self) -> int:
        """The number of tableau columns (7, or 10 in spider)."""
        return self._n

    @property
    def move_count(self) -> int:
        """Moves, deals and sends played so far."""
        return self._moves

    @property
    def deals_left(self) -> int:
        left = len(self._stock) - self._sp
        return -(-left // self._n)

    @property
    def stock_count(self) -> int:
        return len(self._stock) - self._sp

    @property
    def runs_completed(self) -> int:
        return len(self._found)

    @property
    def runs_total(self) -> int:
        return self._runs_total

    @property
    def is_won(self) -> bool:
        return len(self._found) == self._runs_total

    @property
    def score(self) -> int:
        """500 minus one per move and deal plus 100 per run; or the pair score (``scoring="pairs"``)."""
        if self.scoring == "standard":
            return self._score
        return self.pair_score()

    def pair_score(self) -> int:
        """One point per face-up card on a face-up card of its suit one rank higher, 12 per finished run."""
        pairs = 0
        for col, lo in zip(self._cols, self._down):
            for j in range(lo + 1, len(col)):
                if col[j - 1] == col[j] + 1:
                    pairs += 1
        return pairs + 12 * len(self._found)

    @property
    def history(self) -> list[Move]:
        """The moves played so far; ``Game(...).play(g.history)`` replays them."""
        return [rec[0] for rec in self._undo]

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def movable(self, col: int) -> int:
        """How many cards at the top of column ``col`` move as one group (0 for an empty column)."""
        return self._run[col]

    @property
    def status(self) -> str:
        """``"playing"``, ``"won"``, ``"lost"`` (no legal action) or ``"dead_end"``.

        A dead end: cards are left in the stock, but a deal needs every column filled and the tableau
        holds fewer cards than there are columns, so no deal can ever be made again.
        """
        if len(self._found) == self._runs_total:
            return "won"
        if self.is_dead_end():
            return "dead_end"
        if not self.legal_moves():
            return "lost"
        return "playing"

    def is_dead_end(self) -> bool:
        if self._sp >= len(self._stock) or self.rules.deal_with_empty:
            return False
        return sum(len(c) for c in self._cols) < self._n

    # ------------------------------------------------------------------ moves
    def _calc_run(self, i: int) -> int:
        col = self._cols[i]
        j = len(col) - 1
        if j < 0:
            return 0
        lo = self._down[i]
        k = 1
        if self._colour:
            while j > lo:
                a, b = col[j], col[j - 1]
                if (b & 15) != (a & 15) + 1 or (a ^ b) & 16:
                    break
                j -= 1
                k += 1
        else:
            while j > lo and col[j - 1] == col[j] + 1:
                j -= 1
                k += 1
        return k

    def _deal_error(self) -> str | None:
        if self._sp >= len(self._stock):
            return "the stock is empty"
        if not self.rules.deal_with_empty:
            for i, col in enumerate(self._cols):
                if not col:
                    return f"no deal while column {LETTERS[i]} is empty"
        return None

    def _complete(self, i: int) -> bool:
        """Does column ``i`` end in a complete king-to-ace run?"""
        return self._run[i] >= 13 and self._cols[i][-1] & 15 == 1

    def legal_moves(self) -> list[Move]:
        """Every legal action now: moves (each count onto an empty column), the deal, sends."""
        out: list[Move] = []
        cols, run, table = self._cols, self._run, self._table
        n = self._n
        tops = [c[-1] & 15 if c else 0 for c in cols]
        empty = [i for i in range(n) if not tops[i]]
        for s in range(n):
            r = run[s]
            if not r:
                continue
            base = tops[s]
            row = table[s]
            for d in range(n):
                k = tops[d] - base
                if 0 < k <= r:
                    out.append(row[d][k])
            for d in empty:
                moves = row[d]
                out.extend(moves[1:r + 1])
        if self._deal_error() is None:
            out.append(DEAL)
        if not self.auto_remove:
            out.extend(SENDS[i] for i in range(n) if self._complete(i))
        return out

    def why_illegal(self, move: Move) -> str | None:
        """``None`` if ``move`` is legal now, else the reason in words."""
        if move.kind == "deal":
            return self._deal_error()
        n = self._n
        src = move.src
        if src >= n:
            return f"column {LETTERS[src]} does not exist in {self.variant} (columns {_letters(n)})"
        if move.kind == "send":
            if self.auto_remove:
                return "complete runs leave on their own in this game (auto_remove is on)"
            if not self._complete(src):
                return f"column {LETTERS[src]} does not end in a complete king-to-ace run"
            return None
        dst, count = move.dst, move.count
        if dst >= n:
            return f"column {LETTERS[dst]} does not exist in {self.variant} (columns {_letters(n)})"
        col = self._cols[src]
        target = self._cols[dst]
        if count is None:
            count = self._fit(src, dst)
            if count is None:
                count = 1
        why = self._group_error(src, count)
        if why:
            return why
        if not target:
            return None
        moving = col[-count]
        onto = target[-1]
        if rank_of(moving) == KING:
            return "a king can only go to an empty column"
        if rank_of(onto) == 1:
            return "nothing goes on an ace"
        if rank_of(onto) != rank_of(moving) + 1:
            return (f"{card_code(moving)} cannot go on {card_code(onto)}:"
                    " a card goes only on a card one rank higher")
        return None

    def _group_error(self, src: int, count: int) -> str | None:
        """Why the top ``count`` cards of column ``src`` cannot move together (``None`` if they can)."""
        col = self._cols[src]
        a = LETTERS[src]
        up = len(col) - self._down[src]
        if not col:
            return f"column {a} is empty"
        if count > up:
            return (f"column {a} has only {up} face-up card{'s' if up != 1 else ''}"
                    f" (asked for {count})")
        if count > self._run[src]:
            j = len(col) - self._run[src]
            lower, upper = col[j - 1], col[j]
            if rank_of(lower) != rank_of(upper) + 1:
                return (f"{card_code(lower)}-{card_code(upper)} is not in sequence:"
                        f" only the top {self._run[src]} of column {a} move together")
            what = "colour" if self._colour else "suit"
            return f"{card_code(lower)}-{card_code(upper)} is not one {what}, move one card at a time"
        return None

    def _fit(self, src: int, dst: int) -> int | None:
        """The count that ``g.move(src, dst)`` means, or ``None`` if none fits."""
        r = self._run[src]
        if not r:
            return None
        target = self._cols[dst]
        if not target:
            return r
        k = (target[-1] & 15) - (self._cols[src][-1] & 15)
        return k if 0 < k <= len(self._cols[src]) - self._down[src] else None

    def resolve(self, move: Move) -> Move:
        """The concrete move meant by ``move`` (fills in a missing count), checked for legality."""
        if move.kind == "move" and move.count is None and move.src < self._n and move.dst < self._n:
            k = self._fit(move.src, move.dst)
            if k is not None:
                move = self._table[move.src][move.dst][k]  # k <= 13: a run or a rank difference
        why = self.why_illegal(move)
        if why is not None:
            raise IllegalMoveError(f"{move}: {why}")
        return move

    def apply(self, move: Move | str) -> None:
        """Play one move (a ``Move`` or one token of notation), after checking it is legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise NotationError(f"apply takes a Move or a notation string, not {move!r}")
        if move.count is None and move.kind == "move":
            move = self.resolve(move)
        else:
            why = self.why_illegal(move)
            if why is not None:
                raise IllegalMoveError(f"{move}: {why}")
        self._push(move)
        if self._redo:
            if self._redo[-1] == move:
                self._redo.pop()
            else:
                self._redo.clear()

    def move(self, src: int, dst: int, count: int | None = None) -> Move:
        """Move ``count`` cards from column ``src`` to column ``dst`` (0-based); returns the move played.

        ``count=None`` means the one count that fits on ``dst``, or the longest movable group onto an
        empty column.
        """
        m = self.resolve(Move("move", src, dst, count))
        self.apply(m)
        return m

    def deal(self) -> Move:
        """Deal one card onto each column from the stock."""
        self.apply(DEAL)
        return DEAL

    def send(self, col: int) -> Move:
        """Send the complete run at the top of column ``col`` to the foundations (manual mode)."""
        m = Move("send", col)
        self.apply(m)
        return m

    def parse_move(self, text: str) -> Move:
        """Parse one token and resolve it in this position (``"ab"`` gets its count)."""
        return self.resolve(Move.parse(text))

    def notation(self, move: Move) -> str:
        """The shortest notation for ``move`` here: ``ab`` when the count is the one ``ab`` means."""
        if move.kind == "move" and move.src < self._n and move.dst < self._n \
                and self._fit(move.src, move.dst) == move.count:
            return LETTERS[move.src] + LETTERS[move.dst]
        return str(move)

    def play(self, moves: str | Iterable[Move | str]) -> list[Move]:
        """Play a sequence of moves: notation (``"ab d cg2"``) or a list of ``Move``.

        All or nothing: if one move is bad, the moves before it are taken back and the error says which.
        Returns the moves played.
        """
        if isinstance(moves, str):
            seq = parse_moves(moves)
        elif isinstance(moves, Iterable) and not isinstance(moves, (bytes, Move)):
            seq = list(moves)
        else:
            raise NotationError(f"play takes notation like 'ab d cg2' or a list of moves, not {moves!r}")
        depth, redo = len(self._undo), list(self._redo)
        played: list[Move] = []
        for i, m in enumerate(seq, start=1):
            try:
                if isinstance(m, str):
                    m = Move.parse(m)
                elif not isinstance(m, Move):
                    raise NotationError(f"not a move: {m!r}")
                m = self.resolve(m)
                self.apply(m)
            except ValueError as e:
                while len(self._undo) > depth:
                    self._pop()
                self._redo = redo
                raise type(e)(f"move {i} ({m}): {e}" if len(seq) > 1 else str(e)) from None
            played.append(m)
        return played

    # ------------------------------------------------------------------ doing and undoing
    def _flip(self, i: int) -> bool:
        d = self._down[i]
        if d and d == len(self._cols[i]):
            self._down[i] = d - 1
            self._run[i] = 1
            return True
        return False

    def _remove_run(self, i: int, by_hand: bool = False) -> bool:
        if (by_hand or self.auto_remove) and self._complete(i):
            col = self._cols[i]
            self._found.append(col[-13:])
            del col[-13:]
            self._score += RUN_BONUS
            self._run[i] = self._calc_run(i)
            return True
        return False

    def _push(self, move: Move) -> None:
        """Play a move known to be legal and record how to take it back."""
        prev_score = self._score
        self._score -= 1
        self._moves += 1
        kind = move.kind
        if kind == "move":
            src, dst, k = move.src, move.dst, move.count
            scol, dcol = self._cols[src], self._cols[dst]
            moving = scol[-k:]
            del scol[-k:]
            run = self._run
            if dcol and self._links(dcol[-1], moving[0]):
                run[dst] += k
            else:
                run[dst] = k
            dcol.extend(moving)
            if run[src] > k:
                run[src] -= k
                flipped = False
            else:
                flipped = self._flip(src)
                if not flipped:
                    run[src] = self._calc_run(src)
            removed = self._remove_run(dst)
            self._undo.append((move, prev_score, flipped, removed, removed and self._flip(dst)))
        elif kind == "deal":
            k = min(self._n, len(self._stock) - self._sp)
            stock, sp = self._stock, self._sp
            changes = []
            for i in range(k):
                self._cols[i].append(stock[sp + i])
                self._run[i] = self._calc_run(i)
            self._sp = sp + k
            if self.auto_remove:
                for i in range(k):
                    if self._remove_run(i):
                        changes.append((i, self._flip(i)))
            self._undo.append((move, prev_score, k, changes))
        else:
            i = move.src
            self._remove_run(i, by_hand=True)
            self._undo.append((move, prev_score, self._flip(i)))

    def _links(self, below: int, above: int) -> bool:
        if self._colour:
            return (below & 15) == (above & 15) + 1 and not (below ^ above) & 16
        return below == above + 1

    def _unremove(self, i: int, flipped: bool) -> None:
        if flipped:
            self._down[i] += 1
        self._cols[i].extend(self._found.pop())

    def _pop(self) -> Move:
        rec = self._undo.pop()
        move = rec[0]
        kind = move.kind
        if kind == "move":
            _, prev_score, flipped, removed, flipped_dst = rec
            src, dst, k = move.src, move.dst, move.count
            if removed:
                self._unremove(dst, flipped_dst)
            if flipped:
                self._down[src] += 1
            dcol = self._cols[dst]
            self._cols[src].extend(dcol[-k:])
            del dcol[-k:]
            self._run[src] = self._calc_run(src)
            self._run[dst] = self._calc_run(dst)
        elif kind == "deal":
            _, prev_score, k, changes = rec
            for i, flipped in reversed(changes):
                self._unremove(i, flipped)
            for i in range(k):
                self._cols[i].pop()
                self._run[i] = self._calc_run(i)
            self._sp -= k
        else:
            _, prev_score, flipped = rec
            self._unremove(move.src, flipped)
            self._run[move.src] = self._calc_run(move.src)
        self._score = prev_score
        self._moves -= 1
        return move

    def undo(self) -> Move | None:
        """Take back the last move or deal; returns it (``None`` if there is nothing to undo)."""
        if not self._undo:
            return None
        move = self._pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move | None:
        """Play again the last move taken back; returns it (``None`` if there is nothing to redo)."""
        if not self._redo:
            return None
        move = self._redo[-1]
        self.apply(move)
        return move

    # ------------------------------------------------------------------ helpers for people
    def click_move(self, src: int, count: int | None = None) -> Move:
        """The move a click on column ``src`` makes (seed 002's order).

        The group (``count`` cards, or with ``None`` any movable group, longest first) goes onto a card of
        its own suit first, then onto a card of another suit, then to an empty column; leftmost first.
        Raises ``IllegalMoveError`` saying why when it can go nowhere.
        """
        if isinstance(src, bool) or not isinstance(src, int) or not 0 <= src < self._n:
            raise IllegalMoveError(f"column {src!r} does not exist (columns 0-{self._n - 1})")
        col = self._cols[src]
        if not col:
            raise IllegalMoveError(f"column {LETTERS[src]} is empty")
        if count is not None:
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise IllegalMoveError(f"count must be a whole number from 1, not {count!r}")
            why = self._group_error(src, count)
            if why:
                raise IllegalMoveError(why)
        best = None
        for k in ([count] if count is not None else range(self._run[src], 0, -1)):
            moving = col[-k]
            whole = k == len(col)  # a whole column moved to an empty one changes nothing
            for d in range(self._n):
                target = self._cols[d]
                if d == src or (target and (target[-1] & 15) != (moving & 15) + 1) or (not target and whole):
                    continue
                rank = (2 if not target else 0 if target[-1] == moving + 1 else 1, -k, d)
                if best is None or rank < best[0]:
                    best = (rank, self._table[src][d][k])
        if best is None:
            raise IllegalMoveError(f"{card_code(col[-(count or self._run[src])])} has nowhere to go")
        return best[1]

    def view(self) -> dict:
        """What a player may see: face-up cards, counts of hidden ones, score and status (JSON-ready).

        Face-down and stock cards are not in it, only their numbers.
        """
        tableau = []
        for i, col in enumerate(self._cols):
            d = self._down[i]
            tableau.append({"down": d, "up": [card_code(c) for c in col[d:]], "movable": self._run[i]})
        targets: dict[str, list[int]] = {}
        for m in self.legal_moves():
            if m.kind == "move":
                targets.setdefault(f"{m.src}:{m.count}", []).append(m.dst)
        for i in range(self._n):
            for k in range(1, self._run[i] + 1):
                targets.setdefault(f"{i}:{k}", [])
        deal_error = self._deal_error()
        return {
            "variant": self.variant, "suits": self.suits, "columns": self._n,
            "tableau": tableau,
            "stock": self.stock_count, "deals_left": self.deals_left,
            "foundations": [card_code(r[0]) for r in self._found],
            "runs_total": self._runs_total,
            "score": self.score, "moves": self._moves, "runs": len(self._found),
            "status": self.status,
            "can_deal": deal_error is None, "deal_error": deal_error,
            "can_undo": self.can_undo, "can_redo": self.can_redo,
            "sendable": [] if self.auto_remove else [i for i in range(self._n) if self._complete(i)],
            "targets": targets,
        }

    def __str__(self) -> str:
        from .notation import text_picture

        return text_picture(self)

    def __repr__(self) -> str:
        seed = f", seed={self.seed}" if self.seed is not None else ""
        return (f"<Game {self.variant}{seed} suits={self.suits}: score {self.score},"
                f" {self._moves} moves, {self.deals_left} deals left, {self.status}>")

    def _repr_svg_(self) -> str:
        from .svg import game_svg

        return game_svg(self)

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict:
        """The position as plain JSON-ready data (see the README)."""
        from .notation import to_dict

        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Game:
        """A game at the position ``data`` (as ``to_dict`` gives); ``InvalidPositionError`` if unreachable."""
        from .notation import from_dict

        return from_dict(cls, data)

    def position(self) -> str:
        """The position as one line of text (like chess FEN); ``Game.from_position`` reads it back."""
        from .notation import position_text

        return position_text(self)

    @classmethod
    def from_position(cls, text: str) -> Game:
        from .notation import parse_position

        return cls.from_dict(parse_position(text))

    def save(self, path) -> None:
        """Write the game (position, history and redo list) to a JSON file, atomically."""
        from .savefile import save

        save(self, path)

    @classmethod
    def load(cls, path) -> Game:
        """Read a game written by :meth:`save`; ``SaveFileError`` if the file is not a good save."""
        from .savefile import load

        return load(cls, path)


def card_label(code: int, col: int) -> str:
    """Screen-reader text for a face-up card: ``"queen of hearts, column c"``."""
    return f"{card_name(code)}, column {LETTERS[col]}"
