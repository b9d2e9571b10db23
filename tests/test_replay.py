"""The replay viewer's Python side: sources, steps, positions, reasons, secrecy, and what the browser may set."""

from __future__ import annotations

import json
import math
import re

import pytest
import traitlets
from spiderette_testkit import build, game, hidden_codes, run

from spiderette import Game, Move, PlannerStrategy, Replay, simulate, solve
from spiderette.engine.cards import card_name, card_text, parse_card
from spiderette.notebook.replay import NOT_SUGGESTED
from spiderette.notebook.view import view
from spiderette.notebook.widget import Widget
from spiderette.players.ranking import greedy_move, ranked_hints
from spiderette.players.ranking import ranked_hints as hints  # the one-step ranking the replay numbers its hints by

#: The fields a replay adds to ``table.view`` (and ``targets`` and ``clicks``, which it leaves out).
REPLAY_FIELDS = {"step", "steps", "title", "last", "hint", "message"}


def greedy_game(seed: int = 2, limit: int = 60) -> Game:
    """Deal ``seed`` played by the hint ranking (deals included), at most ``limit`` moves."""
    g, seen = Game(seed=seed), set()
    while g.status == "playing" and g.move_count < limit and (m := greedy_move(g, seen)) is not None:
        g.apply(m)
    return g


def table_part(v: dict) -> dict:
    return {k: x for k, x in v.items() if k not in REPLAY_FIELDS}


def expected_view(g: Game) -> dict:
    v = view(g)
    for k in ("targets", "clicks", "unforeseen", "unforeseen_deal", "deals", "after", "can_undo",
              "can_redo"):   # watched, not played
        del v[k]
    return v


def win_in_three() -> Game:
    """Three runs home; a: KS..4S; b: AS face down under 3S; c: 2S. Won by ba, ca, ba."""
    return game("spiderette", [run("S", 13, 4), ["|AS", "3S"], ["2S"]], foundations=["H", "D", "C"])


def synced(r: Replay) -> str:
    """What the browser gets: every synced trait but the front-end code."""
    state = r.get_state()
    return json.dumps({k: v for k, v in state.items() if not k.startswith("_")}, ensure_ascii=False)


def leaks(text: str, hidden: set[str]) -> list[str]:
    """Hidden cards named in ``text``: as codes, as the move list writes them, or by name."""
    out = []
    for code in hidden:
        c = parse_card(code)
        if f'"{code}"' in text or f" {code} " in text or f" {code}\"" in text or card_text(c) in text \
                or card_name(c) in text:
            out.append(code)
    return out


# ------------------------------------------------------------------------------------------- steps
def test_every_step_shows_the_recorded_game_after_that_many_moves():
    g = greedy_game()
    assert g.move_count >= 30 and "d" in [str(m) for m in g.history]
    r = Replay(g)
    assert len(r) == len(g.history) and r.line == g.history and r.step == 0
    replayed = Game(seed=g.seed)
    for k in range(len(r) + 1):
        assert r.go(k) == k == r.step
        assert table_part(r.view) == expected_view(replayed), f"step {k}"
        assert r.view["step"] == k and r.view["steps"] == len(r)
        assert r.game_at(k).position() == replayed.position()
        if k < len(r):
            replayed.apply(g.history[k])
    assert replayed.position() == g.position()
    # and backwards, one step at a time, and by jumps
    r.last()
    for k in range(len(r), -1, -1):
        assert r.step == k
        assert table_part(r.view) == expected_view(r.game_at(k))
        r.back()
    for k in (17, 3, len(r), 0, 9):
        r.step = k
        assert table_part(r.view) == expected_view(r.game_at(k))


