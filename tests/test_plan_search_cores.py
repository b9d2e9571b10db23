"""The planner's search on both cores: the compiled one (``csrc/plan.h``, ``CCore.plan``) gives what the
pure-Python one (:func:`spiderette.players.plan_search.search`, the reference) gives, node for node.

On positions of played games (every built-in variant, one to four suits, runs sent by hand or by themselves),
with the hand-made value, the learned one and models of one's own (weights that round half-way), filling or
not, with the game's memory (``seen``) and a cancel event; then whole games of the player on both cores.
Skipped where the compiled core is not built.
"""

from __future__ import annotations

import random
import threading

import pytest

from spiderette import Game
from spiderette.engine import ccore
from spiderette.engine.core import Core, columns_of
from spiderette.players import plan_search
from spiderette.players.features import COLUMN_FEATURES
from spiderette.players.memory import tables_met
from spiderette.players.plan_costs import PlanCosts, unseen_cards
from spiderette.players.plan_search import line_of, moves_of, search
from spiderette.players.planner import PLANNER_MOVES, PlannerStrategy, plan
from spiderette.players.value import ValueModel

pytestmark = pytest.mark.skipif(not ccore.COMPILED, reason=f"the compiled core is not here ({ccore.WHY_PURE})")

#: (variant, suits, runs leave by themselves): the games the positions come from.
GAMES = [
    ("spiderette", 1, True), ("spiderette", 2, False), ("spiderette", 4, True),
    ("red_black_spiderette", 4, True), ("will_o_the_wisp", 4, False), ("will_o_the_wisp", 2, True),
    ("spider", 1, True), ("spider", 2, False), ("spider", 4, True),
]


def own_model(seed: int) -> ValueModel:
    """A model of one's own: random weights, some of them half-way after scaling (``round`` to even)."""
    rng = random.Random(seed)
    names = ["face_down", "face_down_squared", "last_face_down", "buried", "out_of_order", "off_suit", "in_suit",
             "empty_columns", "clear_columns", "kings_home", "top_group", "runs_done", "face_down x deals_left",
             "empty_columns x deals_left"]
    weights = [rng.choice([rng.uniform(-3, 3), rng.randint(-40, 40) / 48]) for _ in names]
    return ValueModel.from_dict({"features": names, "weights": weights, "bias": 1.0}, name=f"own{seed}")


def positions(variant: str, suits: int, auto: bool, seed: int, every: int = 4, moves: int = 150, most: int = 12):
    """Positions of a game played by the planner (small budget) with a random move now and then (a move of
    cards rather than a deal where there is one), each with a move of cards to search."""
    rng = random.Random(seed)
    g = Game(variant, seed=seed, suits=suits, auto_remove=auto)
    found = 0
    for i in range(moves):
        if g.status != "playing" or found >= most:
            return
        legal = g.legal_moves()
        cards = [m for m in legal if m.kind == "move"]
        if i % every == every - 1 and cards:
            found += 1
            yield g.copy()
        p = plan(g, budget=80, value="learned") if rng.random() < 0.8 or not cards else None
        if p is None and not legal:
            return
        g.apply(p.move if p is not None else rng.choice(cards or legal))


def both(g: Game, value, budget: int, filling: bool, seen=None, cancel=None, stock=None):
    """The search's answers on the compiled core and on the pure one, each with a fresh core and costs."""
    out = []
    for pure in (False, True):
        core = Core(g, PLANNER_MOVES, visible=True)
        costs = PlanCosts(g, core, value)
        table = columns_of(g, visible=True)
        args = (core, costs, table, g.stock_count if stock is None else stock,
                tables_met(g) if seen is None else seen, budget, unseen_cards(g, table), filling, cancel)
        if pure:
            with ccore.pure_python():
                out.append(search(*args))
        else:
            out.append(search(*args))
    return out


@pytest.mark.parametrize("variant,suits,auto", GAMES, ids=["-".join(map(str, c)) for c in GAMES])
def test_the_search_is_the_same_on_both_cores(variant, suits, auto) -> None:
    values = ["handmade", "learned", own_model(suits * 7 + auto)]
    checked = 0
    for n, g in enumerate(positions(variant, suits, auto, seed=suits * 100 + len(variant))):
        value = values[n % len(values)]
        budget = (40, 300, 1500)[n % 3]
        for filling in (False, True):
            c, p = both(g, value, budget, filling)
            assert c == p, (variant, suits, auto, g.position(), value, budget, filling)
            # (and the same lines read back)
            best, nodes, _, _ = c
            assert [moves_of(line_of(nodes, nid)) for _, nid in best.values()] == \
                [moves_of(line_of(p[1], nid)) for _, nid in p[0].values()]
            assert list(best) == list(p[0])   # (the same order of first moves)
            checked += 1
    assert checked >= 8


