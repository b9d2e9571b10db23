"""Strategies: the protocol, honesty, the built-in strategies' choices, names and settings."""

from __future__ import annotations

import pickle

import pytest
from spiderette_testkit import game, run

from spiderette import (
    Game,
    GreedyStrategy,
    Move,
    PlannerStrategy,
    RandomStrategy,
    RulesOfThumb,
    SearchStrategy,
    SolverStrategy,
    simulate,
)
from spiderette.engine.predicates import visible_key
from spiderette.players.planner import DEFAULT_BUDGET, DEFAULT_TURNS
from spiderette.players.strategies import RULES_OF_THUMB, strategy_label

# ------------------------------------------------------------------------------------------- the protocol
SEEN: list = []


def first_move(game):
    "Play the first legal move; resign when there is none."
    moves = game.legal_moves()
    return moves[0] if moves else None


def test_a_home_made_function_is_a_strategy():
    res = simulate(first_move, deals=[3, 4], max_moves=50, progress=False)
    assert res.strategy == "first_move" and not res.peeks
    assert [r["deal"] for r in res.rows] == [3, 4]
    for row in res.rows:
        assert row["moves"] <= 50
        g = res.game(row["deal"])
        # the first legal move, every time, from the real start
        replay = Game(seed=row["deal"])
        for m in g.history:
            assert m == replay.legal_moves()[0]
            replay.apply(m)


def hidden_cards(g: Game) -> tuple:
    return tuple(g.column(i)[:g.face_down(i)] for i in range(g.columns)), g.stock


def recorder(game):
    SEEN.append(hidden_cards(game))
    return None  # resign at once


class PeekingRecorder:
    peeks = True
    name = "peeking recorder"

    def __call__(self, game):
        SEEN.append(hidden_cards(game))
        return None


def test_an_honest_strategy_sees_shuffled_hidden_cards_and_a_peeking_one_the_real_ones():
    SEEN.clear()
    simulate(recorder, deals=[5, 6, 7], progress=False)
    real = [hidden_cards(Game(seed=d)) for d in (5, 6, 7)]
    assert len(SEEN) == 3 and all(seen != truth for seen, truth in zip(SEEN, real))
    # same number of hidden cards in each place, and the same hidden cards overall
    for seen, truth in zip(SEEN, real):
        assert [len(c) for c in seen[0]] == [len(c) for c in truth[0]] and len(seen[1]) == len(truth[1])
        assert sorted(c for col in seen[0] for c in col) + sorted(seen[1]) != [] and \
            sorted([c for col in seen[0] for c in col] + list(seen[1])) == \
            sorted([c for col in truth[0] for c in col] + list(truth[1]))
    SEEN.clear()
    res = simulate(PeekingRecorder(), deals=[5, 6, 7], progress=False)
    assert SEEN == real
    assert res.peeks and res.strategy == "peeking recorder (peeks)"


class RecordingPlanner(PlannerStrategy):
    """The planner, writing down the hidden cards of every table it is handed."""

    def choose(self, game):
        SEEN.append(hidden_cards(game))
        return super().choose(game)


def test_the_planner_is_handed_redealt_tables_as_the_others():
    SEEN.clear()
    res = simulate(RecordingPlanner(budget=200), deals=[5], progress=False, max_moves=6)
    truth = Game(seed=5)
    assert len(SEEN) == res.rows[0]["moves"] and SEEN[0] != hidden_cards(truth)


def test_an_honest_strategy_is_shown_a_fresh_shuffle_at_every_move():
    shown = []

    def remember_then_deal(game):
        shown.append(hidden_cards(game))
        return Move.parse("d") if game.deal_error() is None else None

    res = simulate(remember_then_deal, deals=[9], progress=False)
    assert res.rows[0]["moves"] == 4 and len({s for s in shown}) == len(shown)


# ------------------------------------------------------------------------------------------- built-ins
def test_names_labels_and_reprs_say_what_each_strategy_is():
    assert [s.name for s in (RandomStrategy(), GreedyStrategy(), RulesOfThumb(), SearchStrategy(),
                             SolverStrategy(), PlannerStrategy())] == ["random", "greedy", "rules of thumb", "search",
                                                                       "solver", "planner"]
    assert PlannerStrategy(budget=500).name == "planner (budget=500)"
    assert repr(PlannerStrategy()) == \
        f"PlannerStrategy(budget={DEFAULT_BUDGET}, value='learned', turns={DEFAULT_TURNS})"
    assert strategy_label(SolverStrategy()) == "solver (peeks)"
    assert SearchStrategy(samples=40).name == "search (samples=40)"
    assert repr(SearchStrategy(samples=40)) == "SearchStrategy(samples=40, node_limit=2000, seed=0)"
    assert repr(RandomStrategy(seed=3, name="dice")) == "RandomStrategy(seed=3, name='dice')"
    assert RandomStrategy(seed=3, name="dice").name == "dice"
    assert "fallback=GreedyStrategy()" in repr(SolverStrategy())
    for s in (RandomStrategy(), GreedyStrategy(), RulesOfThumb(), SearchStrategy(), SolverStrategy(),
              PlannerStrategy()):
        assert repr(pickle.loads(pickle.dumps(s))) == repr(s)  # they go to other processes


