"""The solver, what a player may see (``observation``, ``redeal_hidden``) and the honest search hint."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from spiderette_testkit import game, reachable, run

from spiderette import VARIANTS, Game, hint, solve, solve_async
from spiderette.players.search import search_hint
from spiderette.players.solver import _Search

#: Every test here runs on each search core: the compiled one and the pure-Python reference.
pytestmark = pytest.mark.usefixtures("search_core")


def replayed(g: Game, moves) -> Game:
    h = g.copy()
    h.play(moves)
    return h


def exhaustive_loss(g: Game, limit: int = 200_000) -> bool:
    """Every table reachable with the engine's own legal moves, and none won (a cross-check of the solver)."""
    return reachable(g, limit=limit) is not None


# ------------------------------------------------------------------------------------------- known answers
def test_wins_in_one_and_three_moves_with_three_runs_already_home():
    g = game("spiderette", [run("S", 13, 2), ["AS"]], foundations=["H", "D", "C"])
    res = solve(g, node_limit=50_000)
    assert res.result == "win" and [str(m) for m in res.moves] == ["ba1"]
    g = game("spiderette", [run("S", 13, 4), ["3S"], ["2S"], ["AS"]], foundations=["H", "D", "C"])
    res = solve(g, node_limit=50_000)
    assert res.result == "win" and len(res.moves) >= 3 and replayed(g, res.moves).is_won


def test_wins_a_position_whose_shortest_win_takes_ten_moves():
    # spades K-J in a, then five pairs each lying in the wrong order: every card from 10 down must move, and
    # (a breadth-first search over the engine's moves, run once by hand, confirms) ten moves is the fewest
    g = game("spiderette", [run("S", 13, 11), ["9S", "TS"], ["7S", "8S"], ["5S", "6S"], ["3S", "4S"],
                            ["AS", "2S"]], foundations=["H", "D", "C"])
    res = solve(g, time_limit=None, node_limit=50_000)
    assert res.result == "win" and len(res.moves) >= 10 and replayed(g, res.moves).is_won


@pytest.mark.parametrize("variant, suits", [("spiderette", 1), ("spiderette", 2), ("spiderette", 4),
                                            ("red_black_spiderette", 4), ("will_o_the_wisp", 4),
                                            ("spider", 1), ("spider", 2)])
def test_every_variant_has_deals_the_solver_wins(variant, suits):
    for seed in (1, 2, 3):
        g = Game(variant, seed=seed, suits=suits)
        res = solve(g, time_limit=None, node_limit=40_000)
        if res.result == "win":
            assert replayed(g, res.moves).is_won
            return
    raise AssertionError(f"no win in deals 1-3 of {variant} with {suits} suit(s)")


def test_real_deals_won_are_wins_on_replay():
    for seed in (8, 12, 26):
        g = Game(seed=seed)
        before = g.position()
        res = solve(g, time_limit=None, node_limit=100_000)  # counted in tables: the same on any machine
        assert g.position() == before  # the game given is never changed
        assert res.result == "win", (seed, res)
        assert replayed(g, res.moves).is_won and res.nodes > 0


def test_no_move_at_all_is_a_proven_loss():
    # four kings and three cards that fit nowhere on top, the rest face down under them; the stock is empty
    g = game("spiderette", [["*", "KS"], ["KH"], ["KD"], ["KC"], ["9H"], ["6D"], ["3C"]])
    assert g.status == "lost"
    res = solve(g, node_limit=50_000)
    assert res.result == "loss" and res.moves == []


def test_a_dead_end_is_a_proven_loss():
    # three runs home, three cards in the tableau, ten in the stock: a column stays empty, so no deal ever
    g = game("spiderette", [["5S"], ["9S"], ["QS"]], stock_size=10, foundations=["H", "D", "C"])
    assert g.status == "dead_end"
    res = solve(g, node_limit=50_000)
    assert res.result == "loss"
    assert exhaustive_loss(g)


