"""Hints that explain themselves: a simple ranking of the legal moves, best first.

The ranking, in plain words (the order the widget's Hint button follows):

1. **finish a run**: the group completes King to Ace on its new column; or **send a finished run** (when runs
   are sent by hand);
2. **turn over a card**: the move uncovers a face-down card;
3. **build in suit**: the group lands on a card of its own suit, without breaking a suited run;
4. **empty a column**: the move leaves its column empty;
5. **build**: any other move that changes something (a move that takes a group off one card only to put
   it on another card of the same kind is left out);
6. **deal** when nothing above is left; or, when an empty column stops the deal, **fill it**, with a group
   led by a high card first;
7. **rearrange** (listed last, for a player who plans ahead): **re-park** a group from one card of the right
   rank to another, which frees the card it lay on; **split** a group into an empty column.

Greedy play (:func:`greedy_move`) follows classes 1 to 6 only: a rearranging move pays off only as part of
a plan, which is the planner's job (:mod:`spiderette.players.planner`).

>>> from spiderette import Game
>>> h = best_hint(Game(seed=7))
>>> h.move.kind in ("move", "deal")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.cards import card_code, rank_of
from ..engine.game import Game
from ..engine.move import LETTERS, Move
from ..engine.predicates import (
    builds_in_suit,
    empties_a_column,
    fills_an_empty_column,
    finishes_a_run,
    lands_in_suit,
    left_below,
    lies_in_sequence,
    splits_a_group,
    turns_over_a_card,
    visible_key,
)

#: The class of the rearranging moves, listed after the deal.
REARRANGE = 7
#: Between the first and the last card of a group: an en dash (``9♦–7♦``, ``9D–7D``).
DASH = "\u2013"


def group_words(col: Sequence[int], count: int, name: Callable[[int], str]) -> str:
    """The top ``count`` cards of a column, written by ``name``: the card, or the first and the last.

    >>> from spiderette.engine.cards import card_text, parse_card
    >>> group_words([parse_card("TH"), parse_card("9D"), parse_card("8D")], 2, card_text)
    '9♦–8♦'
    """
    return name(col[-count]) + (f"{DASH}{name(col[-1])}" if count > 1 else "")


def onto_words(what: str, onto: int | None, dst: int, name: Callable[[int], str]) -> str:
    """A group (``what``, in words) going onto card ``onto`` of column ``dst``, or to that column empty
    (``onto`` ``None``): ``"9♦–7♦ onto 10♥"``, ``"9♦–7♦ to the empty column b"``. The one wording of a
    group moved onto a card, for the hint ranking, the planner's steps and the table's move list."""
    return f"{what} onto {name(onto)}" if onto is not None else f"{what} to the empty column {LETTERS[dst]}"


def group_onto(g: Game, m: Move, name: Callable[[int], str]) -> str:
    """The group move ``m`` takes and where it goes, said before it is played in ``g``: ``"9♦–7♦ onto 10♥"``."""
    assert m.src is not None and m.dst is not None   # (a move names both columns: Move.__post_init__)
    return onto_words(group_words(g.column(m.src), m.count or 1, name), g.top_card(m.dst), m.dst, name)


@dataclass(frozen=True)
class Hint:
    """A suggested move and why.

    ``rank`` is the class of the ranking above (1 best; 0 for a hint from a search). A hint from the planner
    or a search also carries ``line`` (the plan among the visible cards that starts with ``move``), ``value``
    (the planner's value of the plan, lower is better; the share of sampled deals won for the search) and
    ``alternatives``: the other first moves considered, each a ``Hint``, best first. A planner's hint names
    what its line changes on the table in ``terms`` (:func:`spiderette.players.terms.line_terms`: "turns over
    a card", "mends a break in order", ...), the words its reason uses. ``move`` is ``None``
    only for a verdict with no move to suggest (``hint(g, method="solver")`` on a lost position).

    A hint whose reason holds the ranking's judgement of its move carries that judgement as data: ``kind``
    (one of :data:`KINDS`), ``cards`` (the first card of the group moved, and for a re-park the card it
    frees) and ``target`` (the card it goes onto, ``None`` for an empty column); :meth:`words` writes it with
    any card names. A plan's own words (the planner's first suggestion) have no kind.
    """

    move: Move | None
    reason: str
    rank: int
    line: tuple[Move, ...] = ()
    value: float | None = None
    alternatives: tuple[Hint, ...] = ()
    kind: str = ""
    cards: tuple[int, ...] = ()
    target: int | None = None
    terms: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}" if self.move is not None else self.reason

    def _repr_pretty_(self, p, cycle: bool) -> None:
        """A notebook cell's result (IPython): the sentence, ``str(hint)``; ``repr(hint)`` stays the full
        ``Hint(move=Move.parse(...), ...)`` that Python reads back."""
        p.text(str(self))

    def words(self, name: Callable[[int], str] = card_code) -> str:
        """The ranking's reason for the move, its cards written by ``name`` (``""`` for a hint with no kind).

        >>> from spiderette.engine.cards import card_text
        >>> h = best_hint(Game(seed=7))
        >>> h.kind, h.words()
        ('turn-over', 'moving 6H onto 7C turns over a card in column b')
        >>> h.words(card_text)
        'moving 6♥ onto 7♣ turns over a card in column b'
        """
        if not self.kind:
            return ""
        assert self.move is not None   # (a hint with a kind is a ranked move)
        return _words(self.kind, self.move, self.cards, self.target, name)

    def said(self, reason: str, rank: int | None = None, **fields) -> Hint:
        """This hint's move and judgement with another ``reason`` (a search's or a plan's words around it)."""
        return Hint(self.move, reason, self.rank if rank is None else rank, kind=self.kind, cards=self.cards,
                    target=self.target, **fields)


#: The ranking's kinds of move (:attr:`Hint.kind`).
KINDS = ("send", "finish-run", "turn-over", "build-in-suit", "build-in-colour", "empty-column", "build", "deal",
         "deal-later", "fill-for-deal", "re-park", "split")


def _words(kind: str, m: Move, cards: tuple[int, ...], onto: int | None, name: Callable[[int], str]) -> str:
    """The reason of a ranked move in words, its cards written by ``name``."""
    if kind == "send":
        assert m.src is not None   # (a send names its column)
        return f"sends the finished run in column {LETTERS[m.src]} to the foundations"
    if kind == "deal":
        return NOTHING_LEFT
    if kind == "deal-later":
        return AFTER_ABOVE
    assert m.src is not None and m.dst is not None and m.count is not None   # (a move, resolved)
    a, b = LETTERS[m.src], LETTERS[m.dst]
    what = name(cards[0]) + _on_it(m.count)
    empty = f"the empty column {b}"
    if kind == "turn-over":
        return f"moving {onto_words(what, onto, m.dst, name)} turns over a card in column {a}"
    if kind == "split":
        return f"splits the group in column {a}: {what} to {empty}"
    if kind == "re-park":
        if onto is None:
            return f"moves {what} to {empty}, freeing {name(cards[1])}"
        return f"re-parks {what} onto {name(onto)}, freeing {name(cards[1])}"
    if kind == "build":
        if onto is None:
            return f"moves {what} from column {a} to {empty}"
        return f"puts {what} on {name(onto)} (column {b})"
    if kind == "finish-run":
        return f"moving {onto_words(what, onto, m.dst, name)} completes a run"  # (two decks: from one same-suit card)
    if kind in ("build-in-suit", "build-in-colour"):
        assert onto is not None   # (a build lands on a card)
        return f"builds {what} on {name(onto)} in {kind.removeprefix('build-in-')}"
    if kind == "empty-column":
        return f"moving {onto_words(what, onto, m.dst, name)} empties column {a}"
    if kind == "fill-for-deal":
        return f"moving {what} to {empty} lets the stock be dealt"
    raise ValueError(f"unknown hint kind {kind!r}")


def _judge(g: Game, m: Move) -> tuple[int, str, tuple[int, ...]] | None:
    """The class of ``m`` in the ranking, its kind and the cards its reason names, by the named predicates
    (:mod:`spiderette.engine.predicates`); ``None`` for a move that changes nothing."""
    if m.kind == "send":
        return 1, "send", ()
    if m.kind == "deal":
        return 6, "deal", ()
    assert m.src is not None and m.count is not None   # (a legal move, resolved)
    col, k = g.column(m.src), m.count
    below = left_below(g, m)
    lead = (col[-k],)
    freed = lead + (col[below - 1],) if below else lead
    if fills_an_empty_column(g, m):
        if below == 0:
            return None  # a whole column to another empty column changes nothing
        if turns_over_a_card(g, m):
            return 2, "turn-over", lead
        if splits_a_group(g, m):
            return REARRANGE, "split", lead
        if lies_in_sequence(g, m):
            return REARRANGE, "re-park", freed
        return 5, "build", lead
    if turns_over_a_card(g, m):
        return 2, "turn-over", lead
    if finishes_a_run(g, m):
        return 1, "finish-run", lead
    if builds_in_suit(g, m):
        return 3, f"build-in-{g.rules.kin}", lead
    if empties_a_column(g, m):   # (onto a card: a move into an empty column was classed above, so one is gained)
        return 4, "empty-column", lead
    if lies_in_sequence(g, m):
        return REARRANGE, "re-park", freed
    return 5, "build", lead


def _on_it(k: int) -> str:
    """The cards on a group's first card, in words: ``""``, ``" and the card on it"``, ``" and the 3 cards on
    it"``."""
    return "" if k < 2 else " and the card on it" if k == 2 else f" and the {k - 1} cards on it"


#: The deal's reason when nothing is listed above it, and when moves are.
NOTHING_LEFT = "no useful move is left: deal a new row"
AFTER_ABOVE = "deals a new row (the moves listed above it come first)"


def ranked_hints(g: Game, name: Callable[[int], str] = card_code) -> list[Hint]:
    """Every useful legal move with its reason, best first (the rearranging moves last).

    Ties go to a move that builds in suit, then to the longer group, then to the leftmost columns. The
    reasons write cards with ``name`` (``card_code``: ``"TH"``; the widget passes
    :func:`spiderette.engine.cards.card_text`: ``"10♥"``).
    """
    with g.locked():
        ranking = _ranking(g)
        return [Hint(m, _words(kind, m, cards, target, name), rank, kind=kind, cards=cards, target=target)
                for rank, kind, cards, m in ranking
                for target in [g.top_card(m.dst) if m.kind == "move" and m.dst is not None else None]]


def _ranking(g: Game) -> list[tuple[int, str, tuple[int, ...], Move]]:
    """The ranking as data, best first: ``(rank, kind, cards, move)`` for every useful legal move."""
    out: list[tuple] = []
    later: list[tuple] = []
    for m in g.legal_moves():
        judged = _judge(g, m)
        if judged is not None:
            (later if judged[0] == REARRANGE else out).append((judged[0], not lands_in_suit(g, m),
                                                               -(m.count or 0), m, *judged[1:]))
    if not out and g.stock_count and not g.can_deal():
        out = _fills(g)
        filling = {t[3] for t in out}
        later = [t for t in later if t[3] not in filling]
    out.sort(key=lambda t: t[:3])
    later.sort(key=lambda t: t[:3])
    ranking = [(t[0], t[4], t[5], t[3]) for t in out + later]
    if len(ranking) > 1 and ranking[0][3].kind != "deal":   # the deal is not the first: say so
        ranking = [(t[0], "deal-later", (), t[3]) if t[1] == "deal" else t for t in ranking]
    return ranking


def useful_hints(g: Game, name: Callable[[int], str] = card_code) -> list[Hint]:
    """:func:`ranked_hints` without the rearranging moves: what greedy play chooses from."""
    return [h for h in ranked_hints(g, name) if h.rank < REARRANGE]


def _fills(g: Game) -> list[tuple]:
    """When nothing else is useful and an empty column stops the deal: the moves that fill it, a group led by
    a high card first (nothing can go under a king)."""
    out = []
    for m in g.legal_moves():
        if m.kind != "move":
            continue
        assert m.src is not None and m.dst is not None and m.count is not None   # (a legal move, resolved)
        if g.top_card(m.dst) is None and m.count < len(g.column(m.src)):
            lead = g.column(m.src)[-m.count]
            out.append((6, -rank_of(lead), -m.count, m, "fill-for-deal", (lead,)))
    return out


def best_hint(g: Game, name: Callable[[int], str] = card_code) -> Hint | None:
    """The best move by the ranking above, or ``None`` when nothing useful is left (cards written by ``name``)."""
    hints = useful_hints(g, name)
    return hints[0] if hints else None


def greedy_move(g: Game, seen: set | None = None) -> Move | None:
    """The greedy policy: the best-ranked move that does not lead back to a table in ``seen``.

    With ``seen`` (a set of :func:`~spiderette.engine.predicates.visible_key` values: the tables as a player sees
    them, which this function fills in) a game played move after move never goes round in a circle; ``None``
    when every useful move does. A deal, or a move that turns a card over, is never a table seen before (in a
    game played forwards the hidden cards only get fewer). It reads no hidden card, so it plays the same on
    a copy whose hidden cards were redealt: :class:`spiderette.GreedyStrategy` is this policy.

    >>> from spiderette import Game
    >>> g, seen = Game(seed=7), set()
    >>> while g.status == "playing" and (m := greedy_move(g, seen)) is not None:
    ...     g.apply(m)
    >>> g.move_count > 10
    True
    """
    with g.locked():
        moves = [m for rank, _, _, m in _ranking(g) if rank < REARRANGE]
    if seen is None or not moves:
        return moves[0] if moves else None
    seen.add(visible_key(g))
    probe = None
    for m in moves:
        if m.kind == "deal" or turns_over_a_card(g, m):
            return m   # fewer cards are hidden after it: the table cannot have been seen
        probe = probe or g.copy()  # try the move on a copy: the game's own redo list stays as it is
        probe.apply(m)
        key = visible_key(probe)
        probe.undo()
        if key not in seen:
            return m
    return None