def test_navigation_and_the_next_move():
    g = Game(seed=7)
    g.play("bd ea d")
    r = Replay(g)
    assert (r.first(), r.forward(), r.forward(), r.back(), r.last(), r.forward(), r.first(), r.back()) \
        == (0, 1, 2, 1, 3, 3, 0, 0)
    assert r.view["last"] == {"kind": "new"}, "a jump: nothing flies"
    # the next move is marked on the table (the front end lights it up as a hint)
    assert r.view["hint"] == {"kind": "move", "src": 1, "dst": 3, "count": 1, "text": "bd"}
    r.go(1)
    r.forward()
    assert r.view["hint"] == {"kind": "deal", "src": None, "dst": None, "count": None, "text": "d"}
    assert r.view["message"].startswith("Move 2 of 3: ea, 3♠ onto 4♥")
    # what changed, for the animation: one step on, one back, or a jump
    assert r.view["last"] == {"kind": "move", "src": 4, "dst": 0, "count": 1}
    r.go(3)
    assert r.view["last"]["kind"] == "deal" and r.view["hint"] is None
    r.back()
    assert r.view["last"] == {"kind": "undo"}
    r.first()
    assert r.view["last"] == {"kind": "new"} and r.view["message"] == "The start: 3 moves to replay"
    # game_at gives an independent copy
    h = r.game_at(3)
    h.undo()
    assert r.game_at(3).move_count == 3 and h.move_count == 2


def test_the_replay_is_a_snapshot_and_leaves_its_source_alone():
    g = Game(seed=7)
    g.play("bd ea")
    before = (g.position(), g.history, g.redo_list)
    r = Replay(g)
    assert (g.position(), g.history, g.redo_list) == before
    g.play("d")
    assert len(r) == 2 and r.game_at(2).stock_count == 24


# ------------------------------------------------------------------------------------------- the move list
def test_each_move_has_its_notation_cards_and_hint_reason():
    g = greedy_game(limit=40)
    r = Replay(g, spoilers=True)
    probe = Game(seed=g.seed)
    for i, (m, e) in enumerate(zip(g.history, r.entries)):
        ranked = hints(probe)
        place = next(j for j, h in enumerate(ranked, start=1) if h.move == m)
        worded = ranked_hints(probe, card_text)[place - 1].reason  # (the cards in words, as on the table)
        assert e["hint"] == place and e["reason"] == f"hint #{place}: {worded}", i
        assert not re.search(r"\b[A2-9TJQK][SHDC]\b", e["reason"]), e["reason"]
        assert e["text"] == probe.notation(m)
        if m.kind == "deal":
            assert e["cards"] == "a row from the stock"
        else:
            moving, onto = probe.column(m.src)[-m.count], probe.top_card(m.dst)
            assert e["cards"].startswith(card_text(moving))
            assert (f"onto {card_text(onto)}" if onto is not None else "to the empty column") in e["cards"]
        probe.apply(m)
    assert r.moves == r.entries  # spoilers: the whole list is described at once


def test_a_move_the_hints_do_not_suggest_says_so():
    played = greedy_game()
    g = Game(seed=played.seed)
    for m in played.history:   # the first position where a legal move is left out of the ranking
        odd = [x for x in g.legal_moves() if x not in [h.move for h in hints(g)]]
        if odd:
            break
        g.apply(m)
    assert odd, "the ranking leaves out moves that change nothing"
    g.apply(odd[0])
    r = Replay(g)
    r.last()
    assert r.moves[-1]["reason"] == NOT_SUGGESTED and r.moves[-1]["hint"] is None
    assert r.moves[0]["reason"].startswith("hint #")


def test_multi_card_moves_empty_columns_completed_runs_and_sends():
    res = solve(win_in_three(), node_limit=50_000)
    r = Replay(res, spoilers=True)
    assert len(r.entries) == len(res.moves) and r.entries[-1]["cards"].endswith(", completing a run")
    g = win_in_three()
    g.play("ba ca ba")
    r = Replay(g, spoilers=True)
    assert [e["text"] for e in r.entries] == ["ba", "ca", "ba"]
    assert [e["cards"] for e in r.entries] == ["3♠ onto 4♠", "2♠ onto 3♠", "A♠ onto 2♠, completing a run"]
    # runs sent by hand, and a group of cards to an empty column
    d = build("spiderette", [run("S"), ["|KH", "JH"], [], ["*"]], auto_remove=False, stock_size=0)
    g = Game.from_dict(d)
    g.play("bc sa")
    r = Replay(g, spoilers=True)
    assert r.entries[1]["text"] == "sa" and r.entries[1]["cards"] == "K♠–A♠ to the foundations"
    assert r.entries[1]["reason"] == "hint #1: sends the finished run in column a to the foundations"
    assert r.entries[0]["cards"] == "J♥ to the empty column c"


