"""Advice that shows its reasoning: the planner's hint names its plan, carries its line, value and the
alternatives; the search tallies every candidate; the solver always answers; the table's Hint goes round
the suggestions."""

from __future__ import annotations

import re

import pytest
from spiderette_testkit import build, run, send

from spiderette import Game, hint, hints
from spiderette.notebook.widget import Widget
from spiderette.players.ranking import Hint, ranked_hints

LOST = build("spiderette", [["|QS", "KS"], ["|TS", "JS"], ["|8S", "9S"], ["|6S", "7S"], ["|4S", "5S"],
                            ["|2S", "3S"], ["AS"]], foundations=["H", "D", "C"])
ONE_FROM_WON = build("spiderette", [run("S", 13, 2), ["AS"]], foundations=["H", "D", "C"])


def test_the_planner_hint_names_its_plan_and_carries_it():
    g = Game(seed=7)
    g.play("bd ea")
    h = hint(g)
    assert h.move == h.line[0] and h.value is not None
    probe = g.copy()
    for m in h.line:   # the whole plan is legal on the engine
        probe.apply(m)
    assert h.reason.startswith(f"a {len(h.line)}-move plan: ") if len(h.line) > 1 else h.reason.startswith("moving")
    assert "turns over a card" in h.reason or "run" in h.reason or "empties" in h.reason
    assert g.move_count == 2, "advice changes nothing"


def test_alternatives_are_the_other_first_moves_best_first():
    g = Game(seed=7)
    h = hint(g)
    assert h.alternatives and all(isinstance(a, Hint) for a in h.alternatives)
    # best first, in the documented order: the value a line reaches plus a point for each of its moves
    ranks = [a.value + len(a.line) for a in h.alternatives]
    assert ranks == sorted(ranks)
    assert all(a.line[0] == a.move for a in h.alternatives)
    firsts = [h.move] + [a.move for a in h.alternatives]
    assert len(set(firsts)) == len(firsts) and all(m in g.legal_moves() for m in firsts)
    # each says what its line does in named terms (no points), and that it is ranked below the first
    assert all(re.search(r"; (its best line \(\d+ moves?\) .+|no line it starts .+); ranked below the first"
                         r" suggestion|; no line it starts makes the table better \(ranked below", a.reason)
               for a in h.alternatives), [a.reason for a in h.alternatives]
    assert not [a for a in h.alternatives if "point" in a.reason or re.search(r"-\d", a.reason)]
    assert all(a.terms for a in h.alternatives if "its best line" in a.reason)
    assert hints(g) == [h, *h.alternatives]


def test_the_ranked_method_keeps_the_one_step_ranking():
    g = Game(seed=7)
    assert hint(g, method="ranked").reason == "moving 6H onto 7C turns over a card in column b"
    assert hints(g, method="ranked") == ranked_hints(g)


def test_the_same_observation_gets_the_same_advice():
    g = Game(seed=11)
    g.play("d")
    for seed in (1, 2, 3):
        twin = g.redeal_hidden(seed)
        assert twin.to_dict() != g.to_dict()
        a, b = hint(g), hint(twin)
        assert (a.move, a.line, a.reason, a.value) == (b.move, b.line, b.reason, b.value)
        assert [(x.move, x.value) for x in a.alternatives] == [(x.move, x.value) for x in b.alternatives]


def test_the_search_tallies_every_candidate_and_warns_it_is_optimistic():
    g = Game(seed=7)
    h = hint(g, method="search", samples=3, seed=1, node_limit=600)
    assert "optimistic" in h.reason and "sampled deals" in h.reason
    tallied = {h.move} | {a.move for a in h.alternatives}
    useful = {x.move for x in ranked_hints(g) if x.rank < 7}
    assert useful <= tallied
    assert all("sampled deals" in a.reason for a in h.alternatives)
    assert all(0 <= a.value <= 1 for a in h.alternatives)


def test_the_solver_always_answers():
    lost = Game.from_dict(LOST)
    h = hint(lost, method="solver", node_limit=50_000)
    assert h is not None and h.move is None and h.reason.startswith("not winnable from here (proven")
    unknown = hint(Game(seed=7), method="solver", node_limit=10)
    assert unknown.move is None and unknown.reason.startswith("unknown within the budget")
    win = hint(Game.from_dict(ONE_FROM_WON), method="solver", node_limit=50_000)
    assert str(win.move) == "ba1" and win.reason.startswith("spoiler") and win.line == (win.move,)


def test_the_table_goes_round_the_suggestions():
    w = Widget(seed=7, record=False)
    n = len(hints(w.game))
    assert n > 2
    first = w.hint()
    assert w.view["message"].startswith(f"Hint 1 of {n}: ") and w.view["hint"]["index"] == 1
    second = send(w, action="hint")
    assert second["message"].startswith(f"Hint 2 of {n}: ") and second["hint"]["of"] == n
    assert second["hint"]["text"] != str(first)
    for _ in range(n - 1):
        w.hint()
    assert w.view["hint"]["index"] == 1 and w.view["hint"]["text"] == str(first)   # round the list
    w.apply(first)
    w.hint()
    assert w.view["hint"]["index"] == 1, "a new table starts the list again"
    assert "\u2663" in w.view["message"] or "\u2660" in w.view["message"] or "\u2665" in w.view["message"] \
        or "\u2666" in w.view["message"] or "row" in w.view["message"]


def test_a_hint_shows_its_sentence_in_a_notebook_and_reads_back_from_its_repr():
    """``hint(g)`` as a cell's result shows the sentence (IPython's pretty printer, which makes the text a
    notebook shows); ``repr`` is the whole value, which Python reads back to an equal hint."""
    from spiderette import Move

    g = Game(seed=7)
    g.play("bd")
    h = hint(g)
    assert str(h).startswith(f"{h.move}: {h.reason}") and h.reason
    assert repr(h).startswith(f"Hint(move=Move.parse('{h.move}'), reason={h.reason!r}")
    assert eval(repr(h), {"Hint": Hint, "Move": Move}) == h
    pretty = pytest.importorskip("IPython.lib.pretty").pretty
    assert pretty(h) == str(h)
    assert pretty([h]) == f"[{h}]"   # inside a list too
    formatter = pytest.importorskip("IPython.core.formatters").PlainTextFormatter()
    assert formatter(h) == str(h)   # what a notebook's text/plain output holds
