"""``analyse(game)``: every position judged with the solver, and the turning point found by bisection, equal
to what solving every position finds."""

from __future__ import annotations

import random
import threading
from concurrent.futures import CancelledError

import pytest
from spiderette_testkit import build, run

from spiderette import Game, GreedyStrategy, simulate
from spiderette.engine.predicates import turns_over_a_card
from spiderette.notebook.widget import MAX_MESSAGE, Widget
from spiderette.players.analysis import LOST, UNKNOWN, WINNABLE, Analysis, analyse, analyse_async
from spiderette.players.memory import tables_met
from spiderette.players.planner import plan
from spiderette.players.solver import solve

ONE_FROM_WON = build("spiderette", [run("S", 13, 2), ["AS"]], foundations=["H", "D", "C"])
# Spades only, stock empty, a few cards face down: small enough to solve every position at once.
ENDGAME = build("spiderette", [["|QS", "KS"], ["|TS", "JS"], ["|8S", "9S"], ["|6S", "7S"], ["|4S", "5S"],
                               ["|2S", "3S", "AS"]], foundations=["H", "D", "C"])


def brute(g: Game) -> list[str]:
    """The verdict of every position of ``g``'s game, each solved on its own."""
    start = g.copy()
    moves = start.history
    while start.undo() is not None:
        pass
    out = []
    for k in range(len(moves) + 1):
        res = solve(start, time_limit=None, node_limit=200_000)
        out.append({"win": WINNABLE, "loss": LOST}.get(res.result, UNKNOWN))
        if k < len(moves):
            start.apply(moves[k])
    return out


def random_games(count: int):
    rng = random.Random(4)
    made = 0
    while made < count:
        g = Game.from_dict(ENDGAME)
        for _ in range(rng.randint(1, 9)):
            legal = g.legal_moves()
            if not legal or g.status != "playing":
                break
            g.apply(rng.choice(legal))
        if g.history:
            made += 1
            yield g


@pytest.mark.parametrize("g", list(random_games(12)), ids=lambda g: " ".join(map(str, g.history)))
def test_the_bisection_finds_what_solving_every_position_finds(g):
    truth = brute(g)
    assert UNKNOWN not in truth
    a = analyse(g, planner=False)
    assert [s.verdict for s in a.steps] == truth
    lost = [k for k, v in enumerate(truth) if v == LOST]
    if lost and lost[0] > 0:
        k = lost[0] - 1
        assert a.turning_point is not None and a.turning_point.index == k and a.turning_point.move == g.history[k]
        probe = Game.from_dict(ENDGAME)
        for m in g.history[:k]:
            probe.apply(m)
        for m in a.turning_point.line:   # the move that kept it winnable starts a real winning line
            probe.apply(m)
        assert probe.is_won and a.turning_point.kept == a.turning_point.line[0]
        assert f"move {k + 1}, " in str(a) and "kept it winnable" in str(a)
    else:
        assert a.turning_point is None
    assert a.solves <= len(truth)
    for s in a.steps:   # every winnable position carries a line that wins from it
        if s.verdict == WINNABLE and s.line:
            probe = Game.from_dict(ENDGAME)
            for m in [*g.history[:s.index], *s.line]:
                probe.apply(m)
            assert probe.is_won


def test_a_game_lost_from_the_start_and_one_that_was_won():
    never = Game.from_dict(ENDGAME)
    never.apply("fg")   # AS into the empty column: nothing can move any more
    a = analyse(never, planner=False)
    assert [s.verdict for s in a.steps] == [WINNABLE, LOST] and a.turning_point.index == 0
    lost_start = Game.from_dict(never.to_dict())
    b = analyse(lost_start, planner=False)
    assert [s.verdict for s in b.steps] == [LOST] and b.turning_point is None
    assert str(b).startswith("Never winnable")
    won = Game.from_dict(ONE_FROM_WON)
    won.apply("ba")
    c = analyse(won, planner=False)
    assert [s.verdict for s in c.steps] == [WINNABLE, WINNABLE] and c.turning_point is None
    assert str(c).startswith("Winnable all along: the game was won.")


