"""Which card to turn over: with ``turns`` > 1 the planner weighs again the best lines that turn a card over by
what every unseen card could let it do next. Checked arguments, honest answers (the same observation, the
same plan), a choice of its own, and a cancelled search still legal."""

from __future__ import annotations

import re
import threading

import pytest
from spiderette_testkit import refused_in_line

from spiderette import Game
from spiderette.players import planner
from spiderette.players.memory import tables_met
from spiderette.players.planner import DEFAULT_BUDGET, DEFAULT_TURNS, PlannerStrategy, plan

BUDGET = 2000   # the same on both search cores (the default budget is ten times more on the compiled one)


def _played(deal: int, moves: int) -> Game:
    """Deal ``deal`` after ``moves`` moves of the planner that plays the best line as found (turns=1)."""
    g = Game(seed=deal)
    s = PlannerStrategy(budget=BUDGET, turns=1)
    while g.status == "playing" and g.move_count < moves:
        m = s(g)
        if m is None:
            break
        g.apply(m)
    assert g.move_count == moves
    return g


# ---------------------------------------------------------------------- the argument
@pytest.mark.parametrize(("turns", "error"), [(0, ValueError), (65, ValueError), (-1, ValueError),
                                              (2.5, TypeError), ("3", TypeError), (True, TypeError),
                                              (None, TypeError)])
def test_turns_is_a_whole_number_from_1_to_64_said_in_words_quoting_it(turns, error):
    g = _played(7, 3)
    before = (g.observation(), g.move_count, [g.column(i) for i in range(g.columns)], g.stock)
    told = re.escape(f"turns must be a whole number from 1 to 64, not {turns!r}")
    with pytest.raises(error, match=told):
        plan(g, turns=turns)
    with pytest.raises(error, match=told):
        PlannerStrategy(turns=turns)
    assert (g.observation(), g.move_count, [g.column(i) for i in range(g.columns)], g.stock) == before


def test_the_ends_of_the_range_are_taken():
    g = Game(seed=7)
    for turns in (1, 64):
        p = plan(g, budget=BUDGET, turns=turns)
        assert p is not None and refused_in_line(g, p.line) is None


def test_the_strategy_shows_its_turns():
    assert repr(PlannerStrategy(turns=1)) == f"PlannerStrategy(budget={DEFAULT_BUDGET}, value='learned', turns=1)"
    assert PlannerStrategy(turns=1).name == ("planner" if DEFAULT_TURNS == 1 else "planner (turns=1)")
    assert PlannerStrategy(turns=7).name == "planner (turns=7)"
    assert PlannerStrategy().turns == DEFAULT_TURNS and "turns=" not in PlannerStrategy().name
    assert PlannerStrategy(turns=3).turns == 3


# ---------------------------------------------------------------------- its own choice, honestly made
#: Positions (deal, moves of the turns=1 planner) where the best line turns a card over and weighing what could
#: turn up picks another line (found by scanning deals 1-2 at 2,000 tables a plan).
DIFFERENT = [(1, 0), (1, 2), (2, 0), (2, 4), (2, 16)]


@pytest.mark.parametrize(("deal", "moves"), DIFFERENT)
def test_weighing_the_cards_that_could_turn_up_picks_another_card_to_turn(deal, moves, search_core):
    g = _played(deal, moves)
    first, weighed = plan(g, budget=BUDGET, turns=1), plan(g, budget=BUDGET, turns=5)
    assert first.ends_with[0] == "turn" and weighed.ends_with[0] == "turn"
    assert weighed.move != first.move
    # one of the lines the search found, not a line of its own
    assert weighed.line in first.alternative_lines
    assert refused_in_line(g, weighed.line) is None
    assert plan(g, budget=BUDGET, turns=5) == weighed   # the same answer asked again


def test_the_first_deal_pinned(search_core):
    # deal 1, nothing played yet: ag1 is the best line found, ba1 the best by what may turn up
    g = Game(seed=1)
    assert str(plan(g, budget=BUDGET, turns=1).move) == "ag1"
    p = plan(g, budget=BUDGET, turns=5)
    assert str(p.move) == "ba1" and p.ends_with == ("turn", 1)
    assert PlannerStrategy(budget=BUDGET, turns=5)(g) == p.move


@pytest.mark.parametrize(("deal", "moves"), [*DIFFERENT, (7, 0), (7, 10), (3, 25)])
def test_the_same_observation_gives_the_same_plan_with_turns(deal, moves):
    g = _played(deal, moves)
    a, b = g.redeal_hidden(11), g.redeal_hidden(12)
    assert a.observation() == b.observation() == g.observation()
    assert [a.column(i)[:a.face_down(i)] for i in range(7)] != [b.column(i)[:b.face_down(i)] for i in range(7)] \
        or a.stock != b.stock
    # a redealt game starts a memory of its own (its table now): the two copies share it
    assert plan(a, budget=BUDGET, turns=5) == plan(b, budget=BUDGET, turns=5)
    assert PlannerStrategy(budget=BUDGET, turns=5)(a) == PlannerStrategy(budget=BUDGET, turns=5)(b)
    # with the game's own memory given, a copy redealt plans as the game itself
    met = tables_met(g)
    p = plan(g, budget=BUDGET, turns=5)
    assert plan(a, budget=BUDGET, turns=5, seen=met) == p == plan(b, budget=BUDGET, turns=5, seen=met)


def test_turns_1_plays_the_best_line_as_found(monkeypatch):
    # with turns=1 the cards that could turn up are never weighed: no short searches after the main one
    calls = []
    real = planner.search

    def counted(*args, **kwargs):
        calls.append(args[5])   # the budget
        return real(*args, **kwargs)

    monkeypatch.setattr(planner, "search", counted)
    g = Game(seed=1)
    plan(g, budget=BUDGET, turns=1)
    assert calls == [BUDGET]
    calls.clear()
    plan(g, budget=BUDGET, turns=5)
    assert calls[0] == BUDGET and len(calls) > 1 and set(calls[1:]) == {planner.TURN_LOOK}


# ---------------------------------------------------------------------- cancelled
@pytest.mark.parametrize(("deal", "moves"), [*DIFFERENT, (7, 0)])
def test_a_cancelled_plan_is_still_legal(deal, moves, search_core):
    g = _played(deal, moves)
    stop = threading.Event()
    stop.set()
    p = plan(g, budget=BUDGET, turns=5, cancel=stop)
    assert p is None or refused_in_line(g, p.line) is None


def test_cancelled_while_weighing_the_cards_to_turn_the_plan_is_still_legal(monkeypatch, search_core):
    stop = threading.Event()
    real = planner.search
    calls = []

    def then_stop(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            stop.set()   # (the Think button pressed in the middle of the short searches)
        return real(*args, **kwargs)

    monkeypatch.setattr(planner, "search", then_stop)
    g = Game(seed=1)
    p = plan(g, budget=BUDGET, turns=5, cancel=stop)
    assert stop.is_set() and len(calls) >= 3
    assert p is not None and p.ends_with[0] == "turn" and refused_in_line(g, p.line) is None
