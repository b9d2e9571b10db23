"""Positions as data (``to_dict`` / ``from_dict``) and as text (``position`` / ``from_position``)."""

from __future__ import annotations

import copy
import json

import pytest
from spiderette_testkit import VARIANT_SUITS, VS_IDS, build, game, run

from spiderette import RULES, Game, InvalidPositionError, Move
from spiderette.engine.svg import game_svg

SEED7 = {
    "variant": "spiderette", "suits": 4, "seed": 7, "auto_remove": True, "scoring": "standard",
    "tableau": [["4H"], ["|5S", "6H"], ["|JD", "|4C", "JC"], ["|3C", "|7D", "|TS", "7C"],
                ["|4D", "|9H", "|2D", "|2C", "3S"], ["|TD", "|2S", "|7S", "|TC", "|QD", "8H"],
                ["|KC", "|KH", "|4S", "|9C", "|2H", "|6C", "AS"]],
    "stock": ["9S", "JH", "6D", "3H", "3D", "8D", "AD", "KD", "6S", "AC", "7H", "5D", "9D", "5C", "QC", "AH",
              "KS", "TH", "8S", "JS", "5H", "8C", "QH", "QS"],
    "foundations": [], "moves": 0, "score": 500,
}


# ---------------------------------------------------------------------------------------- to_dict
def test_to_dict_shape():
    d = Game(seed=7).to_dict()
    assert d == SEED7
    assert list(d) == ["variant", "suits", "seed", "auto_remove", "scoring", "tableau", "stock", "foundations",
                       "moves", "score"]
    assert json.loads(json.dumps(d)) == d