def test_a_save_file_a_study_game_and_a_widget(tmp_path):
    g = Game.from_dict(ENDGAME)
    g.play("ag")
    path = tmp_path / "game.json"
    g.save(path)
    from_file = analyse(path, planner=False)
    assert [s.verdict for s in from_file.steps] == [s.verdict for s in analyse(g, planner=False).steps]
    assert [s.move for s in from_file.steps][:1] == g.history
    res = simulate(lambda game: None, deals=[3], progress=False)
    assert len(analyse(res.game(3), node_limit=2000).steps) == 1
    w = Widget(game=Game.from_dict(ENDGAME), record=False)
    w.apply("ag")
    assert analyse(w, planner=False).steps[0].move == w.game.history[0]
    with pytest.raises(TypeError, match="analyse takes a Game"):
        analyse(42)
    with pytest.raises(ValueError, match="node_limit must be a whole number from 1 to"):
        analyse(g, node_limit=0)


def _analysed() -> Analysis:
    g = Game(seed=12)
    g.play("ef cb d")
    return analyse(g, node_limit=20_000)


def test_the_planner_column_of_an_analysis():
    a = _analysed()
    assert isinstance(a, Analysis) and len(a.steps) == 4
    assert all(s.planner in (True, False) for s in a.steps[:-1]) and a.steps[-1].planner is None
    assert a.steps[0].face_down == 21 and a.steps[0].verdict == WINNABLE
    assert "winnable" in a._repr_html_()


def test_the_views_of_an_analysis():
    """Its table and its picture: the ``teach`` extra (pandas, matplotlib); skipped without it."""
    pytest.importorskip("pandas", reason="to_pandas() needs the teach extra")
    pytest.importorskip("matplotlib", reason="plot() needs the teach extra")
    a = _analysed()
    df = a.to_pandas()
    assert list(df.columns) == ["move", "verdict", "verdict_after", "line", "face_down", "planner"] and len(df) == 4
    fig = a.plot()
    assert fig._repr_png_()[:4] == b"\x89PNG"


def test_without_matplotlib_an_analysis_is_drawn_as_svg(monkeypatch):
    """The browser site without matplotlib: ``plot()`` draws the verdicts and the cards face down as SVG (its
    ``chart()``), and ``to_pandas()`` says in one line what gives the same without pandas."""
    import importlib

    from spiderette.players.chart import Chart

    real = importlib.import_module

    def missing(name, *args, **kwargs):
        if name.split(".")[0] in ("matplotlib", "pandas"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib, "import_module", missing)
    a = _analysed()
    chart = a.plot()
    assert isinstance(chart, Chart) and str(chart) == a.summary
    svg = chart._repr_svg_()
    assert svg.startswith("<svg") and svg.count('fill-opacity="0.35"') == len(a.steps) and "<polyline" in svg
    with pytest.raises(ImportError, match=r"to_pandas\(\) needs pandas.*\.steps"):
        a.to_pandas()


def test_cancelling_an_analysis():
    g = Game(seed=3)
    g.play("d d d")
    stop = threading.Event()
    stop.set()
    a = analyse(g, cancel=stop)
    assert {s.verdict for s in a.steps} == {UNKNOWN} and a.turning_point is None
    f = analyse_async(g, node_limit=10_000_000)
    assert f.cancel()
    with pytest.raises(CancelledError):
        f.result(timeout=5)


def test_the_replay_of_an_analysis_shows_verdicts_and_jumps_to_the_turning_point():
    from spiderette import Replay
    from spiderette.notebook.wording import CARD_WORD, hidden_named

    g = Game.from_dict(ENDGAME)
    g.play("fg")   # AS into the empty column: the one move of this table that loses it
    a = analyse(g, planner=False)
    tp = a.turning_point
    assert tp is not None
    r = Replay(a)
    assert r.turning == tp.index and r.line == g.history
    assert [e["verdict"] for e in r.entries] == [s.verdict for s in a.steps[1:]]
    # (the turning move is the first: its cards are face up from the start, and the note names them)
    assert "turning point" in r.note and CARD_WORD.search(r.note) and not hidden_named(r.game_at(0), r.note)
    r.last()
    assert r.turning_point() == tp.index and r.step == tp.index
    assert r.view["hint"]["text"] == r.entries[tp.index]["text"]   # the losing move is the next one, marked
    r.go(tp.index + 1)
    assert r.view["message"].endswith(f"; {a.steps[tp.index + 1].verdict} after it")
    plain = Replay(g)
    assert plain.turning is None and plain.turning_point() is None and "verdict" not in plain.entries[0]


