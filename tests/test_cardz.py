"""Cardz design files: the seed's Spiderette file plays as the built-in Spiderette, every built-in variant is
written and read back, a home-made design plays by its own rules, and a bad file is refused with what is
wrong, changing nothing."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from spiderette_testkit import build, game, oversized, run

from spiderette import RULES, DesignError, Game, GreedyStrategy, PlannerStrategy, from_cardz, simulate, solve, to_cardz
from spiderette.engine.deals import shuffled_deck
from spiderette.engine.errors import IllegalMoveError
from spiderette.engine.variants import BUILT_IN
from spiderette.notebook.view import click_move

#: The seed's Spiderette page (its rules and design file), copied into the repository so the test runs in any clone;
#: the development checkout also holds the original beside the repository.
SEED_PAGE = Path(__file__).resolve().parent / "data" / "seed-spiderette-page.txt"
ORIGINAL_PAGE = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "000_0480adf4861791d1.txt"
SHIPPED = Path(__file__).resolve().parents[1] / "src" / "spiderette" / "engine" / "spiderette.cardz"


def seed_design() -> dict:
    """The design file of the seed's Spiderette page (the copy shipped beside the engine is the same)."""
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def with_build(build: dict | None = None, unit: dict | None = None) -> list:
    """The seed's depots, its tableau building by ``build`` and giving up ``unit`` where given."""
    depots = seed_design()["depots"]
    if build is not None:
        depots[2]["acceptRule"] = {"build": build}
    if unit is not None:
        depots[2]["ejectRule"]["unit"] = unit
    return depots


@pytest.fixture(autouse=True)
def forget_designs():
    """Each test starts with the built-in variants only (a design read joins RULES)."""
    yield
    for name in [n for n in RULES if n not in BUILT_IN]:
        del RULES[name]


def test_the_shipped_file_is_the_seed_pages_own():
    page = SEED_PAGE.read_text(encoding="utf-8")
    text = page[page.index("{\n"):page.index("\n}\n") + 2]
    assert json.loads(text) == seed_design()
    if ORIGINAL_PAGE.exists():   # (the development checkout: the copy is the original's)
        assert ORIGINAL_PAGE.read_text(encoding="utf-8") == page


def test_the_seeds_file_reads_to_the_built_in_spiderette():
    rules = from_cardz(SHIPPED)
    assert rules is RULES["spiderette"] and from_cardz(SHIPPED.read_text(encoding="utf-8")) is rules
    assert from_cardz(seed_design()) is rules
    g = Game(variant=rules, seed=7)
    assert g.position() == Game(seed=7).position() and g.variant == "spiderette"


def test_a_copy_of_the_seeds_design_plays_exactly_as_spiderette_on_1000_random_games():
    design = {**seed_design(), "name": "Spiderette Copy"}
    rules = from_cardz(design)
    assert rules.name == "spiderette_copy" and rules is not RULES["spiderette"]
    rng = random.Random(31)
    for n in range(1000):
        seed, suits = rng.randrange(1, 10**9), rng.choice((4, 2, 1))
        mine, built_in = Game(variant=rules, seed=seed, suits=suits), Game(seed=seed, suits=suits)
        for _ in range(rng.randint(1, 40)):
            legal = built_in.legal_moves()
            assert mine.legal_moves() == legal
            table = mine.position().partition(":")[2]   # (the position names its variant first)
            assert (table, mine.score, mine.status) == (built_in.position().partition(":")[2], built_in.score,
                                                        built_in.status), (n, seed)
            if not legal:
                break
            m = rng.choice(legal)
            mine.apply(m)
            built_in.apply(m)


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_variant_is_written_and_read_back(name):
    text = RULES[name].to_cardz()
    assert text == to_cardz(name) and json.loads(text)["name"] == RULES[name].title
    assert from_cardz(text) is RULES[name]
    # read as a design of another name, the same rules
    other = from_cardz({**json.loads(text), "name": f"My {RULES[name].title}"})
    assert [getattr(other, f) for f in ("decks", "layout", "face_up", "deal_with_empty", "group", "suit_options",
                                        "start_score", "run_bonus", "auto_send")] == \
        [getattr(RULES[name], f) for f in ("decks", "layout", "face_up", "deal_with_empty", "group", "suit_options",
                                           "start_score", "run_bonus", "auto_send")]
    assert Game(variant=other, seed=3).position().partition(":")[2] == Game(name, seed=3).position().partition(":")[2]


