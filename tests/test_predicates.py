"""The named move predicates (spiderette.engine.predicates) mean what their docstrings say, each checked on
hand-built positions: every move of the example table, with the predicates that hold for it."""

from __future__ import annotations

import inspect

import pytest

from spiderette import Game, RulesOfThumb
from spiderette.engine import predicates as P
from spiderette.players.strategies import RULES_OF_THUMB

#: The issue's table: a (9S to 5S), c (3S 2S AS), f (KS QS); b, d, e, g empty; three runs done.
ISSUE = ("spiderette:1 9S8S7S6S5S/-/3S2SAS/-/-/KSQS/- 4SJSTS KSQSJSTS9S8S7S6S5S4S3S2SAS/KSQSJSTS9S8S7S6S5S4S3S2SAS"
         "/KSQSJSTS9S8S7S6S5S4S3S2SAS 200 600 3")

MOVE_PREDICATES = [name for name in P.__all__ if callable(getattr(P, name))
                   and list(inspect.signature(getattr(P, name)).parameters) == ["game", "move"]
                   and name != "left_below"]

#: On :data:`spiderette.engine.predicates.EXAMPLE`: each move, and the predicates true of it (the others false).
EXPECTED = {
    "ab1": {"turns_over_a_card", "lands_in_suit", "builds_in_suit", "builds_down", "turns_over_keeping_empty_columns"},
    "ae1": {"turns_over_a_card", "fills_an_empty_column", "spends_an_empty_column_to_turn_over"},
    "bf1": {"empties_a_column", "gains_an_empty_column", "lands_in_suit", "builds_in_suit", "builds_down"},
    "be1": {"empties_a_column", "fills_an_empty_column"},
    "cb1": {"breaks_a_suited_build", "lands_in_suit", "lies_in_sequence", "splits_a_group"},
    "ce2": {"fills_an_empty_column", "breaks_a_suited_build", "lies_in_sequence", "splits_a_group"},
    "ce3": {"empties_a_column", "fills_an_empty_column"},
    "de1": {"fills_an_empty_column", "parks_a_group"},
    "gf6": {"finishes_a_run", "empties_a_column", "gains_an_empty_column", "lands_in_suit", "builds_in_suit",
            "builds_down"},
    "gd2": {"breaks_a_suited_build", "lands_in_suit", "lies_in_sequence", "splits_a_group"},
}


def test_every_move_predicate_is_checked_here():
    checked = set().union(*EXPECTED.values())
    assert set(MOVE_PREDICATES) == checked, set(MOVE_PREDICATES) ^ checked


@pytest.mark.parametrize("move", sorted(EXPECTED))
def test_each_predicate_on_the_example_table(move: str):
    g = Game.from_position(P.EXAMPLE)
    m = g.parse_move(move)
    holds = {name for name in MOVE_PREDICATES if getattr(P, name)(g, m)}
    assert holds == EXPECTED[move]


@pytest.mark.parametrize("name", MOVE_PREDICATES)
def test_no_predicate_holds_for_a_deal(name: str):
    g = Game(seed=7)              # (no empty column: the deal is legal)
    deal = next(m for m in g.legal_moves() if m.kind == "deal")
    assert getattr(P, name)(g, deal) is False


def test_empties_a_column_means_the_source_column_is_empty_after_the_move():
    g = Game.from_position(ISSUE)
    m = g.parse_move("ab")       # the whole of column a into the empty column b
    assert P.empties_a_column(g, m) and not P.gains_an_empty_column(g, m)
    after = g.copy()
    after.apply(m)
    assert len(after.column(0)) == 0
    for m in g.legal_moves():     # the meaning, move by move: the source column is empty after it
        if m.kind == "move":
            after = g.copy()
            after.apply(m)
            assert P.empties_a_column(g, m) == (len(after.column(m.src)) == 0), m
            gained = sum(not after.column(i) for i in range(7)) > sum(not g.column(i) for i in range(7))
            assert P.gains_an_empty_column(g, m) == gained, m


def test_the_left_below_and_hidden_counts_and_the_cards_in_suited_runs():
    g = Game.from_position(P.EXAMPLE)
    assert P.left_below(g, g.parse_move("ab")) == 1 == g.face_down(0)
    assert P.hidden_count(g) == 2 + 17
    assert P.cards_in_suited_runs(g) == 13 + 3 + 7 + 6     # a run done; c, f, g; not 5S on a face-down card
    g.play("ab gf")                                          # 5S on 6S (b) links; g's run leaves, with f's part
    assert P.cards_in_suited_runs(g) == 26 + 2 + 3
    rb = Game("red_black_spiderette", seed=3)               # colours link there: the same count as the rule
    links = sum(rb.rules.links(rb.column(i)[j - 1], rb.column(i)[j]) for i in range(7)
                for j in range(rb.face_down(i) + 1, len(rb.column(i))))
    assert (P.cards_in_suited_runs(rb) == 0) == (links == 0)


def test_turns_over_a_card_where_a_finished_run_leaves():
    # f holds a face-down card under K..7: moving 6..A onto it finishes a run, which leaves and uncovers it
    g = Game.from_position("spiderette:1 qs5S/6S/7S6S5S/9S3S/-/ksKSQSJSTS9S8S7S/6S5S4S3S2SAS "
                           "ASAS2S2S3S4S4S7S8S8S9STSTSJSJSQSKS KSQSJSTS9S8S7S6S5S4S3S2SAS 20 580 -")
    m = g.parse_move("gf")
    assert P.finishes_a_run(g, m) and P.turns_over_a_card(g, m)


def test_a_send_finishes_a_run_and_empties_a_whole_run_column():
    g = Game.from_position("spiderette:1+manual qs5S/6S/7S6S5S/ks9S3S/-/KSQSJSTS9S8S7S6S5S4S3S2SAS/- "
                           "ASAS2S2S3S4S4S7S8S8S9STSTSJSJSQSKS KSQSJSTS9S8S7S6S5S4S3S2SAS 20 580 -")
    send = next(m for m in g.legal_moves() if m.kind == "send")
    assert P.finishes_a_run(g, send) and P.empties_a_column(g, send)


def test_the_rule_of_thumb_empty_a_column_never_moves_a_whole_column_into_an_empty_one():
    assert RULES_OF_THUMB["empty a column"] is P.gains_an_empty_column
    g = Game.from_position(ISSUE)
    move = RulesOfThumb(rules=["empty a column"])(g)
    assert move is None or not P.fills_an_empty_column(g, move)
