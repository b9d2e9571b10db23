"""The rules of the Spider family written again, deliberately plainly, for the tests: a second opinion.

Nothing here is imported from the engine but the card numbers (``suit * 16 + rank``, bit 4 the colour) and a
variant's :class:`~spiderette.engine.variants.Rules` as data. No caches, no compact columns, no cleverness:
every legal move is found by trying every source, count and destination against the rules as the Rules
guide states them, and a move is played on plain lists. The engine's one move generator and applier
(``spiderette.engine.core``), and so every search, are held to this in ``tests/test_core_differential.py``.

A position is ``Table``: each column a pair ``(face-down count, cards bottom first)``, the stock (next card
first), and the runs finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from spiderette.engine.move import Move

ACE, KING, RUN = 1, 13, 13


def rank(card: int) -> int:
    return card & 15


def suit(card: int) -> int:
    return card >> 4


def colour(card: int) -> int:
    return (card >> 4) & 1


@dataclass(frozen=True)
class Table:
    columns: tuple[tuple[int, tuple[int, ...]], ...]
    stock: tuple[int, ...]
    runs: int


class ReferenceRules:
    """The rules of one variant (a ``Rules``), with runs leaving by themselves or sent by hand."""

    def __init__(self, rules, auto_remove: bool) -> None:
        self.rules, self.auto_remove = rules, auto_remove

    # ---------------------------------------------------------------- what the rules say of cards
    def continues(self, below: int, above: int) -> bool:
        """Does ``above`` continue a group (and a run) lying on ``below``: one rank lower, and of the same suit
        (the same colour where runs go by colour)?"""
        if rank(below) != rank(above) + 1:
            return False
        if self.rules.group == "colour":
            return colour(below) == colour(above)
        return suit(below) == suit(above)

    def may_go_onto(self, onto: int, moving: int) -> bool:
        """May ``moving`` be put on ``onto``: one rank lower, and the suit or colour the building asks."""
        if rank(onto) != rank(moving) + 1:
            return False
        if self.rules.build == "suit":
            return suit(onto) == suit(moving)
        if self.rules.build == "alternate":
            return colour(onto) != colour(moving)
        return True

    def group_size(self, column: tuple[int, tuple[int, ...]]) -> int:
        """How many cards on top of a column may move together (0 when it is empty)."""
        down, cards = column
        if not cards:
            return 0
        size = 1
        while size < len(cards) - down and self.continues(cards[-size - 1], cards[-size]):
            size += 1
        if self.rules.group == "card":
            return 1
        return size

    def ends_in_a_run(self, column: tuple[int, tuple[int, ...]]) -> bool:
        """Does the column end in thirteen face-up cards, King to Ace, each continuing the one below it?"""
        down, cards = column
        if len(cards) - down < RUN:
            return False
        top = cards[-RUN:]
        if rank(top[0]) != KING:
            return False
        return all(self.continues(top[i], top[i + 1]) for i in range(RUN - 1))

    # ---------------------------------------------------------------- the moves
    def legal_moves(self, t: Table) -> set[Move]:
        """Every legal move, as the engine's ``Move`` values."""
        return {Move(*m) if m[0] == "move" else Move(m[0], *m[1:2]) for m in self.actions(t)}

    def actions(self, t: Table) -> list[tuple]:
        """Every legal move as a plain tuple: ``("move", source, destination, count)``, ``("deal",)``,
        ``("send", column)``."""
        out: list[tuple] = []
        n = len(t.columns)
        for s in range(n):
            for count in range(1, self.group_size(t.columns[s]) + 1):
                moving = t.columns[s][1][-count]
                for d in range(n):
                    if d == s:
                        continue
                    target = t.columns[d][1]
                    if not target or self.may_go_onto(target[-1], moving):
                        out.append(("move", s, d, count))
        if t.stock and (self.rules.deal_with_empty or all(cards for _, cards in t.columns)):
            out.append(("deal",))
        if not self.auto_remove:
            for s in range(n):
                if self.ends_in_a_run(t.columns[s]):
                    out.append(("send", s))
        return out

    @staticmethod
    def turn_over(column: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        """A face-down card left on top turns face up."""
        down, cards = column
        if cards and down == len(cards):
            return down - 1, cards
        return column

    def take_run(self, column: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        down, cards = column
        return self.turn_over((down, cards[:-RUN]))

    def play(self, t: Table, m: Move | tuple, checked: bool = False) -> Table:
        """The table after ``m`` (a ``Move`` or a tuple of :meth:`actions`), which must be legal (``checked``:
        asserted first)."""
        if isinstance(m, Move):
            m = ("move", m.src, m.dst, m.count) if m.kind == "move" else ("send", m.src) if m.kind == "send" \
                else ("deal",)
        if checked:
            assert m in self.actions(t), (m, t)
        cols = list(t.columns)
        runs = t.runs
        stock = t.stock
        kind = m[0]
        if kind == "move":
            _, src, dst, count = m
            down, cards = cols[src]
            moving = cards[-count:]
            cols[src] = self.turn_over((down, cards[:-count]))
            cols[dst] = (cols[dst][0], cols[dst][1] + moving)
            if self.auto_remove and self.ends_in_a_run(cols[dst]):
                cols[dst] = self.take_run(cols[dst])
                runs += 1
        elif kind == "deal":
            dealt = stock[:len(cols)]
            stock = stock[len(dealt):]
            for i, card in enumerate(dealt):
                cols[i] = (cols[i][0], cols[i][1] + (card,))
            if self.auto_remove:
                for i in range(len(dealt)):
                    if self.ends_in_a_run(cols[i]):
                        cols[i] = self.take_run(cols[i])
                        runs += 1
        else:
            cols[m[1]] = self.take_run(cols[m[1]])
            runs += 1
        return Table(tuple(cols), stock, runs)

    def won(self, t: Table) -> bool:
        return t.runs == self.rules.runs

    # ---------------------------------------------------------------- the whole game from here
    def winnable(self, t: Table, most: int) -> bool | None:
        """Can ``t`` be won? Every table reachable from it visited (depth first, each once); ``None`` when
        there are more than ``most`` of them. Once the stock is empty the columns are interchangeable (no deal
        will tell them apart): a table is remembered with its columns in sorted order."""
        def key(x: Table) -> Table:
            return x if x.stock else Table(tuple(sorted(x.columns)), (), x.runs)

        seen = {key(t)}
        todo = [t]
        while todo:
            here = todo.pop()
            if self.won(here):
                return True
            for m in self.actions(here):
                child = self.play(here, m)
                k = key(child)
                if k not in seen:
                    if len(seen) >= most:
                        return None
                    seen.add(k)
                    todo.append(child)
        return False


def table_of(g) -> Table:
    """The table of a ``Game``, read through its public API."""
    cols = tuple((g.face_down(i), tuple(g.column(i))) for i in range(g.columns))
    return Table(cols, tuple(g.stock), g.runs_completed)


def packed(t: Table) -> tuple[bytes, ...]:
    """The table's columns as the search core writes them (``spiderette.engine.core.columns_of``)."""
    return tuple(bytes((down, *cards)) for down, cards in t.columns)