def test_a_row_of_the_table_is_a_position_with_the_move_played_from_it():
    """Issue 43: the losing move sat on a row marked "winnable" and nothing said why: a row is the position before
    its move; ``verdict_after`` is the verdict the move leads to."""
    pd = pytest.importorskip("pandas", reason="to_pandas() needs the teach extra")
    g = Game.from_dict(ENDGAME)
    g.play("fg")   # AS into the empty column: the one move of this table that loses it
    a = analyse(g, planner=False)
    tp = a.turning_point
    df = a.to_pandas()
    row = df.loc[tp.index]
    assert (row["move"], row["verdict"], row["verdict_after"]) == (str(tp.move), WINNABLE, LOST)
    assert df.loc[tp.index + 1, "verdict"] == LOST and pd.isna(df["verdict_after"].iloc[-1])
    assert list(df["verdict_after"])[:-1] == list(df["verdict"])[1:]
    said = Analysis.to_pandas.__doc__
    assert "the move played from this position" in said and "before" in said and "verdict_after" in said


def greedy_loses_deal_1():
    from spiderette.players.ranking import greedy_move

    g, seen = Game(seed=1, suits=1), set()
    while g.status == "playing" and (m := greedy_move(g, seen)) is not None:
        g.apply(m)
    return g


def test_the_table_says_where_the_game_went_wrong_and_takes_it_back_there(monkeypatch):
    import json
    import time

    from spiderette_testkit import hidden_codes, send

    from spiderette.engine.cards import code_text
    from spiderette.players import analysis

    solves: list[float] = []   # (when each solve of an analysis starts)
    real = analysis.solve
    monkeypatch.setattr(analysis, "solve", lambda *a, **k: (solves.append(time.monotonic()), real(*a, **k))[1])
    g = greedy_loses_deal_1()
    w = Widget(game=g, record=False)
    v = send(w, action="analyse")
    assert v["analysis"] == {"state": "running"} and v["message"].startswith("Looking for where the game went wrong")
    assert w.wait(timeout=120)
    v = w.view
    assert v["message"].startswith("Where it went wrong: move 19, ") and "kept it winnable" in v["message"]
    hidden = {code_text(c) for c in hidden_codes(w.game)}
    assert not [c for c in hidden if c in json.dumps(v, ensure_ascii=False)], "no hidden card is named"
    assert v["analysis"] == {"state": "done", "undo": len(g.history) - 18, "to": "turning", "lost_between": [19, 19],
                             "searching": False}
    v = send(w, action="undo_to_turning")
    assert len(w.game.history) == 18 and v["analysis"] is None and "the next move is the one that lost" in v["message"]
    assert send(w, action="undo_to_turning")["message"] == "No turning point to go back to"
    w.new_game(seed=3)
    assert w.view["analysis"] is None
    # cancelled, the analysis of the same lost game stops searching: no solve starts after the cancel (the
    # one in hand at most), where the whole analysis made several
    whole, solves[:] = len(solves), []
    w = Widget(game=greedy_loses_deal_1(), record=False)
    f = w.where_did_it_go_wrong()
    assert f.cancel() and f.cancelled() and f.stop.is_set()
    at = time.monotonic()
    for t in threading.enumerate():
        if t.name == "spiderette-analyse":
            t.join(60)
            assert not t.is_alive(), "the search stopped"
    assert whole >= 4 and len(solves) < whole and len([s for s in solves if s > at]) <= 1, (whole, solves, at)
    with pytest.raises(CancelledError):
        f.result(timeout=0)
    assert w.view["analysis"] is None or w.view["analysis"]["state"] != "done", "nothing was said of it"