# ------------------------------------------------------------------------------------------- secrecy
def test_no_card_face_down_at_the_step_shown_is_synced():
    for g in (greedy_game(limit=40), win_in_three()):
        if not g.history:
            g.play(solve(g, node_limit=50_000).moves)
        r = Replay(g)
        for k in range(len(r) + 1):
            r.go(k)
            hidden = hidden_codes(r.game_at(k))
            assert hidden or k > 0
            assert not leaks(synced(r), hidden), f"step {k}"
            # the list describes the moves played and the next one; later ones are notation only
            assert all(set(e) == {"text"} for e in r.moves[k + 1:])
            assert all("reason" in e for e in r.moves[:k + 1])


def test_spoilers_describe_the_whole_line_at_the_start():
    r = Replay(_won_line(), spoilers=True)
    assert r.step == 0 and "A♠" in synced(r)
    r2 = Replay(_won_line())
    assert "A♠" not in synced(r2)
    r2.go(2)
    assert "A♠ onto 2♠" in synced(r2)


def _won_line() -> Game:
    g = win_in_three()
    g.play("ba ca ba")
    assert g.is_won
    return g


# ------------------------------------------------------------------------------------------- sources
def test_a_solver_line_is_replayed_from_the_position_solved():
    g = win_in_three()
    res = solve(g, node_limit=50_000)
    r = Replay(res)
    assert len(r) == 3 and r.note.startswith("Solver: winnable (line of 3 moves")
    assert table_part(r.view) == expected_view(g)
    r.last()
    assert r.view["status"] == "won" and r.game_at(3).is_won
    # a result with no line: the start, and a note that says why
    lost = solve(Game(seed=7), node_limit=1)
    assert lost.result == "unknown" and not lost.moves
    r = Replay(lost)
    assert len(r) == 0 and r.step == 0 and r.moves == []
    assert r.note.startswith("Solver: unknown") and r.note.endswith("no line to show")
    assert r.view["message"] == r.note and table_part(r.view) == expected_view(Game(seed=7))
    r.play()
    assert r.playing is False


def test_a_widget_game_is_replayed_and_a_finished_one_too():
    w = Widget(seed=7)
    w.move(1, 3)
    w.deal()
    r = Replay(w)
    assert r.line == [Move.parse("bd1"), Move.parse("d")]
    w.undo()
    assert len(r) == 2
    g = greedy_game(seed=3, limit=10_000)   # played until the greedy policy stops
    r = Replay(Widget(game=g))
    r.last()
    assert r.view["status"] == g.status and table_part(r.view) == expected_view(g)


def test_a_game_loaded_with_its_history_starts_where_the_history_starts():
    g = Game(seed=7)
    g.play("bd ea")
    h = Game.from_dict(g.to_dict())  # no history: the replay starts at the position
    assert len(Replay(h)) == 0
    g.undo()   # the redo list is not part of the line
    r = Replay(g)
    assert r.line == [Move.parse("bd1")]


# ------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("source", ["bd ea", None, 7, [Move.parse("d")], Game])
def test_anything_else_is_a_type_error(source):
    with pytest.raises(TypeError, match="Replay shows a spiderette Game, a SolveResult"):
        Replay(source)


def test_bad_options_and_steps_are_refused():
    g = Game(seed=7)
    g.play("bd ea")
    with pytest.raises(ValueError, match="step must be a whole number from 0 to 2"):
        Replay(g, step=3)
    with pytest.raises(TypeError, match="step must be a whole number"):
        Replay(g, step="1")
    with pytest.raises(ValueError, match="delay must be from"):
        Replay(g, delay=0)
    with pytest.raises(ValueError, match="delay must be from"):
        Replay(g, delay=math.inf)
    with pytest.raises(TypeError, match="delay must be a number"):
        Replay(g, delay="fast")
    with pytest.raises(TypeError, match="spoilers"):
        Replay(g, spoilers="yes")
    r = Replay(g, step=1, delay=1.5)
    assert r.step == 1 and r.delay == 1.5
    for bad, error in ((3, ValueError), (-1, ValueError), (1.0, TypeError), (True, TypeError), ("1", TypeError)):
        with pytest.raises(error):
            r.go(bad)
        if not isinstance(bad, float):   # (traitlets takes 1.0 for 1)
            with pytest.raises(traitlets.TraitError):
                r.step = bad
        with pytest.raises((TypeError, ValueError)):
            r.game_at(bad)
    with pytest.raises(ValueError, match="delay"):
        r.delay = 100
    assert r.step == 1 and r.delay == 1.5 and table_part(r.view) == expected_view(r.game_at(1))