def test_to_dict_stock_order_and_foundations():
    g = Game(seed=7)
    g.deal()
    d = g.to_dict()
    assert [c[-1] for c in d["tableau"]] == SEED7["stock"][:7]  # stock[0] went onto column a
    assert d["stock"] == SEED7["stock"][7:]
    assert (d["moves"], d["score"]) == (1, 499)
    g = game("spiderette", [["*", "AS"], ["|5H", *run("S", 13, 2)]])
    assert (g.move_count, g.score) == (4, 496)  # the stock is empty: four deals were made
    g.move(0, 1)
    d = g.to_dict()
    assert d["foundations"] == [["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]]
    assert d["tableau"][1] == ["5H"] and d["seed"] is None
    assert (d["moves"], d["score"]) == (5, 595)


# ---------------------------------------------------------------------------------------- from_dict
@pytest.mark.parametrize("variant,suits", VARIANT_SUITS, ids=VS_IDS)
def test_from_dict_round_trip(variant, suits):
    g = Game(variant, seed=12, suits=suits)
    for i in range(25):
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(moves[(3 * i) % len(moves)])
    d = g.to_dict()
    kept = copy.deepcopy(d)
    h = Game.from_dict(d)
    assert d == kept  # the input is not changed
    assert h.to_dict() == d
    assert h.position() == g.position()
    assert (h.score, h.move_count, h.status, h.deals_left) == (g.score, g.move_count, g.status, g.deals_left)
    assert set(h.legal_moves()) == set(g.legal_moves())
    assert h.history == [] and not h.can_undo
    for m in g.legal_moves():  # the copy plays on exactly like the original
        a, b = Game.from_dict(d), Game.from_dict(d)
        a.apply(m)
        b.apply(m)
        assert a.to_dict() == b.to_dict()
    # moves and score may be left out: the moves are then the fewest that reach the table (one per deal)
    d2 = {k: v for k, v in d.items() if k not in ("moves", "score", "seed")}
    h2 = Game.from_dict(d2)
    deals = len(RULES[variant].deal_sizes()) - g.deals_left
    assert (h2.move_count, h2.seed) == (deals, None)
    assert h2.score == 500 - deals + 100 * len(d["foundations"])


def test_from_dict_options():
    d = dict(SEED7, auto_remove=False, scoring="pairs", score=0)  # the pair score of the deal
    g = Game.from_dict(d)
    assert g.auto_remove is False and g.scoring == "pairs" and g.score == g.pair_score() == 0
    assert g.to_dict() == dict(d, score=0)
    # a complete run may wait in the tableau when runs are sent by hand
    d = build("spiderette", [["*", "9D"], run("S")], auto_remove=False)
    g = Game.from_dict(d)
    assert Move("send", 1) in g.legal_moves()


def _bad(mutate):
    """Apply ``mutate`` to a copy of SEED7; a mutator made by ``_new`` replaces the whole dict."""
    d = copy.deepcopy(SEED7)
    out = mutate(d)
    return out[1] if isinstance(out, tuple) and out[0] is _new else d


def _new(value):
    return lambda d: (_new, value)


def _set(path, value):
    def f(d):
        *head, last = path
        target = d
        for k in head:
            target = target[k]
        target[last] = value
    return f


BLACK_RUN = ["KS", "QC", "JS", "TC", "9S", "8C", "7S", "6C", "5S", "4C", "3S", "2C", "AS"]


@pytest.mark.parametrize("mutate,text", [
    # the card set
    (lambda d: d["tableau"][6].pop(0), "missing KC"),
    (lambda d: d["tableau"][0].insert(0, "|KC"), "extra KC"),
    (_set(["tableau", 0, 0], "5H"), "missing 4H; extra 5H"),
    (_set(["suits"], 2), "not a spiderette deck of 2 suit(s)"),
    (_set(["tableau", 0, 0], "1X"), "column a, card 1: unknown card '1X'"),
    (_set(["tableau", 3, 1], "|ZZ"), "column d, card 2: unknown card 'ZZ'"),
    (_set(["stock", 3], "11H"), "the stock, card 4: unknown card '11H'"),
    (_set(["tableau", 0, 0], 45), "column a, card 1: a card is written as a string"),
    # the columns
    (lambda d: d["tableau"].pop(), "spiderette has 7 columns; the tableau has 6"),
    (lambda d: d["tableau"].append([]), "spiderette has 7 columns; the tableau has 8"),
    (_set(["tableau", 1], ["6H", "|5S"]), "column b: face-down card 5S lies above a face-up card"),
    (_set(["tableau", 2], ["|JD", "4C", "|JC"]), "column c: face-down card JC lies above a face-up card"),
    (_set(["tableau", 1], ["|5S", "|6H"]), "column b: the top card is face down"),
    # the variant and options
    (_set(["variant"], "klondike"), "unknown variant 'klondike'"),
    (_set(["variant"], ["spiderette"]), "unknown variant"),
    (_set(["suits"], 3), "not 3"),
    (_set(["suits"], "4"), "not '4'"),
    (_set(["auto_remove"], "yes"), "auto_remove must be True or False"),
    (_set(["scoring"], "vegas"), "scoring must be 'standard' or 'pairs'"),
    (_set(["seed"], -1), "out of range"),
    (_set(["seed"], "7"), "whole number"),
    # types
    (_new([1, 2]), "a position is a dict, not list"),
    (_new("spiderette"), "a position is a dict, not str"),
    (lambda d: d.pop("tableau"), "lacks tableau"),
    (_new({"variant": "spiderette"}), "lacks tableau, stock, foundations"),
    (_set(["tableau"], "4H"), "the tableau must be a list of columns, not str"),
    (_set(["tableau", 0], "4H"), "column a must be a list of card codes, not str"),
    (_set(["stock"], "9S"), "the stock must be a list of card codes, not str"),
    (_set(["foundations"], "KS"), "the foundations must be a list of runs"),
    (_set(["moves"], -1), "moves must be a whole number from 0 to 1000000, not -1"),
    (_set(["moves"], "3"), "moves must be a whole number, not '3'"),
    (_set(["moves"], 2.0), "moves must be a whole number, not 2.0"),
    (_set(["score"], "500"), "score must be a whole number"),
    (_set(["score"], None), None),  # accepted: the score is then computed
    # the stock
    (lambda d: d["tableau"][0].insert(0, "|" + d["stock"].pop()), "the stock has 23 cards; a spiderette stock"
                                                                  " holds 24, 17, 10, 3, 0"),
])
def test_from_dict_rejects(mutate, text):
    d = _bad(mutate)
    if text is None:
        assert Game.from_dict(d).score == 500
        return
    with pytest.raises(InvalidPositionError) as e:
        Game.from_dict(d)
    assert isinstance(e.value, ValueError)
    assert text in str(e.value)


def _with_foundation(runs, variant="spiderette", remove=True):
    """A position with ``runs`` on the foundations and the rest of the deck face down in column a."""
    d = build(variant, [["*"]])
    rest = [c.lstrip("|") for c in d["tableau"][0]]
    if remove:
        for c in (c for r in runs for c in r):
            rest.remove(c)
    d["tableau"][0] = ["|" + c for c in rest[:-1]] + [rest[-1]]
    d["foundations"] = runs
    return d


@pytest.mark.parametrize("runs,variant,text", [
    ([run("S")[::-1]], "spiderette", "foundation run 1 is not a king-to-ace run in one suit"),
    ([run("S")[:12]], "spiderette", "foundation run 1 is not a king-to-ace run"),
    ([run("S")[:6] + ["7H"] + run("S")[7:]], "spiderette", "foundation run 1 is not"),
    ([run("H"), BLACK_RUN], "spiderette", "foundation run 2 is not a king-to-ace run in one suit"),
    ([["KH", "QD", *run("H")[2:]]], "spiderette", "foundation run 1 is not a king-to-ace run in one suit"),
    ([run("H")[:1] + run("S")[1:]], "red_black_spiderette", "not a king-to-ace run in one colour"),
    ([run("H"), run("S")[::-1]], "spiderette", "foundation run 2 is not"),
    ([run("S"), run("S")[::-1]], "spider", "foundation run 2 is not"),
])
def test_from_dict_rejects_bad_foundation_runs(runs, variant, text):
    d = _with_foundation(runs, variant)
    with pytest.raises(InvalidPositionError) as e:
        Game.from_dict(d)
    assert text in str(e.value)


def test_too_many_or_malformed_foundation_runs():
    d = _with_foundation([run("H")] * 5, remove=False)
    with pytest.raises(InvalidPositionError, match="5 runs on the foundations; spiderette has 4"):
        Game.from_dict(d)
    d = _with_foundation(["KS"], remove=False)
    with pytest.raises(InvalidPositionError, match="foundation run 1 must be a list of card codes, not str"):
        Game.from_dict(d)


def test_mixed_suit_run_of_one_colour_is_a_run_only_in_red_black():
    run_ = ["KH", "QD", *run("H")[2:]]
    d = _with_foundation([run_], "red_black_spiderette")
    assert Game.from_dict(d).runs_completed == 1


def test_one_colour_foundation_runs_are_good_in_red_black():
    d = _with_foundation([BLACK_RUN], "red_black_spiderette")
    g = Game.from_dict(d)
    assert g.runs_completed == 1 and g.to_dict()["foundations"] == [BLACK_RUN]
    d["variant"] = "spiderette"
    with pytest.raises(InvalidPositionError, match="not a king-to-ace run in one suit"):
        Game.from_dict(d)


def test_a_complete_run_cannot_wait_in_the_tableau_when_runs_leave_on_their_own():
    d = build("spiderette", [["*", "9D"], ["|4C", *run("S")]])
    with pytest.raises(InvalidPositionError, match="column b ends in a complete run"):
        Game.from_dict(d)
    d["auto_remove"] = False
    assert Game.from_dict(d).legal_moves()[-1] == Move("send", 1)
    # a complete run under another card is fine either way
    d = build("spiderette", [["*", "9D"], [*run("S"), "QH"]])
    assert Game.from_dict(d).movable(1) == 1
    # red-black: a run of one colour is complete
    d = build("red_black_spiderette", [["*", "9D"], BLACK_RUN])
    with pytest.raises(InvalidPositionError, match="column b ends in a complete run"):
        Game.from_dict(d)


@pytest.mark.parametrize("variant,sizes", [("spiderette", (24, 17, 10, 3, 0)),
                                           ("will_o_the_wisp", (31, 24, 17, 10, 3, 0)),
                                           ("spider", (50, 40, 30, 20, 10, 0))])
def test_stock_sizes(variant, sizes):
    for size in range(0, 52):
        d = build(variant, [["*", "9D"]], stock_size=size)
        if size in sizes:
            assert Game.from_dict(d).stock_count == size
        else:
            with pytest.raises(InvalidPositionError, match=f"the stock has {size} card{'' if size == 1 else 's'};"):
                Game.from_dict(d)


# ---------------------------------------------------------------------------------------- position text
def test_position_text():
    assert Game(seed=7).position() == (
        "spiderette:4 4H/5s6H/jd4cJC/3c7dts7C/4d9h2d2c3S/td2s7stcqd8H/kckh4s9c2h6cAS "
        "9SJH6D3H3D8DADKD6SAC7H5D9D5CQCAHKSTH8SJS5H8CQHQS - 0 500 7")
    g = game("spiderette", [["*", "AS"], ["|5H", *run("S", 13, 2)], []], auto_remove=True)
    g.move(0, 1)
    text = g.position()
    fields = text.split()
    assert fields[0] == "spiderette:4"
    assert fields[1].split("/")[1:] == ["5H", "-", "-", "-", "-", "-"]
    assert fields[2] == "-" and fields[3] == "KSQSJSTS9S8S7S6S5S4S3S2SAS"
    assert fields[4:] == ["5", "595", "-"]  # four deals and a move; 500 - 5 + 100
    assert Game.from_position(text).to_dict() == g.to_dict()


@pytest.mark.parametrize("kwargs,head", [
    ({}, "spiderette:4"), ({"auto_remove": False}, "spiderette:4+manual"),
    ({"scoring": "pairs"}, "spiderette:4+pairs"), ({"auto_remove": False, "scoring": "pairs"},
                                                  "spiderette:4+manual+pairs"),
    ({"variant": "spider", "suits": 2}, "spider:2"), ({"variant": "will_o_the_wisp", "suits": 1},
                                                      "will_o_the_wisp:1"),
    ({"variant": "red_black_spiderette"}, "red_black_spiderette:4"),
])
def test_position_round_trip(kwargs, head):
    g = Game(seed=31, **kwargs)
    for i in range(30):
        text = g.position()
        assert text.split()[0] == head
        h = Game.from_position(text)
        assert h.to_dict() == g.to_dict() and h.position() == text
        moves = g.legal_moves()
        if not moves:
            break
        g.apply(moves[(5 * i) % len(moves)])


SEED7_TEXT = Game(seed=7).position()


def _field(i, value):
    f = SEED7_TEXT.split()
    f[i] = value
    return " ".join(f)


@pytest.mark.parametrize("text,msg", [
    ("", "7 fields"),
    ("spiderette:4", "7 fields"),
    (SEED7_TEXT + " extra", "this one has 8"),
    (" ".join(SEED7_TEXT.split()[:6]), "this one has 6"),
    (_field(0, "spiderette"), "bad first field"),
    (_field(0, "spiderette:x"), "bad first field"),
    (_field(0, "spiderette:4+fast"), "bad first field"),
    (_field(0, "spiderette:²"), "bad first field"),
    (_field(0, "klondike:4"), "unknown variant"),
    (_field(0, "spiderette:3"), "not 3"),
    (_field(1, SEED7_TEXT.split()[1].replace("4H/", "4H1/")), "column a: '4H1' is not a whole number"),
    (_field(1, SEED7_TEXT.split()[1].replace("4H/", "ZZ/")), "unknown card 'ZZ'"),
    (_field(1, SEED7_TEXT.split()[1].replace("4H/", "")), "the tableau has 6"),
    (_field(1, SEED7_TEXT.split()[1].replace("5s6H", "5s6h")), "column b: the top card is face down"),
    (_field(1, SEED7_TEXT.split()[1].replace("5s6H", "5S6h")), "column b: face-down card 6H lies above"),
    (_field(2, "-"), "missing"),
    (_field(2, "9SJH6"), "the stock"),
    (_field(3, "KS"), "extra KS"),
    (_field(4, "x"), "moves must be a whole number"),
    (_field(4, "--5"), "moves must be a whole number"),
    (_field(4, "²"), "moves must be a whole number"),
    (_field(4, "-5"), "moves must be a whole number of at most 20 digits, not '-5'"),
    (_field(5, "1.5"), "score must be a whole number"),
    (_field(6, "abc"), "deal number"),
    (_field(6, "-7"), "deal number"),
    (_field(6, str(2**64)), "out of range"),
])
def test_malformed_position_text(text, msg):
    with pytest.raises(InvalidPositionError) as e:
        Game.from_position(text)
    assert msg in str(e.value)


@pytest.mark.parametrize("thing", [None, 7, ["spiderette:4"], b"spiderette:4"])
def test_position_must_be_text(thing):
    with pytest.raises(InvalidPositionError, match="a position is a line of text"):
        Game.from_position(thing)


def test_str_shows_the_table_without_face_down_cards():
    g = Game(seed=7)
    text = str(g)
    assert "score 500" in text and "deals left 4" in text and "deal 7" in text
    assert "##" in text and "|" not in text
    assert "4H" in text and "AS" in text
    assert "5S" not in text and "KC" not in text  # face down in columns b and g


def test_a_count_of_one_is_singular():
    """Every count shown with its noun goes through ``engine.words.plural``: never "1 moves"."""
    g = Game(seed=1)
    g.deal()
    assert repr(g) == "<Game spiderette, seed=1 suits=4: score 499, 1 move, 3 deals left, playing>"
    g.deal()
    g.deal()
    assert repr(g).endswith("3 moves, 1 deal left, playing>")
    assert "stock: 1 deal<" in game_svg(g)