def test_the_search_keeps_out_of_the_tables_seen() -> None:
    """A memory of tables met (at this stock and at another): lines never pass through them, on both cores."""
    for seed in (3, 4):
        for g in positions("spiderette", 2, True, seed, every=9, most=5):
            met = tables_met(g)
            c, p = both(g, "learned", 500, False, seen=met)
            assert c == p
            c0, p0 = both(g, "learned", 500, False, seen=set())
            assert c0 == p0
            c1, p1 = both(g, "handmade", 500, False, seen=met, stock=g.stock_count + 7)   # (none at this stock)
            assert c1 == p1


class CountingCancel:
    """A cancel event set at its ``after``-th reading: where the two searches read it, the same."""

    def __init__(self, after: int) -> None:
        self.after, self.reads = after, 0

    def is_set(self) -> bool:
        self.reads += 1
        return self.reads >= self.after


def test_cancel_stops_both_cores_at_the_same_table() -> None:
    g = next(positions("spiderette", 1, True, 5, every=5))
    done = threading.Event()
    done.set()
    c, p = both(g, "learned", 5000, False, cancel=done)
    assert c == p and c[2] == 0 and len(c[1]) == 1
    for after in (1, 2, 3):
        got = []
        for pure in (False, True):
            core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
            costs, cancel = PlanCosts(g, core, "handmade"), CountingCancel(after)
            args = (core, costs, table, g.stock_count, set(), 5000, unseen_cards(g, table), False, cancel)
            if pure:
                with ccore.pure_python():
                    got.append((search(*args), cancel.reads))
            else:
                got.append((search(*args), cancel.reads))
        assert got[0] == got[1]
        assert got[0][0][2] <= 64 * (after - 1) + 1 or got[0][0][2] < 5000


def test_costs_the_compiled_core_does_not_know_run_in_python(monkeypatch) -> None:
    """A subclass of PlanCosts (its own column_cost) runs on the pure loop, the compiled one never asked."""

    class Doubled(PlanCosts):
        def column_cost(self, col: bytes) -> int:
            return 2 * super().column_cost(col)

    g = Game(seed=7)
    core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
    assert plan_search._params(core, Doubled(g, core)) is None
    assert plan_search._params(core, PlanCosts(g, core)) is not None
    assert plan_search._params(core, PlanCosts(g, core, "learned")) is not None
    calls = []
    monkeypatch.setattr(plan_search, "_search", lambda *a: calls.append(a) or ({}, [], 0, 0))
    search(core, Doubled(g, core), table, g.stock_count, set(), 50, unseen_cards(g, table), False)
    assert len(calls) == 1


def played(variant: str, suits: int, seed: int, value: str, auto: bool) -> tuple[list[str], str]:
    """A game of :class:`PlannerStrategy` (at most 150 moves): its moves and its end."""
    g, player = Game(variant, seed=seed, suits=suits, auto_remove=auto), PlannerStrategy(budget=200, value=value)
    moves = []
    while g.status == "playing" and len(moves) < 150:
        m = player(g)
        if m is None:
            break
        moves.append(str(m))
        g.apply(m)
    return moves, g.status


DEALS = [("spiderette", 4, 11, "learned", True), ("spiderette", 1, 2, "handmade", False),
         ("spider", 2, 3, "learned", True), ("red_black_spiderette", 4, 5, "learned", True)]


@pytest.mark.parametrize("variant,suits,seed,value,auto", DEALS, ids=["-".join(map(str, c)) for c in DEALS])
def test_the_player_plays_the_same_game_on_both_cores(variant, suits, seed, value, auto) -> None:
    """Whole games of :class:`PlannerStrategy` (its plans, its deals, its fills): the same moves."""
    games = []
    for pure in (False, True):
        if pure:
            with ccore.pure_python():
                games.append(played(variant, suits, seed, value, auto))
        else:
            games.append(played(variant, suits, seed, value, auto))
    assert games[0] == games[1]
    assert len(games[0][0]) > 10


def test_an_error_reading_cancel_is_raised_on_both_cores() -> None:
    class Broken:
        def is_set(self) -> bool:
            raise RuntimeError("no reading")

    g = Game(seed=7)
    for pure in (False, True):
        core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
        args = (core, PlanCosts(g, core), table, g.stock_count, set(), 50, unseen_cards(g, table), False, Broken())
        with pytest.raises(RuntimeError, match="no reading"):
            if pure:
                with ccore.pure_python():
                    search(*args)
            else:
                search(*args)