def eight_columns(**changes) -> dict:
    """A home-made design: eight tableaus of 1 to 8 cards (36), a stock of 16 (two deals of eight), runs of
    one colour, dealt at any time, sent by hand, scored from 1000 with 50 a run."""
    d = seed_design()
    d["name"] = "Eight"
    tab = d["depots"][2]
    tab["repeat"] = 8
    tab["ejectRule"]["unit"] = {"kind": "Run", "build": {"direction": "Down"}, "color": "Same"}
    del tab["autoSend"]
    names = [f"tab-{i}" for i in range(1, 9)]
    d["dealRules"] = [rule for row in range(8) for rule in (
        {"kind": "dealGroup", "to": names[row], "faceUp": 1},
        *([{"kind": "dealGroup", "to": names[row + 1:], "faceDown": 1, "roundRobin": True}] if row < 7 else []))]
    del d["redealWhen"]
    d["scoring"] = {"value": "1000 - moves + 50 * count(Foundation, !empty(it))"}
    d.update(changes)
    return d


def on_eight(name: str, columns: list) -> dict:
    """A hand-built table of an eight-column design: the columns given, then empty ones, the rest of the deck
    face down in the last column (its top card up) and a full stock of 16."""
    return build(name, [*columns, *[[]] * (7 - len(columns)), ["*"]], stock_size=16)


def test_a_home_made_design_plays_by_its_own_rules():
    rules = from_cardz(eight_columns())
    assert (rules.name, rules.columns, rules.layout, rules.stock_size, rules.deal_sizes()) == \
        ("eight", 8, (1, 2, 3, 4, 5, 6, 7, 8), 16, (8, 8))
    g = Game(variant="eight", seed=5)
    assert g.columns == 8 and g.deals_left == 2 and g.score == 1000 and not g.auto_remove
    assert [g.face_down(i) for i in range(8)] == list(range(8))
    # dealt row by row: the first card of the deck on column a, the second on b, ...
    deck = shuffled_deck(5)
    assert [g.column(i)[0] for i in range(8)] == deck[:8]
    g.play("d")
    assert g.score == 999 and g.deals_left == 1 and g.to_dict()["variant"] == "eight"
    assert Game.from_dict(g.to_dict()).position() == g.position()
    # runs go by colour: a red run of mixed hearts and diamonds is a group, and it completes
    run_red = ["KH", "QD", "JH", "TD", "9H", "8D", "7H", "6D", "5H", "4D", "3H", "2D"]
    h = Game.from_dict(on_eight("eight", [["|5C", *run_red], ["AH"], ["KS"], ["|2S", "QC"]]))
    assert h.why_illegal(h.parse_move("ae12")) is None   # the twelve red cards move as one group
    h.play("ba")
    assert h.runs_completed == 0 and h.sendable() == [0]   # sent by hand: the design has no autoSend
    h.play("sa")
    assert h.runs_completed == 1 and h.score == 1000 - h.move_count + 50


def test_a_design_deals_with_an_empty_column_only_when_it_says_so():
    spider_like = from_cardz(eight_columns(name="Eight Strict", redealWhen={"kind": "depotsNonEmpty",
                                                                            "depots": "Tableau"}))
    loose = from_cardz(eight_columns())
    for rules, allowed in ((loose, True), (spider_like, False)):
        g = Game.from_dict(on_eight(rules.name, [["KS"], [], ["|2S", "QC"]]))
        assert g.can_deal() is allowed


def test_a_design_dealt_in_its_own_order():
    d = eight_columns(name="Columns First")
    # column by column: all of tab-1, then all of tab-2, ..., face down but the last of each
    d["dealRules"] = [rule for i in range(8) for rule in (
        *([{"kind": "dealGroup", "to": f"tab-{i + 1}", "faceDown": i}] if i else []),
        {"kind": "dealGroup", "to": f"tab-{i + 1}", "faceUp": 1})]
    rules = from_cardz(d)
    assert rules.layout == (1, 2, 3, 4, 5, 6, 7, 8) and rules.deal_order == tuple(c for c in range(8)
                                                                                 for _ in range(c + 1))
    g = Game(variant=rules, seed=9)
    deck = shuffled_deck(9)
    assert [list(g.column(i)) for i in (0, 1, 7)] == [deck[:1], deck[1:3], deck[28:36]]
    assert from_cardz(rules.to_cardz()) is rules   # written back as its own order


