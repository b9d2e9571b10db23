"""Studies: rows, ends, determinism (serial, processes, Dask), interruption, replays, statistics, extras."""

from __future__ import annotations

import builtins
import importlib
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from spiderette import (
    Comparison,
    Game,
    GreedyStrategy,
    Move,
    RandomStrategy,
    RulesOfThumb,
    SearchStrategy,
    Simulation,
    Strategy,
    StrategyError,
    compare,
    simulate,
)
from spiderette.players.chart import Chart
from spiderette.players.extras import TEACH, needs
from spiderette.studies.intervals import binomial_two_sided, format_p, mcnemar, wilson_interval
from spiderette.studies.results import Table
from spiderette.studies.runner import ENDS, play_deal

ROW_KEYS = ["deal", "won", "runs", "score", "moves", "face_down_left", "suited", "seconds", "end"]


def same(rows):
    """Rows without their times: what must be equal run after run."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


# ------------------------------------------------------------------------------------------- strategies for tests
def back_and_forth(game):
    """Moves one card to the empty column and back for ever (a strategy that loops)."""
    for m in game.legal_moves():
        if m.kind == "move" and game.top_card(m.dst) is None:
            return m
    return game.legal_moves()[0]


def kings_to_aces(game):
    """Always the same illegal move: 13 cards from column a."""
    return Move("move", 0, 1, 13)


def not_a_move(game):
    return 42


def crashing(game):
    raise ZeroDivisionError("oops")


class Counting:
    """Deals in order; interrupts at its third game (the study gives each game a fresh copy: count outside)."""

    games = 0

    def __call__(self, game):
        if game.move_count == 0:
            type(self).games += 1
            if type(self).games == 3:
                raise KeyboardInterrupt
        return None


# ------------------------------------------------------------------------------------------- rows and ends
def test_rows_have_the_documented_fields_in_the_order_of_the_deals():
    res = simulate(GreedyStrategy(), deals=[5, 2, 9], progress=False)
    assert [r["deal"] for r in res.rows] == [5, 2, 9] and res.deals == [5, 2, 9]
    for r in res.rows:
        assert list(r) == ROW_KEYS
        assert r["end"].split(" (")[0].split(":")[0] in ENDS
        g = Game(seed=r["deal"])
        assert isinstance(r["won"], bool) and 0 <= r["runs"] <= g.runs_total and r["seconds"] >= 0
    assert res.partial is None and "won" in res.summary() and "95% CI" in res.summary()


def test_a_function_going_round_in_circles_is_stopped_and_the_row_says_so():
    res = simulate(back_and_forth, deals=[1], max_moves=25, progress=False)
    (row,) = res.rows
    assert row["end"] == "cycle (the same table 3 times)" and row["moves"] < 25 and not row["won"]
    assert res.ends()["cycle"] == 1


def test_a_strategy_that_cycles_within_the_cap_ends_at_the_move_cap():
    class Wander(Strategy):
        def choose(self, game):   # never back to a table seen: it cannot cycle, the cap ends it
            return self.first_new(game, game.legal_moves())

    res = simulate(Wander(), deals=[1], max_moves=25, progress=False)
    assert res.rows[0]["end"] in ("move cap", "resigned", "no moves")
    assert res.strategy == "Wander", "a subclass without a short name is labelled by its class name"


def test_an_illegal_move_ends_the_game_not_the_study():
    res = simulate(kings_to_aces, deals=[1, 2], progress=False)
    assert [r["moves"] for r in res.rows] == [0, 0]
    for r in res.rows:
        assert r["end"].startswith("illegal move: ab13: column a has only 1 face-up card"), r["end"]
    res = simulate(not_a_move, deals=[1], progress=False)
    assert res.rows[0]["end"] == "illegal move: move must be a Move or move notation like 'ab', not 42"


def test_moves_may_be_given_as_notation():
    res = simulate(lambda g: "d" if g.deal_error() is None else None, deals=[3], progress=False)
    assert res.rows[0]["moves"] == 4 and res.lines[3] == "d d d d"


def test_a_strategy_that_raises_stops_the_study_saying_where():
    with pytest.raises(StrategyError, match=r"crashing raised ZeroDivisionError on deal 8 at move 0: oops"):
        simulate(crashing, deals=[8], progress=False)


def test_resigned_and_no_moves_ends():
    assert simulate(lambda g: None, deals=[1], progress=False).rows[0]["end"] == "resigned"
    res = simulate(GreedyStrategy(), deals=range(1, 30), progress=False)
    assert {"resigned", "no moves"} <= set(res.ends())


# ------------------------------------------------------------------------------------------- determinism
STRATEGIES = [RandomStrategy(seed=4), GreedyStrategy(), RulesOfThumb()]


def test_the_same_study_gives_the_same_rows_serial_and_in_processes():
    deals = range(1, 13)
    for s in STRATEGIES:
        serial = simulate(s, deals=deals, max_moves=150, progress=False)
        again = simulate(s, deals=deals, max_moves=150, progress=False)
        parallel = simulate(s, deals=deals, max_moves=150, processes=2, progress=False)
        assert same(serial.rows) == same(again.rows) == same(parallel.rows)
        assert serial.lines == parallel.lines
    with ProcessPoolExecutor(2) as pool:
        given = simulate(STRATEGIES[0], deals=deals, max_moves=150, executor=pool, progress=False)
    assert same(given.rows) == same(simulate(STRATEGIES[0], deals=deals, max_moves=150, progress=False).rows)


def by_the_cards_shown_face_down(game):
    """A legal move picked by the face-down and stock cards it is shown (for an honest strategy, a redeal)."""
    moves = game.legal_moves()
    hidden = game.stock + tuple(c for i in range(game.columns) for c in game.column(i)[:game.face_down(i)])
    return moves[hash(hidden) % len(moves)] if moves else None   # (the hash of whole numbers: the same everywhere)


def test_the_study_seed_changes_what_an_honest_strategy_is_shown():
    def study(strategy, seed):
        return simulate(strategy, deals=range(1, 6), max_moves=100, seed=seed, progress=False)

    a, again, b = (study(by_the_cards_shown_face_down, seed) for seed in (0, 0, 1))
    assert a.lines == again.lines and same(a.rows) == same(again.rows), "the same seed, the same games"
    assert a.lines != b.lines, "another seed, other hidden cards shown: other games"
    # (the face-up cards are the table's whatever the seed: a strategy that reads only them plays the same)
    assert study(RandomStrategy(), 0).lines == study(RandomStrategy(), 1).lines


def test_a_local_dask_cluster_gives_the_serial_rows():
    distributed = pytest.importorskip("distributed")
    deals = range(1, 9)
    serial = [simulate(s, deals=deals, max_moves=150, progress=False) for s in STRATEGIES]
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1, dashboard_address=None) as c, \
            distributed.Client(c) as client:
        for s, want in zip(STRATEGIES, serial):
            got = simulate(s, deals=deals, max_moves=150, executor=client.get_executor(), progress=False)
            assert same(got.rows) == same(want.rows)
        cmp = compare(STRATEGIES[:2], deals=deals, max_moves=150, executor="dask", progress=False)
        assert [same(r.rows) for r in cmp.results] == [same(r.rows) for r in serial[:2]]
        lazy = simulate(lambda g: None, deals=deals, executor="dask", progress=False)  # cloudpickle sends it
        assert {r["end"] for r in lazy.rows} == {"resigned"}


# ------------------------------------------------------------------------------------------- interruption
def test_an_interrupt_returns_the_deals_finished_before_it_marked_partial():
    Counting.games = 0
    res = simulate(Counting(), deals=[10, 11, 12, 13], progress=False)
    assert res.deals == [10, 11] and res.partial == "interrupted: 2 of 4 deals played"
    assert "PARTIAL" in res.summary() and "partial" in repr(res)


def test_an_interrupt_in_a_worker_process_returns_a_partial_result():
    res = simulate(_Stopper(12), deals=range(10, 16), processes=2, progress=False)
    assert res.partial and 12 not in res.deals and set(res.deals) < set(range(10, 16))


class _Stopper:
    """Interrupts on deal ``stop``: it recognises the deal by its face-up cards (it is honest)."""

    def __init__(self, stop: int) -> None:
        self.tops = [Game(seed=stop).top_card(i) for i in range(7)]

    def __call__(self, game):
        if game.move_count == 0 and [game.top_card(i) for i in range(7)] == self.tops:
            raise KeyboardInterrupt
        return None


def test_an_interrupted_comparison_compares_the_deals_every_strategy_played():
    Counting.games = 0
    cmp = compare([lambda g: None, Counting()], deals=[1, 2, 3, 4], progress=False)
    # deal by deal, strategy after strategy: the first had played deal 3 when the second stopped on it
    assert cmp.results[0].deals == [1, 2, 3] and cmp.results[1].deals == [1, 2]
    assert cmp.partial and cmp.deals == [1, 2] and [row["deals"] for row in cmp.table()] == [2, 2]


# ------------------------------------------------------------------------------------------- replays
def test_the_game_of_a_deal_replays_the_recorded_moves_to_the_same_end():
    res = simulate(GreedyStrategy(), deals=range(1, 8), suits=1, progress=False)
    for r in res.rows:
        g = res.game(r["deal"])
        assert [str(m) for m in g.history] == res.lines[r["deal"]].split()
        assert (g.is_won, g.runs_completed, g.score, g.move_count) == (r["won"], r["runs"], r["score"], r["moves"])
        assert sum(g.face_down(i) for i in range(7)) == r["face_down_left"] and g.suits == 1
    with pytest.raises(ValueError, match="deal 99 is not in this study"):
        res.game(99)


def test_play_deal_is_one_row_and_its_moves():
    row, line = play_deal(GreedyStrategy(), 3)
    g = Game(seed=3)
    g.play(line)
    assert row["moves"] == g.move_count and row["deal"] == 3


# ------------------------------------------------------------------------------------------- comparison
def test_compare_plays_every_strategy_on_the_same_deals_with_a_paired_test():
    cmp = compare([GreedyStrategy(), RulesOfThumb(), GreedyStrategy()], deals=range(1, 41), suits=1, progress=False)
    assert isinstance(cmp, Comparison) and cmp.labels == ["greedy", "rules of thumb", "greedy #2"]
    assert all(r.deals == list(range(1, 41)) for r in cmp.results)
    a, b = ({r["deal"]: r["won"] for r in res.rows} for res in cmp.results[:2])
    t = cmp.paired("greedy", "rules of thumb")
    assert (t.only_first, t.only_second) == (sum(a[d] and not b[d] for d in a), sum(b[d] and not a[d] for d in a))
    table = cmp.table()
    assert [row["strategy"] for row in table] == cmp.labels
    assert table[0]["won"] == cmp.results[0].wins and table[2]["p (McNemar)"] == "1"
    assert "greedy #2" in str(table) and "<table>" in table._repr_html_()
    assert str(t).startswith(f"McNemar ({t.method}): {t.only_first} deals won only by greedy, {t.only_second}"
                             " only by rules of thumb; p = ")
    with pytest.raises(ValueError, match="no strategy 'bold'"):
        cmp.paired("bold")


def test_a_table_prints_aligned_and_escapes_its_html():
    table = Table([{"deal": 7, "R&D <x>": 0.12345, "n": None}, {"deal": 123, "R&D <x>": 12345.6, "n": "'a'"}])
    assert str(table).splitlines() == ["deal  R&D <x>  n",
                                       "----  -------  ---",
                                       "7     0.123",
                                       "123   12,346   'a'"]
    assert repr(table) == str(table) and str(Table()) == "(empty)" and Table()._repr_html_() == "<p>(empty)</p>"
    html = table._repr_html_()
    assert "<th>R&amp;D &lt;x&gt;</th>" in html and "<td>&#x27;a&#x27;</td>" in html and "<x>" not in html


def test_peeking_is_labelled_in_tables():
    class Peeker:
        peeks = True

        def __call__(self, game):
            return None

    cmp = compare([Peeker(), lambda g: None], deals=[1], progress=False)
    assert cmp.labels == ["Peeker (peeks)", "<lambda>"]
    assert cmp.table()[0]["strategy"] == "Peeker (peeks)"


# ------------------------------------------------------------------------------------------- statistics
def test_wilson_intervals_match_newcombe_1998():
    for (x, n), (lo, hi) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 20): (0.0, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        got = wilson_interval(x, n)
        assert (round(got[0], 4), round(got[1], 4)) == (lo, hi)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mcnemar_exact_for_small_counts_and_chi_square_for_large():
    assert binomial_two_sided(1, 10) == 22 / 1024 and binomial_two_sided(5, 10) == 1.0
    t = mcnemar(9, 1)
    assert t.method == "exact binomial" and t.p_value == 22 / 1024
    t = mcnemar(34, 14)  # (|34-14| - 1)² / 48 = 7.52, p = 0.0061
    assert t.method == "chi-square" and round(t.p_value, 4) == 0.0061
    assert mcnemar(0, 0).p_value == 1.0 and mcnemar(30, 30).p_value == 1.0
    assert mcnemar(34, 14, exact=True).method == "exact binomial"
    with pytest.raises(ValueError):
        mcnemar(-1, 3)


# ------------------------------------------------------------------------------------------- arguments
@pytest.mark.parametrize("kwargs, error, words", [
    ({"deals": 100}, TypeError, "deals must be an iterable of deal numbers like range(1000), not 100"),
    ({"deals": []}, ValueError, "deals is empty"),
    ({"deals": [1, 2, 1]}, ValueError, "deals must not repeat a deal: 1 appears twice"),
    ({"deals": [1.5]}, TypeError, "each deal must be a whole number, not 1.5"),
    ({"deals": [-1]}, ValueError, "each deal must be a whole number from 0"),
    ({"max_moves": 0}, ValueError, "max_moves must be a whole number from 1 to 1000000, not 0"),
    ({"processes": 0}, ValueError, "processes must be a whole number >= 1, not 0"),
    ({"executor": "threads"}, TypeError, "executor must be a concurrent.futures.Executor"),
    ({"progress": "yes"}, TypeError, "progress must be True or False, not 'yes'"),
    ({"variant": "klondike"}, ValueError, "klondike"),
    ({"suits": 3}, ValueError, "not 3"),
    ({"seed": -2}, ValueError, "seed must be a whole number from 0 to 18446744073709551615, not -2"),
])
def test_bad_arguments_say_which_and_quote_the_value(kwargs, error, words):
    kwargs = {"deals": [1], "progress": False, **kwargs}
    with pytest.raises(error) as e:
        simulate(GreedyStrategy(), **kwargs)
    assert words in str(e.value)


def test_bad_strategies_are_refused():
    with pytest.raises(TypeError, match="a strategy must be callable"):
        simulate("greedy", deals=[1])
    with pytest.raises(TypeError, match="cannot be sent to other processes"):
        simulate(lambda g: None, deals=[1], processes=2)
    with pytest.raises(ValueError, match="give processes or executor, not both"):
        with ProcessPoolExecutor(1) as pool:
            simulate(GreedyStrategy(), deals=[1], processes=2, executor=pool)
    with pytest.raises(TypeError, match="strategies must be a list"):
        compare(GreedyStrategy(), deals=[1])
    with pytest.raises(ValueError, match="strategies is empty"):
        compare([], deals=[1])


# ------------------------------------------------------------------------------------------- the optional extra
def hide(monkeypatch, *names):
    """Make ``import name`` fail, as without the extra."""
    real = builtins.__import__
    real_module = importlib.import_module

    def fake_import(name, *args, **kwargs):
        if name.split(".")[0] in names:
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    def fake_import_module(name, *args, **kwargs):
        if name.split(".")[0] in names:
            raise ImportError(f"No module named {name!r}")
        return real_module(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    monkeypatch.setattr(importlib, "import_module", fake_import_module)


def test_without_the_extra_rows_work_and_the_rest_says_what_to_install(monkeypatch):
    hide(monkeypatch, "pandas", "matplotlib", "tqdm", "distributed")
    res = simulate(GreedyStrategy(), deals=[1, 2], progress=True)  # no tqdm: no bar, no error
    assert len(res.rows) == 2 and TEACH == 'pip install "spiderette[teach]"'
    with pytest.raises(ImportError) as e:
        res.to_pandas()
    assert "to_pandas() needs pandas" in str(e.value) and TEACH in str(e.value) and ".rows" in str(e.value)
    chart = res.plot()   # no matplotlib: the same picture, drawn as SVG
    assert isinstance(chart, Chart) and chart._repr_svg_().startswith("<svg") and "win rate" in str(chart)
    with pytest.raises(ImportError, match=r"executor='dask' needs distributed.*spiderette\[teach\]"):
        simulate(GreedyStrategy(), deals=[1], executor="dask", progress=False)
    cmp = compare([GreedyStrategy(), RulesOfThumb()], deals=[1], progress=False)
    assert "rules of thumb" in str(cmp.table())
    with pytest.raises(ImportError, match=r"spiderette.*\.table\(\)"):
        cmp.to_pandas()
    assert "rules of thumb" in cmp.plot()._repr_svg_()


def test_a_lesson_cell_that_needs_a_missing_package_says_so_in_one_line(monkeypatch, capsys, tmp_path):
    """``if needs(...):`` guards a lesson's cell: without the package, one line names it and where it comes from,
    and the cell does nothing more; with it, nothing is said."""
    from spiderette.engine import platform

    hide(monkeypatch, "pandas", "numpy")
    assert needs("json") and capsys.readouterr().out == ""
    assert needs("pandas", instead="the table above has the same figures") is False
    assert capsys.readouterr().out == ('Skipped: this cell needs pandas (pip install "spiderette[teach]"); the table'
                                       ' above has the same figures.\n')
    assert not needs("numpy", "json")
    assert capsys.readouterr().out == 'Skipped: this cell needs numpy (pip install "spiderette[rl]").\n'
    monkeypatch.setattr(platform, "BROWSER", True)   # no pip in a browser tab: where the package comes from
    assert not needs("pandas", "numpy")
    said = capsys.readouterr().out
    assert said.startswith("Skipped: this cell needs pandas and numpy (in this browser site it loads from Pyodide's")
    assert said.count("\n") == 1 and "pip install" not in said
    (tmp_path / "broken_for_needs.py").write_text("raise RuntimeError('a bug, not a missing package')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RuntimeError, match="a bug"):   # only a failed import counts as missing
        needs("broken_for_needs")


def test_the_chart_shows_the_figures_of_the_table():
    """``chart()`` (what ``plot()`` draws without matplotlib): a bar for each strategy's win rate with its
    interval, the same figures as the table; an SVG document a browser can draw."""
    import xml.etree.ElementTree as ET

    cmp = compare([GreedyStrategy(), RulesOfThumb()], deals=range(1, 9), suits=1, progress=False)
    chart = cmp.chart()
    root = ET.fromstring(chart._repr_svg_())
    bars = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    for row in cmp.table():
        lo, hi = row["95% CI"].rstrip("%").split("–")
        rate = row["win rate"].rstrip("%")
        assert f"{row['strategy']}: {rate}% ({lo}–{hi})" in bars, (row, bars)   # (each bar's tooltip)
        assert f"{row['strategy']}  {rate}%  ({lo}–{hi})".replace("  ", " ") in " ".join(str(chart).split())
    assert str(chart).splitlines()[0].startswith("8 spiderette deals (1 suit); McNemar")


def test_with_the_extra_rows_become_a_dataframe_and_a_figure():
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    cmp = compare([GreedyStrategy(), RulesOfThumb()], deals=range(1, 6), suits=1, progress=True)
    df = cmp.results[0].to_pandas()
    assert list(df.deal) == [1, 2, 3, 4, 5] and list(df.columns) == ["strategy"] + ROW_KEYS   # (issue 29)
    long = cmp.to_pandas()
    assert len(long) == 10 and list(long.index) == list(range(10)) and len(cmp.table().to_pandas()) == 2
    assert long.groupby("strategy").deal.count().to_dict() == {"greedy": 5, "rules of thumb": 5}
    fig = cmp.plot()
    assert len(fig.axes) == 3 and "McNemar" in fig._suptitle.get_text()
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["greedy", "rules of thumb"]
    fig = cmp.results[0].plot()
    assert fig.axes[1].get_xlabel() == "runs completed"


def test_a_simulation_without_rows_says_so():
    sim = Simulation("nothing", False, [], {})
    assert sim.win_rate != sim.win_rate and "won 0 of 0" in repr(sim)  # nan


def test_the_search_strategy_gives_the_same_rows_in_processes():
    s = SearchStrategy(samples=2, node_limit=100)
    serial = simulate(s, deals=range(1, 5), max_moves=15, progress=False)
    parallel = simulate(s, deals=range(1, 5), max_moves=15, processes=2, progress=False)
    assert same(serial.rows) == same(parallel.rows) and serial.lines == parallel.lines


def test_replay_shows_the_game_of_a_deal_in_the_replay_viewer(monkeypatch):
    import sys
    import types

    shown = []
    fake = types.ModuleType("spiderette.notebook.replay")
    fake.Replay = lambda source, advice: shown.append((source, advice)) or "viewer"
    monkeypatch.setitem(sys.modules, "spiderette.notebook.replay", fake)
    res = simulate(GreedyStrategy(), deals=[4], progress=False)
    assert res.replay(4) == "viewer" and shown[0][0].history == res.game(4).history and shown[0][0].seed == 4
    assert shown[0][1] == "ranked" and res.replay(4, advice="planner") == "viewer" and shown[1][1] == "planner"


def test_a_subclass_of_strategy_needs_only_choose():
    from spiderette import Strategy

    class FirstUseful(Strategy):
        short_name = "first useful"

        def choose(self, game):
            return self.first_new(game, game.legal_moves())

    res = simulate(FirstUseful(), deals=[1, 2], max_moves=300, progress=False)
    assert res.strategy == "first useful" and repr(FirstUseful()) == "FirstUseful()"
    assert all(r["end"] != "move cap" for r in res.rows)  # never back to a table seen: no circles


def test_replay_opens_the_real_viewer_on_the_whole_game():
    pytest.importorskip("anywidget")
    res = simulate(GreedyStrategy(), deals=[4], progress=False)
    viewer = res.replay(4)
    assert type(viewer).__name__ == "Replay" and len(viewer) == res.rows[0]["moves"] > 0


def test_paired_tests_on_counts_tell_strategies_apart_when_nobody_wins():
    cmp = compare([RandomStrategy(seed=1), GreedyStrategy()], deals=range(1, 31), suits=4, progress=False)
    assert cmp.paired().only_first == cmp.paired().only_second == 0   # nobody wins with four suits
    t = cmp.paired("greedy", "random (seed=1)", measure="face_down_left")
    rows = {name: {r["deal"]: r["face_down_left"] for r in res.rows} for name, res in zip(cmp.labels, cmp.results)}
    fewer = sum(1 for d in cmp.deals if rows["greedy"][d] < rows["random (seed=1)"][d])
    more = sum(1 for d in cmp.deals if rows["greedy"][d] > rows["random (seed=1)"][d])
    assert (t.only_first, t.only_second) == (fewer, more) and t.measure == "face_down_left"
    assert str(t).startswith(f"sign test ({t.method}): {fewer} deals with fewer cards left face down by greedy,")
    runs = cmp.paired(0, 1, measure="runs")
    assert runs.only_first + runs.only_second <= 30 and "runs completed" in str(runs)
    row = cmp.table()[1]
    assert "face down" in row and row["p (face down, sign)"] == format_p(
        cmp.paired(0, 1, "face_down_left").p_value)
    for bad in ("end", "strategy", "nothing", 3, None):
        with pytest.raises(ValueError, match=r"measure must be a number column of the rows \('won', 'runs', 'score',"
                           r" 'moves', 'face_down_left', 'suited', 'seconds'\) or a function of the final game"):
            cmp.paired(measure=bad)


def test_measures_of_ones_own_a_column_or_a_function_of_the_final_game():
    cmp = compare([RandomStrategy(seed=1), GreedyStrategy()], deals=range(1, 21), suits=4, progress=False)
    rows = [{r["deal"]: r for r in res.rows} for res in cmp.results]

    def sign(key, fewer=False):
        k = -1 if fewer else 1
        return (sum(1 for d in cmp.deals if k * (rows[0][d][key] - rows[1][d][key]) > 0),
                sum(1 for d in cmp.deals if k * (rows[1][d][key] - rows[0][d][key]) > 0))

    for column in ("score", "moves", "suited", "runs"):
        t = cmp.paired(0, 1, measure=column)
        assert (t.only_first, t.only_second) == sign(column) and t.measure == column
    t = cmp.paired(0, 1, measure="moves", better="lower")
    assert (t.only_first, t.only_second) == sign("moves", fewer=True)
    assert str(t).startswith("sign test") and "deals with a lower moves for random (seed=1)" in str(t)
    assert str(cmp.paired(0, 1, "score")).count("higher score for") == 1
    assert "with more cards in suited runs by" in str(cmp.paired(0, 1, "suited"))
    # the built-in four-suit measure moves without wins: greedy sorts more cards into suited runs
    assert sum(r["suited"] for r in cmp.results[1].rows) > sum(r["suited"] for r in cmp.results[0].rows)
    assert cmp.paired().only_first == cmp.paired().only_second == 0

    def turned(game):
        return game.rules.face_down_at_start - sum(game.face_down(i) for i in range(game.columns))

    t = cmp.paired(0, 1, measure=turned)
    assert t.measure == "turned" and (t.only_first, t.only_second) == sign("face_down_left", fewer=True)
    same = cmp.paired(0, 1, measure=lambda game: game.score)
    assert same.measure == "measure" and (same.only_first, same.only_second) == sign("score")
    with pytest.raises(ValueError, match="must give a number for every deal, not 'x'"):
        cmp.paired(measure=lambda game: "x")
    with pytest.raises(ValueError, match="better must be 'higher' or 'lower'"):
        cmp.paired(measure="score", better="more")
    table = cmp.table(measure=turned)
    assert table[1]["p (turned, sign)"] == format_p(t.p_value) and table[0]["p (turned, sign)"] == ""
    assert table[1]["turned (mean)"] == round(sum(turned(cmp.results[1].game(d)) for d in cmp.deals) / 20, 2)
    assert "score (mean)" in cmp.table("score")[0]
    with pytest.raises(ValueError, match="measure must be a number column"):
        cmp.table(measure="end")


def _documented_turned() -> list:
    """The ``turned`` measure as the Teach guide and ``Comparison.paired``'s docstring define it."""
    guide = (Path(__file__).parents[1] / "docs" / "teach.md").read_text(encoding="utf-8")
    found = [re.search(r"^def turned\(game\):\n(?:    .*\n)+", guide, flags=re.M).group(0)]
    doc = Comparison.paired.__doc__
    lines = [line.strip()[4:] for line in doc.splitlines() if line.strip().startswith((">>> def turned", "... "))]
    found.append("\n".join(lines[:3]) + "\n")
    functions = []
    for source in found:
        namespace: dict = {}
        exec(source, namespace)
        functions.append(namespace["turned"])
    return functions


