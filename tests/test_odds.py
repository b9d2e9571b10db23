"""Undecided verdicts with their measured odds: the shipped table is what the committed measurements say, a
measurement is real (solving its position again gives its row), and every verdict that is neither a win nor a
proof quotes the odds where they were measured: the solver, hint(method="solver"), the Winnable? indicator,
the post-mortem and its replay."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from spiderette import Game, analyse, hint, solve
from spiderette.players import odds as odds_module
from spiderette.players.odds import Odds, odds_for, table
from spiderette.studies.intervals import wilson_interval

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "benchmarks" / "data" / "odds"


def benchmark():
    spec = importlib.util.spec_from_file_location("odds_benchmark", REPO / "benchmarks" / "odds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shipped() -> dict:
    return json.loads(odds_module.TABLE.read_text(encoding="utf-8"))


def test_the_shipped_table_is_what_the_committed_measurements_say():
    """``benchmarks/odds.py table`` remakes odds.json from the rows in benchmarks/data/odds, byte for byte in
    meaning: the same rows, each interval a 95% Wilson interval of its counts."""
    data = shipped()
    bench = benchmark()
    args = data["made_by"].split()
    budgets = bench.numbers(args[args.index("--budgets") + 1])
    held_out = bench.numbers(args[args.index("--held-out") + 1])
    remade = [row for b in budgets for row in bench.rows_of(b, bench.undecided_rows(b, held_out, False))]
    assert data["rows"] == remade and data["factor"] == bench.FACTOR == 10
    for r in data["rows"]:
        lo, hi = wilson_interval(r["winnable"], r["undecided"])
        assert r["interval"] == [round(lo, 4), round(hi, 4)]
        assert r["winnable"] + r["lost"] <= r["undecided"]
    # the rows cover every count of hidden cards at each measured budget (no verdict falls between rows)
    for b in budgets:
        spans = sorted(tuple(r["hidden"]) for r in data["rows"] if r["budget"] == b)
        assert spans and spans[0][0] == 0 and spans[-1][1] == 52
        assert all(a[1] + 1 == c[0] for a, c in zip(spans, spans[1:]))


def test_a_measurement_is_real_solving_its_position_again_gives_its_row():
    """One undecided position of the measurements, solved again with its budget and ten times it: the same
    verdicts, the same tables (the solver counts tables, so it answers alike on any machine)."""
    rows = [json.loads(line) for line in (DATA / "deals-40000.jsonl").read_text(encoding="utf-8").splitlines()]
    row = min((r for r in rows if r["result"] == "unknown"), key=lambda r: r["again_nodes"])
    g = Game.from_position(row["position"])
    first = solve(g, time_limit=None, node_limit=row["budget"])
    assert (first.result, first.nodes) == ("unknown", row["nodes"])
    again = solve(g, time_limit=None, node_limit=10 * row["budget"])
    assert (again.result, again.nodes) == (row["again"], row["again_nodes"])


def test_odds_are_quoted_only_where_they_were_measured():
    low = min(o.budget for o in table())
    assert odds_for("spiderette", 4, low - 1, 30) is None                 # less search than any measured budget
    assert odds_for("spider", 4, 10**6, 30) is None                       # not measured for this variant
    assert odds_for("spiderette", 1, 10**6, 30) is None
    got = odds_for("spiderette", 4, 10**9, 30)
    assert got.budget == max(o.budget for o in table()) and got.hidden[0] <= 30 <= got.hidden[1]


def test_probably_lost_only_where_the_measurement_supports_it():
    sure = Odds("spiderette", 4, 40_000, (0, 15), 60, 2, 55, 10, (0.01, 0.11), 0.16)
    unsure = Odds("spiderette", 4, 40_000, (0, 15), 6, 0, 2, 10, (0.0, 0.39), 0.9)
    assert sure.probably_lost and sure.short() == ("probably lost: 2 of 60 like it (0-15 cards hidden, undecided by"
                                                   " 40,000 tables) proved winnable with 10× the search")
    assert not unsure.probably_lost and unsure.short() == ("undecided: 0 of 6 like it (0-15 cards hidden, undecided"
                                                           " by 40,000 tables) proved winnable with 10× the search")
    for o in table():   # the table's own rows: the flag is the rule, never a guess
        assert o.probably_lost == (o.open_high < 0.5)
        n_open = o.undecided - o.lost
        assert o.open_high == round(wilson_interval(n_open, o.undecided)[1], 4)


def test_an_undecided_solve_says_what_is_known():
    res = solve(Game(seed=7), node_limit=40_000)
    assert res.result == "unknown" and res.odds is not None and res.odds.budget == 40_000
    text = str(res)
    head = "probably lost" if res.odds.probably_lost else "unknown"
    assert text.startswith(f"{head}: no win found in 40,000 tables and no loss proven")
    assert res.odds.words() in text and "proved winnable with 10 times the search" in text
    assert f"of {res.odds.undecided} positions like it (the same variant and suits," in text
    tiny = solve(Game(seed=7), node_limit=100)
    assert tiny.odds is None and "proved winnable" not in str(tiny)


def test_the_solver_hint_quotes_the_odds():
    h = hint(Game(seed=7), method="solver", node_limit=40_000)
    assert h.move is None and "within the budget (node limit reached, 40,000 tables)" in h.reason
    assert "proved winnable with 10 times the search" in h.reason


def test_the_winnable_indicator_shows_the_odds_and_searches_on_while_the_player_thinks(monkeypatch):
    """Deal 3 is undecided at 40,000 tables, at ten times that and by a proof pass of 50,000 tables. The
    indicator says so with the odds of the first search, searches on ten times longer, then with the proof pass
    (``searching``), then says the odds of what the solver spent; going back to the table shows that at once,
    without searching again."""
    pytest.importorskip("anywidget")
    from spiderette import Widget
    from spiderette.notebook import winnable

    monkeypatch.setattr(winnable, "WINNABLE_TABLES", 40_000)   # (a quick indicator: 40,000, then 400,000)
    monkeypatch.setattr(winnable, "WINNABLE_TIME_LIMIT", 600.0)   # (tables alone decide, however busy)
    monkeypatch.setattr(winnable, "WINNABLE_PROOF_TABLES", 50_000)
    seen = []
    w = Widget(seed=3, record=False)
    w.observe(lambda change: seen.append(change["new"]["winnable"]), names="view")
    w.winnable = True
    assert w.wait(300)
    first, longer = odds_for("spiderette", 4, 40_000, 45), odds_for("spiderette", 4, 400_000, 45)
    said = [v for v in seen if v and v["state"] == "unknown"]
    assert said[0] == {"state": "unknown", "odds": first.short(), "probably_lost": first.probably_lost,
                       "searching": True}
    assert {**said[-2], "searching": False} == said[-1] and said[-2]["searching"], "said while the proof ran"
    final = {"state": "unknown", "odds": longer.short(), "probably_lost": longer.probably_lost, "searching": False}
    assert said[-1] == final and w.view["winnable"] == final
    w.play("d")                                   # another table: its own search
    w.undo()                                      # back: what was found is shown at once, nothing searched
    assert w.view["winnable"] == final and w.wait(0)
    w.close()


def test_the_post_mortem_and_its_replay_quote_the_odds_of_undecided_positions():
    pytest.importorskip("anywidget")
    from spiderette import Replay

    g = Game(seed=7)
    g.play("bd")
    a = analyse(g, node_limit=40_000, planner=False, max_solves=2)
    unknown = [s for s in a.steps if s.verdict == "unknown"]
    assert unknown and all(s.odds is not None and s.odds.budget == 40_000 for s in unknown)
    if a.steps[0].verdict == "unknown" and a.last_winnable is None:
        odds = a.steps[0].odds
        assert f"The deal's start is {odds.head}: {odds.words()}." in a.summary
    r = Replay(a, spoilers=True)   # (every entry described at once)
    for i, e in enumerate(r.entries):
        step = a.steps[i + 1]
        assert e["verdict"] == step.verdict and e.get("odds") == (step.odds.short() if step.odds else None)
    assert any("odds" in e for e in r.entries)


def test_the_tables_post_mortem_says_the_odds_where_nothing_was_decided():
    pytest.importorskip("anywidget")
    from spiderette.notebook.postmortem import said

    g = Game(seed=3)
    g.play("d")
    a = analyse(g, node_limit=40_000, planner=False, max_solves=2)
    assert a.last_winnable is None and a.first_lost is None and a.steps[0].odds is not None
    assert said(a).endswith(f"; the deal is {a.steps[0].odds.short()}")
