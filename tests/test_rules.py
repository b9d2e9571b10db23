"""Each rule of RULES.md, in every variant and suit option, on small hand-built positions.

The tests go over the registered variants (``RULES``), so a variant added to it is tested with the others: a
test of a rule that not every variant has (building in any suit, no deal on a gap) takes the variants that have
it (``ANY_BUILD``, ``NO_DEAL_ON_GAP``), and the layouts and deal sizes of a variant RULES.md does not list
(``DOCUMENTED``) are held to its own ``Rules``.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import partial

import pytest
from spiderette_testkit import SUIT_VARIANTS, VARIANT_SUITS, VS_IDS, build, game, run, suited, tableau

from spiderette import Game, IllegalMoveError, Move, click_move
from spiderette.engine.variants import RULES

DEAL = Move("deal")
SUIT_IDS = [f"{v}-{s}" for v, s in SUIT_VARIANTS]
#: The variants whose cards go onto a card one rank higher of any suit (every built-in one).
ANY_BUILD = [(v, s) for v, s in VARIANT_SUITS if RULES[v].build == "any"]
MULTI_SUIT = [(v, s) for v, s in SUIT_VARIANTS if s > 1 and RULES[v].build == "any"]
#: The variants that deal only when no column is empty (every built-in one but red-black).
NO_DEAL_ON_GAP = [(v, s) for v, s in SUIT_VARIANTS if not RULES[v].deal_with_empty]
#: The variants whose last deal is short (fewer cards than columns): it goes to the first columns.
SHORT_LAST_DEAL = [v for v, r in RULES.items() if r.deal_sizes()[-1] < r.columns]

#: The layouts RULES.md gives, written out by hand: each column's height, its face-down cards, the stock and
#: the cards of each deal. A variant not listed is held to its own ``Rules`` (:func:`expected_layout`).
DOCUMENTED = {
    "spiderette": ([1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6], 24, [7, 7, 7, 3]),
    "red_black_spiderette": ([1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6], 24, [7, 7, 7, 3]),
    "will_o_the_wisp": ([3] * 7, [2] * 7, 31, [7, 7, 7, 7, 3]),
    "spider": ([6, 6, 6, 6, 5, 5, 5, 5, 5, 5], [5, 5, 5, 5, 4, 4, 4, 4, 4, 4], 50, [10] * 5),
}


def expected_layout(variant: str) -> tuple[list[int], list[int], int, list[int]]:
    """A new game's column heights, face-down cards, stock and deal sizes: RULES.md's, or the rules' own."""
    r = RULES[variant]
    own = (list(r.layout), [h - r.face_up for h in r.layout], r.stock_size, list(r.deal_sizes()))
    return DOCUMENTED.get(variant, own)


def one_deck(variant: str) -> bool:
    return RULES[variant].decks == 1


def all_but_one_run(variant: str) -> list[str]:
    """Foundation runs leaving one run's worth of diamonds (two in spider) for the tableau."""
    return ["S", "H", "C"] if one_deck(variant) else ["S", "S", "H", "H", "C", "C", "D"]


def filled(variant: str, given: dict[int, list[str]]) -> list[list[str]]:
    """Every column holds one card, except those in ``given``; the rest of the deck goes face down into
    the last other column (unless ``given`` places it with ``"*"``)."""
    cols = [given.get(i, ["+"]) for i in range(RULES[variant].columns)]
    if not any("*" in c for c in cols):
        last = max(i for i, c in enumerate(cols) if c == ["+"])
        cols[last] = ["*"]
    return cols


@contextmanager
def unchanged(g: Game):
    """The block leaves the game exactly as it was: position, history, redo list and status."""
    before = (g.to_dict(), g.history, g.can_redo, g.status)
    yield
    assert (g.to_dict(), g.history, g.can_redo, g.status) == before


def s_(codes, suits):
    return [suited(c, suits) for c in codes]


