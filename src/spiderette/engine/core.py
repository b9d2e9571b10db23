"""The search core: the quick table, its moves and the table after each, for the engine and every search.

A **column** is ``bytes``: its first byte counts the face-down cards, the rest are every card of the column,
bottom first (Python remembers the hash of a ``bytes``, so tables are cheap to look up). The solver knows
the face-down cards; the planner does not and writes ``0`` for each (no card is 0: ranks run from 1), so one
move generator serves both. A **table** is a tuple of columns.

The moves are the engine's (:meth:`spiderette.Game.legal_moves`; ``tests/test_search_core.py`` checks them
move by move): a group onto a card one rank higher, any part of the top group into an empty column, the deal
when the rules allow it, and sends of finished runs when they are sent by hand. A search may leave some out,
each by a named rule of :class:`Pruning`.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> core = Core(g)
>>> cols = columns_of(g)
>>> set(core.moves(cols, stock_left=True)) == set(g.legal_moves())
True
>>> move = g.legal_moves()[0]
>>> g.apply(move)
>>> core.after((cols, 0, 0), move) == (columns_of(g), 0, 0)
True
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import ACE, KING, RANK_MASK, RUN_LENGTH, is_complete_run
from .move import DEAL, SENDS, Move, move_table
from .variants import Rules

if TYPE_CHECKING:
    from .game import Game

__all__ = ["NEVER", "ALWAYS", "WITHOUT_STOCK", "Pruning", "Core", "column", "visible_column", "columns_of",
           "links_table", "run_gone", "without_cyclic_gc", "TURNED_SOURCE", "TURNED_DESTINATION", "core_for"]

#: The bits of :meth:`Core.shift`'s ``turned``: the source column turned a card over (every face-up card moved
#: off it); the destination did (a run finished there, left, and uncovered a face-down card).
TURNED_SOURCE, TURNED_DESTINATION = 1, 2

#: A move as :meth:`Core.steps` gives it: ``(move, source, destination, count)``, the source ``-1`` for a deal
#: or a send.
Step = tuple[Move, int, int, int]
DEAL_STEP: Step = (DEAL, -1, 0, 0)
SEND_STEPS: tuple[Step, ...] = tuple((m, -1, 0, 0) for m in SENDS)
_STEP_TABLES: dict[int, list] = {}


def step_table(columns: int) -> list:
    """``table[src][dst][count]``: the move as a :data:`Step` (the shared ``Move`` objects of
    :func:`~spiderette.engine.move.move_table`), built once for each number of columns."""
    table = _STEP_TABLES.get(columns)
    if table is None:
        table = _STEP_TABLES[columns] = [[[m if m is None else (m, s, d, m.count) for m in row] for d, row in
                                          enumerate(rows)] for s, rows in enumerate(move_table(columns))]
    return table


#: When a pruning rule of :class:`Pruning` applies: never, always, or only once the stock is empty.
NEVER, ALWAYS, WITHOUT_STOCK = "never", "always", "without stock"


@dataclass(frozen=True)
class Pruning:
    """Named rules that leave legal moves out; the default leaves none out (every move the engine allows).

    * ``one_empty_column``: only the first empty column is a destination (one is as good as another);
    * ``no_whole_column_to_empty``: never a whole column into an empty one (the same table, columns swapped);

      each is :data:`NEVER`, :data:`ALWAYS` or :data:`WITHOUT_STOCK` (once the stock is empty the columns are
      interchangeable, so then neither loses anything: the solver's complete search stays complete);
    * ``whole_groups``: only whole groups move, and a group already lying on a card one rank higher moves
      only onto a card it links with (to build in suit); with ``eager``, such a move is played at once, as the
      only move of its table (the solver's streamliner);
    * ``deals``: the deal is among the moves (when the rules allow it);
    * ``shortest_first``: moves onto cards come shortest group first (the solver's order); otherwise by
      destination column, as the engine lists them.

    >>> Pruning(one_empty_column=ALWAYS).deals
    True
    """

    one_empty_column: str = NEVER
    no_whole_column_to_empty: str = NEVER
    whole_groups: bool = False
    eager: bool = False
    deals: bool = True
    shortest_first: bool = False

    def __post_init__(self) -> None:
        for name in ("one_empty_column", "no_whole_column_to_empty"):
            if getattr(self, name) not in (NEVER, ALWAYS, WITHOUT_STOCK):
                raise ValueError(f"{name} is one of {NEVER!r}, {ALWAYS!r} or {WITHOUT_STOCK!r}")


#: Every legal move.
EVERY_MOVE = Pruning()
#: How many tables' moves a :class:`Core` remembers at most (by the facts of their columns: :meth:`Core.fact`);
#: when full, it forgets them all and starts again.
MOVES_REMEMBERED = 200_000
#: How many columns' facts a :class:`Core` remembers at most before it forgets them all (the same).
COLUMNS_REMEMBERED = 2_000_000


_gc_lock = threading.Lock()
_gc_searches = 0          # searches running without the cyclic collector
_gc_was_enabled = False   # whether it ran before the first of them


@contextmanager
def without_cyclic_gc() -> Iterator[None]:
    """A long search without Python's cyclic garbage collector, which it would only slow down: a search keeps
    millions of tables (tuples of bytes) that hold no reference cycle, and the collector would walk them all
    again and again, finding nothing (a third of the time of a search of 450,000 tables). Reference counting
    still frees every table. The collector is switched off while any search runs (in any thread), and back
    on after the last one if it was on before.

    >>> import gc
    >>> with without_cyclic_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    global _gc_searches, _gc_was_enabled
    with _gc_lock:
        if _gc_searches == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_searches += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_searches -= 1
            if _gc_searches == 0 and _gc_was_enabled:
                gc.enable()


def run_gone(col: bytes) -> bytes:
    """The column ``col`` once the finished run on its top has left, the card it uncovers turned over.

    >>> run_gone(column(1, (5, *range(13, 0, -1))))
    b'\\x00\\x05'
    """
    col = col[:-RUN_LENGTH]
    return bytes((col[0] - 1,)) + col[1:] if col[0] and col[0] == len(col) - 1 else col


def column(down: int, cards: tuple[int, ...] | bytes) -> bytes:
    """A column of ``cards`` (bottom first), the ``down`` lowest of them face down.

    >>> column(1, (40, 23))
    b'\\x01(\\x17'
    """
    return bytes((down,)) + bytes(cards)


def visible_column(down: int, up: tuple[int, ...] | bytes) -> bytes:
    """A column as a player sees it: ``down`` unknown cards (each a ``0``) under the face-up cards ``up``.

    >>> visible_column(2, (23,)) == column(2, (0, 0, 23))
    True
    """
    return bytes((down,)) + bytes(down) + bytes(up)


def columns_of(g: Game, visible: bool = False) -> tuple[bytes, ...]:
    """The table of ``g``; ``visible``: as a player sees it (no face-down card read).

    >>> from spiderette import Game
    >>> columns_of(Game(seed=7), visible=True)[1][:2]   # one card face down in column b: a 0
    b'\\x01\\x00'
    """
    if visible:
        out = []
        for i in range(g.columns):
            d = g.face_down(i)
            out.append(visible_column(d, g.column(i)[d:]))
        return tuple(out)
    return tuple(column(g.face_down(i), g.column(i)) for i in range(g.columns))


_LINKS: dict = {}


def links_table(links) -> bytes:
    """``links(below, above)`` for every pair of cards, as a table: ``table[below * 64 + above]`` (made once
    for each rule; a 0, the planner's unknown card, links with nothing).

    >>> from spiderette.engine.variants import same_suit_links
    >>> links_table(same_suit_links)[0x29 * 64 + 0x28], links_table(same_suit_links)[0]
    (1, 0)
    """
    table = _LINKS.get(links)
    if table is None:
        made = bytearray(64 * 64)
        for b in range(1, 64):
            for a in range(1, 64):
                if 1 <= b & RANK_MASK <= KING and 1 <= a & RANK_MASK <= KING:
                    made[b * 64 + a] = links(b, a)
        table = _LINKS[links] = bytes(made)
    return table


class Core:
    """One game's rules in a quick form: the movable group of a column, the moves of a table, the table after.

    ``pruning`` (a :class:`Pruning`) names the moves :meth:`moves` leaves out. The stock's cards are read only
    when ``visible`` is False (the solver); the planner's core never deals.
    """

    def __init__(self, g: Game | Rules, pruning: Pruning = EVERY_MOVE, visible: bool = False,
                 auto_remove: bool | None = None) -> None:
        stock: tuple[int, ...] | list[int]
        if isinstance(g, Rules):   # the rules alone: no stock (the engine's own core, see core_for)
            rules, stock = g, ()
            auto_remove = rules.auto_send if auto_remove is None else auto_remove
        else:
            rules, stock = g.rules, () if visible else g.stock
            auto_remove = g.auto_remove
        self.rules = rules
        self.n = rules.columns
        #: ``links[below * 64 + above]``: does card ``above`` continue a group on card ``below`` (the variant's
        #: rule, :attr:`spiderette.engine.variants.Rules.links`, as a table; a 0 links with nothing)
        self.links = links_table(rules.links)
        #: ``fits[onto * 64 + moving]``: may card ``moving`` go onto card ``onto`` (the variant's rule of building,
        #: :attr:`spiderette.engine.variants.Rules.fits`, as a table), or ``None`` where any suit builds (the
        #: rank is all a move asks)
        self.fits = None if rules.build == "any" else links_table(rules.fits)
        #: how many cards move together at most (``None``: the whole group; 1: one card at a time)
        self.unit = rules.unit
        self.deal_with_empty = rules.deal_with_empty
        self.auto_remove = auto_remove   # False: a finished run stays until sent
        self.stock = stock
        self._stock_bytes = bytes(self.stock)   # (the cards a deal lays, as columns' tails)
        self.table = step_table(self.n)
        self.pruning = pruning
        # (the pruning's two "when" rules, read once: index 0 with stock left, 1 without)
        self._one_empty = tuple(pruning.one_empty_column in (ALWAYS, w) for w in ("", WITHOUT_STOCK))
        self._no_whole = tuple(pruning.no_whole_column_to_empty in (ALWAYS, w) for w in ("", WITHOUT_STOCK))
        self.groups: dict[bytes, int] = {}   # the movable group's length, by column
        self.seats: dict[bytes, tuple[int, int, bool]] = {}   # (see seat)
        # The moves of a table depend only on a few facts of each column (see fact): tables whose columns agree
        # in them have the same moves, in the same order, so the moves are remembered by those facts. Not
        # where a variant's rule of building reads more cards than the facts hold (a complete search with
        # ``fits``), nor where finished runs wait to be sent (a send reads the whole column).
        self.facts: dict[bytes, int] = {}
        self.known: dict[tuple, tuple[Move, ...]] = {}
        self.known_steps: dict[tuple, tuple[Step, ...]] = {}   # (see steps)
        #: the most tables' moves and columns' facts remembered before all are forgotten (see :meth:`moves`)
        self.tables_remembered, self.columns_remembered = MOVES_REMEMBERED, COLUMNS_REMEMBERED
        self._remember = self.auto_remove and (pruning.whole_groups or self.fits is None)

    def forget(self) -> None:
        """Empty the caches of columns and tables (:attr:`groups`, :attr:`seats`, :attr:`facts`, :attr:`known`);
        they are rebuilt as asked."""
        self.groups.clear()
        self.seats.clear()
        self.facts.clear()
        self.known.clear()
        self.known_steps.clear()

    # ---------------------------------------------------------------- one column
    def group(self, col: bytes) -> int:
        """How many cards at the top of ``col`` move together (0 for an empty column).

        >>> from spiderette import Game
        >>> Core(Game(suits=1)).group(column(1, (1, 13, 12, 11)))
        3
        """
        got = self.groups.get(col)
        if got is not None:
            return got
        run = self.run(col)
        if self.unit is not None and run > self.unit:
            run = self.unit
        self.groups[col] = run
        return run

    def run(self, col: bytes) -> int:
        """How many cards at the top of ``col`` descend linked (what a finished run is counted from):
        :meth:`group` unless only one card moves (not remembered)."""
        j = len(col) - 1
        run = 0
        if j:
            lo = col[0] + 1   # the index of the first face-up card
            links = self.links
            run = 1
            while j > lo and links[col[j - 1] * 64 + col[j]]:
                j -= 1
                run += 1
        return run

    def seat(self, col: bytes) -> tuple[int, int, bool]:
        """``(group length, its base card, whether the group already lies on a face-up card one rank higher)``
        of a column that is not empty (what ``whole_groups`` asks), remembered by its contents."""
        r = self.group(col)
        base = col[-r]
        under = col[-r - 1] if len(col) - 1 - col[0] > r else 0
        fits = self.fits   # (where a variant builds in suit or alternate colours: a card it could be built on)
        seated = (under & RANK_MASK) == (base & RANK_MASK) + 1 if fits is None else bool(fits[under * 64 + base])
        got = (r, base, seated)
        self.seats[col] = got
        return got

    def complete(self, col: bytes) -> bool:
        """Does ``col`` end in a finished king-to-ace run?"""
        return len(col) - 1 - col[0] >= RUN_LENGTH and is_complete_run(
            self.run(col) if self.unit is not None else self.group(col), col[-1])

    def fact(self, col: bytes) -> int:
        """What the moves of a table read of its column ``col``, packed in a number (never 0), remembered by
        the column's contents: 1 for an empty column; else its top card (whole groups moving: with the group's
        base card and whether the group is seated, see :meth:`seat`) or, where any suit builds, the top card's
        rank alone; the group's length; and whether the group is the whole column.

        >>> from spiderette import Game
        >>> core = Core(Game(suits=1))
        >>> core.fact(column(1, (1, 13, 12))) == core.fact(column(2, (1, 2, 13, 12)))   # the same moves
        True
        >>> core.fact(column(0, (13, 12))) == core.fact(column(1, (1, 13, 12)))   # a whole column moves: not
        False
        """
        if len(col) == 1:
            got = 1
        elif self.pruning.whole_groups:
            r, base, seated = self.seats.get(col) or self.seat(col)
            got = (((col[-1] * 64 + base) * 16 + r) * 2 + seated) * 2 + (len(col) - 1 == r) + 2
        else:
            r = self.groups.get(col) or self.group(col)
            got = ((col[-1] & RANK_MASK) * 16 + r) * 2 + (len(col) - 1 == r) + 2
        self.facts[col] = got
        return got

    # ---------------------------------------------------------------- a table's moves
    def moves(self, cols: tuple[bytes, ...], stock_left: bool) -> tuple[Move, ...]:
        """The moves of table ``cols`` (``stock_left``: cards are left to deal), less those :attr:`pruning`
        leaves out; the order is the engine's, or shortest group first (``shortest_first``). Remembered by the
        facts of the columns (:meth:`fact`), at most :data:`MOVES_REMEMBERED` tables' at a time."""
        if not self._remember:
            if len(self.groups) >= self.columns_remembered:
                self.forget()   # (a core that serves many games, the engine's own, stays bounded)
            return tuple([step[0] for step in self._moves(cols, stock_left)])
        get, fact = self.facts.get, self.fact
        facts = tuple([get(c) or fact(c) for c in cols]), stock_left
        got = self.known.get(facts)
        if got is None:
            self._bound()
            got = self.known[facts] = tuple([step[0] for step in self._moves(cols, stock_left)])
        return got

    def steps(self, cols: tuple[bytes, ...], stock_left: bool) -> tuple[Step, ...]:
        """:meth:`moves` as ``(move, source, destination, count)``, the source ``-1`` for a deal or a send (what
        :meth:`expander`'s children read without asking the moves for their fields), remembered as they are."""
        if not self._remember:
            if len(self.groups) >= self.columns_remembered:
                self.forget()
            return tuple(self._moves(cols, stock_left))
        get, fact = self.facts.get, self.fact
        facts = tuple([get(c) or fact(c) for c in cols]), stock_left
        got = self.known_steps.get(facts)
        if got is None:
            self._bound()
            got = self.known_steps[facts] = tuple(self._moves(cols, stock_left))
        return got

    def _bound(self) -> None:
        """Forget every table's moves and column's facts when the core remembers as many as it may."""
        if (len(self.known) + len(self.known_steps) >= self.tables_remembered
                or len(self.facts) >= self.columns_remembered):
            self.forget()

    def _moves(self, cols: tuple[bytes, ...], stock_left: bool) -> list[Step]:
        """:meth:`steps`, worked out."""
        p = self.pruning
        table = self.table
        get, group = self.groups.get, self.group
        one_empty, no_whole = self._one_empty[not stock_left], self._no_whole[not stock_left]
        out: list[Step] = []
        whole_groups = p.whole_groups
        if whole_groups or p.shortest_first:
            by_top: dict[int, list[int]] = {}  # the columns whose top card has this rank
            empty = []
            for i, col in enumerate(cols):
                if len(col) == 1:
                    empty.append(i)
                else:
                    onto = by_top.get(col[-1] & RANK_MASK)
                    if onto is None:
                        by_top[col[-1] & RANK_MASK] = [i]
                    else:
                        onto.append(i)
            if empty and one_empty:
                empty = empty[:1]
            fits = self.fits
            if whole_groups:
                eager, links, seat, seat_get = p.eager, self.links, self.seat, self.seats.get
            for s, col in enumerate(cols):
                if len(col) == 1:
                    continue
                row = table[s]
                if whole_groups:
                    r, base, seated = seat_get(col) or seat(col)
                    for d in by_top.get((base & RANK_MASK) + 1, ()):
                        if fits is not None and not fits[cols[d][-1] * 64 + base]:
                            continue
                        in_suit = links[cols[d][-1] * 64 + base]
                        if in_suit and eager:
                            return [row[d][r]]   # a whole group building in suit: played at once
                        if not seated or in_suit:
                            out.append(row[d][r])
                    if empty and not (no_whole and len(col) - 1 == r):
                        out.extend([row[d][r] for d in empty])
                    continue
                r = get(col) or group(col)
                top = col[-1] & RANK_MASK
                if fits is None:   # (any suit builds: the rank is all a move asks)
                    for k in range(1, r + 1):
                        onto = by_top.get(top + k)
                        if onto is not None:
                            for d in onto:
                                out.append(row[d][k])
                else:
                    for k in range(1, r + 1):
                        onto = by_top.get(top + k)
                        if onto is not None:
                            out.extend([row[d][k] for d in onto if fits[cols[d][-1] * 64 + col[-k]]])
                if empty:   # (not the whole column into an empty one, where no_whole says so)
                    last = len(col) - 1 if no_whole and len(col) - 1 <= r else r + 1
                    for d in empty:
                        out.extend(row[d][1:last])
        else:
            empty = [i for i, col in enumerate(cols) if len(col) == 1]
            if empty and one_empty:
                empty = empty[:1]
            tops = [col[-1] & RANK_MASK if len(col) > 1 else 0 for col in cols]
            n = len(cols)
            fits = self.fits
            for s, col in enumerate(cols):
                if len(col) == 1:
                    continue
                r = get(col) or group(col)
                row = table[s]
                base = tops[s]
                for d in range(n):
                    k = tops[d] - base
                    if 0 < k <= r and d != s and (fits is None or fits[cols[d][-1] * 64 + col[-k]]):
                        out.append(row[d][k])
                for d in empty:
                    moves = row[d]
                    if no_whole and len(col) - 1 == r:
                        out.extend(moves[1:r])   # not the whole column into an empty one
                    else:
                        out.extend(moves[1:r + 1])
        if stock_left and p.deals and (self.deal_with_empty or not empty):
            out.append(DEAL_STEP)
        if not self.auto_remove:
            out.extend(SEND_STEPS[i] for i in range(self.n) if self.complete(cols[i]))
        return out

    # ---------------------------------------------------------------- the table after a move
    def shift(self, col: bytes, dcol: bytes, k: int) -> tuple[bytes, bytes, bool, int]:
        """``(source, destination, finished, turned)`` after moving the top ``k`` cards of ``col`` onto
        ``dcol``: the card uncovered turned over; ``finished``: a king-to-ace run was made (not moved whole, as
        a run sent by hand may be), and has left (with the card under it turned over) when runs leave by
        themselves; ``turned``: which columns turned a card
        over, :data:`TURNED_SOURCE` and :data:`TURNED_DESTINATION` (bits, 0 for none). The one applier of a
        move: the engine's :meth:`~spiderette.Game.apply` and every search's children (:meth:`children`).

        >>> from spiderette import Game
        >>> Core(Game(suits=1)).shift(column(1, (5, 9)), column(0, (10,)), 1)
        (b'\\x00\\x05', b'\\x00\\n\\t', False, 1)
        """
        left, moved = col[:-k], dcol + col[-k:]
        turned = 0
        if left[0] and left[0] == len(left) - 1:
            left = bytes((left[0] - 1,)) + left[1:]  # turn over the card on top
            turned = TURNED_SOURCE
        # (a run made here: its ace came, and not the whole run, which was finished before it moved)
        finished = col[-1] & RANK_MASK == ACE and k < RUN_LENGTH and self.complete(moved)
        if finished and self.auto_remove:
            moved = run_gone(moved)
            if moved[0] < dcol[0]:
                turned |= TURNED_DESTINATION
        return left, moved, finished, turned

    def deal(self, cols: tuple[bytes, ...], cards: bytes) -> tuple[tuple[bytes, ...], tuple[tuple[int, bool], ...]]:
        """``(columns, runs)`` after dealing ``cards`` face up onto the first columns, one each: ``runs`` names each
        column whose run a card finished and that left (runs leaving by themselves), and whether a card turned
        over under it. The one applier of a deal.

        >>> from spiderette import Game
        >>> Core(Game(suits=1)).deal((column(1, (5, 9)), column(0, ())), bytes((8, 3)))
        ((b'\\x01\\x05\\t\\x08', b'\\x00\\x03'), ())
        """
        new = list(cols)
        gone = []
        auto_remove, one = self.auto_remove, ONE_CARD
        for i, card in enumerate(cards):
            col = cols[i] + one[card]   # (a face-up card on top: nothing to turn over, unless...)
            if auto_remove and card & RANK_MASK == ACE and self.complete(col):
                left = run_gone(col)   # (...a run it finished leaves)
                gone.append((i, left[0] < col[0]))
                col = left
            new[i] = col
        return tuple(new), tuple(gone)

    def send(self, col: bytes) -> bytes:
        """The column ``col`` after its finished run is sent to the foundations (it must end in one): the one
        applier of a send (:func:`run_gone`)."""
        return run_gone(col)

    def after(self, state: tuple, m: Move) -> tuple:
        """The table ``(columns, dealt, runs)`` after ``m`` (known to be legal); ``dealt`` counts the stock's
        cards dealt so far, ``runs`` the finished runs."""
        return self.step(state, m)[0]

    def step(self, state: tuple, m: Move) -> tuple[tuple, int]:
        """``(table after m, cards turned over)``: :meth:`after`, and how many face-down cards the move turned
        over (a move, a deal or a send: what a proof pass's layers and a planner's leaves go by)."""
        cols, dealt, runs = state
        if m.kind == "move":
            s, d = m.src, m.dst
            assert s is not None and d is not None and m.count is not None   # (a move: Move.__post_init__)
            left, moved, finished, turned = self.shift(cols[s], cols[d], m.count)
            new = list(cols)
            new[s], new[d] = left, moved
            return (tuple(new), dealt, runs + (finished and self.auto_remove)), (turned & 1) + (turned >> 1)
        if m.kind == "deal":
            k = min(self.n, len(self.stock) - dealt)
            after, gone = self.deal(cols, self._stock_bytes[dealt:dealt + k])
            return (after, dealt + k, runs + len(gone)), (sum(t for _, t in gone) if gone else 0)
        assert m.src is not None
        col = cols[m.src]   # a send: the finished run leaves
        new = list(cols)
        new[m.src] = self.send(col)
        return (tuple(new), dealt, runs + 1), int(new[m.src][0] < col[0])

    def children(self, state: tuple, seen: dict | set | None = None) -> list[tuple]:
        """Every child of the table ``state`` (``(columns, dealt, runs)``): ``(move, columns, dealt, runs, cards
        turned over)`` after each of :meth:`moves`, in their order (one flat tuple a child: the searches build
        a table's state only for the children they keep). With ``seen`` (a search's tables met, by key), a move's
        child whose key is in it is left out, and each kept move's child carries its key last: the table itself
        while cards are left to deal, else its columns sorted and its runs (then the columns are
        interchangeable); a deal's or a send's key is ``None``. Made by :meth:`expander`'s function, which every
        search calls; ``tests/test_core_differential.py`` holds them to an independent copy of the rules.

        >>> from spiderette import Game
        >>> g = Game(seed=7)
        >>> m, cols, dealt, runs, turned = Core(g).children((columns_of(g), 0, 0))[0]
        >>> g.apply(m); (cols, dealt, runs) == (columns_of(g), 0, 0), turned
        (True, 1)
        """
        return self.expander(seen)(state)

    def expander(self, seen: dict | set | None = None, linked: bool = False) -> Callable[..., list[tuple]]:
        """:meth:`children` as a function of the table alone, for one search whose tables met are ``seen``, with
        the core's fields read once rather than at every table. ``linked``: ``seen`` is the search's tree, a
        ``dict`` from each table's key to ``(its parent's key, the move)``; the function then takes the table's
        key too (``children(state, key)``) and enters each move's child it keeps in the tree, so that no two
        moves of a table give it one child twice (the solver's hot loop; a deal's or a send's child, whose key
        is ``None``, is left for the search to enter)."""
        auto_remove, shift, step, steps = self.auto_remove, self.shift, self.step, self.steps
        stock = len(self.stock)

        def children(state: tuple, here: tuple | None = None) -> list[tuple]:
            cols, dealt, runs = state
            dealing = dealt < stock
            out = []
            for m, s, d, k in steps(cols, dealing):
                if s < 0:
                    child, turned = step(state, m)
                    out.append((m, *child, turned) if seen is None else (m, *child, turned, None))
                    continue
                col, dcol = cols[s], cols[d]
                if col[-1] & RANK_MASK == ACE and len(dcol) - 1 - dcol[0] + k >= RUN_LENGTH:
                    left, moved, finished, turned = shift(col, dcol, k)   # a run may be finished: shift says
                    done = runs + 1 if finished and auto_remove else runs
                    turned = (turned & 1) + (turned >> 1)
                else:   # (shift inlined, for the moves that finish nothing: the hot loop of every search)
                    left, moved, done, turned = col[:-k], dcol + col[-k:], runs, 0
                    if left[0] and left[0] == len(left) - 1:
                        left = bytes((left[0] - 1,)) + left[1:]   # turn over the card on top
                        turned = 1
                new = list(cols)
                new[s] = left
                new[d] = moved
                if seen is None:
                    out.append((m, tuple(new), dealt, done, turned))
                    continue
                table = tuple(new)
                key = (table, dealt, done) if dealing else (tuple(sorted(table)), done)
                if key not in seen:   # (most tables after the last deal were seen: nothing more made of them)
                    if linked:
                        seen[key] = (here, m)   # type: ignore[index]  # (a dict when linked)
                    out.append((m, table, dealt, done, turned, key))
            return out

        return children


#: Each card as a one-byte column tail (what a deal puts on a column).
ONE_CARD = tuple(bytes((c,)) for c in range(256))

_ENGINE_CORES: dict[tuple[Rules, bool], Core] = {}
_BY_IDENTITY: dict[tuple[int, bool], tuple[Rules, Core]] = {}
#: What the engine's own cores (:func:`core_for`) remember at most: a game meets a few hundred tables, and a
#: study of thousands of games would otherwise fill the caches a search may.
ENGINE_TABLES_REMEMBERED, ENGINE_COLUMNS_REMEMBERED = 20_000, 50_000


def core_for(rules: Rules, auto_remove: bool) -> Core:
    """The engine's own core for ``rules`` (every move, no stock: :meth:`spiderette.Game.legal_moves` and
    :meth:`~spiderette.Game.apply` read it), made once and shared by every game of those rules.

    >>> from spiderette.engine.variants import RULES
    >>> core_for(RULES["spider"], True) is core_for(RULES["spider"], True)
    True
    """
    fast = _BY_IDENTITY.get((id(rules), auto_remove))   # (no hash of the rules' fields: asked at every move)
    if fast is not None and fast[0] is rules:
        return fast[1]
    key = (rules, auto_remove)
    core = _ENGINE_CORES.get(key)
    if core is None:
        core = _ENGINE_CORES[key] = Core(rules, auto_remove=auto_remove)
        # (it lives as long as the process, over every game played: some 20 MB of memory at the most)
        core.tables_remembered, core.columns_remembered = ENGINE_TABLES_REMEMBERED, ENGINE_COLUMNS_REMEMBERED
    _BY_IDENTITY[id(rules), auto_remove] = (rules, core)   # (the rules kept alive with it: the id stays theirs)
    return core
