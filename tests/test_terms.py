"""The planner's reasons in named terms: what a line changes on the visible table, each term on a hand-built
position, never counting a card the line turns over (it is unknown until turned), and the words a hint reads."""

from __future__ import annotations

import pytest
from spiderette_testkit import build, run

from spiderette import Game, hint
from spiderette.engine.move import DEAL
from spiderette.players.terms import line_terms, said


def table(columns) -> Game:
    """The columns given, then empty ones, and the rest of the deck face down in column g (its last card up)
    and in a full stock: columns the moves leave alone count the same before and after."""
    return Game.from_dict(build("spiderette", [*columns, *[[]] * (6 - len(columns)), ["*"]], stock_size=24))


def terms(columns, moves):
    g = table(columns)
    probe, line = g.copy(), []
    for m in moves.split():   # each move read on the table it is played on
        line.append(probe.parse_move(m))
        probe.apply(line[-1])
    return line_terms(g, line)


@pytest.mark.parametrize(("columns", "moves", "expected"), [
    # 3S onto 4H: the card under 3S turns over; an off-suit build; one card less over face-down ones
    ([["|5C", "3S"], ["4H"]], "ab", ("turns over a card", "builds a card off suit",
                                     "lifts a card off face-down ones")),
    # 3S leaves 9H for 4S: a break in order mended, one more card joined in suit
    ([["|5C", "9H", "3S"], ["4S"]], "ab", ("mends a break in order", "joins one more card in suit",
                                           "lifts a card off face-down ones")),
    # the last card of a column with nothing face down: an empty column; onto a card over face-down ones
    ([["3S"], ["|5C", "4S"]], "ab", ("empties a column", "joins one more card in suit",
                                     "lays one more card over face-down ones")),
    # into an empty column: the column filled, the break mended
    ([["|5C", "9H", "3S"], []], "ab", ("fills an empty column", "mends a break in order",
                                       "lifts a card off face-down ones")),
    # 3S off 4H onto 4S: the off-suit build ended
    ([["|5C", "4H", "3S"], ["|6C", "4S"]], "ab", ("ends an off-suit build", "joins one more card in suit")),
    # one card of a suited group into an empty column: it parts cards joined in suit
    ([["|5C", "5S", "4S", "3S"], []], "ab1", ("fills an empty column", "parts a card joined in suit",
                                                 "lifts a card off face-down ones")),
    # a king into an empty column, off the last face-down card: at home there
    ([["|5C", "KH"], []], "ab", ("turns over a card", "fills an empty column",
                                 "lifts a card off face-down ones", "sets a king at the base of a column")),
    # the ace finishes the spade run, which leaves: a run (the ace joined it), not 12 cards parted; the card
    # beneath turns over
    ([["|5C", *run("S", 13, 2)], ["AS"]], "ba", ("completes a run", "turns over a card", "empties a column",
                                                  "joins one more card in suit", "lifts 12 cards off face-down ones")),
    # two moves: both columns emptied, two cards joined in suit
    ([["3S"], ["2S"], ["4S"]], "ac bc", ("empties 2 columns", "joins 2 more cards in suit")),
])
def test_each_term_on_a_hand_built_table(columns, moves, expected):
    assert terms(columns, moves) == expected


def test_a_card_turned_over_is_never_counted():
    # the card under 3S would join 4S's suit (2S) or stand in order (KH): the words are the same
    for under in ("2S", "KH", "9D"):
        assert terms([["|" + under, "3S"], ["4S"]], "ab") == ("turns over a card", "joins one more card in suit",
                                                              "lifts a card off face-down ones")
    g = Game(seed=11)
    h = hint(g)
    assert h.terms == line_terms(g, h.line) == line_terms(g.redeal_hidden(3), h.line)


def test_a_deal_ends_the_words():
    g = table([["|5C", "4H", "3S"], ["|6C", "4S"]])
    move = g.parse_move("ab")
    assert line_terms(g, [move, DEAL]) == line_terms(g, [move]) == ("ends an off-suit build",
                                                                    "joins one more card in suit")
    assert line_terms(g, [DEAL]) == () and said(()) == ""


def test_a_hint_reads_its_terms_and_its_alternatives_theirs():
    g = Game(seed=7)
    g.play("bd ea")
    h = hint(g)
    # the plan's ending says it turns a card over; the rest of what its line does follows in brackets
    assert h.reason.endswith("turns over a card in column e (and empties 2 columns, builds 3 cards off suit and"
                             " lays 3 more cards over face-down ones)"), h.reason
    assert h.terms[0] == "turns over a card"
    first = h.alternatives[0]
    assert first.reason.endswith("; its best line (1 move) turns over a card, builds a card off suit and lifts"
                                 " a card off face-down ones; ranked below the first suggestion"), first.reason
    assert not [x for x in (h, *h.alternatives) if "point" in x.reason]