# The planner's four-suit game of deal 10, until it resigned: lost, its turning point out of a small budget's reach.
DEAL_10 = ("ag1 fd1 da1 ba1 d ab1 da1 cg1 fc1 dc1 d gb1 gb1 fa1 d fd1 db2 ed1 eg1 da1 ea1 ga1 eb1 d db1 dc1")
SMALL = {"node_limit": 5000, "max_solves": 8}


def lost_deal_10() -> Game:
    g = Game(seed=10)
    g.play(DEAL_10)
    return g


def test_a_four_suit_loss_without_a_turning_point_says_between_which_moves_it_was_lost():
    g = lost_deal_10()
    a = analyse(g, planner=False, **SMALL)
    lo, hi = a.last_winnable, a.first_lost
    assert a.turning_point is None and lo is not None and hi is not None and lo + 1 < hi
    assert a.lost_between == (lo + 1, hi)
    assert f"Lost between move {lo + 1} and move {hi}" in str(a) and "undecided in between" in str(a)
    assert a.steps[lo].verdict == WINNABLE and a.steps[hi].verdict == LOST
    assert all(s.verdict == UNKNOWN for s in a.steps[lo + 1:hi])
    probe = Game(seed=10)   # the winning line from the last winnable position wins, with the hidden cards known
    probe.play(g.history[:lo])
    check = probe.copy()
    check.play(list(a.winning_line))
    assert check.is_won and a.winning_line == a.steps[lo].line and a.winning_line[0] != g.history[lo]
    probe.play(g.history[lo:hi])   # the first lost position: a new search proves it lost too
    assert solve(probe, time_limit=None, node_limit=a.proof_tables).result == "loss"
    assert f"{a.proof_tables:,} tables it could reach" in a.summary
    assert 0 < a.tables <= a.budget == 5000 * 8 and a.solves <= 8
    assert "the last position known winnable" in a._repr_html_()
    # its table and picture: the teach extra (pandas, matplotlib); without it, the rest has run and this skips
    pytest.importorskip("pandas", reason="to_pandas() needs the teach extra")
    pytest.importorskip("matplotlib", reason="plot() needs the teach extra")
    df = a.to_pandas()
    assert df.attrs["last_winnable"] == lo and df.attrs["first_lost"] == hi
    assert a.plot()._repr_png_()[:4] == b"\x89PNG"


def test_the_replay_of_a_loss_without_a_turning_point_marks_the_range():
    from spiderette import Replay
    from spiderette.notebook.wording import CARD_WORD

    a = analyse(lost_deal_10(), planner=False, **SMALL)
    r = Replay(a)
    lo, hi = a.last_winnable, a.first_lost
    assert r.turning is None and r.turning_point() is None and r.lost_range == [lo, hi]
    assert f"lost between move {lo + 1} and move {hi}" in r.note and not CARD_WORD.search(r.note)
    assert r.last_winnable() == lo and r.step == lo
    assert r.view["message"].endswith("(the last position known winnable)")
    r.go(hi)
    assert r.view["message"].endswith("lost after it (the first proven lost)")


def test_the_table_offers_to_undo_to_the_last_winnable_position(monkeypatch):
    import functools
    import json

    from spiderette_testkit import hidden_codes, send

    from spiderette.engine.cards import code_text
    from spiderette.notebook import postmortem

    monkeypatch.setattr(postmortem, "analyse", functools.partial(analyse, **SMALL))
    g = lost_deal_10()
    n = len(g.history)
    w = Widget(game=g, record=False)
    a = w.where_did_it_go_wrong(wait=True)
    lo, hi = a.last_winnable, a.first_lost
    assert a.turning_point is None and lo + 1 < hi
    v = w.view
    assert v["message"].startswith(f"Lost between move {lo + 1} and move {hi} (seen with the hidden cards known")
    assert f"undo to before move {lo + 1}, the last winnable position" in v["message"]
    hidden = {code_text(c) for c in hidden_codes(w.game)}
    assert not [c for c in hidden if c in json.dumps(v, ensure_ascii=False)], "no hidden card is named"
    assert v["analysis"] == {"state": "done", "undo": n - lo, "to": "winnable", "lost_between": [lo + 1, hi],
                             "searching": True}   # (the turning point unknown: it searches on while nothing is played)
    assert v["message"].endswith("; searching on with 10\u00d7 the tables\u2026") and len(v["message"]) <= MAX_MESSAGE
    assert "moves from there); searching on" in v["message"], "its words whole (issue 42: they were cut)"
    assert w.undo_to_turning_point() == n - lo
    assert w.game.move_count == lo and "back to the last winnable position" in w.view["message"]
    assert w.view["analysis"] is None
    assert send(w, action="undo_to_turning")["message"] == "No turning point to go back to"