@pytest.mark.parametrize("make, error, words", [
    (lambda: RandomStrategy(seed=1.5), TypeError, "seed must be a whole number, not 1.5"),
    (lambda: SearchStrategy(samples=0), ValueError, "samples must be a whole number from 1 to 100000, not 0"),
    (lambda: SearchStrategy(node_limit="many"), TypeError,
     "node_limit must be a whole number from 1 to 1000000000, not 'many'"),
    (lambda: SolverStrategy(node_limit=None, time_limit=None), ValueError, "give node_limit or time_limit"),
    (lambda: SolverStrategy(time_limit=-1), ValueError, "time_limit must be a number of seconds > 0"),
    (lambda: SolverStrategy(fallback=3), TypeError, "fallback must be a strategy (a callable), not 3"),
    (lambda: RulesOfThumb(rules="build in suit"), TypeError, "rules must be a list of rule names"),
    (lambda: RulesOfThumb(rules=["be lucky"]), ValueError, "unknown rule 'be lucky' in rules"),
    (lambda: GreedyStrategy(name=5), TypeError, "name must be a string, not 5"),
    (lambda: PlannerStrategy(budget=0), ValueError, "budget must be a whole number from 1 to 1000000000, not 0"),
    (lambda: PlannerStrategy(budget=10**5000), ValueError, "budget must be a whole number from 1 to 1000000000,"
                                                            " not a whole number of about 5001 digits"),
    (lambda: SearchStrategy(seed=2**64), ValueError, "seed must be a whole number from 0 to 18446744073709551615"),
    (lambda: SolverStrategy(retry_after=10**6), ValueError, "retry_after must be a whole number from 1 to 104"),
    (lambda: PlannerStrategy(budget=2.5), TypeError, "budget must be a whole number from 1 to 1000000000, not 2.5"),
])
def test_bad_settings_are_refused_by_name(make, error, words):
    with pytest.raises(error) as e:
        make()
    assert words in str(e.value)


def test_every_built_in_strategy_answers_a_legal_move_on_real_and_redealt_tables():
    for s in (RandomStrategy(), GreedyStrategy(), RulesOfThumb(), SearchStrategy(samples=2, node_limit=200),
              PlannerStrategy(budget=300)):
        for seed in (1, 2):
            g = Game(seed=seed)
            view = g.redeal_hidden(seed + 10)
            m = s(view)
            assert m in g.legal_moves(), (s, seed, m)


def test_random_choices_depend_on_the_seed_and_the_table_seen_not_on_the_hidden_cards():
    g = Game(seed=11)
    picks = {RandomStrategy(seed=1)(g.redeal_hidden(k)) for k in range(5)}
    assert len(picks) == 1
    assert len({RandomStrategy(seed=k)(g) for k in range(20)}) > 1


def test_rules_of_thumb_turn_over_a_card_before_building_in_suit():
    g = game("spiderette", [["|9C", "5H"], ["6S"], ["4D"], ["5D"], ["KC"], ["KH"], ["*", "KS"]], stock_size=3)
    assert RulesOfThumb()(g) == Move.parse("ab1")
    assert RulesOfThumb(rules=["build in suit", "turn over a card"])(g) == Move.parse("cd1")


def test_rules_of_thumb_keep_an_empty_column_where_greedy_spends_it():
    g = game("spiderette", [["|9C", "5H"], [], ["8S"], ["|2C", "9H", "7D"], ["KC"], ["KH"], ["*", "KS"]],
             stock_size=3)
    assert RulesOfThumb()(g) == Move.parse("dc1")       # build down: 7D from 9H onto 8S
    assert GreedyStrategy()(g) == Move.parse("ab1")     # the hint ranking turns over a card at once


def test_rules_of_thumb_finish_a_run_first_even_from_a_build_in_suit():
    # one suit: 7S-AS lie in suit on an 8S, and another 8S tops a king-to-eight run: moving them finishes it
    g = game("spiderette", [run("S", 13, 8), ["*", "8H"] + run("H", 7, 1), ["KC"], ["KD"], ["KH"]], suits=1,
             stock_size=3)
    assert g.movable(1) == 8
    assert RulesOfThumb()(g) == Move.parse("ba7")
    g.apply("ba7")
    assert g.runs_completed == 1


def test_rules_of_thumb_fill_an_empty_column_to_deal_when_stuck():
    g = game("spiderette", [["|9C", "5H"], [], ["KS"], ["KC"], ["KH"], ["KD"], ["*", "QS"]], stock_size=3)
    assert RulesOfThumb(rules=[])(g).dst == 1 and g.deal_error() is not None


def never_back_to_a_table_seen(res) -> None:
    """No game of the one-suit study ``res`` comes back to a table (as a player sees it) met before in it."""
    for row in res.rows:
        g, keys = Game(seed=row["deal"], suits=1), set()
        for m in res.game(row["deal"]).history:
            keys.add(visible_key(g))
            g.apply(m)
            assert visible_key(g) not in keys


