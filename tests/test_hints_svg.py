"""Hints with reasons, and the static SVG picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from spiderette_testkit import game, run

from spiderette import Game
from spiderette.engine.cards import rank_of
from spiderette.players.ranking import best_hint, ranked_hints


def position(tableau, stock_size=3):
    """A spiderette table with these columns; the other cards lie face down under column g."""
    *cols, last = tableau
    return game("spiderette", [*cols, ["*", *last] if last else ["*"]], stock_size=stock_size)


def test_turning_a_card_over_beats_building_in_suit():
    g = position([["|2C", "8S"], ["9H"], ["9S", "7D"], ["8D"], ["|3C", "5H"], ["6C"], []])
    ranks = {str(h.move): h for h in ranked_hints(g)}
    assert ranks["ab1"].rank == 2 and "turns over" in ranks["ab1"].reason
    assert ranks["cd1"].rank == 3 and "in suit" in ranks["cd1"].reason
    assert best_hint(g).move.src in (0, 4)  # a move that turns a card over comes first


def test_a_re_park_is_listed_after_the_deal():
    # 5H sits on 6C; moving it to 6S gains nothing by itself (not the same suit): the advice is to deal, and
    # the re-park that frees 6C is listed last, for a player who plans ahead
    g = position([["6C", "5H"], ["6S"], ["KS"], ["KH"], ["KD"], ["KC"], []])
    hints = ranked_hints(g)
    assert [str(h.move) for h in hints] == ["d", "ab1"]
    assert hints[0].reason == "no useful move is left: deal a new row"
    assert hints[1].reason == "re-parks 5H onto 6S, freeing 6C" and hints[1].rank == 7
    assert best_hint(g).move.kind == "deal"


def test_a_split_into_an_empty_column_is_a_rearranging_move():
    g = position([["|2D", "9S", "8S", "7S"], [], ["KH"], ["KD"], ["KC"], ["QC"], ["KS"]])
    split = [h for h in ranked_hints(g) if str(h.move) == "ab2"]
    assert split and split[0].rank == 7
    assert split[0].reason == "splits the group in column a: 8S and the card on it to the empty column b"


def test_the_deal_says_when_moves_are_listed_above_it():
    g = position([["|2D", "6C", "5H"], ["6S"], ["KS"], ["KH"], ["KD"], ["KC"], ["QC"]])
    hints = ranked_hints(g)
    deal = [h for h in hints if h.move.kind == "deal"]
    assert hints[0].move.kind == "move" and deal
    assert deal[0].reason == "deals a new row (the moves listed above it come first)"


def test_no_hint_when_nothing_useful_is_left():
    g = position([["6C", "5H"], ["6S"], ["KS"], ["KH"], ["KD"], ["KC"], ["2D"]], stock_size=0)
    assert [str(m) for m in g.legal_moves()] == ["ab1"]
    assert best_hint(g) is None
    assert [h.rank for h in ranked_hints(g)] == [7]   # only a re-park is left


def test_among_equals_the_hint_builds_in_suit():
    g = position([["6C", "5H"], ["6S"], ["KS"], ["KH"], ["KD"], ["KC"], ["QC"]])
    assert str(best_hint(g).move) == "gf1"


def test_svg_is_well_formed_and_shows_no_hidden_card():
    g = Game(seed=7)
    svg = g._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    shown = {el.get("data-card") for el in root.iter() if el.get("data-card")}
    assert shown == {"4H", "6H", "JC", "7C", "3S", "8H", "AS"}
    d = g.to_dict()
    hidden = {c[1:] for col in d["tableau"] for c in col if c.startswith("|")} | set(d["stock"])
    assert not shown & hidden
    assert "score 500" in svg


def test_svg_of_spider_has_ten_columns():
    root = ET.fromstring(Game("spider", seed=1)._repr_svg_())
    letters = [el.text for el in root.iter() if el.text in list("abcdefghij")]
    assert letters == list("abcdefghij")


def test_an_empty_column_that_stops_the_deal_is_filled_when_nothing_else_helps():
    g = Game(seed=17)
    g.play("ca de dc dg bc bg fb fb df")  # column d is empty, every other move only shuffles builds
    assert g.deal_error() is not None and g.stock_count == 24
    hints = ranked_hints(g)
    assert hints, "the player is not left without a hint"
    useful = [h for h in hints if h.rank < 7]
    assert useful and all(h.rank == 6 and "lets the stock be dealt" in h.reason for h in useful)
    assert hints[:len(useful)] == useful and len({h.move for h in hints}) == len(hints)
    best = hints[0].move
    assert best.dst == 3 and rank_of(g.column(best.src)[-best.count]) == 11  # JD, the highest card that can go
    h = g.copy()
    h.apply(best)
    assert h.deal_error() is None


def test_a_group_that_completes_a_run_is_suggested_first_even_from_a_card_of_its_own_suit():
    # two decks: 7S-AS lie on one 8S; moving them onto the other 8S (under K-9 of spades) finishes a run
    g = game("spider", [run("S", 13, 8), ["*", "8S"] + run("S", 7, 1)], stock_size=0, suits=1)
    best = ranked_hints(g)[0]
    assert str(best.move) == "ba7" and best.rank == 1 and "completes a run" in best.reason