def test_the_players_play_a_design():
    rules = from_cardz(eight_columns(name="Eight Players"))
    res = simulate(GreedyStrategy(), deals=range(1, 4), variant=rules.name, progress=False)
    assert len(res.rows) == 3 and res.variant == "eight_players"
    g = Game(variant=rules, seed=2)
    m = PlannerStrategy(budget=300)(g)
    assert m in g.legal_moves()
    assert solve(g, node_limit=2000).result in ("win", "loss", "unknown")


def test_a_widget_plays_a_design_and_offers_it_in_the_variant_menu():
    pytest.importorskip("anywidget")
    from spiderette import Widget

    rules = from_cardz(eight_columns(name="Eight Widget"))
    w = Widget(variant=rules, seed=4, record=False)
    assert w.game.variant == "eight_widget" and w.view["columns"] == 8 and len(w.view["tableau"]) == 8
    assert {"name": "eight_widget", "title": "Eight Widget", "suits": [4]} in w.variants
    # a design read after the table was made: a new game of it, and the chooser offers it from then on
    plain = Widget(seed=4, record=False)
    later = from_cardz(eight_columns(name="Eight Later"))
    assert "eight_later" not in [v["name"] for v in plain.variants]
    plain.new_game(variant=later, seed=2)
    assert plain.game.variant == "eight_later" and "eight_later" in [v["name"] for v in plain.variants]
    assert plain.view["columns"] == 8


BAD = [
    ("{not json", "not JSON"),
    ("[1, 2]", "a design file is a JSON object"),
    ({"name": "X"}, "'depots' must be a list"),
    ({"name": 7}, "'name' must be a name"),
    ({**seed_design(), "depots": seed_design()["depots"][:2]}, "lacks a Tableau depot"),
    ({**seed_design(), "depots": [*seed_design()["depots"], {"type": "Cell", "name": "cell"}]}, "a free cell"),
    ({**seed_design(), "depots": [*seed_design()["depots"], {"type": "Waste", "name": "w"}]}, "of type 'Waste'"),
    ({**seed_design(), "rotation": 3}, "'rotation' is not part of a design"),
    ({**seed_design(), "winCondition": {"kind": "allCardsIn", "depots": "Tableau"}}, "'winCondition' must be"),
    ({**seed_design(), "scoring": {"value": "500 + moves"}}, "'scoring' must be"),
    ({**seed_design(), "scoring": "500"}, "'scoring' must be"),
    ({**seed_design(), "redealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 2, "roundRobin": True}]},
     "'redealRules' must deal one card"),
    ({**seed_design(), "redealWhen": {"kind": "never"}}, "'redealWhen' can only"),
    ({**seed_design(), "dealRules": "all"}, "'dealRules' must be a list"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab-9", "faceUp": 1}]}, "deals to 'tab-9'"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 10**100}]},
     "card count must be a whole number"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": "1"}]},
     "card count must be a whole number"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 8}]}, "more cards than the deck"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 1, "faceDown": 1}]},
     "either faceUp or faceDown"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 1},
                                     {"kind": "dealGroup", "to": "tab", "faceDown": 1}]}, "face-down card onto"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab-1", "faceUp": 1}]}, "deal nothing to tab-2"),
    ({**seed_design(), "dealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 1},
                                     {"kind": "dealGroup", "to": "tab-1", "faceUp": 1}]}, "the same number face up"),
    ({**seed_design(), "decks": 3}, "'decks' must be a whole number from 1 to 2"),
    ({**seed_design(), "decks": 2}, "but 2 decks make 8 runs"),
    ({**seed_design(), "suits": [3]}, "'suits' must list"),
    ({**seed_design(), "suits": [4, 1], "depots": with_build({"direction": "Down", "color": "Alternate"})},
     "alternate colours cannot hold 1"),
    ({**seed_design(), "name": "Spiderette", "scoring": {"value": "600 - moves + 100 * count(Foundation,"
                                                                  " !empty(it))"}}, "known with other rules"),
]


def with_depot(change):
    d = copy.deepcopy(seed_design())
    change(d["depots"])
    return d