# ---------------------------------------------------------------------------------------- layouts
@pytest.mark.parametrize("seed", [0, 1, 99, 2**64 - 1])
@pytest.mark.parametrize("variant,suits", VARIANT_SUITS, ids=VS_IDS)
def test_initial_layout(variant, suits, seed):
    g = Game(variant, seed=seed, suits=suits)
    t = tableau(g)
    heights = [len(c) for c in t]
    down = [sum(c.startswith("|") for c in col) for col in t]
    layout, face_down, stock, deals = expected_layout(variant)
    assert (heights, down, g.stock_count, g.deals_left) == (layout, face_down, stock, len(deals))
    # face-down cards at the bottom, the face-up ones on top of every column
    for col, n in zip(t, down):
        assert all(c.startswith("|") for c in col[:n]) and not any(c.startswith("|") for c in col[n:])
    assert (g.score, g.move_count, g.runs_completed, g.status) == (RULES[variant].start_score, 0, 0, "playing")
    assert g.runs_total == RULES[variant].runs


@pytest.mark.parametrize("variant", DOCUMENTED)
def test_the_built_in_rules_make_the_documented_layouts(variant):
    r = RULES[variant]
    assert (list(r.layout), [h - r.face_up for h in r.layout], r.stock_size, list(r.deal_sizes())) \
        == DOCUMENTED[variant]
    assert r.runs == (8 if variant == "spider" else 4) and r.start_score == 500


@pytest.mark.parametrize("variant,suits", VARIANT_SUITS, ids=VS_IDS)
def test_deals_from_a_new_game_have_the_documented_sizes(variant, suits):
    g = Game(variant, seed=3, suits=suits)
    sizes = []
    while g.stock_count:
        before = g.stock_count
        heights = [len(c) for c in tableau(g)]
        g.deal()
        sizes.append(before - g.stock_count)
        after = [len(c) for c in tableau(g)]
        if g.runs_completed == 0:
            assert after == [h + (i < sizes[-1]) for i, h in enumerate(heights)]
    expected = expected_layout(variant)[3]
    assert sizes == expected
    assert g.deals_left == 0
    rules = RULES[variant]
    assert g.score == rules.start_score - len(expected) + rules.run_bonus * g.runs_completed


# ---------------------------------------------------------------------------------------- building
@pytest.mark.parametrize("v,s", ANY_BUILD, ids=[f"{v}-{s}" for v, s in ANY_BUILD])
def test_group_of_one_suit_moves_together(v, s):
    g = game(v, [["*", "|5D", "9H", "8H", "7H"], ["TC"]], suits=s)
    assert g.movable(0) == 3
    assert g.move(0, 1) == Move("move", 0, 1, 3)
    assert tableau(g)[1] == s_(["TC", "9H", "8H", "7H"], s)
    assert tableau(g)[0][-1] == suited("5D", s)  # turned face up
    assert g.movable(1) == (4 if s == 1 else 3)  # TC-9H is no group (but TS-9S with one suit is)


@pytest.mark.parametrize("variant,suits", MULTI_SUIT, ids=[f"{v}-{s}" for v, s in MULTI_SUIT])
def test_mixed_suit_sequence_moves_one_card_at_a_time(variant, suits):
    g = game(variant, [["*", "9S", "8H", "7H"], ["TD"], ["9C"]], suits=suits)
    assert g.movable(0) == 2
    for attempt in (lambda: g.move(0, 1, 3), lambda: g.move(0, 1), lambda: g.play("ab")):
        with unchanged(g), pytest.raises(IllegalMoveError, match="9S-8H is not one suit, move one card at a time"):
            attempt()
    assert not [m for m in g.legal_moves() if m.kind == "move" and m.src == 0 and m.count == 3]
    # the suited part moves as a group, then the rest one card at a time
    assert g.move(0, 2) == Move("move", 0, 2, 2)
    assert g.move(0, 1) == Move("move", 0, 1, 1)
    assert tableau(g)[1] == s_(["TD", "9S"], suits)


def test_red_black_groups_go_by_colour():
    pos = [["*", "9S", "8C", "7S"], ["TH"]]
    g = game("red_black_spiderette", pos)
    assert g.movable(0) == 3
    assert g.move(0, 1) == Move("move", 0, 1, 3)
    assert tableau(g)[1] == ["TH", "9S", "8C", "7S"]
    # the same cards in spiderette: not one suit
    g = game("spiderette", pos)
    assert g.movable(0) == 1
    with pytest.raises(IllegalMoveError, match="8C-7S is not one suit, move one card at a time"):
        g.move(0, 1, 3)
    # mixed colours in red-black: one card at a time
    g = game("red_black_spiderette", [["*", "9S", "8H", "7D"], ["TD"]])
    assert g.movable(0) == 2
    with unchanged(g), pytest.raises(IllegalMoveError, match="9S-8H is not one colour, move one card at a time"):
        g.move(0, 1)


