"""``Game``: one mutable table, its legal moves, apply / undo / redo, status and score.

>>> g = Game(seed=7)
>>> g.deals_left, g.score, g.status
(4, 500, 'playing')
>>> m = g.legal_moves()[0]
>>> g.apply(m)
>>> g.undo() == m
True
>>> g.column(0), g.face_down(6), g.top_card(0) == g.column(0)[-1]
((20,), 6, True)
"""

from __future__ import annotations

import functools
import itertools
import random
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from enum import Enum
from operator import is_

from .cards import ACE, KING, RANK_MASK, RUN_LENGTH, card_code, rank_of
from .checks import check_state
from .core import core_for
from .deals import check_seed, lay_out, shuffle, shuffled_deck
from .errors import IllegalMoveError, InvalidPositionError, NotationError, flag, quote, seconds, whole
from .move import DEAL, LETTERS, SENDS, Move, move_table, parse_moves, too_many
from .refusals import Refusal
from .variants import Rules, get_rules
from .words import plural

SCORINGS = ("standard", "pairs")


class Word(str, Enum):
    """A state named by a word: a ``str`` equal to its value, hashed, written, formatted, shown and sent as
    JSON as that value (the base of :class:`Status` and of the solver's verdicts)."""

    __str__ = str.__str__
    # (str's own, as the docstring says; typeshed gives Enum's __format__ another signature)
    __format__ = str.__format__  # type: ignore[assignment]
    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return repr(self.value)


class Status(Word):
    """What :attr:`Game.status` says: a ``str`` equal to its value (``g.status == "won"``).

    >>> Status.DEAD_END == "dead_end", f"{Status.WON}", {"won": 1}[Status.WON], Status("lost")
    (True, 'won', 1, 'lost')
    """

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    DEAD_END = "dead_end"


_RLOCK = type(threading.RLock())


def _locking(method: Callable) -> Callable:
    """The method holds the game's lock while it runs, when the game has one (see ``Game.lock``)."""
    @functools.wraps(method)
    def locking(self: Game, *args, **kwargs):
        with self.locked():
            return method(self, *args, **kwargs)
    return locking