BAD_DEPOTS = [
    (lambda ds: ds[2].update(repeat=10**100), "'repeat' must be a whole number"),
    (lambda ds: ds[2].update(repeat="7"), "'repeat' must be a whole number"),
    (lambda ds: ds[1].update(repeat=3), "must repeat 4 times a deck"),
    (lambda ds: ds[2]["acceptRule"]["build"].update(direction="Up"), "must go down"),
    (lambda ds: ds[2]["acceptRule"]["build"].update(suit="Different"), "in the same suit .* or in alternate"),
    (lambda ds: ds[2]["acceptRule"]["build"].update(color="Same"), "in the same suit .* or in alternate"),
    (lambda ds: ds[2]["acceptRule"].update(seed="King"), "no other rule for a tableau"),
    (lambda ds: ds[2]["ejectRule"].update(unit={"kind": "Card", "count": 2}), "must be one card"),
    (lambda ds: ds[2]["ejectRule"].update(unit={"kind": "Pile"}), "must be one card"),
    (lambda ds: ds[2]["ejectRule"]["unit"].update(suit="Any"), "of one suit"),
    (lambda ds: ds[2].update(autoSend="Waste"), "'autoSend' can only be"),
    (lambda ds: ds[2].update(autoFlipTop=False), "'autoFlipTop' must be true"),
    (lambda ds: ds[2].update(fan="down"), "'fan', which this engine does not read"),
    (lambda ds: ds[1]["acceptRule"].update(minCount=1), "a whole King-to-Ace run"),
    (lambda ds: ds[0].update(ejectRule="free"), "the Stock depot must take nothing"),
    (lambda ds: ds.append(dict(ds[2])), "a second Tableau depot"),
]


@pytest.mark.parametrize(("design", "words"), BAD + [(with_depot(c), w) for c, w in BAD_DEPOTS])
def test_a_bad_design_is_refused_with_what_is_wrong_and_changes_nothing(design, words):
    before = dict(RULES)
    with pytest.raises(DesignError, match=words):
        from_cardz(json.dumps(design) if isinstance(design, dict) else design)
    assert RULES == before


def test_files_that_cannot_be_read(tmp_path):
    with pytest.raises(DesignError, match="cannot read the design file"):
        from_cardz(tmp_path / "missing.cardz")
    (tmp_path / "latin.cardz").write_bytes(b"\xff\xfe{")
    with pytest.raises(DesignError, match="not UTF-8"):
        from_cardz(tmp_path / "latin.cardz")
    with pytest.raises(DesignError, match="a design file holds at most"):
        from_cardz(oversized(tmp_path / "big.cardz", 2_000_000))
    with pytest.raises(TypeError, match="reads a design's JSON text"):
        from_cardz(3)
    with pytest.raises(ValueError, match="unknown variant 'klondike'"):
        to_cardz("klondike")
    assert issubclass(DesignError, ValueError) and run("S")   # (the testkit's run: a sanity check of imports)


def test_statistics_keep_a_design_played_in_another_process(tmp_path):
    from spiderette import stats
    from spiderette.userdata.statistics import record_result

    rules = from_cardz(eight_columns(name="Eight Stats"))
    assert record_result(rules.name, 4, won=False, score=900, moves=100, game_id="g1", folder=tmp_path)
    record_result("spiderette", 4, won=True, score=700, moves=100, game_id="g2", folder=tmp_path)
    del RULES["eight_stats"]   # another process, which has not read the design
    s = stats(folder=tmp_path)
    assert [r["variant"] for r in s.rows] == ["spiderette"]   # the design's row is kept, not shown
    assert "eight_stats:4" in (tmp_path / "stats.json").read_text(encoding="utf-8")
    assert not list(tmp_path.glob("*.damaged*"))


# ---------------------------------------------------------------------- how a tableau builds, what moves as a unit
def design(name: str, build: dict | None = None, unit: dict | None = None, **changes) -> dict:
    """The seed's Spiderette under another name, its tableau building by ``build`` and giving up ``unit``."""
    return {**seed_design(), "name": name, "depots": with_build(build, unit), **changes}


IN_SUIT = {"direction": "Down", "suit": "Same"}
ALTERNATE = {"direction": "Down", "color": "Alternate"}
ONE_CARD = {"kind": "Card"}