def test_red_black_builds_on_any_colour():
    for target in ("6S", "6D"):
        g = game("red_black_spiderette", [["*", "5H"], [target]])
        assert Move("move", 0, 1, 1) in g.legal_moves()
        g.move(0, 1)
        assert tableau(g)[1] == [target, "5H"]


@pytest.mark.parametrize("v,s", ANY_BUILD, ids=[f"{v}-{s}" for v, s in ANY_BUILD])
def test_any_card_onto_one_rank_higher_of_any_suit(v, s):
    g = game(v, [["*", "5H"], ["6S"], ["7S"], ["5S"], ["4S"], ["+"], ["+"]] + [["+"]] * (RULES[v].columns - 7),
             suits=s)
    froms_a = {m.dst for m in g.legal_moves() if m.kind == "move" and m.src == 0}
    assert 1 in froms_a and not {2, 3, 4} & froms_a
    for dst, target in ((2, "7S"), (3, "5S"), (4, "4S")):
        with unchanged(g), pytest.raises(IllegalMoveError, match="a card goes only on a card one rank higher"):
            g.move(0, dst)
        with pytest.raises(IllegalMoveError, match=f"{suited('5H', s)} cannot go on {suited(target, s)}"):
            g.move(0, dst, 1)
    g.move(0, 1)
    assert tableau(g)[1] == s_(["6S", "5H"], s)


def test_nothing_goes_onto_an_ace(vs):
    v, s = vs
    g = game(v, [["*", "2H"], ["AS"], ["KD"]], suits=s)
    assert not [m for m in g.legal_moves() if m.kind == "move" and m.dst == 1]
    with unchanged(g), pytest.raises(IllegalMoveError, match="nothing goes on an ace"):
        g.move(0, 1)
    with unchanged(g), pytest.raises(IllegalMoveError, match="a king can only go to an empty column"):
        g.move(2, 1)


def test_a_king_goes_only_to_an_empty_column(vs):
    v, s = vs
    g = game(v, [["*", "KH", "QH"], ["QS"], ["AS"], []], suits=s)
    with unchanged(g), pytest.raises(IllegalMoveError, match="a king can only go to an empty column"):
        g.move(0, 1, 2)
    with unchanged(g), pytest.raises(IllegalMoveError, match="a king can only go to an empty column"):
        g.move(0, 2, 2)
    kings = [m for m in g.legal_moves() if m.kind == "move" and m.src == 0 and m.count == 2]
    assert kings and all(not tableau(g)[m.dst] for m in kings)
    g.move(0, 3)  # onto the empty column: the longest group, king included
    assert tableau(g)[3] == s_(["KH", "QH"], s)


def test_any_card_or_group_fills_an_empty_column(vs):
    v, s = vs
    g = game(v, [["*", "9S", "8S", "7S"], ["5D"], []], suits=s)
    moves = set(g.legal_moves())
    assert {Move("move", 0, 2, k) for k in (1, 2, 3)} <= moves
    assert Move("move", 1, 2, 1) in moves
    assert g.parse_move("ac") == Move("move", 0, 2, 3)  # onto an empty column: the longest group
    h = Game.from_dict(g.to_dict())
    h.move(0, 2, 2)
    assert tableau(h)[2] == s_(["8S", "7S"], s)
    g.move(1, 2)
    assert tableau(g)[1] == [] and tableau(g)[2] == [suited("5D", s)]


# ---------------------------------------------------------------------------------------- deals
@pytest.mark.parametrize("variant,suits", NO_DEAL_ON_GAP, ids=[f"{v}-{s}" for v, s in NO_DEAL_ON_GAP])
def test_no_deal_while_a_column_is_empty(variant, suits):
    rules = RULES[variant]
    sizes = {rules.stock_sizes()[0], rules.stock_sizes()[-2]}  # the full stock and the last (short) deal
    for size in sizes:
        g = game(variant, filled(variant, {4: []}), stock_size=size, suits=suits)
        assert DEAL not in g.legal_moves()
        for attempt in (g.deal, partial(g.apply, "d"), partial(g.play, "d")):
            with unchanged(g), pytest.raises(IllegalMoveError, match="no deal while column e is empty"):
                attempt()
        assert g.status == "playing"