def test_the_compiled_core_of_a_game_seen_as_a_player_sees_it() -> None:
    """``compiled_core(g, pruning, visible=True)`` and ``core_of(core, table)`` search alike (no stock read)."""
    g = next(positions("spiderette", 2, True, 9))
    core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
    params = plan_search._params(core, PlanCosts(g, core, "learned"))
    args = (table, g.stock_count > 0, [], 400, bytes(unseen_cards(g, table)), False, params)
    assert ccore.compiled_core(g, PLANNER_MOVES, visible=True).plan(*args) == ccore.core_of(core, table).plan(*args)
    with pytest.raises(ValueError):
        ccore.core_of(core, table).plan(table[:-1], False, [], 10, b"", False, params)
    with pytest.raises(ValueError):
        ccore.core_of(core, table).plan(table, False, [], 10, b"", False, params[:-8])


def test_threads_share_the_compiled_core() -> None:
    """Plans of one variant and stage share one compiled core: searches in threads give what one thread gives."""
    games = list(positions("spiderette", 1, True, 12, every=3, most=8))
    core = Core(games[0], PLANNER_MOVES, visible=True)
    costs = PlanCosts(games[0], core, "learned")

    def one(g: Game):
        table = columns_of(g, visible=True)
        return search(core, costs, table, g.stock_count, tables_met(g), 400, unseen_cards(g, table), False)

    alone = [one(g) for g in games]
    got: dict[int, object] = {}
    threads = [threading.Thread(target=lambda i=i: got.__setitem__(i, [one(g) for g in games])) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(got[i] == alone for i in range(3))


def test_the_learned_cost_is_python_s_to_the_last_rounding() -> None:
    """Column costs of models whose weights differ by many orders of magnitude (where the order of the float
    additions, and Python's own way of summing floats, show) and land half-way (``round`` to even): the
    compiled search's root cost (no table expanded) is the pure one's, column by column."""

    rng = random.Random(44)
    g = Game(seed=3)
    n = g.columns
    # (first a model where summing left to right and summing with compensation, as Python 3.12 does, round
    # differently: a column with one card face down costs 0 by the one, 1 by the other)
    lost = [(0.5 + 2 ** -20) / 24, 2 ** 39 / 24, -(2 ** 39) / 24] + [0.0] * (len(COLUMN_FEATURES) - 3)
    for trial in range(61):
        weights = lost if not trial else [
            rng.choice([rng.uniform(-1e6, 1e6), rng.uniform(-1e-6, 1e-6), rng.randint(-9, 9) / 48, rng.uniform(-3, 3)])
            for _ in COLUMN_FEATURES]
        model = ValueModel.from_dict({"features": list(COLUMN_FEATURES), "weights": weights})
        core = Core(g, PLANNER_MOVES, visible=True)
        for _ in range(5):
            table = tuple(bytes((down,)) + bytes(down) + bytes(rng.choice([1, 2, 3, 12, 13, 17, 28, 29, 44, 45, 61])
                                                                for _ in range(rng.randint(0, 6)))
                          for down in (rng.randint(0, 5) for _ in range(n)))
            for i in range(n):   # one column at a time, and the whole table
                for root in (tuple(table[i] if j == i else bytes(1) for j in range(n)), table):
                    got = []
                    for pure in (False, True):
                        costs = PlanCosts(g, core, model)
                        args = (core, costs, root, 0, set(), 0, [], False)
                        if pure:
                            with ccore.pure_python():
                                got.append(search(*args)[3])
                        else:
                            got.append(search(*args)[3])
                    assert got[0] == got[1], (trial, weights, root)


def test_the_deal_decision_s_card_costs_are_the_learned_value_s() -> None:
    """``card_costs`` (the planner's deal decision: a column with each unseen card laid on it) gives what the
    learned value gives card by card, for the shipped model and one of one's own; none on the pure core."""
    from spiderette.players.value import LearnedValue

    rng = random.Random(7)
    for variant, suits, auto in GAMES[::2]:
        for g in positions(variant, suits, auto, 21, every=6, most=3):
            core, table = Core(g, PLANNER_MOVES, visible=True), columns_of(g, visible=True)
            cards = bytes(sorted(set(unseen_cards(g, table))))
            for model in (None, own_model(rng.randint(0, 99))):
                learned = LearnedValue(g, model, deals_left=max(0, g.deals_left - 1))
                each = plan_search.card_costs(core, learned, table)
                assert each is not None
                for col in table:
                    down, up = col[0], col[col[0] + 1:]
                    assert each(col, cards) == [learned.column_cost((down, up + bytes((c,)))) for c in cards]
                with ccore.pure_python():
                    assert plan_search.card_costs(core, learned, table) is None