def test_a_design_that_builds_in_suit_refuses_another_suit_in_words():
    from spiderette.notebook.wording import refusal

    rules = from_cardz(design("In Suit", IN_SUIT))
    assert (rules.build, rules.group, rules.unit) == ("suit", "suit", None)
    table = [["9H"], ["|2C", "8H"], ["|3C", "8S"], ["*"]]
    g = game(rules.name, table)
    assert g.why_illegal("ba") is None and g.why_illegal("ce") is None   # in suit; any card to an empty column
    r = g.refusal("ca")
    assert r.code == "not-same-suit"
    assert r.reason == "8S cannot go on 9H: a card goes only on a card of its own suit one rank higher"
    with pytest.raises(IllegalMoveError) as e:
        g.apply("ca")
    assert refusal(e.value) == "8♠ cannot go on 9♥: a card goes only on a card of its own suit one rank higher"
    moves = {str(m) for m in g.legal_moves()}
    assert "ba1" in moves and "ca1" not in moves and "ce1" in moves
    assert click_move(g, 2).dst == 4   # 8♠: not onto 9♥, to the first empty column
    assert game("spiderette", table).why_illegal("ca") is None   # the built-in Spiderette builds in any suit


def test_a_design_that_builds_in_alternate_colours_refuses_the_same_colour_in_words():
    rules = from_cardz(design("Alternate", {"direction": "Down", "colour": "Alternate"}))
    assert (rules.build, rules.suit_options) == ("alternate", (4, 2))
    g = game(rules.name, [["9H"], ["|2C", "8S"], ["|3C", "8D"], ["*"]])
    assert g.why_illegal("ba") is None
    r = g.refusal("ca")
    assert r.code == "not-alternate-colour"
    assert r.reason == "8D cannot go on 9H: a card goes only on a card of the other colour one rank higher"
    assert g.refusal("ba2").code == "hidden-card" and g.refusal("cb").code == "does-not-fit"   # (the rest as ever)


def test_a_one_card_design_moves_only_the_top_card_and_still_finishes_runs():
    rules = from_cardz(design("One Card", unit=ONE_CARD))
    assert (rules.group, rules.unit, rules.build, rules.kin) == ("card", 1, "any", "suit")
    g = game(rules.name, [["9H"], ["|2C", "8S", "7S"], ["8D"], ["*"]])
    assert (g.movable(1), g.run_length(1)) == (1, 2)   # a run of two in suit, but one card moves
    assert g.why_illegal("bc1") is None
    r = g.refusal("ba2")
    assert (r.code, r.reason) == ("one-card-at-a-time", "only one card moves at a time in this game (asked for 2 of"
                                                         " column b)")
    assert g.refusal("ba").code == "one-card-at-a-time"   # 8♠-7♠ onto 9♥: two cards
    assert g.resolve("be") == g.parse_move("be1")   # to an empty column: the top card alone
    moves = {str(m) for m in g.legal_moves()}
    assert "bc1" in moves and "be1" in moves and not any(m.endswith("2") for m in moves)
    assert game("spiderette", [["9H"], ["|2C", "8S", "7S"], ["8D"], ["*"]]).why_illegal("ba2") is None
    # a King-to-Ace run in one suit still finishes, one card at a time, and leaves by itself
    h = game(rules.name, [run("S", 13, 2), ["|2C", "AS"], ["*"]])
    assert h.movable(0) == 1 and h.run_length(0) == 12
    h.play("ba")
    assert h.runs_completed == 1 and not h.column(0)
    # or is sent by hand, where the design has no autoSend
    by_hand = design("One Card By Hand", unit=ONE_CARD)
    del by_hand["depots"][2]["autoSend"]
    rules = from_cardz(by_hand)
    h = game(rules.name, [run("S", 13, 2), ["|2C", "AS"], ["*"]])
    h.play("ba")
    assert h.runs_completed == 0 and h.sendable() == [0] and h.movable(0) == 1
    h.play("sa")
    assert h.runs_completed == 1


@pytest.mark.parametrize(("build", "unit", "fields"), [
    (IN_SUIT, None, ("suit", "suit")),
    (ALTERNATE, None, ("alternate", "suit")),
    (None, ONE_CARD, ("any", "card")),
    (IN_SUIT, ONE_CARD, ("suit", "card")),
    (ALTERNATE, {"kind": "Run", "build": {"direction": "Down"}, "color": "Same"}, ("alternate", "colour")),
])
def test_a_design_that_builds_or_moves_otherwise_is_written_and_read_back(build, unit, fields):
    rules = from_cardz(design("Other Build", build, unit))
    assert (rules.build, rules.group) == fields
    text = rules.to_cardz()
    assert from_cardz(text) is rules
    tab = json.loads(text)["depots"][2]
    assert tab["acceptRule"] == {"build": build or {"direction": "Down"}}
    if unit is not None:
        assert tab["ejectRule"]["unit"] == unit