def test_greedy_and_rules_never_go_back_to_a_table_seen():
    for s in (GreedyStrategy(), RulesOfThumb()):
        never_back_to_a_table_seen(simulate(s, deals=range(1, 11), suits=1, progress=False))


def test_a_strategy_of_ones_own_reads_the_tables_seen_through_a_public_name():
    """Issue 43: ``Strategy.choose``'s docs pointed to the private ``self._seen``."""
    from spiderette import Strategy

    class Wanderer(Strategy):
        "The first legal move that leads to a table not seen in this game, asked with ``self.seen``."
        def choose(self, game):
            for m in game.legal_moves():
                after = game.copy()
                after.apply(m)
                if visible_key(after) not in self.seen:
                    return m
            return None

    res = simulate(Wanderer(), deals=range(1, 4), suits=1, progress=False)
    never_back_to_a_table_seen(res)
    w, g = Wanderer(), Game(seed=7)
    w(g)
    assert w.seen == {visible_key(g)} and isinstance(w.seen, frozenset)   # read only: a copy
    with pytest.raises(AttributeError):
        w.seen = set()
    assert "self._seen" not in Strategy.choose.__doc__ and "seen" in Strategy.choose.__doc__


def test_rule_names_are_the_documented_advice():
    assert list(RULES_OF_THUMB) == ["finish a run", "turn over a card", "build in suit", "empty a column", "build down",
                                    "spend an empty column to turn over a card", "park a group in an empty column"]


def test_the_solver_strategy_plays_its_winning_line():
    res = simulate(SolverStrategy(), deals=[2], progress=False)
    assert res.rows[0]["end"] == "won" and res.rows[0]["won"] and res.peeks


def test_the_solver_strategy_resigns_when_the_deal_is_proven_lost():
    # every top card a king or a two with no three to go on: no empty column, no stock, nothing to do
    g = game("spiderette", [["*", "KS"], ["|QS", "KH"], ["|QH", "KD"], ["|QD", "KC"], ["|QC", "2S"],
                            ["|JS", "2H"], ["|JH", "2D"]], stock_size=0)
    s = SolverStrategy()
    assert g.move_count == 4  # the four deals that emptied the stock
    assert s(g) is None and s.note == "proven lost at move 4"


def test_the_solver_strategy_falls_back_and_says_so():
    res = simulate(SolverStrategy(node_limit=30), deals=[4], max_moves=60, progress=False)
    end = res.rows[0]["end"]
    assert "solver gave up at move 0, greedy played" in end, end


def test_rules_of_thumb_send_a_finished_run_when_runs_are_sent_by_hand() -> None:
    # Runs sent by hand: once a run is finished, a send and other moves are candidates together.
    g = Game.from_dict({"variant": "spiderette", "suits": 4, "auto_remove": False, "stock": [],
                        "tableau": [[r + "S" for r in "KQJT98765432"], ["AS"], [r + "C" for r in "KQJT9876543"],
                                    ["2C", "AC"], [], [], []],
                        "foundations": [[r + s for r in "KQJT98765432A"] for s in "HD"]})
    s = RulesOfThumb()
    g.apply(s(g))   # a two onto a three, or the ace onto the two: a run is complete
    assert g.sendable()
    move = s(g)
    assert move.kind == "send" and move.src in g.sendable(), move


def test_a_subclass_with_parameters_is_labelled_by_them_without_name():
    # (issue 29) Mine(weight=2) was "Mine", "Mine #2" in a comparison, and its repr Mine()
    from spiderette import Strategy, compare

    class Mine(Strategy):
        def __init__(self, weight: int = 1, style: str = "dig", name: str | None = None) -> None:
            super().__init__(name)
            self.weight, self.style = weight, style

        def choose(self, game):
            moves = game.legal_moves()
            return moves[min(self.weight, len(moves) - 1)] if moves else None

    class Needs(Strategy):
        def __init__(self, depth):      # no default: always shown
            super().__init__()
            self.depth = depth

        def choose(self, game):
            return None

    class Named(Mine):
        short_name = "mine"

    class Plain(RulesOfThumb):        # the parent's settings (its _defaults) still apply
        pass

    assert Mine().name == "Mine" and repr(Mine()) == "Mine(weight=1, style='dig')"
    assert Mine(weight=2).name == "Mine(weight=2)" and repr(Mine(weight=2)) == "Mine(weight=2, style='dig')"
    assert Mine(3, "build").name == "Mine(weight=3, style='build')"
    assert Mine(weight=2, name="two").name == "two" and repr(Mine(weight=2, name="two")).endswith("name='two')")
    assert Named(weight=2).name == "mine (weight=2)" and Named().name == "mine"
    assert Needs(2).name == "Needs(depth=2)" and repr(Needs(2)) == "Needs(depth=2)"
    assert Plain(rules=["build in suit"]).name == "Plain(rules=('build in suit',))"
    cmp = compare([Mine(), Mine(weight=2)], deals=[1, 2], suits=1, progress=False)
    assert cmp.labels == ["Mine", "Mine(weight=2)"]
    assert pickle.loads(pickle.dumps(RulesOfThumb())).name == "rules of thumb"
