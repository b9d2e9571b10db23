"""One home per rule: every path to a refusal says the engine's one decision.

Random games of every variant are walked; at several points every move is tried, legal or not (every pair
of columns with every count and none, one column too many, the deal, every send), through every path that
can refuse it: ``Game.refusal`` (the decision), ``Game.apply`` with a ``Move``, ``Game.play`` with notation
(alone and as the second move of a sequence), the table's click (``click_move``), the widget's move intent,
and the player's words (:func:`spiderette.notebook.wording.refusal`). A second computation of a rule anywhere (a
wording that re-derives the reason, a list of legal moves that disagrees with the refusals, a click that
ranks by other rules) makes one of them differ.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spiderette_testkit import VARIANT_SUITS, send

from spiderette import Game, IllegalMoveError, Move
from spiderette.engine.cards import card_text
from spiderette.engine.move import LETTERS
from spiderette.engine.refusals import Refusal
from spiderette.notebook.view import click_move
from spiderette.notebook.widget import Widget
from spiderette.notebook.wording import CARD_WORD, refusal

#: The codes whose words for players name cards (the others keep the engine's words).
NAMING = {"not-in-sequence", "not-one-suit", "not-one-colour", "king-to-a-card", "onto-an-ace", "does-not-fit",
          "nowhere-to-go"}
GROUP = {"empty-column", "hidden-card", "not-in-sequence", "not-one-suit", "not-one-colour"}


def candidates(g: Game) -> list[Move]:
    """Every move worth trying: each pair of columns (one past the last too) with counts 1..3 and none,
    the deal, and a send from every column."""
    n = min(g.columns + 1, len(LETTERS))
    out = [Move("deal")] + [Move("send", i) for i in range(n)]
    for a in range(n):
        for b in range(n):
            if a != b:
                out += [Move("move", a, b, k) for k in (None, 1, 2, 3)]
    return out


def raised(call, *args) -> IllegalMoveError | None:
    try:
        call(*args)
    except IllegalMoveError as e:
        return e
    return None


def check_words(decision: Refusal, e: IllegalMoveError) -> None:
    """The player's words render the decision: they name exactly its cards, or keep the engine's words."""
    words = refusal(e)
    assert words == refusal(IllegalMoveError(decision)), (words, decision)
    if decision.code in NAMING:
        named = {card_text(c) for c in decision.cards}
        if decision.target is not None:
            named.add(card_text(decision.target))
        assert set(CARD_WORD.findall(words)) <= named and CARD_WORD.search(words), (words, decision)
    else:
        assert words == decision.reason


def check_position(g: Game, widget: Widget | None) -> None:
    legal = set(g.legal_moves())
    before = g.to_dict()
    widget_tries = 0
    for m in candidates(g):
        decision = g.refusal(m)
        resolved = m
        if decision is None and m.kind == "move" and m.count is None:
            resolved = g.resolve(m)
        assert (decision is None) == (resolved in legal), (str(m), decision)
        assert (g.why_illegal(m) is None) == (decision is None)
        e = raised(g.copy().apply, m)
        notation = raised(g.copy().play, str(m))
        if decision is None:
            assert e is None and notation is None, (str(m), e, notation)
            continue
        assert decision.code and g.why_illegal(m) == decision.reason
        for err in (e, notation):
            assert err is not None and err.refusal == decision and err.code == decision.code, (str(m), err)
            assert err.reason == decision.reason and err.index is None
            assert err.move == m or (m.count is None and (err.move.src, err.move.dst) == (m.src, m.dst))
            assert str(err) == f"{err.move}: {decision.reason}"
            assert err.cards == decision.cards and err.target == decision.target
        check_words(decision, e)
        if m.kind == "move" and m.src < g.columns and m.dst < g.columns and m.count is not None:
            if g.movable(m.src) > 0:   # the second move of a sequence: the same decision, its place said
                first = next((x for x in g.legal_moves() if x.kind == "move" and m.src not in (x.src, x.dst)
                              and m.dst not in (x.src, x.dst)), None)
                if first is not None:
                    late = raised(g.copy().play, [first, m])
                    assert late is not None and late.index == 2 and late.refusal == decision, (str(m), late)
            if widget is not None and widget_tries < 4:
                widget_tries += 1
                v = send(widget, action="move", src=m.src, dst=m.dst, count=m.count)
                assert v["message"] == f"Not allowed: {refusal(e)}" and v["tone"] == "refusal"
    # the click: a refusal is the group's refusal or nowhere to go, and a click that plays goes where a rule allows
    for src in range(g.columns):
        for count in range(1, g.movable(src) + 2):
            e = raised(click_move, g, src, count)
            if e is None:
                assert click_move(g, src, count) in legal
            elif e.code in GROUP:
                assert e.refusal == g.group_refusal(src, count)
                check_words(e.refusal, e)
            else:
                assert e.code == "nowhere-to-go"
                ways = [x for x in legal if x.kind == "move" and x.src == src and x.count == count]
                assert all(g.top_card(x.dst) is None and count == len(g.column(src)) for x in ways), ways
                check_words(e.refusal, e)
    assert g.to_dict() == before, "a refusal changes nothing"
    if widget is not None:
        assert widget.game.to_dict() == before


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vs=st.sampled_from(VARIANT_SUITS), seed=st.integers(1, 10**6), auto=st.booleans(), data=st.data())
def test_every_path_to_a_refusal_says_the_engines_decision(vs, seed, auto, data):
    variant, suits = vs
    g = Game(variant, seed=seed, suits=suits, auto_remove=auto)
    with_widget = data.draw(st.booleans())
    for step in range(30):
        if step % 15 == 0:
            check_position(g, Widget(game=g.copy(), record=False) if with_widget else None)
        legal = g.legal_moves()
        if not legal:
            break
        g.apply(data.draw(st.sampled_from(legal)))
    check_position(g, None)


def test_a_refusal_pickles_with_its_decision():
    import pickle

    g = Game(seed=7)
    e = raised(g.play, "bd ec1")
    back = pickle.loads(pickle.dumps(e))
    assert back.refusal == e.refusal and back.code == "does-not-fit" and back.index == 2 and str(back) == str(e)


def test_the_group_rule_has_one_form_for_the_hot_loops():
    """Rules.links and the mask the engine's run count uses inline are one rule."""
    from spiderette.engine.variants import RULES

    for rules in RULES.values():
        m = rules.link_mask
        for below in range(64):
            for above in range(64):
                assert rules.links(below, above) == ((below & m) == (above & m) + 1), (rules.name, below, above)
