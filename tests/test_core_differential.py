"""The engine's one move generator and applier (``spiderette.engine.core``), and so every search, held to an
independent, deliberately plain copy of the rules (``reference_rules.py``), not to the engine itself (which
uses the same core, and would agree with it whatever it got wrong).

1. On walks over random positions of every variant, number of suits and way of finishing runs: the engine's
   legal moves are the reference's; every child that the solver's, the proof pass's and the streamliner's
   cores expand a table into is the reference's table after that move, with the cards it turned over; the
   planner's view of each move (its turned card unknown) is the reference's; ``Game.apply`` is the reference's.
2. On small endgames (a few runs finished, some cards face down, a stock of 0 or 3) searched to the end by the
   reference: the solver never calls a winnable table lost nor a lost one won, each winning line wins by the
   reference's rules too, and the proof pass agrees.
"""

from __future__ import annotations

import random

import pytest
from reference_rules import ReferenceRules, Table, packed, table_of

from spiderette import Game, solve
from spiderette.engine.cards import make_deck
from spiderette.engine.core import Core
from spiderette.engine.errors import InvalidPositionError
from spiderette.engine.variants import BUILT_IN, RULES, Rules
from spiderette.players.planner import PLANNER_MOVES, PlannerStrategy
from spiderette.players.proof import prove
from spiderette.players.solver import COMPLETE, EAGER_STREAMLINER, STREAMLINER

SPIDERETTE = (1, 2, 3, 4, 5, 6, 7)
#: Every built-in variant with each of its suit counts, and designs that build in suit or alternate colours, or
#: move one card at a time.
KINDS = [(name, s) for name in BUILT_IN for s in RULES[name].suit_options] + [
    (Rules("ref_in_suit", "Ref In Suit", 1, SPIDERETTE, build="suit"), 2),
    (Rules("ref_alternate", "Ref Alternate", 1, SPIDERETTE, build="alternate", suit_options=(4, 2)), 4),
    (Rules("ref_one_card", "Ref One Card", 1, SPIDERETTE, group="card"), 1),
    (Rules("ref_colour_alternate", "Ref Colour Alternate", 1, SPIDERETTE, group="colour", build="alternate",
           deal_with_empty=True, suit_options=(4,)), 4),
]
IDS = [f"{v if isinstance(v, str) else v.name}-{s}" for v, s in KINDS]


@pytest.fixture(autouse=True)
def forget_designs():
    yield
    for name in [n for n in RULES if n not in BUILT_IN]:
        del RULES[name]


def face_down(t: Table) -> int:
    return sum(down for down, _ in t.columns)


def as_seen(t: Table, before: Table) -> tuple[bytes, ...]:
    """The columns of ``t`` as a player sees them, a card turned over since ``before`` unknown (a 0) as the
    planner writes it; the face-down cards as 0s."""
    out = []
    for (down, cards), (was, _) in zip(t.columns, before.columns):
        up = list(cards[down:])
        if down < was:
            up[0] = 0   # (just turned over: unknown until it is seen)
        out.append(bytes((down,)) + bytes(down) + bytes(up))
    return tuple(out)


#: The most games played for one variant until they have turned a card over, dealt and met an empty column.
MOST_GAMES = 12


@pytest.mark.parametrize("auto_remove", [True, False], ids=["runs leave", "runs sent"])
@pytest.mark.parametrize(("variant", "suits"), KINDS, ids=IDS)
def test_every_searchs_children_are_the_reference_rules(variant, suits, auto_remove):
    met = {"turned": 0, "run": 0, "deal": 0, "empty": 0}
    for seed in range(MOST_GAMES):   # three games, more where they met no empty column (a variant of its own)
        if seed >= 3 and met["turned"] and met["deal"] and met["empty"]:
            break
        g = Game(variant, seed=seed, suits=suits, auto_remove=auto_remove)
        ref = ReferenceRules(g.rules, auto_remove)
        cores = {"every move": Core(g), "complete": Core(g, COMPLETE), "streamliner": Core(g, STREAMLINER),
                 "eager": Core(g, EAGER_STREAMLINER)}
        planner = Core(g, PLANNER_MOVES, visible=True)
        stock0 = g.stock_count
        player = PlannerStrategy(budget=100, value="handmade")
        player.new_game()
        rng = random.Random(seed)
        for step in range(120):
            t = table_of(g)
            legal = ref.legal_moves(t)
            assert set(g.legal_moves()) == legal, (seed, step)
            if not legal:
                break
            state = (packed(t), stock0 - len(t.stock), t.runs)
            after = {m: ref.play(t, m) for m in legal}
            for name, core in cores.items():
                kids = core.children(state)
                moves = [kid[0] for kid in kids]
                assert len(set(moves)) == len(moves) and set(moves) <= legal, name
                if name == "every move":
                    assert set(moves) == legal
                for m, cols, dealt, runs, turned in kids:
                    a = after[m]
                    assert (cols, dealt, runs) == (packed(a), stock0 - len(a.stock), a.runs), (name, m, seed, step)
                    assert turned == face_down(t) - face_down(a), (name, m)
                # the solver's way (a tree of the tables met, which the core enters each kept child in): the
                # moves' children not met before, each once, keyed as the solver keys a table
                def key_of(cols, dealt, runs, stock0=stock0):
                    return (cols, dealt, runs) if dealt < stock0 else (tuple(sorted(cols)), runs)
                moving = [kid for kid in kids if kid[0].kind == "move"]
                pick = random.Random(step)   # (not the game's rng: the same games are played)
                tree = {key_of(*kid[1:4]): "met" for kid in moving if pick.random() < 0.3}
                met_before = dict(tree)
                linked = core.expander(tree, linked=True)(state, "here")
                want, keys = [], set(met_before)
                for m, cols, dealt, runs, turned in kids:
                    k = key_of(cols, dealt, runs) if m.kind == "move" else None
                    if k is None or k not in keys:
                        want.append((m, cols, dealt, runs, turned, k))
                        keys.add(k)
                assert linked == want, (name, seed, step)
                assert tree == met_before | {kid[5]: ("here", kid[0]) for kid in want if kid[5] is not None}
            seen = as_seen(t, t)
            for m in legal:
                if m.kind != "move":
                    continue
                left, moved, finished, _ = planner.shift(seen[m.src], seen[m.dst], m.count)
                a = after[m]
                want = as_seen(a, t)
                assert (left, moved) == (want[m.src], want[m.dst]), (m, seed, step)
                made = ref.ends_in_a_run(a.columns[m.dst]) and m.count < 13   # (not a whole run moved)
                assert finished == (a.runs > t.runs or made)
                met["turned"] += face_down(a) < face_down(t)
                met["run"] += a.runs > t.runs
            if step % 3 == 0:
                for m in sorted(legal, key=str):
                    h = g.copy()
                    h.apply(m)
                    assert table_of(h) == after[m], (m, seed, step)
            met["deal"] += any(m.kind == "deal" for m in legal)
            met["empty"] += any(not cards for _, cards in t.columns)
            m = player(g) if rng.random() < 0.5 else None
            g.apply(m if m in legal else rng.choice(sorted(legal, key=str)))
    assert met["turned"] and met["deal"] and met["empty"], met