def test_the_last_short_deal_needs_every_column_too():
    g = game("spiderette", filled("spiderette", {6: []}), stock_size=3)
    assert g.deals_left == 1
    with pytest.raises(IllegalMoveError, match="no deal while column g is empty"):
        g.deal()


def test_red_black_deals_with_empty_columns():
    for size in (24, 3):
        g = game("red_black_spiderette", filled("red_black_spiderette", {4: [], 6: []}), stock=["5H", "9C", "2D"],
                 stock_size=size)
        assert DEAL in g.legal_moves()
        g.deal()
        assert tableau(g)[0][-1] == "5H" and tableau(g)[2][-1] == "2D"
        assert (tableau(g)[4] != []) == (size > 3)
        assert g.stock_count == size - min(size, 7)


def test_the_short_last_deals_are_the_documented_ones():
    assert {"spiderette", "red_black_spiderette", "will_o_the_wisp"} <= set(SHORT_LAST_DEAL)
    assert "spider" not in SHORT_LAST_DEAL   # (five deals of ten)


@pytest.mark.parametrize("variant", SHORT_LAST_DEAL)
def test_the_last_short_deal_goes_to_the_first_columns(variant):
    """Three cards in the one-deck variants: columns a, b and c."""
    k = RULES[variant].deal_sizes()[-1]
    last = ["5H", "9C", "2D", "JS", "3H", "8C", "QD", "4S", "6H"][:k]
    g = game(variant, filled(variant, {}), stock=last)
    before, m0, s0 = tableau(g), g.move_count, g.score
    assert g.deals_left == 1 and g.stock_count == k
    g.deal()
    after = tableau(g)
    assert [c[-1] for c in after[:k]] == last
    assert [len(c) for c in after[:k]] == [len(c) + 1 for c in before[:k]]
    assert after[k:] == before[k:]
    assert (g.stock_count, g.deals_left, g.score, g.move_count) == (0, 0, s0 - 1, m0 + 1)
    with unchanged(g), pytest.raises(IllegalMoveError, match="the stock is empty"):
        g.deal()
    assert DEAL not in g.legal_moves()


def test_a_deal_puts_one_card_on_each_column_left_to_right(vs):
    v, s = vs
    n = RULES[v].columns
    first = ["5H", "9C", "2D", "JS", "3H", "8C", "QD", "4S", "6H", "TC"][:n]
    g = game(v, filled(v, {}), stock=first, stock_size=RULES[v].stock_size, suits=s)
    assert g.to_dict()["stock"][:n] == s_(first, s)
    g.deal()
    assert [c[-1] for c in tableau(g)] == s_(first, s)
    assert all(not c.startswith("|") for col in tableau(g) for c in col[-2:])
    assert g.stock_count == RULES[v].stock_size - n
    assert g.deals_left == len(RULES[v].deal_sizes()) - 1


# ---------------------------------------------------------------------------------------- flips, runs
def test_uncovered_face_down_card_turns_up_and_is_not_a_move(vs):
    v, s = vs
    g = game(v, [["|5H", "9S"], ["TS"], ["*"]], suits=s)   # (9S onto TS: any build allows it)
    m0, s0 = g.move_count, g.score  # an empty stock: the position counts the deals made as moves
    assert (m0, s0) == (len(RULES[v].deal_sizes()), 500 - m0)
    g.move(0, 1)
    assert tableau(g)[0] == [suited("5H", s)]
    assert (g.move_count, g.score, len(g.history)) == (m0 + 1, s0 - 1, 1)
    g.undo()
    assert tableau(g)[0] == s_(["|5H", "9S"], s)
    assert (g.move_count, g.score) == (m0, s0)


def test_complete_run_leaves_after_a_move(vs):
    v, s = vs
    g = game(v, [["*", "AS"], ["|5H", *run("S", 13, 2)]], suits=s)
    start, m0, s0 = g.to_dict(), g.move_count, g.score
    g.move(0, 1)
    d = g.to_dict()
    assert d["foundations"] == [s_(run("S"), s)]
    assert d["tableau"][1] == [suited("5H", s)]  # the card below turned up
    assert (g.runs_completed, g.score, g.move_count) == (1, s0 + 99, m0 + 1)
    assert g.undo() == Move("move", 0, 1, 1)
    assert g.to_dict() == start
    assert (g.runs_completed, g.score, g.move_count) == (0, s0, m0)