def as_move(move: object, name: str = "move") -> Move:
    """``move`` as a ``Move``: a ``Move`` itself or one token of notation; ``NotationError`` otherwise."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise NotationError(f"{name} must be a Move or move notation like 'ab', not {quote(move)}")


class Game:
    """A game of Spiderette (or another variant of the family).

    ``Game()`` deals a random numbered deal (``g.seed`` tells which); ``Game(seed=7)`` deals number 7,
    the same cards everywhere and forever. ``variant`` is one of ``spiderette``,
    ``red_black_spiderette``, ``will_o_the_wisp`` or ``spider`` (or the :class:`Rules` of a design file:
    :func:`spiderette.engine.cardz.from_cardz`); ``suits`` 4, 2 or 1;
    ``auto_remove=False`` keeps complete runs in the tableau until sent (``"sc"``; ``None``: as the variant
    has it, runs leave by themselves in every built-in one);
    ``scoring="pairs"`` counts same-suit pairs instead of the 500-point score. ``lock`` (rarely needed) is
    an ``RLock`` to use as :attr:`lock` instead of a lock of its own.

    Cards are small ints (see :mod:`spiderette.engine.cards`; ``card_code(c)`` writes ``"QH"``). To share a
    game between threads, use its :attr:`lock` (the widget does).
    """

    _elapsed: float = 0.0
    _lock: threading.RLock | None   # (None: the lock is made when first asked for)

    @property
    def elapsed(self) -> float:
        """Seconds spent playing the game, kept by whoever times it (the widget's game timer); saved with it.
        A number of seconds >= 0 (at most a billion): anything else is refused and changes nothing."""
        return self._elapsed

    @elapsed.setter
    def elapsed(self, value: float) -> None:
        self._elapsed = seconds(value, "elapsed")

    # ------------------------------------------------------------------ set-up
    def __init__(self, variant: str | Rules = "spiderette", seed: int | None = None, suits: int = 4,
                 auto_remove: bool | None = None, scoring: str = "standard", *,
                 lock: threading.RLock | None = None) -> None:
        rules = get_rules(variant)
        self._configure(rules, suits, rules.auto_send if auto_remove is None else auto_remove, scoring)
        if lock is not None:  # one lock for a family of games (the widget's games share its lock)
            if not isinstance(lock, _RLOCK):
                raise TypeError(f"lock must be a threading.RLock (a plain Lock would deadlock), not {quote(lock)}")
            self._lock = lock
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000_000)
        self.seed: int | None = check_seed(seed)
        cols, down, stock = lay_out(rules, shuffled_deck(self.seed, rules.decks, self.suits))
        self._set_state(cols, down, stock, [], 0)

    @classmethod
    def from_state(cls, variant: str | Rules = "spiderette", *, columns: list, face_down: list,
                   stock: Sequence = (), foundations: Sequence = (), moves: int | None = None, suits: int = 4,
                   auto_remove: bool | None = None, scoring: str = "standard", seed: int | None = None) -> Game:
        """A game at the table given card by card (cards as ints); checked by :mod:`spiderette.engine.checks`.

        ``columns`` bottom to top with ``face_down[i]`` face-down cards at the bottom of column ``i``;
        ``stock`` next card first; ``foundations`` one list per finished run, king first; ``moves`` the moves
        played (``None``: the fewest that reach the table, one per deal made). The score follows from the
        moves and the runs. Raises ``InvalidPositionError`` saying what could not be reached.

        >>> g = Game(seed=7)
        >>> h = Game.from_state(columns=[g.column(i) for i in range(7)],
        ...                     face_down=[g.face_down(i) for i in range(7)], stock=g.stock, seed=7)
        >>> h.position() == g.position()
        True
        """
        try:
            rules = get_rules(variant)
            g = object.__new__(cls)
            g._configure(rules, suits, rules.auto_send if auto_remove is None else auto_remove, scoring)
            g.seed = None if seed is None else check_seed(seed)
        except (TypeError, ValueError) as e:
            raise InvalidPositionError(str(e)) from None
        cols, down, left, found, played = check_state(rules, g.suits, g.auto_remove, columns, face_down,
                                                      stock, foundations, moves)
        g._set_state(cols, down, left, found, played)
        return g

    def _configure(self, rules: Rules, suits: object, auto_remove: object, scoring: object) -> None:
        suits = whole(suits, "suits")
        if suits not in rules.suit_options:
            raise ValueError(rules.suits_refusal(suits))
        auto_remove = flag(auto_remove, "auto_remove")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be 'standard' or 'pairs', not {quote(scoring)}")
        self.rules = rules
        self.variant = rules.name
        self.suits: int = suits
        self.auto_remove = auto_remove
        self.scoring: str = scoring
        self._n = rules.columns
        self._core = core_for(rules, auto_remove)   # the one move generator and applier (engine/core.py)
        self._fits = None if rules.build == "any" else rules.fits   # None: the rank is all a build asks
        self._unit = rules.unit     # None: a whole group moves; 1: one card at a time
        self._table = move_table(self._n)
        self._runs_total = rules.runs
        self._lock = None

    def _set_state(self, cols: list[list[int]], down: list[int], stock: list[int],
                   found: list[list[int]], moves: int) -> None:
        # The table: each column as the core's compact column (the face-down count, then the cards), in a tuple
        # replaced by every move (never changed in place): taking a move back puts the tuple before it back.
        self._pk: tuple[bytes, ...] = tuple(bytes((d, *c)) for c, d in zip(cols, down))
        self._legal: tuple = ((), ())   # (table, its legal moves): asked several times a table, made once
        self._stock = stock          # in deal order; self._sp is the next card to deal
        self._sp = 0
        self._found = found          # completed runs, each king first
        self._moves = moves
        self._undo: list[tuple] = []
        self._redo: list[Move] = []
        self._start = ([list(c) for c in cols], list(down), list(stock), [list(r) for r in found], moves)

    def copy(self, *, lock: threading.RLock | None = None) -> Game:
        """An independent copy of the game, its history included, with no lock (see :attr:`lock`) or ``lock``.

        >>> g = Game(seed=7); g.play("bd")
        [Move.parse('bd1')]
        >>> h = g.copy(); h.undo(); (g.move_count, h.move_count)
        Move.parse('bd1')
        (1, 0)
        """
        if lock is not None and not isinstance(lock, _RLOCK):
            raise TypeError(f"lock must be a threading.RLock (a plain Lock would deadlock), not {quote(lock)}")
        with self.locked():
            g = object.__new__(type(self))   # (a subclass copies as itself)
            g.__dict__.update(self.__dict__)
            g._found = [list(r) for r in self._found]
            g._undo = list(self._undo)
            g._redo = list(self._redo)
            g._lock = lock
            return g

    def __getstate__(self) -> dict:
        state = {**self.__dict__, "_lock": None}  # a lock cannot be pickled; the copy has none
        # (shared by every game of the rules, found again when unpickled: the core, and the moves the game tells
        # legal ones by, which would come back as new objects)
        del state["_core"], state["_table"]
        state["_legal"] = ((), ())
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._core = core_for(self.rules, self.auto_remove)
        self._table = move_table(self._n)

    @property
    def lock(self) -> threading.RLock:
        """The game's re-entrant lock, made when first asked for.

        Like a python-chess board, a game is not shared between threads by default, and pays nothing for
        locks. Once its lock exists, every change to the game takes it, so threads may share the game
        safely; hold it to make several steps one (the widget makes it and holds it for each step it plays).

        >>> g = Game(seed=7)
        >>> with g.lock:
        ...     g.play("bd ea")
        [Move.parse('bd1'), Move.parse('ea1')]
        """
        if self._lock is None:
            self._lock = threading.RLock()
        return self._lock

    def locked(self) -> AbstractContextManager:
        """``with g.locked():`` holds the game's lock if it has one (readers use it), else does nothing."""
        return self._lock if self._lock is not None else nullcontext()

    @_locking
    def restart(self) -> None:
        """Go back to the start of the same deal (history and redo are cleared)."""
        cols, down, stock, found, moves = self._start
        self._set_state([list(c) for c in cols], list(down), list(stock), [list(r) for r in found], moves)

    # ------------------------------------------------------------------ read-only state
    @property
    def columns(self) -> int:
        """The number of tableau columns (7, or 10 in spider)."""
        return self._n

    def _col(self, col: object) -> int:
        if col.__class__ is int and 0 <= col < self._n:   # (the common case, at once: no bool, in range)
            return col
        return whole(col, "col", 0, self._n - 1)

    def column(self, col: int) -> tuple[int, ...]:
        """The cards of column ``col`` (0-based), bottom to top; the first :meth:`face_down` are face down."""
        return tuple(self._pk[self._col(col)][1:])

    def face_down(self, col: int) -> int:
        """How many cards at the bottom of column ``col`` are face down."""
        return self._pk[self._col(col)][0]

    def top_card(self, col: int) -> int | None:
        """The top card of column ``col`` (always face up), or ``None`` when the column is empty."""
        c = self._pk[self._col(col)]
        return c[-1] if len(c) > 1 else None

    def movable(self, col: int) -> int:
        """How many cards at the top of column ``col`` move as one group (0 for an empty column; at most one
        where only one card moves, ``Rules.group == "card"``)."""
        return self._core.group(self._pk[self._col(col)])

    def run_length(self, col: int) -> int:
        """How many cards at the top of column ``col`` descend linked (in one suit, or colour): the run a
        King-to-Ace run is finished from; :meth:`movable` unless only one card moves (0 for an empty column)."""
        return self._core.run(self._pk[self._col(col)])

    def packed(self) -> tuple[bytes, ...]:
        """The table as the search core's columns (:mod:`spiderette.engine.core`): for each column a ``bytes``,
        the face-down count and then every card, bottom first. A new tuple after every change, never changed.

        >>> Game(seed=7).packed()[1]   # column b: one card face down (5S), the 6 of hearts (0x16) on it
        b'\\x01\\x05\\x16'
        """
        return self._pk

    @property
    def stock(self) -> tuple[int, ...]:
        """The cards in the stock, the next one dealt first (onto column a)."""
        return tuple(self._stock[self._sp:])

    @property
    def foundations(self) -> tuple[tuple[int, ...], ...]:
        """The finished runs in the order they left, each king first."""
        return tuple(tuple(r) for r in self._found)

    def state_key(self) -> tuple:
        """A hashable key of the table (columns with face-down counts, stock size): equal keys, equal tables.

        The foundations follow from the tableau and the stock; the score and the move count are not in it.
        """
        cols = self._pk
        return tuple(tuple(c[1:]) for c in cols), tuple(c[0] for c in cols), self._sp

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
            return self.standard_score()
        return self.pair_score()

    def standard_score(self) -> int:
        """500, minus one for every move, deal and send, plus 100 for every finished run (a variant read from a
        design file may start elsewhere and give another bonus: ``Rules.start_score``, ``Rules.run_bonus``)."""
        return self.rules.start_score - self._moves + self.rules.run_bonus * len(self._found)

    def pair_score(self) -> int:
        """One point per face-up card on a face-up card of its suit one rank higher, 12 per finished run."""
        pairs = 0
        for pk in self._pk:
            col, lo = pk[1:], pk[0]
            for j in range(lo + 1, len(col)):
                if col[j - 1] == col[j] + 1:
                    pairs += 1
        return pairs + 12 * len(self._found)

    @property
    def history(self) -> list[Move]:
        """The moves played so far; ``Game(...).play(g.history)`` replays them."""
        return [rec[0] for rec in self._undo]

    @property
    def redo_list(self) -> list[Move]:
        """The moves taken back that :meth:`redo` would play again, the next one first."""
        return self._redo[::-1]

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def status(self) -> Status:
        """``"playing"``, ``"won"``, ``"lost"`` (no legal action) or ``"dead_end"`` (a :class:`Status`).

        A dead end: cards are left in the stock, but a deal needs every column filled and the tableau
        holds fewer cards than there are columns, so no deal can ever be made again.
        """
        if len(self._found) == self._runs_total:
            return Status.WON
        if self.is_dead_end():
            return Status.DEAD_END
        if not self._legal_now():
            return Status.LOST
        return Status.PLAYING

    def is_dead_end(self) -> bool:
        if self._sp >= len(self._stock) or self.rules.deal_with_empty:
            return False
        return sum(map(len, self._pk)) - self._n < self._n   # (each column's bytes count its face-down count too)

    # ------------------------------------------------------------------ moves
    def deal_error(self) -> str | None:
        """Why no deal can be made now, or ``None`` when one can."""
        r = self.deal_refusal()
        return None if r is None else r.reason

    def can_deal(self) -> bool:
        """Can a deal be made now: cards left in the stock, and no empty column (unless the variant allows); as
        the core's move generator says (the deal is among :meth:`legal_moves`)."""
        return self._has(DEAL)

    def deal_refusal(self) -> Refusal | None:
        """Why no deal can be made now (a :class:`~spiderette.engine.refusals.Refusal`), or ``None`` when one can."""
        if self.can_deal():
            return None
        if self._sp >= len(self._stock):
            return Refusal("empty-stock")
        empty = next((i for i, col in enumerate(self._pk) if len(col) == 1), None)
        if empty is None:
            raise _unexplained(DEAL)
        return Refusal("deal-with-empty-column", empty)

    def sendable(self) -> list[int]:
        """The columns whose finished run may be sent now (only when runs are sent by hand)."""
        return [m.src for m in self._legal_now() if m.kind == "send" and m.src is not None]   # (the core's sends)

    def legal_moves(self) -> list[Move]:
        """Every legal action now: moves (each count onto an empty column), the deal, sends. They come from the
        search core's one move generator (:meth:`spiderette.engine.core.Core.moves`), as every search's do."""
        return list(self._legal_now())

    def _legal_now(self) -> tuple[Move, ...]:
        """The core's legal moves of the table, worked out once a table (the status, a strategy's choice and
        the move's check all ask them). Kept with the table they belong to: a table is a tuple never changed,
        so an answer for another table (before a move, or made in another thread) is never taken for it."""
        table, moves = self._legal
        cols = self._pk
        if table is not cols:
            moves = self._core.moves(cols, self._sp < len(self._stock))
            self._legal = (cols, moves)
        return moves

    def _has(self, move: Move | None) -> bool:
        """Is ``move`` (one of the shared moves: ``move_table``'s, ``DEAL`` or ``SENDS``'s) legal now?"""
        return any(map(is_, self._legal_now(), itertools.repeat(move)))

    def _shared(self, move: Move) -> Move | None:
        """The shared ``Move`` object the core lists for ``move`` (its count filled in as :meth:`resolve` does),
        or ``None`` when there is none (a column or a count beyond the table's: never legal)."""
        kind, src = move.kind, move.src
        if kind == "deal":
            return DEAL
        assert src is not None   # (a move and a send name their column: Move.__post_init__)
        if kind == "send":
            return SENDS[src]
        dst, count = move.dst, move.count
        assert dst is not None
        if src >= self._n or dst >= self._n:
            return None
        if count is None:
            count = self._fit(src, dst) or 1
        return self._table[src][dst][count] if count <= RUN_LENGTH else None

    def why_illegal(self, move: Move | str) -> str | None:
        """``None`` if ``move`` is legal now, else the reason in words."""
        r = self._why(as_move(move))
        return None if r is None else r.reason

    def refusal(self, move: Move | str) -> Refusal | None:
        """``None`` if ``move`` is legal now, else the engine's refusal: a code and the cards it names.

        >>> Game(seed=7).refusal("ec1")
        Refusal(code='does-not-fit', column=4, cards=(3,), target=43, count=1, limit=None, variant=None)
        """
        return self._why(as_move(move))

    def _why(self, move: Move) -> Refusal | None:
        """``None`` if ``move`` is among the core's legal moves of the table (the one decision), else why not."""
        if self._has(self._shared(move)):
            return None
        if move.kind == "deal":
            return self.deal_refusal()
        why = self._why_not(move)
        if why is None:
            raise _unexplained(move)
        return why

    def _why_not(self, move: Move) -> Refusal | None:
        """The refusal of a move or send the core does not list: the first rule it breaks (``None``: none)."""
        n = self._n
        src = move.src
        assert src is not None   # (a move and a send name their column: Move.__post_init__)
        if src >= n:
            return Refusal("no-such-column", src, limit=n, variant=self.variant)
        if move.kind == "send":
            if self.auto_remove:
                return Refusal("sends-are-automatic", src)
            return Refusal("no-complete-run", src) if not self._core.complete(self._pk[src]) else None
        dst, count = move.dst, move.count
        assert dst is not None
        if dst >= n:
            return Refusal("no-such-column", dst, limit=n, variant=self.variant)
        target = self._pk[dst]
        if count is None:
            count = self._fit(src, dst) or 1
        why = self._group_error(src, count)
        if why or len(target) == 1:
            return why
        moving = self._pk[src][-count]
        onto = target[-1]
        if rank_of(moving) == KING:
            code = "king-to-a-card"
        elif rank_of(onto) == ACE:
            code = "onto-an-ace"
        elif rank_of(onto) != rank_of(moving) + 1:
            code = "does-not-fit"
        elif self._fits is not None and not self._fits(onto, moving):
            code = "not-same-suit" if self.rules.build == "suit" else "not-alternate-colour"
        else:
            return None
        return Refusal(code, src, (moving,), onto, count)

    def group_error(self, col: int, count: int) -> str | None:
        """Why the top ``count`` cards of column ``col`` cannot move together (``None`` if they can)."""
        r = self.group_refusal(col, count)
        return None if r is None else r.reason

    def group_refusal(self, col: int, count: int) -> Refusal | None:
        """:meth:`group_error` as the engine's refusal (a code and the cards it names), or ``None``."""
        return self._group_error(self._col(col), whole(count, "count", 1))

    def _group_error(self, src: int, count: int) -> Refusal | None:
        cards = self._pk[src]   # (the face-down count first: cards are read from the top, cards[-count])
        if len(cards) == 1:
            return Refusal("empty-column", src, count=count)
        up = len(cards) - 1 - cards[0]
        if count > up:
            return Refusal("hidden-card", src, count=count, limit=up)
        if self._unit is not None and count > self._unit:
            return Refusal("one-card-at-a-time", src, (cards[-count], cards[-1]), count=count, limit=self._unit)
        run = self._core.run(cards)
        if count > run:
            lower, upper = cards[-run - 1], cards[-run]
            code = "not-in-sequence" if rank_of(lower) != rank_of(upper) + 1 else f"not-one-{self.rules.kin}"
            return Refusal(code, src, (lower, upper), count=count, limit=run)
        return None

    def _fit(self, src: int, dst: int) -> int | None:
        """The count that ``g.move(src, dst)`` means, or ``None`` if none fits."""
        col, target = self._pk[src], self._pk[dst]
        if len(col) == 1:
            return None
        if len(target) == 1:
            return self._core.group(col)
        k = (target[-1] & RANK_MASK) - (col[-1] & RANK_MASK)
        return k if 0 < k <= len(col) - 1 - col[0] else None

    def resolve(self, move: Move | str) -> Move:
        """The concrete move meant by ``move`` (fills in a missing count), checked for legality."""
        move = as_move(move)
        src, dst = move.src, move.dst
        if move.kind == "move" and move.count is None:
            assert src is not None and dst is not None   # (a move names both columns: Move.__post_init__)
            if src < self._n and dst < self._n:
                k = self._fit(src, dst)
                if k is not None:
                    move = self._table[src][dst][k]  # k <= 13: a run or a rank difference
        why = self._why(move)
        if why is not None:
            raise IllegalMoveError(why, move)
        return move

    def apply(self, move: Move | str) -> None:
        """Play one move (a ``Move`` or one token of notation), after checking it is legal."""
        if move.__class__ is not Move:
            move = as_move(move)
        if self._lock is None:  # (the hot path of every search: no lock, one call)
            self._apply(move)
        else:
            with self._lock:
                self._apply(move)

    def _apply(self, move: Move) -> None:
        if move.count is None and move.kind == "move":
            move = self.resolve(move)
        else:
            why = self._why(move)
            if why is not None:
                raise IllegalMoveError(why, move)
        self._push(move)
        if self._redo:
            if self._redo[-1] == move:
                self._redo.pop()
            else:
                self._redo.clear()

    @_locking
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
        if not isinstance(text, str):
            raise NotationError(f"parse_move takes one token of notation like 'ab', not {quote(text)}")
        return self.resolve(Move.parse(text))

    def notation(self, move: Move | str) -> str:
        """The shortest notation for ``move`` here: ``ab`` when the count is the one ``ab`` means."""
        move = as_move(move)
        src, dst = move.src, move.dst
        if move.kind == "move":
            assert src is not None and dst is not None   # (a move names both columns: Move.__post_init__)
            if src < self._n and dst < self._n and self._fit(src, dst) == move.count:
                return LETTERS[src] + LETTERS[dst]
        return str(move)

    def play(self, moves: str | Iterable[Move | str]) -> list[Move]:
        """Play a sequence of moves: notation (``"ab d cg2"``) or a list of ``Move``.

        All or nothing: if one move is bad, the moves before it are taken back and the error says which.
        Returns the moves played.
        """
        seq = parse_sequence(moves)
        with self.locked():
            depth, redo = len(self._undo), list(self._redo)
            played: list[Move] = []
            for i, m in enumerate(seq, start=1):
                try:
                    m = self.resolve(m)
                    self.apply(m)
                except IllegalMoveError as e:
                    while len(self._undo) > depth:
                        self._pop()
                    self._redo = redo
                    raise e.at(m, i if len(seq) > 1 else None) from None
                played.append(m)
            return played

    # ------------------------------------------------------------------ doing and undoing
    def _push(self, move: Move) -> None:
        """Play a move known to be legal, by the search core's one applier (:meth:`Core.shift`,
        :meth:`Core.deal`, :meth:`Core.send`), and record how to take it back: the table before it (a tuple
        never changed), the stock's place and how many finished runs it sent to the foundations."""
        self._moves += 1
        kind, core, before, sp = move.kind, self._core, self._pk, self._sp
        found = self._found
        gone = 0
        if kind == "move":
            src, dst, k = move.src, move.dst, move.count
            assert src is not None and dst is not None and k is not None   # (a move known to be legal: resolved)
            col, dcol = before[src], before[dst]
            left, moved, finished, _ = core.shift(col, dcol, k)
            if finished and self.auto_remove:
                found.append(list((dcol + col[-k:])[-RUN_LENGTH:]))
                gone = 1
            after = list(before)
            after[src], after[dst] = left, moved
            self._pk = tuple(after)
        elif kind == "deal":
            k = min(self._n, len(self._stock) - sp)
            cards = bytes(self._stock[sp:sp + k])
            self._pk, runs = core.deal(before, cards)
            for i, _ in runs:
                found.append(list((before[i] + cards[i:i + 1])[-RUN_LENGTH:]))
            gone = len(runs)
            self._sp = sp + k
        else:
            s = move.src
            assert s is not None   # (a send names its column: Move.__post_init__)
            found.append(list(before[s][-RUN_LENGTH:]))
            after = list(before)
            after[s] = core.send(before[s])
            self._pk = tuple(after)
            gone = 1
        self._undo.append((move, before, sp, gone))

    def _pop(self) -> Move:
        """Take back the last move: its table, the stock's place and the foundations before it, as recorded."""
        move, self._pk, self._sp, gone = self._undo.pop()
        if gone:
            del self._found[-gone:]
        self._moves -= 1
        return move

    def undo(self) -> Move | None:
        """Take back the last move or deal; returns it (``None`` if there is nothing to undo)."""
        if self._lock is not None:
            with self._lock:
                return self._take_back()
        return self._take_back()

    def _take_back(self) -> Move | None:
        if not self._undo:
            return None
        move = self._pop()
        self._redo.append(move)
        return move

    @_locking
    def redo(self) -> Move | None:
        """Play again the last move taken back; returns it (``None`` if there is nothing to redo)."""
        if not self._redo:
            return None
        move = self._redo[-1]
        self.apply(move)
        return move

    # ------------------------------------------------------------------ what a player sees
    def observation(self) -> dict:
        """What a player may see, as plain data: face-up cards, how many cards are hidden, the counts.

        No face-down or stock card is in it, and no deal number (which would tell them). Two games with the
        same observation look the same to a player; :meth:`redeal_hidden` depends on nothing else.

        The keys: ``variant``, ``suits``, ``auto_remove``, ``scoring`` (the game's options); ``columns``, one
        ``{"down": face-down count, "up": face-up cards bottom to top}`` per column; ``stock`` (cards left
        in it); ``foundations`` (the completed runs, each king first); ``moves`` (played so far). Cards are
        codes (``"6H"``); :meth:`column` and :meth:`top_card` give the engine's ``int`` cards, and
        :mod:`spiderette.engine.cards` converts between the two and the RL environment's numbers
        (``parse_card("6H")``, ``card_code(c)``, ``card_number("6H")``).

        >>> o = Game(seed=7).observation()
        >>> o["columns"][1], o["stock"]
        ({'down': 1, 'up': ['6H']}, 24)
        >>> from spiderette.engine.cards import card_code
        >>> g = Game(seed=7)
        >>> [card_code(c) for c in g.column(1)[g.face_down(1):]] == o["columns"][1]["up"]
        True
        """
        with self.locked():
            return {
                "variant": self.variant, "suits": self.suits, "auto_remove": self.auto_remove,
                "scoring": self.scoring,
                "columns": [{"down": col[0], "up": [card_code(c) for c in col[1 + col[0]:]]} for col in self._pk],
                "stock": self.stock_count,
                "foundations": [[card_code(c) for c in run] for run in self._found],
                "moves": self._moves,
            }

    def redeal_hidden(self, seed: int) -> Game:
        """A new game that looks the same to a player, its hidden cards shuffled afresh among their places.

        The face-down and stock cards are put in a fixed order and shuffled with deal ``seed``'s generator,
        then laid face down column by column (bottom first) and into the stock: the result depends only on
        :meth:`observation` and ``seed``. Every visible card, count and option is kept; the history is not.

        >>> g = Game(seed=7)
        >>> h = g.redeal_hidden(1)
        >>> h.observation() == g.observation(), h.position() == g.position()
        (True, False)
        """
        seed = check_seed(seed)
        with self.locked():
            hidden = sorted([c for col in self._pk for c in col[1:1 + col[0]]]
                            + self._stock[self._sp:])
            shuffle(hidden, seed)
            columns = []
            pos = 0
            for col in self._pk:
                d = col[0]
                columns.append(hidden[pos:pos + d] + list(col[1 + d:]))
                pos += d
            return Game.from_state(self.variant, columns=columns, face_down=[col[0] for col in self._pk],
                                   stock=hidden[pos:], foundations=[list(r) for r in self._found],
                                   moves=self._moves, suits=self.suits, auto_remove=self.auto_remove,
                                   scoring=self.scoring)

    # ------------------------------------------------------------------ pictures and formats
    def __str__(self) -> str:
        from .positions import text_picture

        return text_picture(self)

    def __repr__(self) -> str:
        seed = f", seed={self.seed}" if self.seed is not None else ""
        return (f"<Game {self.variant}{seed} suits={self.suits}: score {self.score},"
                f" {plural(self._moves, 'move')}, {plural(self.deals_left, 'deal')} left, {self.status}>")

    def _repr_svg_(self) -> str:
        from .svg import game_svg

        return game_svg(self)

    def to_dict(self) -> dict:
        """The position as plain JSON-ready data (see the README)."""
        from .positions import to_dict

        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Game:
        """A game at the position ``data`` (as ``to_dict`` gives); ``InvalidPositionError`` if unreachable."""
        from .positions import from_dict

        return from_dict(cls, data)

    def position(self) -> str:
        """The position as one line of text (like chess FEN); ``Game.from_position`` reads it back."""
        from .positions import position_text

        return position_text(self)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """A game at the position ``text`` (as ``position`` gives); ``InvalidPositionError`` if unreachable."""
        from .positions import from_position

        return from_position(cls, text)

    def save(self, path) -> None:
        """Write the game (position, history and redo list) to a JSON file, atomically."""
        from .savefile import save

        save(self, path)

    @classmethod
    def load(cls, path) -> Game:
        """Read a game written by :meth:`save`; ``SaveFileError`` if the file is not a good save."""
        from .savefile import load

        return load(cls, path)


def _unexplained(move: Move) -> AssertionError:
    """The core refuses ``move`` and no rule of the refusals says why: the engine's two readings disagree."""
    return AssertionError(f"the move generator refuses {move} but no rule says why (a bug of the engine)")


#: The most moves one sequence may hold (``play``, ``w.play``, a line typed to ``spiderette play``): an endless
#: iterator is refused, not read forever, and a longer text before any of it is parsed.
MAX_SEQUENCE = 100_000


def parse_sequence(moves: object) -> list[Move]:
    """Moves as notation (``"ab d cg2"``), one ``Move``, or an iterable of ``Move`` / tokens, checked and parsed
    first.

    >>> parse_sequence(["ab", Move("deal")])
    [Move.parse('ab'), Move.parse('d')]
    """
    if isinstance(moves, str):
        return parse_moves(moves, MAX_SEQUENCE)
    if isinstance(moves, Move):   # one move is a sequence of one
        return [moves]
    if not isinstance(moves, Iterable) or isinstance(moves, (bytes, bytearray, dict)):
        raise NotationError(f"moves are notation like 'ab d cg2' or a list of moves, not {quote(moves)}")
    out = [as_move(m, f"move {i}") for i, m in enumerate(itertools.islice(moves, MAX_SEQUENCE + 1), start=1)]
    if len(out) > MAX_SEQUENCE:
        raise too_many(MAX_SEQUENCE)
    return out


def a_game(value: object, who: str) -> Game:
    """``value`` if it is a :class:`Game`; else ``TypeError`` saying that ``who`` takes one."""
    if not isinstance(value, Game):
        raise TypeError(f"{who} takes a Game, not {quote(value)}")
    return value