def test_a_loss_with_moves_to_spare_is_proven_and_cross_checked():
    # diamonds and clubs home; 5H can go back and forth between 6S and 6H, and nothing else can ever move
    g = game("spiderette", [["AS", "3S", "5S", "KS"], ["2S", "4S", "6S", "5H"], ["7S", "8S", "6H"],
                            ["QS", "7H", "KH"], ["JS", "AH", "9H"], ["TS", "3H", "8H", "2H"],
                            ["TH", "QH", "9S", "4H", "JH"]], foundations=["D", "C"])
    assert g.status == "playing" and [str(m) for m in g.legal_moves()] == ["bc1"]
    res = solve(g, node_limit=50_000)
    assert res.result == "loss" and exhaustive_loss(g)


def test_an_undecided_verdict_says_how_many_tables_a_proof_would_still_look_at():
    """Deal 80 is lost (a proof: 22,893 tables). Stopped short, the solver says how many tables it had found and
    not yet looked at, each of which the proof still expands: never more than the proof had left to do."""
    proof = solve(Game(seed=80), node_limit=200_000)
    assert proof.result == "loss" and proof.open_tables is None
    for budget in (3_000, 10_000, 20_000):
        res = solve(Game(seed=80), time_limit=None, node_limit=budget)
        assert res.result == "unknown" and res.open_tables > 0
        assert res.nodes + res.open_tables <= proof.nodes, "at least that many more: a lower bound"
        assert f"a proof of loss would still have {res.open_tables:,} tables or more to look at" in str(res)
    stop = threading.Event()
    stop.set()
    assert solve(Game(seed=80), cancel=stop).open_tables is None, "cancelled: nothing to say"


# ------------------------------------------------------------------------------------------- the move generator
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_solvers_children_are_the_engines(variant):
    """Against Game.legal_moves and Game.apply on random walks: the children the solver expands a table into
    (its core's, the one applier) are the same moves (less the two proven no-ops once the stock is empty), and
    each child is the engine's table after its move, with the cards it turned over."""
    for seed in range(6):
        g = Game(variant, seed=seed)
        space, streamliner = _Search(g), _Search(g, whole_runs=True)
        rng = random.Random(seed)
        for _ in range(150):
            n = g.columns

            def state(h: Game, space: _Search = space) -> tuple:
                cols, _, runs = space.root(h)
                return cols, len(space.stock) - h.stock_count, runs

            now = state(g)
            legal = set(g.legal_moves())
            if not g.stock_count:
                empty = [i for i in range(n) if not g.column(i)]
                legal = {m for m in legal if not (m.kind == "move" and not g.column(m.dst) and (
                    m.dst != empty[0] or m.count == len(g.column(m.src))))}
            children = {m: ((cols, dealt, runs), turned) for m, cols, dealt, runs, turned in space.core.children(now)}
            assert set(children) == legal
            assert {kid[0] for kid in streamliner.core.children(now)} <= legal  # whole runs only: a subset
            if not legal:
                break
            for m in sorted(legal, key=str):
                h = g.copy()
                h.apply(m)
                down = sum(h.face_down(i) for i in range(n))
                assert children[m] == (state(h), sum(g.face_down(i) for i in range(n)) - down), m
            g.apply(rng.choice(sorted(legal, key=str)))


# ------------------------------------------------------------------------------------------- budgets and threads
def test_node_and_time_limits_are_kept():
    g = Game(seed=1)
    res = solve(g, time_limit=None, node_limit=500)
    assert res.result in ("win", "unknown") and res.nodes <= 500
    if res.result == "unknown":
        assert "node limit" in res.reason
    # (deal 21 stays undecided after 10 s on either core: deal 3, which needs 400,000 tables, is won in 0.25 s
    # on the compiled core)
    res = solve(Game(seed=21), time_limit=0.3)
    assert res.result == "unknown" and res.reason == "time limit reached"   # it stopped on its own


def test_a_cancelled_search_says_so():
    stop = threading.Event()
    stop.set()
    res = solve(Game(seed=1), time_limit=30, cancel=stop)
    assert res.result == "unknown" and res.reason == "cancelled"