# ---------------------------------------------------------------------- verdicts on small endgames
def endgame(variant: str, suits: int, runs_left: int, stock: int, seed: int, auto_remove: bool = True) -> Game | None:
    """A random table of ``variant`` with all runs but ``runs_left`` on the foundations, the cards of those runs
    spread over the columns (some face down) and ``stock`` of them in the stock; ``None`` when the engine
    finds it unreachable."""
    rules = RULES[variant]
    rng = random.Random(seed)
    deck = make_deck(rules.decks, suits)
    by_suit: dict[int, list[int]] = {}
    for c in deck:
        by_suit.setdefault(c >> 4, []).append(c)
    runs = [sorted(cards, reverse=True)[i::len(cards) // 13] for cards in by_suit.values()
            for i in range(len(cards) // 13)]   # (each suit's cards as runs, king first)
    rng.shuffle(runs)
    found, left = runs[runs_left:], [c for r in runs[:runs_left] for c in r]
    rng.shuffle(left)
    pile, on_table = left[:stock], left[stock:]
    n = rules.columns
    cols: list[list[int]] = [[] for _ in range(n)]
    for c in on_table:
        cols[rng.randrange(n)].append(c)
    down = [max(0, len(c) - 1 - rng.randrange(2)) for c in cols]   # (most cards face down: some tables lost)
    try:
        return Game.from_state(variant, columns=cols, face_down=down, stock=pile, foundations=found, suits=suits,
                               auto_remove=auto_remove)
    except InvalidPositionError:
        return None


#: (variant, suits, runs left, stock, deals tried, runs leave by themselves): 4 suits with two runs left are
#: mostly lost (most cards face down), one run left mostly won.
ENDGAMES = [("spiderette", 4, 2, 0, 12, True), ("spiderette", 4, 1, 3, 5, True), ("spiderette", 2, 2, 3, 10, True),
            ("red_black_spiderette", 4, 1, 3, 4, True), ("will_o_the_wisp", 1, 1, 3, 4, True),
            ("spiderette", 4, 2, 0, 6, False)]


@pytest.mark.parametrize(("variant", "suits", "runs_left", "stock", "deals", "auto_remove"), ENDGAMES,
                         ids=[f"{v}-{s}-{r}run-stock{k}{'' if a else '-sent'}" for v, s, r, k, _, a in ENDGAMES])
def test_the_solver_and_the_proof_agree_with_a_search_of_every_table_by_the_reference_rules(
        variant, suits, runs_left, stock, deals, auto_remove, search_core):
    verdicts = {True: 0, False: 0}
    for seed in range(deals):
        g = endgame(variant, suits, runs_left, stock, seed, auto_remove)
        if g is None or g.is_won:
            continue
        ref = ReferenceRules(g.rules, g.auto_remove)
        truth = ref.winnable(table_of(g), most=20_000)
        if truth is None:
            continue
        # (a winnable table: a short solve must not call it lost; a lost one: its space is small, both end)
        res = solve(g, node_limit=20_000 if truth else 200_000)
        assert res.result != ("loss" if truth else "win"), (seed, res, truth)
        if res.result == "win":   # the line wins by the reference's rules too
            t = table_of(g)
            for m in res.moves:
                t = ref.play(t, m, checked=True)
            assert ref.won(t)
        if not truth:
            p = prove(g)
            assert (res.result, p.outcome) == ("loss", "lost"), (seed, res, p)
            assert p.tables <= 20_000, "the proof visits no more tables than the game reaches"
        verdicts[truth] += 1
    assert sum(verdicts.values()) >= 3, verdicts
    if (suits, runs_left) == (4, 2):
        assert verdicts[False], "tables proven lost by the reference were met"


def test_a_copy_of_a_game_of_a_subclass_is_of_that_subclass():
    class Annotated(Game):
        def note(self) -> str:
            return f"{self.move_count} moves"

    g = Annotated(seed=7)
    g.play("bd")
    h = g.copy()
    assert type(h) is Annotated and h.note() == "1 moves" and h.history == g.history