def test_a_solve_result_that_cannot_be_replayed_is_refused():
    from dataclasses import replace

    res = solve(win_in_three(), node_limit=50_000)
    with pytest.raises(ValueError, match="no start position"):
        Replay(replace(res, start=None))
    with pytest.raises(ValueError, match=r"move 2 of the line \(ab1\) cannot be played"):
        Replay(replace(res, moves=[res.moves[0], Move.parse("ab1")]))


# ------------------------------------------------------------------------------------------- the browser
class Sent:
    """The state updates Python sends to the browser (``send_state``) while ``r`` is in use."""

    def __init__(self, r: Replay, monkeypatch) -> None:
        self.keys: list[str] = []
        original = r.send_state

        def record(key=None):
            keys = [key] if isinstance(key, str) else list(key or [])
            self.keys.extend(keys)
            return original(key)

        monkeypatch.setattr(r, "send_state", record)


def browser_sets(r: Replay, **state) -> None:
    """An ``update`` comm message from the front end, as ipywidgets delivers it."""
    r._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def test_the_browser_sets_the_step_and_python_checks_it(monkeypatch):
    r = Replay(greedy_game(limit=20))
    sent = Sent(r, monkeypatch)
    n = len(r)
    browser_sets(r, step=5)
    assert r.step == 5 and table_part(r.view) == expected_view(r.game_at(5))
    assert set(sent.keys) == {"view", "moves"}, "the new step's view and list go to the browser"
    for bad, becomes in ((n + 7, n), (-3, 0), (2.6, 3), (10 ** 30, n), (-(10 ** 30), 0)):
        sent.keys.clear()
        browser_sets(r, step=bad)
        assert r.step == becomes, bad
        assert "step" in sent.keys, "the browser is told the step that holds"
        assert table_part(r.view) == expected_view(r.game_at(becomes))
    r.go(4)
    for bad in ("3", None, True, [1], {"a": 1}, math.nan, math.inf):
        sent.keys.clear()
        browser_sets(r, step=bad)
        assert r.step == 4, bad
        assert sent.keys == ["step"], bad
    # the browser may not set the view, the move list, the note or the delay
    v, moves = r.view, r.moves
    browser_sets(r, view={"tableau": []}, moves=[], note="hi", delay=0.001, nonsense=1)
    assert (r.view, r.moves, r.note, r.delay) == (v, moves, "", 0.6)
    assert r.step == 4


def test_playing_stops_at_the_end(monkeypatch):
    r = Replay(greedy_game(limit=10))
    browser_sets(r, playing=True)
    assert r.playing is True
    browser_sets(r, step=len(r))
    assert r.playing is False
    browser_sets(r, playing=True)   # nothing left to play
    assert r.playing is False
    browser_sets(r, playing="yes")
    assert r.playing is False
    r.play(delay=0.2)              # at the end: from the start again
    assert r.playing and r.step == 0 and r.delay == 0.2
    r.pause()
    assert not r.playing
    browser_sets(r, step=0, playing=True)
    r.last()
    assert not r.playing


@pytest.mark.parametrize(("variant", "suits", "deals"), [("spiderette", 1, range(1, 7)),
                                                         ("spiderette", 4, range(1, 4)),
                                                         ("will_o_the_wisp", 1, range(1, 3)),
                                                         ("red_black_spiderette", 4, range(1, 3))])
def test_the_planner_replay_of_its_own_game_agrees_with_every_move(variant, suits, deals):
    # the replay judges each move as the planner plays: a plan followed to its end while the table is the one
    # it expected, so no move the planner made reads "not the planner's choice"
    res = simulate(PlannerStrategy(), deals=deals, variant=variant, suits=suits, progress=False)
    for d in res.deals:
        entries = res.replay(d, advice="planner").entries
        assert len(entries) == res.rows[res.deals.index(d)]["moves"]
        wrong = [(i + 1, e["reason"]) for i, e in enumerate(entries) if e["hint"] != 1]
        assert not wrong, (d, wrong[:3])
    assert any("of its plan: " in e["reason"] for d in res.deals for e in res.replay(d, advice="planner").entries)
