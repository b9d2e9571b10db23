"""Property tests: random deals and random legal walks in every variant, checked against an independent
statement of the rules (``oracle_moves``) and against the invariants a player relies on."""

from __future__ import annotations

import os
import tempfile
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from spiderette_testkit import VARIANT_SUITS, run

from spiderette import Game, IllegalMoveError, InvalidPositionError, Move
from spiderette.engine.cards import card_code, make_deck
from spiderette.engine.variants import RULES

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RANKS = "A23456789TJQK"
RED = "HD"

seeds = st.integers(min_value=0, max_value=2**64 - 1)
variant_suits = st.sampled_from(VARIANT_SUITS)


# ---------------------------------------------------------------------------------------- an oracle
def _rank(code: str) -> int:
    return RANKS.index(code[0]) + 1


def _links(below: str, above: str, colour: bool) -> bool:
    if _rank(below) != _rank(above) + 1:
        return False
    if colour:
        return (below[1] in RED) == (above[1] in RED)
    return below[1] == above[1]


def _group(col: list[str], colour: bool) -> int:
    """How many top cards of a column (as in to_dict) move together."""
    if not col:
        return 0
    k = 1
    while k < len(col) and not col[-k - 1].startswith("|") and _links(col[-k - 1], col[-k], colour):
        k += 1
    return k


def oracle_moves(d: dict) -> set[Move]:
    """Every legal action, from RULES.md, computed from the position data alone."""
    rules = RULES[d["variant"]]
    colour = rules.group == "colour"
    t = d["tableau"]
    n = len(t)
    out: set[Move] = set()
    for s in range(n):
        for k in range(1, _group(t[s], colour) + 1):
            bottom = t[s][-k]
            for dst in range(n):
                if dst == s:
                    continue
                if not t[dst] or (_rank(bottom) != 13 and _rank(t[dst][-1]) == _rank(bottom) + 1):
                    out.add(Move("move", s, dst, k))
    if d["stock"] and (rules.deal_with_empty or all(t)):
        out.add(Move("deal"))
    if not d["auto_remove"]:
        for s in range(n):
            if _group(t[s], colour) >= 13 and _rank(t[s][-1]) == 1:
                out.add(Move("send", s))
    return out


