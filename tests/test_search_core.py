"""The search core (``spiderette.engine.core``) against the engine, move by move, and the planner's plans
against the engine: every line of every plan is played as it was planned (``_checked`` never cuts one)."""

from __future__ import annotations

import random

import pytest
from spiderette_testkit import game, run

from spiderette import Game
from spiderette.engine.cards import RUN_LENGTH, parse_card
from spiderette.engine.core import Core, column, columns_of
from spiderette.engine.move import DEAL
from spiderette.engine.variants import BUILT_IN, RULES, Rules
from spiderette.players import planner
from spiderette.players.planner import PLANNER_MOVES, PlannerStrategy, plan
from spiderette.players.solver import COMPLETE, EAGER_STREAMLINER, STREAMLINER

#: Every variant of spiderette.engine.variants, with each number of suits it is played with.
KINDS = [("spiderette", 4), ("spiderette", 2), ("spiderette", 1), ("red_black_spiderette", 4),
         ("will_o_the_wisp", 4), ("will_o_the_wisp", 1), ("spider", 4), ("spider", 2), ("spider", 1)]
#: Designs (as a Cardz file may set them) that build in suit or in alternate colours, or move one card at a time.
SPIDERETTE = (1, 2, 3, 4, 5, 6, 7)
DESIGNS = [
    (Rules("in_suit", "In Suit", 1, SPIDERETTE, build="suit"), 2),
    (Rules("alternate", "Alternate", 1, SPIDERETTE, build="alternate", suit_options=(4, 2)), 4),
    (Rules("one_card", "One Card", 1, SPIDERETTE, group="card"), 1),
    (Rules("one_card", "One Card", 1, SPIDERETTE, group="card"), 4),
    (Rules("one_card_in_suit", "One Card In Suit", 1, SPIDERETTE, group="card", build="suit"), 2),
    (Rules("colour_alternate", "Colour Alternate", 1, SPIDERETTE, group="colour", build="alternate",
           deal_with_empty=True, suit_options=(4,)), 4),
]
DESIGN_IDS = [f"{r.name}-{suits}" for r, suits in DESIGNS]


@pytest.fixture(autouse=True)
def forget_designs():
    """A design played joins RULES: each test leaves the built-in variants only."""
    yield
    for name in [n for n in RULES if n not in BUILT_IN]:
        del RULES[name]


def walk(g: Game, rng: random.Random, steps: int):
    """Positions along a walk of legal moves, half of them the planner's (so that runs finish and columns
    empty), half at random."""
    player = PlannerStrategy(budget=100, value="handmade", turns=1)   # (the walks these tests were made on)
    player.new_game()
    for _ in range(steps):
        legal = g.legal_moves()
        yield legal
        if not legal:
            return
        m = player(g) if rng.random() < 0.5 else None
        g.apply(m or rng.choice(sorted(legal, key=str)))


def after(g: Game, m) -> Game:
    h = g.copy()
    h.apply(m)
    return h


def seen_cards(g: Game) -> tuple:
    """``(face-down count, face-up cards)`` per column: what a player sees."""
    return tuple((g.face_down(i), g.column(i)[g.face_down(i):]) for i in range(g.columns))