@pytest.mark.parametrize("variant", ["spiderette", "will_o_the_wisp", "spider"])
def test_the_documented_turned_measure_is_0_for_a_game_that_turns_nothing_over(variant):
    """Issue 43: the example said "28 face down at the start" where a new deal has 21: 7 cards "turned" for a
    game that turned none."""
    from spiderette.engine.variants import RULES

    g = Game(seed=5, variant=variant)
    assert RULES[variant].face_down_at_start == sum(g.face_down(i) for i in range(g.columns))
    for turned in _documented_turned():
        assert turned(g) == 0
        first = g.legal_moves()[0]
        g.apply(first)
        assert turned(g) == (1 if g.face_down(first.src) < Game(seed=5, variant=variant).face_down(first.src) else 0)
        g.undo()


def do_nothing(game):
    """Resign at once."""
    return None


def test_the_score_rewards_stopping_and_the_cards_turned_over_do_not():
    """Issue 43: a strategy that resigns at once beat the planner on ``measure="score"`` (500 kept, where playing
    costs a point a move); the Teach guide now says so and teaches with a measure that grows only by playing."""
    cmp = compare([do_nothing, GreedyStrategy()], deals=range(1, 11), suits=4, progress=False)
    assert [r["score"] for r in cmp.results[0].rows] == [500] * 10
    score = cmp.paired(0, 1, measure="score")
    assert (score.only_first, score.only_second) == (10, 0)   # "do_nothing plays better" by the score
    [turned, _] = _documented_turned()
    t = cmp.paired(0, 1, measure=turned)
    assert (t.only_first, t.only_second) == (0, 10) and t.measure == "turned"
    assert cmp.table(measure=turned)[0]["turned (mean)"] == 0
    guide = (Path(__file__).parents[1] / "docs" / "teach.md").read_text(encoding="utf-8")
    studies = guide.split("## Studies", 1)[1].split("\n## ", 1)[0]
    assert "The score rewards stopping" in studies and "resigns at once keeps its 500" in studies
    taught = re.findall(r'measure="(\w+)"', studies)
    assert taught.count("score") == 1, "score appears only in the example that shows it rewards stopping"
    assert "resigns at once keeps 500" in Comparison.paired.__doc__


def test_a_p_value_reads_as_a_sentence():
    from spiderette.studies.intervals import PairedTest

    assert str(PairedTest(40, 2, 1e-9, "chi-square")).endswith("; p < 0.001") and "= <" not in str(
        PairedTest(40, 2, 1e-9, "chi-square", measure="runs"))
    assert str(PairedTest(1, 9, 0.021484375, "exact binomial")).endswith("; p = 0.021")


def test_a_paired_test_shows_its_sentence_as_a_cell_result():
    from IPython.lib.pretty import pretty

    cmp = compare([RandomStrategy(seed=1), GreedyStrategy()], deals=range(1, 6), suits=1, progress=False)
    assert pretty(cmp.paired()) == str(cmp.paired()) and pretty(cmp.paired()).startswith("McNemar")