def test_complete_run_leaves_after_a_deal(vs):
    v, s = vs
    rules = RULES[v]
    g = game(v, filled(v, {0: ["*", *run("S", 13, 2)]}), stock=["AS"], stock_size=rules.stock_sizes()[0],
             suits=s)
    start = g.to_dict()
    g.deal()
    assert g.to_dict()["foundations"] == [s_(run("S"), s)]
    assert not tableau(g)[0][-1].startswith("|")
    assert (g.runs_completed, g.score, g.move_count) == (1, 599, 1)
    g.undo()
    assert g.to_dict() == start


def test_several_runs_leave_in_one_deal(vs):
    v, s = vs
    rules = RULES[v]
    cols = filled(v, {0: ["*", *run("S", 13, 2)], 1: run("H", 13, 2), 2: ["|7C", *run("D", 13, 2)]})
    g = game(v, cols, stock=["AS", "AH", "AD"], stock_size=rules.stock_sizes()[-2], suits=s)
    start, m0, s0 = g.to_dict(), g.move_count, g.score
    g.deal()
    d = g.to_dict()
    assert d["foundations"] == [s_(run("S"), s), s_(run("H"), s), s_(run("D"), s)]
    assert d["tableau"][1] == [] and d["tableau"][2] == [suited("7C", s)]
    assert (g.runs_completed, g.score, g.move_count) == (3, s0 - 1 + 300, m0 + 1)
    g.undo()
    assert g.to_dict() == start and g.score == s0


def test_red_black_run_is_one_colour():
    black = ["KS", "QC", "JS", "TC", "9S", "8C", "7S", "6C", "5S", "4C", "3S", "2C"]
    g = game("red_black_spiderette", [["*", "AS"], black])
    g.move(0, 1)
    assert g.to_dict()["foundations"] == [black + ["AS"]] and g.runs_completed == 1
    # in spiderette the same cards are no run: they stay, and the ace alone was the group
    g = game("spiderette", [["*", "AS"], black])
    g.move(0, 1)
    assert g.runs_completed == 0 and tableau(g)[1][-1] == "AS"
    # mixed colours are no run in red-black either
    mixed = ["KS", "QH", *black[2:]]
    g = game("red_black_spiderette", [["*", "AS"], mixed])
    g.move(0, 1)
    assert g.runs_completed == 0 and g.movable(1) == 11


def test_manual_sending(vs):
    v, s = vs
    g = game(v, [["*", "AS"], ["|5H", *run("S", 13, 2)]], suits=s, auto_remove=False)
    m0, s0 = g.move_count, g.score
    g.move(0, 1)
    assert g.runs_completed == 0 and len(tableau(g)[1]) == 14  # the run stays
    assert g.score == s0 - 1
    sends = [m for m in g.legal_moves() if m.kind == "send"]
    assert sends == [Move("send", 1)] == [Move.parse("sb")]
    assert g.notation(sends[0]) == "sb"
    assert g.send(1) == Move("send", 1)
    assert tableau(g)[1] == [suited("5H", s)]
    # -1 for the send, +100 for the run
    assert (g.runs_completed, g.score, g.move_count) == (1, s0 + 98, m0 + 2)
    g.undo()
    assert (g.runs_completed, g.score, g.move_count, len(tableau(g)[1])) == (0, s0 - 1, m0 + 1, 14)
    g.play("sb")
    assert g.runs_completed == 1
    with pytest.raises(IllegalMoveError, match="column b does not end in a complete king-to-ace run"):
        g.send(1)


def test_manual_mode_keeps_runs_made_by_a_deal(vs):
    v, s = vs
    g = game(v, filled(v, {0: ["*", *run("S", 13, 2)]}), stock=["AS"], stock_size=RULES[v].stock_sizes()[0],
             suits=s, auto_remove=False)
    g.deal()
    assert g.runs_completed == 0 and Move("send", 0) in g.legal_moves()


def test_send_is_refused_when_runs_leave_on_their_own():
    g = game("spiderette", [["*", "AS"], ["|5H", *run("S", 13, 2)]])
    with unchanged(g), pytest.raises(IllegalMoveError, match="leave on their own"):
        g.send(1)
    assert not [m for m in g.legal_moves() if m.kind == "send"]