def test_solve_async_is_a_future_that_can_be_cancelled():
    g = Game(seed=12)
    f = solve_async(g, time_limit=None, node_limit=100_000)
    assert f.result(timeout=30).result == "win"
    slow = solve_async(Game(seed=4), time_limit=60)  # a deal the solver takes long over
    assert slow.cancel() and slow.cancelled()
    g.apply(g.legal_moves()[0])  # the game plays on meanwhile: the search works on a copy


@pytest.mark.parametrize("kwargs, error", [({"time_limit": 0}, ValueError), ({"time_limit": -1}, ValueError),
                                           ({"time_limit": "5"}, TypeError), ({"node_limit": 0}, ValueError),
                                           ({"node_limit": 2.5}, TypeError), ({"node_limit": True}, TypeError),
                                           ({"node_limit": 10**400}, ValueError)])
def test_bad_budgets_are_clear_errors(kwargs, error):
    with pytest.raises(error):
        solve(Game(seed=1), **kwargs)
    with pytest.raises(TypeError):
        solve("spiderette")


# ------------------------------------------------------------------------------------------- what a player sees
def hidden(g: Game) -> Counter:
    d = g.to_dict()
    return Counter([c[1:] for col in d["tableau"] for c in col if c.startswith("|")] + d["stock"])


def test_observation_holds_no_hidden_card_and_no_deal_number():
    g = Game(seed=7)
    g.play("bd d")
    o = g.observation()
    text = repr(o)
    assert o["stock"] == 17 and [c["down"] for c in o["columns"]] == [0, 0, 2, 3, 4, 5, 6]
    assert not any(f"'{c}'" in text for c in hidden(g)) and "seed" not in o


@pytest.mark.parametrize("variant", VARIANTS)
def test_redeal_hidden_keeps_what_is_seen_and_shuffles_the_rest(variant):
    g = Game(variant, seed=5)
    g.apply(g.legal_moves()[0])
    a, b = g.redeal_hidden(1), g.redeal_hidden(1)
    assert a.observation() == g.observation() and a.position() == b.position()
    assert hidden(a) == hidden(g)                      # the same cards are hidden, in other places
    assert g.redeal_hidden(2).position() != a.position()
    assert a.move_count == g.move_count and a.history == []


def test_the_search_hint_depends_only_on_what_is_seen():
    g = Game(seed=7)
    twin = g.redeal_hidden(99)                 # the same table to a player, other hidden cards
    assert twin.observation() == g.observation() and twin.position() != g.position()
    a = search_hint(g, samples=3, seed=4, node_limit=800)
    b = search_hint(twin, samples=3, seed=4, node_limit=800)
    assert (a.move, a.reason) == (b.move, b.reason)
    assert a.move in g.legal_moves() and "sampled deal" in a.reason


def test_hint_methods():
    g = game("spiderette", [run("S", 13, 2), ["AS"]], foundations=["H", "D", "C"])
    assert str(hint(g).move) == "ba1"
    spoiler = hint(g, method="solver")
    assert str(spoiler.move) == "ba1" and "spoiler" in spoiler.reason
    only = hint(g, method="search", samples=2, seed=1)
    assert str(only.move) == "ba1" and "only useful move" in only.reason
    with pytest.raises(ValueError, match="method"):
        hint(g, method="oracle")
    with pytest.raises(ValueError, match="samples"):
        hint(Game(seed=7), method="search", samples=0)


def test_a_time_limit_cuts_the_search_hint_short_and_says_so():
    g = Game(seed=7)
    h = search_hint(g, samples=10_000, seed=1, node_limit=20_000, time_limit=0.5)
    assert h is not None and h.move in g.legal_moves()
    assert "cut short by the time limit" in h.reason
    full = search_hint(g, samples=3, seed=1, node_limit=500)
    assert "cut short" not in full.reason
    with pytest.raises(ValueError, match="time_limit"):
        search_hint(g, time_limit=0)