@pytest.mark.parametrize("auto_remove", [True, False])
@pytest.mark.parametrize("variant, suits", KINDS + DESIGNS, ids=[f"{v}-{s}" for v, s in KINDS] + DESIGN_IDS)
def test_the_cores_moves_and_tables_are_the_engines(variant, suits, auto_remove):
    """On walks of legal moves: the core's moves are the engine's (as sets; a pruned generator's a subset, and
    the solver's complete search less exactly its two proven no-ops), and the table after every move is the
    engine's; the planner's visible table too, its card just turned over unknown (a 0)."""
    met = {"empty column": 0, "empty stock": 0, "send": 0, "run left": 0}
    for seed in range(3):
        g = Game(variant, seed=seed, suits=suits, auto_remove=auto_remove)
        every, visible = Core(g), Core(g, PLANNER_MOVES, visible=True)
        pruned = [Core(g, p) for p in (COMPLETE, STREAMLINER, EAGER_STREAMLINER)]
        dealt0 = g.stock_count
        for i, legal in enumerate(walk(g, random.Random(seed), 160)):
            cols, stock_left = columns_of(g), g.stock_count > 0
            state = (cols, dealt0 - g.stock_count, g.runs_completed)
            legal = set(legal)
            assert set(every.moves(cols, stock_left)) == legal
            assert len(every.moves(cols, stock_left)) == len(legal)   # no move twice
            for core in pruned:
                assert set(core.moves(cols, stock_left)) <= legal
            if not stock_left:   # the complete search: every move but a whole column or a second empty one
                empty = [j for j in range(g.columns) if not g.column(j)]
                legal_useful = {m for m in legal if not (m.kind == "move" and not g.column(m.dst) and (
                    m.dst != empty[0] or m.count == len(g.column(m.src))))}
                assert set(pruned[0].moves(cols, stock_left)) == legal_useful
            seen = columns_of(g, visible=True)
            assert set(visible.moves(seen, stock_left)) <= legal
            met["empty column"] += any(len(c) == 1 for c in cols)
            met["empty stock"] += not stock_left
            met["send"] += any(m.kind == "send" for m in legal)
            for m in sorted(legal, key=str) if i % 4 == 0 else ():
                h = after(g, m)
                assert every.after(state, m) == (columns_of(h), dealt0 - h.stock_count, h.runs_completed)
                met["run left"] += h.runs_completed > g.runs_completed
                if m.kind != "move":
                    continue
                s, d = m.src, m.dst
                left, moved, finished, _ = visible.shift(seen[s], seen[d], m.count)
                # (finished: a run made by the move; a whole run moved, sent by hand, was made before)
                assert finished == (h.runs_completed > g.runs_completed if auto_remove
                                    else d in h.sendable() and m.count < RUN_LENGTH)
                for j, col in ((s, left), (d, moved)):
                    down, up = seen_cards(h)[j]
                    assert col[0] == down and len(col) == 1 + down + len(up)
                    if h.face_down(j) < g.face_down(j):   # the card turned over: unknown to the planner (a 0)
                        assert col[1 + down:] == b"\0" and len(up) == 1
                    else:
                        assert tuple(col[1 + down:]) == up
    assert met["empty column"] and met["empty stock"]
    if suits == 1 and isinstance(variant, str):   # (one card at a time, a random walk finishes no run)
        assert met["run left"] and (met["send"] or auto_remove)