# ---------------------------------------------------------------------------------------- scoring
def test_standard_scoring_and_undo_restore_it_exactly(vs):
    v, s = vs
    g = game(v, filled(v, {0: ["*", "9H"], 1: ["TH"], 2: ["|4D", "AS"], 3: ["|3C", *run("S", 13, 2)]}),
             stock_size=RULES[v].stock_sizes()[0], suits=s)
    assert (g.score, g.move_count) == (500, 0)
    g.move(0, 1)
    assert (g.score, g.move_count) == (499, 1)
    g.move(2, 3)
    assert (g.score, g.move_count, g.runs_completed) == (598, 2, 1)
    snap = g.to_dict()
    assert snap["score"] == 598 and snap["moves"] == 2
    g.deal()
    assert (g.score, g.move_count) == (597, 3)
    g.undo()
    assert g.to_dict() == snap and (g.score, g.move_count) == (598, 2)
    g.redo()
    assert (g.score, g.move_count, g.runs_completed) == (597, 3, 1)
    for _ in range(3):
        g.undo()
    assert (g.score, g.move_count, g.runs_completed) == (500, 0, 0)
    assert g.undo() is None
    assert g.redo() == Move("move", 0, 1, 1) and (g.score, g.move_count) == (499, 1)


def test_pair_scoring():
    g = game("spiderette", [["|TH", "9H", "8H", "7S", "6S"], ["*", "5D"], ["5S"]], foundations=["C"],
             scoring="pairs")
    # 8H on 9H and 6S on 7S; 9H lies on a face-down card; plus 12 for the run
    assert g.score == g.pair_score() == 2 + 12
    assert g.to_dict()["score"] == 14
    m0 = g.move_count
    g.move(2, 0)
    assert g.score == 15 and g.move_count == m0 + 1
    g.undo()
    assert g.score == 14
    g.move(1, 0)  # 5D on 6S: another suit, no point
    assert g.score == 14


@pytest.mark.parametrize("variant,suits", VARIANT_SUITS, ids=VS_IDS)
def test_pair_score_reaches_its_maximum_on_a_win(variant, suits):
    g = game(variant, [run("D", 13, 2), ["AD"]], foundations=all_but_one_run(variant), suits=suits,
             scoring="pairs")
    total = RULES[variant].cards // 13
    assert g.score == 12 * (total - 1) + 11
    g.move(1, 0)
    assert g.status == "won" and g.score == 12 * total
    if one_deck(variant):
        assert g.score == 48


# ---------------------------------------------------------------------------------------- end of game
def test_win(vs):
    v, s = vs
    g = game(v, [run("D", 13, 2), ["AD"]], foundations=all_but_one_run(v), suits=s)
    score = g.score
    assert g.status == "playing" and not g.is_won
    g.move(1, 0)
    assert g.status == "won" and g.is_won
    assert g.runs_completed == g.runs_total == RULES[v].cards // 13
    assert g.score == score + 99
    assert g.legal_moves() == []
    g.undo()
    assert g.status == "playing" and not g.is_won and g.score == score


#: The variants of seven columns and one deck, or ten and two, the shapes of the lost positions below.
LOST_SHAPES = [(v, s) for v, s in VARIANT_SUITS if RULES[v].columns == (7 if one_deck(v) else 10)]


@pytest.mark.parametrize("v,s", LOST_SHAPES, ids=[f"{v}-{s}" for v, s in LOST_SHAPES])
def test_lost_when_no_legal_action(v, s):
    if one_deck(v):
        cols = [["AD"], ["|2D", "3D"], ["|4D", "5D"], ["|6D", "7D"], ["|8D", "9D"], ["|TD", "JD"],
                ["|QD", "KD"]]
        found = ["S", "H", "C"]
    else:
        cols = [["|2D", "|JD", "AD"], ["|2D", "|JD", "AD"], ["|4D", "|QD", "3D"], ["|4D", "|QD", "3D"],
                ["|6D", "|KD", "5D"], ["|6D", "|KD", "5D"], ["|8D", "7D"], ["|8D", "7D"], ["|TD", "9D"],
                ["|TD", "9D"]]
        found = ["S", "S", "H", "H", "C", "C"]
    g = game(v, cols, foundations=found, suits=s)
    assert g.legal_moves() == []
    assert g.status == "lost" and not g.is_won


#: A dead end needs a stock left and no deal on a gap; the position below leaves 10 cards for the stock.
DEAD_ENDS = [(v, s) for v, s in NO_DEAL_ON_GAP if 10 in RULES[v].stock_sizes()]