def test_a_build_of_any_suit_written_out_is_read_as_it():
    rules = from_cardz(design("Any Suit", {"direction": "Down", "suit": "Any"}))
    assert rules.build == "any" and rules == replace(RULES["spiderette"], name="any_suit", title="Any Suit")


def test_the_built_in_variants_build_in_any_suit_and_move_runs():
    assert all((r.build, r.unit) == ("any", None) for r in map(RULES.get, BUILT_IN))
    assert {r.group for r in map(RULES.get, BUILT_IN)} == {"suit", "colour"}
    with pytest.raises(ValueError, match="build must be one of any, suit, alternate, not 'up'"):
        replace(RULES["spiderette"], build="up")
    with pytest.raises(ValueError, match="group must be one of suit, colour, card"):
        replace(RULES["spiderette"], group="pair")


@pytest.mark.parametrize(("build", "unit"), [(IN_SUIT, None), (None, ONE_CARD), (ALTERNATE, ONE_CARD)])
def test_designs_that_build_in_suit_or_move_one_card_play_whole_games(build, unit):
    """Whole random games: the engine takes every move it calls legal, and the planner's and the solver's
    moves are legal."""
    rules = from_cardz(design("Whole Games", build, unit))
    rng = random.Random(7)
    planned = solved = 0
    for seed in range(1, 9):
        g = Game(variant=rules, seed=seed, suits=rng.choice(rules.suit_options))
        result = solve(g, node_limit=3000)
        assert result.result in ("win", "loss", "unknown")
        h = g.copy()
        h.play(result.moves)   # (the engine checks each move)
        assert h.is_won or not result.moves
        solved += len(result.moves)
        player = PlannerStrategy(budget=60)
        player.new_game()
        for step in range(400):
            legal = g.legal_moves()
            for m in legal:
                assert g.why_illegal(m) is None
                g.copy().apply(m)
            if not legal:
                break
            m = player(g) if step % 2 == 0 else None   # (None: the planner has no move it would play)
            if m is not None:
                assert m in legal
                planned += 1
            else:
                m = rng.choice(legal)
            if unit is not None:
                assert m.kind != "move" or m.count == 1
            g.apply(m)
        assert g.status in ("won", "lost", "dead_end") or step == 399
    assert planned > 20 and (solved > 0 or build != IN_SUIT)   # (one card at a time: see the next test)


@pytest.mark.parametrize(("build", "unit"), [(IN_SUIT, None), (None, ONE_CARD)])
def test_the_solver_wins_a_design_that_builds_in_suit_or_moves_one_card_by_its_rules(build, unit):
    """One suit, three runs to finish, one column empty: the solver's line is legal, one card at a time in
    a one-card design, and wins."""
    rules = from_cardz(design("Solved", build, unit))
    g = game(rules.name, [run("S", 13, 2), ["AS"], run("S", 13, 2), ["AS"], run("S", 13, 4), ["3S", "2S", "AS"]],
             foundations=["S"], suits=1)
    result = solve(g, node_limit=20000)
    assert result.result == "win"
    assert all(m.count == 1 for m in result.moves if m.kind == "move") or unit is None
    g.play(result.moves)
    assert g.is_won


def test_the_table_offers_one_card_and_in_suit_targets_only():
    """The front end draws what Python sends: one movable card a column, and only the columns a card may go
    to by the design's build."""
    from spiderette.notebook.view import view as view_of

    rules = from_cardz(design("Table", IN_SUIT, ONE_CARD))
    g = game(rules.name, [["9H"], ["|2C", "8H", "7H"], ["|3C", "8S"], ["*"]])
    v = view_of(g)
    assert [c["movable"] for c in v["tableau"][:3]] == [1, 1, 1]
    assert all(key.endswith(":1") for key in v["targets"])
    assert v["targets"]["2:1"] == [4, 5, 6]   # 8♠: only to the empty columns, never onto 9♥
    assert 0 not in v["targets"]["2:1"] and v["clicks"]["2:1"] == 4