@pytest.mark.parametrize("variant, suits", KINDS + DESIGNS, ids=[f"{v}-{s}" for v, s in KINDS] + DESIGN_IDS)
def test_moves_remembered_by_the_columns_facts_are_the_moves_worked_out(variant, suits, monkeypatch):
    """A core remembers a table's moves by a few facts of each column (its top card, its group...): on walks
    over three deals (and again with their stock dealt out first), a core that has met many tables answers, in
    the same order, what a fresh core works out for each; and it forgets all once it holds MOVES_REMEMBERED
    tables."""
    from spiderette.engine import core as core_module

    monkeypatch.setattr(core_module, "MOVES_REMEMBERED", 300)
    prunings = (PLANNER_MOVES, COMPLETE, STREAMLINER, EAGER_STREAMLINER)
    tables, answered = set(), 0
    for seed in range(6):
        g = Game(variant, seed=seed // 2, suits=suits)
        while seed % 2 and g.stock_count and DEAL in g.legal_moves():   # (half the walks: the stock dealt out
            g.apply(DEAL)                                                # first, where the columns empty)
        kept = [Core(g, p) for p in prunings]
        for _ in walk(g, random.Random(seed), 160):
            cols, stock_left = columns_of(g), g.stock_count > 0
            for core, pruning in zip(kept, prunings):
                before = len(core.known)
                assert core.moves(cols, stock_left) == Core(g, pruning).moves(cols, stock_left)
                answered += len(core.known) == before > 0
                assert len(core.known) <= 300
            tables.add(cols)
    if variant == "spiderette" and suits == 4:
        assert answered > len(tables), "tables of different cards answered from memory"


def test_tables_alike_but_for_one_fact_of_a_column_have_their_own_moves():
    """Each fact the remembered moves go by counts: after one table, a table that differs from it only in that
    fact of one column gets its own moves (a whole column or not; a group seated or not; the group's length)."""
    c = parse_card

    def table(first: bytes) -> tuple[bytes, ...]:   # column a given, b empty, c-g the same cards each time
        rest = [column(0, (c("5D"),)), column(0, (c("2C"),)), column(0, (c("3C"),)), column(0, (c("4C"),)),
                column(0, (c("TC"),))]
        return (first, column(0, ()), *rest)

    def moves(core: Core, first: bytes) -> set[str]:
        return set(map(str, core.moves(table(first), stock_left=False)))

    g = Game(seed=1)
    whole = column(0, (c("KS"), c("QS")))        # the whole column one group
    not_whole = column(1, (c("2H"), c("KS"), c("QS")))   # the same group on a face-down card
    complete = Core(g, COMPLETE)
    assert "ab2" not in moves(complete, whole)   # (a whole column into an empty one changes nothing)
    assert "ab2" in moves(complete, not_whole)
    assert "ab2" not in moves(complete, whole)

    streamliner = Core(g, STREAMLINER)
    seated = column(0, (c("JH"), c("9D"), c("TS"), c("4S")))    # 4S on TS: not seated
    unseated = column(0, (c("JH"), c("9D"), c("5H"), c("4S")))  # 4S seated on 5H (another suit)
    assert "ac1" in moves(streamliner, seated)     # 4S onto 5D: a group that lies out of order may move
    assert "ac1" not in moves(streamliner, unseated)   # a seated group moves only to build in suit
    two = column(0, (c("JH"), c("5S"), c("4S")))   # the same top card, its group from 5S: onto no card here
    assert "ac1" not in moves(streamliner, two) and "ab2" in moves(streamliner, two)


def test_the_movable_group_follows_the_variants_links():
    red_black = Core(Game("red_black_spiderette"))
    nine_hearts, eight_diamonds, eight_spades = parse_card("9H"), parse_card("8D"), parse_card("8S")
    assert red_black.group(column(0, (nine_hearts, eight_diamonds))) == 2
    assert red_black.group(column(0, (nine_hearts, eight_spades))) == 1
    assert Core(Game()).group(column(0, (nine_hearts, eight_diamonds))) == 1   # by suit: not a group
    eight_hearts = parse_card("8H")
    assert Core(Game()).group(column(0, (nine_hearts, eight_hearts))) == 2
    assert Core(Game()).group(column(1, (nine_hearts, eight_hearts))) == 1   # a face-down card is in no group
    assert Core(Game()).group(column(0, ())) == 0


def test_a_run_that_leaves_an_empty_column_stops_the_fill_plans_deal():
    """The fill plan deals at its end only when no column is empty: a run that finishes and leaves takes its
    13 cards with it (counted by the core; a count of cards moved alone missed it)."""
    g = game("spiderette", [[], run("S", 13, 2), ["5S", "AS"], ["7S", "6S"], ["+"], ["+"], ["*"]], suits=1,
             stock_size=24)
    rules = planner._Rules(g)
    table = columns_of(g, visible=True)
    assert planner._empties_after(rules, table, [(2, 1, 1), (3, 0, 1)])   # the run left b empty
    assert not planner._empties_after(rules, table, [(3, 0, 1)])   # a filled, nothing else empty


def checked_plan(g: Game, budget: int, plans: list):
    """The plan for ``g``, kept in ``plans`` after the engine played each of its lines, move by move."""
    p = plan(g, budget=budget)
    if p is not None:
        plans.append(p)
        for line in (p.line, *p.alternative_lines):
            h = g.copy()
            for m in line:
                assert h.why_illegal(m) is None, (g.position(), line, m)
                h.apply(m)
    return p


def test_plans_are_never_cut(monkeypatch):
    """Plans along planner games of every variant (and of designs that build in suit or move one card), with runs
    sent by hand too, and along random walks: the
    engine accepts every move of every line and of every alternative line, and ``_checked`` cuts none."""
    cut = []
    checked = planner._checked

    def counting(game_: Game, p):
        q = checked(game_, p)
        cut.append(q.line != p.line)
        return q

    monkeypatch.setattr(planner, "_checked", counting)
    plans: list = []
    for variant, suits in KINDS + DESIGNS:
        for auto_remove in (True, False):
            g = Game(variant, seed=3, suits=suits, auto_remove=auto_remove)
            for _ in range(300):   # a player who plans again at every move
                p = checked_plan(g, 150, plans)
                if p is None or g.status != "playing":
                    break
                g.apply(p.move)
            g = Game(variant, seed=4, suits=suits, auto_remove=auto_remove)
            for i, _ in enumerate(walk(g, random.Random(4), 60)):
                if i % 6 == 0:
                    checked_plan(g, 150, plans)
    assert len(plans) > 1000 and len(cut) > 500 and not any(cut)