@pytest.mark.parametrize("variant,suits", DEAD_ENDS, ids=[f"{v}-{s}" for v, s in DEAD_ENDS])
def test_dead_end(variant, suits):
    g = game(variant, [["KD", "QD", "JD"]], foundations=all_but_one_run(variant), suits=suits)
    assert g.stock_count == 10
    assert g.status == "dead_end"
    assert DEAL not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="no deal while column b is empty"):
        g.deal()


def test_no_dead_end_in_red_black():
    g = game("red_black_spiderette", [["KD", "QD", "JD"]], foundations=["S", "H", "C"])
    assert g.status == "playing"
    g.deal()
    assert g.stock_count == 3


def test_an_empty_column_with_enough_cards_is_no_dead_end():
    # ten cards for seven columns: the gaps can be filled, so a deal is still possible later
    g = game("spiderette", [["|KD", "QD"], ["JD"], ["|TD", "9D"], ["8D"], ["7D"], ["|6D", "|4D", "5D"], []],
             foundations=["S", "H", "C"])
    assert g.stock_count == 3 and g.status == "playing"
    assert DEAL not in g.legal_moves()


# ---------------------------------------------------------------------------------------- click to move
OTHERS = [["KC"], ["QC"], ["TC"]]


def test_click_goes_to_same_suit_then_other_suit_then_empty_column():
    g = game("spiderette", [["*", "5H"], ["6S"], ["6H"], [], *OTHERS])
    assert click_move(g, 0) == Move("move", 0, 2, 1)
    g = game("spiderette", [["*", "5H"], ["6S"], ["9C"], [], *OTHERS])
    assert click_move(g, 0) == Move("move", 0, 1, 1)
    g = game("spiderette", [["*", "5H"], ["8S"], ["9C"], [], *OTHERS])
    assert click_move(g, 0) == Move("move", 0, 3, 1)
    g = game("spiderette", [["*", "5H"], ["8S"], ["9C"], ["2D"], *OTHERS])
    with unchanged(g), pytest.raises(IllegalMoveError, match="5H has nowhere to go"):
        click_move(g, 0)


def test_click_prefers_same_suit_for_the_longest_group():
    g = game("spiderette", [["*", "6H", "5H"], ["6S"], ["7H"], [], *OTHERS])
    assert click_move(g, 0) == Move("move", 0, 2, 2)
    assert click_move(g, 0, 1) == Move("move", 0, 1, 1)
    g = game("spiderette", [["*", "6S", "5H"], ["6C"], ["6H"], *OTHERS, ["9D"]])
    assert click_move(g, 0) == Move("move", 0, 2, 1)
    g = game("spider", [["*", "5H"], ["KC"], ["KC"], ["QC"], ["6S"], ["QC"], ["6H"], ["TC"], ["6H"], []])
    assert click_move(g, 0) == Move("move", 0, 6, 1)  # same suit, leftmost


def test_click_never_moves_a_whole_column_to_an_empty_one():
    g = game("spiderette", [["5H"], ["8S"], ["9C"], [], ["KC"], ["QC"], ["*"]])
    with pytest.raises(IllegalMoveError, match="5H has nowhere to go"):
        click_move(g, 0)


def test_click_move_bad_input():
    g = game("spiderette", [["*", "6S", "5H"], ["6H"], ["KC"], [], ["QC"], ["TC"], ["9D"]])
    for src, count, msg in ((9, None, "does not exist"), (-1, None, "does not exist"),
                            (0, 2, "6S-5H is not one suit"), (0, 0, "count"), (0, -1, "count"),
                            (0, 30, "only 2 face-up cards"), ("a", None, "does not exist")):
        with unchanged(g), pytest.raises(IllegalMoveError, match=msg):
            click_move(g, src, count)
    assert click_move(g, 4) == Move("move", 4, 2, 1)  # QC onto KC: a good click still works
    g2 = game("spiderette", [["*", "5H"], []])
    with pytest.raises(IllegalMoveError, match="column b is empty"):
        click_move(g2, 1)


def test_build_helper_uses_the_exact_deck():
    # the helper itself: every (variant, suits) yields a position the engine accepts
    for v, s in VARIANT_SUITS:
        d = build(v, [["*", "5H"]], suits=s)
        assert Game.from_dict(d).to_dict()["tableau"][0][-1] == suited("5H", s)