# ---------------------------------------------------------------------------------------- invariants
def check(g: Game) -> None:
    d = g.to_dict()
    rules = RULES[g.variant]
    deck = Counter(card_code(c) for c in make_deck(rules.decks, g.suits))
    cards = Counter(c.lstrip("|") for col in d["tableau"] for c in col)
    cards.update(d["stock"])
    cards.update(c for r in d["foundations"] for c in r)
    assert cards == deck  # the card multiset never changes
    for col in d["tableau"]:
        down = [c.startswith("|") for c in col]
        assert down == sorted(down, reverse=True)  # no face-down card above a face-up one
        assert not col or not down[-1]  # the top card is face up
    assert len(d["stock"]) in rules.stock_sizes()
    assert g.stock_count == len(d["stock"]) and g.deals_left == -(-len(d["stock"]) // rules.columns)
    assert g.runs_completed == len(d["foundations"])
    if g.scoring == "standard":
        assert d["score"] == g.score == 500 - d["moves"] + 100 * len(d["foundations"])
    else:
        assert 0 <= g.score <= 12 * g.runs_total
    assert g.move_count == d["moves"] == len(g.history) + g._start[4]
    legal = g.legal_moves()
    assert len(set(legal)) == len(legal)
    assert set(legal) == oracle_moves(d)
    for i, col in enumerate(d["tableau"]):
        assert g.movable(i) == _group(col, rules.group == "colour")
    for m in legal:
        assert g.why_illegal(m) is None
        assert Move.parse(str(m)) == m
        assert g.parse_move(g.notation(m)) == m
    for m in legal[:: max(1, len(legal) // 5)]:  # listed moves apply (a spread of them: it is slow)
        c = g.copy()
        c.apply(m)
        assert c.move_count == g.move_count + 1
        assert c.undo() == m and c.to_dict() == d
    status = g.status
    assert g.is_won == (status == "won")
    if status == "playing":
        assert legal
    if status == "lost":
        assert not legal
    if status == "dead_end":
        assert not rules.deal_with_empty and d["stock"] and sum(map(len, d["tableau"])) < rules.columns
    # both serialisations read back to the same position
    assert Game.from_dict(d).to_dict() == d
    assert Game.from_position(g.position()).to_dict() == d


def building(g: Game, legal: list[Move]) -> list[Move]:
    """The sends, and the moves that put a group on a card it links with (what a player tries first)."""
    t = g.to_dict()["tableau"]
    colour = g.rules.group == "colour"
    return [m for m in legal if m.kind == "send" or m.kind == "move" and t[m.dst]
            and _links(t[m.dst][-1], t[m.src][-m.count], colour)]


def walk(g: Game, data, max_steps: int, min_steps: int = 0, greedy: bool | None = None) -> list[dict]:
    """Play random legal moves, checking as we go; sometimes undo and redo on the way.

    Half of the walks prefer building moves, so that runs get finished and sent now and then.
    """
    positions = [g.to_dict()]
    check(g)
    if greedy is None:
        greedy = data.draw(st.booleans(), label="greedy")
    for _ in range(data.draw(st.integers(min_steps, max_steps), label="steps")):
        legal = g.legal_moves()
        if not legal:
            break
        m = data.draw(st.sampled_from((greedy and building(g, legal)) or legal), label="move")
        g.apply(m)
        assert g.history[-1] == m
        if data.draw(st.integers(0, 4), label="undo-redo") == 0:
            after = g.to_dict()
            assert g.undo() == m and g.to_dict() == positions[-1]
            assert g.redo() == m and g.to_dict() == after
        positions.append(g.to_dict())
        check(g)
    return positions


def unwind(g: Game, positions: list[dict]) -> None:
    """Undo everything back to the start, then redo everything."""
    for p in reversed(positions[:-1]):
        assert g.undo() is not None
        assert g.to_dict() == p
    assert g.undo() is None
    for p in positions[1:]:
        assert g.redo() is not None
        assert g.to_dict() == p
    assert g.redo() is None


# ---------------------------------------------------------------------------------------- random deals
@SETTINGS
@given(vs=variant_suits, seed=seeds, auto=st.booleans(), pairs=st.booleans(), data=st.data())
def test_random_walks_from_random_deals(vs, seed, auto, pairs, data):
    v, s = vs
    g = Game(v, seed=seed, suits=s, auto_remove=auto, scoring="pairs" if pairs else "standard")
    positions = walk(g, data, 40)
    unwind(g, positions)
    # replaying the history of the game from the deal gives the same position
    h = Game(v, seed=seed, suits=s, auto_remove=auto, scoring="pairs" if pairs else "standard")
    h.play(g.history)
    assert h.to_dict() == g.to_dict()


def _holds_a_run(col: list[str]) -> bool:
    """Does the column hold a whole king-to-ace run of one suit anywhere, face down or not?"""
    cards = [c.lstrip("|") for c in col]
    return any(cards[i:i + 13] == [r + cards[i][1] for r in "KQJT98765432A"] for i in range(len(cards) - 12))


@st.composite
def endgames(draw):
    """A position late in a game: some runs on the foundations, the rest cut into pieces in the tableau."""
    v, s = draw(variant_suits)
    rules = RULES[v]
    suits = {4: "SHDC", 2: "SH", 1: "S"}[s]
    runs = [run(x) for _ in range(rules.decks * 4 // s) for x in suits]
    runs = draw(st.permutations(runs))
    done = draw(st.integers(0, len(runs) - 1))
    pieces = []
    for r in runs[done:]:
        cuts = sorted(draw(st.sets(st.integers(1, 12), min_size=1, max_size=2)))
        pieces += [r[a:b] for a, b in zip([0, *cuts], [*cuts, 13])]
    pieces = draw(st.permutations(pieces))
    n = rules.columns
    cols = [[] for _ in range(n)]
    for p in pieces:
        cols[draw(st.integers(0, n - 1))].extend(p)
    for col in cols:
        down = draw(st.integers(0, min(2, max(0, len(col) - 1))))
        col[:down] = ["|" + c for c in col[:down]]
    sizes = [x for x in rules.stock_sizes() if x <= sum(map(len, cols)) - n] or [0]
    size = draw(st.sampled_from(sizes))
    stock = []
    # the stock comes from the bottom (face-down end) of the fullest columns
    while len(stock) < size:
        i = max(range(n), key=lambda j: len(cols[j]))
        stock.append(cols[i].pop(0).lstrip("|"))
    auto = draw(st.booleans())
    # With runs leaving on their own, real play never buries a complete run under other cards (nothing goes
    # onto an ace): moving the cards above it would expose a run that should have left.
    assume(not auto or not any(_holds_a_run(col) for col in cols))
    data = {"variant": v, "suits": s, "tableau": cols, "stock": stock, "foundations": runs[:done],
            "auto_remove": auto, "scoring": draw(st.sampled_from(["standard", "pairs"]))}
    try:
        return Game.from_dict(data)
    except InvalidPositionError as e:
        assume("ends in a complete run" not in str(e))
        raise


@settings(SETTINGS, max_examples=80)
@given(g=endgames(), data=st.data())
def test_random_walks_from_endgames(g, data):
    positions = walk(g, data, 60, 20, greedy=data.draw(st.integers(0, 3), label="greedy") > 0)
    unwind(g, positions)


# ---------------------------------------------------------------------------------------- illegal moves
@SETTINGS
@given(vs=variant_suits, seed=seeds, data=st.data())
def test_illegal_moves_raise_and_change_nothing(vs, seed, data):
    v, s = vs
    g = Game(v, seed=seed, suits=s, auto_remove=data.draw(st.booleans()))
    walk(g, data, 15)
    legal = set(g.legal_moves())
    n = g.columns
    for _ in range(10):
        kind = data.draw(st.sampled_from(["move", "move", "move", "deal", "send"]))
        if kind == "move":
            src = data.draw(st.integers(0, 9))
            dst = data.draw(st.integers(0, 8))
            dst += dst >= src
            count = data.draw(st.none() | st.integers(1, 14))
            m = Move("move", src, dst, count)
        elif kind == "deal":
            m = Move("deal")
        else:
            m = Move("send", data.draw(st.integers(0, 9)))
        before = (g.to_dict(), g.history, g.can_redo)
        if m.count is None and m.kind == "move":
            try:
                resolved = g.resolve(m)
            except IllegalMoveError:
                resolved = None
            if resolved is not None:
                assert resolved in legal
                continue
        elif m in legal:
            assert m.kind != "move" or (m.src < n and m.dst < n)
            continue
        try:
            g.apply(m)
        except IllegalMoveError as e:
            assert str(e)
        else:
            raise AssertionError(f"{m} is not in legal_moves() but apply took it")
        assert (g.to_dict(), g.history, g.can_redo) == before
        if m.count is not None or m.kind != "move":
            assert g.why_illegal(m)  # and the game can say why
    # the complete check: every concrete move is legal exactly when legal_moves() lists it
    for src in range(n):
        for dst in range(n):
            if src != dst:
                for k in range(1, 14):
                    m = Move("move", src, dst, k)
                    assert (g.why_illegal(m) is None) == (m in legal)


@SETTINGS
@given(vs=variant_suits, seed=seeds, data=st.data())
def test_bad_notation_changes_nothing(vs, seed, data):
    v, s = vs
    g = Game(v, seed=seed, suits=s)
    walk(g, data, 5)
    text = data.draw(st.text(alphabet="abcdefghijkds0123456789 ,-xz", max_size=12))
    before = (g.to_dict(), g.history)
    try:
        g.play(text)
    except ValueError:
        assert (g.to_dict(), g.history) == before
    else:
        assert len(g.history) == len(before[1]) + len(text.replace(",", " ").split())


# ---------------------------------------------------------------------------------------- save files
@settings(max_examples=25, deadline=None)
@given(vs=variant_suits, seed=seeds, data=st.data())
def test_save_and_load_round_trip(vs, seed, data):
    v, s = vs
    g = Game(v, seed=seed, suits=s, auto_remove=data.draw(st.booleans()))
    walk(g, data, 25)
    for _ in range(data.draw(st.integers(0, 3))):
        g.undo()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "g.json")
        g.save(path)
        assert os.listdir(tmp) == ["g.json"]
        h = Game.load(path)
    assert h.to_dict() == g.to_dict() and h.history == g.history
    while g.can_redo:
        assert h.redo() == g.redo()
    assert not h.can_redo and h.to_dict() == g.to_dict()