def test_the_replays_note_the_summary_and_the_table_name_the_turning_move_the_same_way():
    """Issue 43: the replay's note wrote ``gc1`` where the summary wrote ``gc (3♠ onto 4♠)``."""
    import json

    from spiderette_testkit import hidden_codes

    from spiderette import Replay
    from spiderette.engine.cards import code_text
    from spiderette.notebook.postmortem import said
    from spiderette.players.analysis import named_move

    g = greedy_loses_deal_1()
    a = analyse(g)
    tp = a.turning_point
    at = g.copy()
    while len(at.history) > tp.index:
        at.undo()
    losing, kept, planner = (named_move(at, m) for m in (tp.move, tp.kept, tp.planner))
    assert losing == "gc (3♠ onto 4♠)" and kept == "d (deal a row)"
    assert f"move 19, {losing}, lost a winnable game; {kept} kept it winnable" in a.summary
    assert f"move 19, {losing}, lost a winnable game; {kept} kept it winnable" in said(a)   # the table's words
    r = Replay(a)
    r.turning_point()
    assert f"move 19, {losing}, lost a winnable game; {kept} kept it winnable" in r.note
    assert f"the honest planner would have played {planner}" in r.note and "gc1" not in r.note
    assert f"would have played {planner}" in a.summary
    r.first()   # before the turning point its cards may lie face down: the same notation, no card named
    assert "move 19, gc, lost a winnable game; d kept it winnable" in r.note and "gc1" not in r.note
    hidden = {code_text(c) for c in hidden_codes(r.game_at(0))}
    assert not [c for c in hidden if c in json.dumps(r.note, ensure_ascii=False)]
    assert Replay(a, spoilers=True).note == Replay(a, step=tp.index).note != Replay(a).note


def test_the_turning_point_says_what_the_honest_planner_would_have_played_there():
    g = greedy_loses_deal_1()
    tp = analyse(g).turning_point
    # the planner, from the cards in view, would have played the same losing move; the saving line deals first
    assert (tp.index, str(tp.move), str(tp.planner), tp.planner_keeps, tp.in_view) == (18, "gc1", "gc1", False, 0)
    assert "which deals before it turns a card over" in tp.text
    assert tp.planner_text == "The honest planner would have played gc (3♠ onto 4♠), the same losing move: it could" \
                              " not tell either"
    assert analyse(g, planner=False).turning_point.planner is None


@pytest.mark.parametrize("deal", [2, 4, 9, 15, 16])
def test_the_planners_move_at_the_turning_point_is_checked_and_the_saving_line_read(deal):
    res = simulate(GreedyStrategy(), deals=[deal], suits=1, progress=False)
    g = res.game(deal)
    tp = analyse(g, node_limit=20_000).turning_point
    assert tp is not None
    start = Game(seed=deal, suits=1)
    for m in g.history[:tp.index]:
        start.apply(m)
    assert tp.planner == plan(start, seen=tables_met(start)).move      # planned from the game's memory
    if tp.planner_keeps is not None:   # its verdict is the solver's on the position after the planner's move
        after = start.copy()
        after.apply(tp.planner)
        assert solve(after, time_limit=None, node_limit=200_000).result == ("win" if tp.planner_keeps else "loss")
    assert ("keeps it winnable" in tp.text or "the saving move" in tp.text) == bool(tp.planner_keeps)
    # the saving line up to its first turn-over (in_view moves) or its first deal (in_view 0)
    probe, first = start.copy(), None
    for i, m in enumerate(tp.line, start=1):
        if m.kind == "deal" or turns_over_a_card(probe, m):
            first = (i, m.kind)
            break
        probe.apply(m)
    assert tp.in_view == (0 if first and first[1] == "deal" else first[0] if first else len(tp.line))
