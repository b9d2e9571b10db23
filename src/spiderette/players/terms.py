"""What a line of moves changes on the visible table, in named terms a student can use.

The planner weighs a table by a sum over named features of what a player sees (:mod:`.features`: cards face
down, face-up cards lying over face-down ones, breaks in order, off-suit builds, empty columns, ...). Its
hints say what a line changes in those terms, never in the planner's internal points:

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> line_terms(g, [g.parse_move("ea")])      # 3S onto 4H
('turns over a card', 'builds a card off suit', 'lifts a card off face-down ones')
>>> said(line_terms(g, [g.parse_move("ea")]))
'turns over a card, builds a card off suit and lifts a card off face-down ones'

A card a line turns over is unknown until it is turned, so the terms never count it (neither what it covers
nor what it builds on): only what can be seen before the line is played.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.game import Game
from ..engine.move import Move
from ..engine.predicates import visible_key
from .features import COLUMN_FEATURES, column_features

#: The terms, most telling first: the feature, then how a rise and a fall of it read, each as ``(one, many)``
#: (``{n}``: how many). A feature not here (a derived one, such as the face-down cards squared) is left out of
#: the words.
TERMS = (
    ("runs_done", ("completes a run", "completes {n} runs"), None),
    ("face_down", None, ("turns over a card", "turns over {n} cards")),
    ("empty_columns", ("empties a column", "empties {n} columns"),
     ("fills an empty column", "fills {n} empty columns")),
    ("out_of_order", None, ("mends a break in order", "mends {n} breaks in order")),   # (only a deal makes one)
    ("off_suit", ("builds a card off suit", "builds {n} cards off suit"),
     ("ends an off-suit build", "ends {n} off-suit builds")),
    ("in_suit", ("joins one more card in suit", "joins {n} more cards in suit"),
     ("parts a card joined in suit", "parts {n} cards joined in suit")),
    ("buried", ("lays one more card over face-down ones", "lays {n} more cards over face-down ones"),
     ("lifts a card off face-down ones", "lifts {n} cards off face-down ones")),
    ("kings_home", ("sets a king at the base of a column", "sets {n} kings at the base of a column"), None),
)

#: The cards joined in suit that a finished run takes with it (13 cards, 12 joins).
RUN_LINKS = 12


def visible_counts(game: Game, turned: Iterable[int] = ()) -> dict[str, int]:
    """The table's named features (:data:`~spiderette.players.features.COLUMN_FEATURES` summed over the
    columns, and ``runs_done``), read from what a player sees. A column of ``turned`` has just turned a card
    over, unknown before: it counts as the column it was, with the card still down and nothing on it, and
    one card fewer face down."""
    columns, _ = visible_key(game)
    turned = set(turned)
    total = dict.fromkeys(COLUMN_FEATURES, 0)
    r = game.rules
    fits = None if r.build == "any" else r.fits
    for i, (down, up) in enumerate(columns):
        if i in turned:
            down, up = down + 1, ()
        for name, x in zip(COLUMN_FEATURES, column_features(down, up, r.links, fits, r.unit)):
            total[name] += x
    total["face_down"] -= len(turned)
    total["runs_done"] = game.runs_completed
    return total


def line_terms(game: Game, line: Iterable[Move]) -> tuple[str, ...]:
    """What playing ``line`` from ``game`` changes on the visible table, in :data:`TERMS`, most telling first
    (``()``: nothing the terms name). A deal ends the line's words: the cards it brings are not known before."""
    probe = game.copy()
    before = visible_counts(probe)
    downs = [probe.face_down(i) for i in range(probe.columns)]
    for m in line:
        if m.kind == "deal":
            break
        probe.apply(m)
    after = visible_counts(probe, [i for i in range(probe.columns) if probe.face_down(i) < downs[i]])
    # a run that leaves takes its cards joined in suit with it: said as "completes a run", not as parted cards
    after["in_suit"] += RUN_LINKS * (after["runs_done"] - before["runs_done"])
    out = []
    for name, rise, fall in TERMS:
        d = after[name] - before[name]
        words = rise if d > 0 else fall if d < 0 else None
        if words:
            out.append(words[0] if abs(d) == 1 else words[1].format(n=abs(d)))
    return tuple(out)


def said(terms: Iterable[str]) -> str:
    """Terms as one phrase: ``"turns over a card, mends a break in order and ends an off-suit build"``."""
    terms = list(terms)
    if len(terms) <= 1:
        return "".join(terms)
    return f"{', '.join(terms[:-1])} and {terms[-1]}"
