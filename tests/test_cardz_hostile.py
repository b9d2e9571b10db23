"""Design files tried as a hostile user would (issue 40): each input that hung, blew up or lost something is
refused with a ``DesignError`` (or a ``ValueError`` naming the field) that says what is wrong, at once and in
flat memory, and nothing is registered; the records and the unfinished game of a design not read (or changed
since) are kept. Then every ``Rules`` written reads back equal, and a fuzz of ``from_cardz``: a refusal or a
design that plays, never anything else."""

from __future__ import annotations

import copy
import json
import os
import threading
import tracemalloc
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spiderette import RULES, DesignError, Game, RecordsWarning, from_cardz, stats, to_cardz
from spiderette.engine.variants import BUILT_IN, MAX_COLUMNS, Rules
from spiderette.userdata.statistics import record_result

SHIPPED = Path(__file__).resolve().parents[1] / "src" / "spiderette" / "engine" / "spiderette.cardz"


def seed_design(**changes) -> dict:
    return {**json.loads(SHIPPED.read_text(encoding="utf-8")), **changes}


def forget() -> None:
    for name in [n for n in RULES if n not in BUILT_IN]:
        del RULES[name]


@pytest.fixture(autouse=True)
def forget_designs():
    """Each test starts with the built-in variants only (a design read joins RULES)."""
    yield
    forget()


def refused(design, words: str, most_mib: float = 32) -> DesignError:
    """``from_cardz(design)`` refuses with ``words``, registering nothing, its peak memory under ``most_mib``."""
    before = dict(RULES)
    tracemalloc.start()
    try:
        with pytest.raises(DesignError, match=words) as e:
            from_cardz(design)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert RULES == before
    assert peak < most_mib * 2**20, f"{peak / 2**20:.0f} MiB to refuse it"
    return e.value


# ---------------------------------------------------------------------- the rows of the issue, one by one
@pytest.mark.parametrize("columns", [11, 12, 13])
def test_a_design_of_more_columns_than_the_notation_names_is_refused_naming_the_limit(columns):
    d = seed_design(name="Wide")
    d["depots"][2]["repeat"] = columns
    e = refused(d, f"'repeat' must be a whole number from 1 to {MAX_COLUMNS} .*a to j.*, not {columns}")
    assert "Wide" in str(e)


def test_a_deal_rule_naming_a_tableau_160000_times_is_refused_in_flat_memory():
    """A 960 KB design whose deal rule repeats "tab" 160,000 times: 8 GB and a MemoryError before."""
    d = seed_design(name="Many")
    d["dealRules"] = [{"kind": "dealGroup", "to": ["tab"] * 160_000, "faceUp": 1, "roundRobin": True}]
    text = json.dumps(d, separators=(",", ":"))
    assert 900_000 < len(text) < 1_000_000
    refused(text, "deal rule 1 deals more cards than the deck's 52", most_mib=64)
    # and a rule whose count times its tableaus is too many, counted before anything is laid out
    d["dealRules"] = [{"kind": "dealGroup", "to": ["tab-1", "tab-2"], "faceUp": 27}]
    refused(d, "deals more cards than the deck's 52")


def refused_in_a_thread(design) -> BaseException | None:
    """``from_cardz(design)`` in a thread that must end (a read that blocks would never): what it raised."""
    out: list = []

    def read():
        try:
            from_cardz(design)
        except BaseException as e:  # (MemoryError, RecursionError: whatever it raises is the verdict)
            out.append(e)
        else:
            out.append(None)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(60)   # (not a measure of speed: a guard, so that a read that blocks fails the test, not hangs it)
    assert not t.is_alive(), "from_cardz blocked"
    return out[0]


def test_a_device_or_a_pipe_is_refused_at_once(tmp_path):
    e = refused_in_a_thread("/dev/zero")
    assert isinstance(e, DesignError) and "not a regular file" in str(e), e
    fifo = tmp_path / "design.cardz"
    os.mkfifo(fifo)
    e = refused_in_a_thread(fifo)
    assert isinstance(e, DesignError) and "not a regular file" in str(e), e
    e = refused_in_a_thread(str(tmp_path))
    assert isinstance(e, DesignError) and "is a folder, not a design file" in str(e), e


@pytest.mark.parametrize(("design", "words"), [
    ("[" * 100_000, "nested too deeply"),
    ('{"name": "X", "decks": ' + "7" * 5000 + "}", "a number with too many digits"),
    ("design\0.cardz", "a path cannot hold a NUL character"),
    ("", "no design: give a design's JSON text"),
    ("   \n", "no design: give a design's JSON text"),
], ids=["deep", "5000 digits", "NUL", "empty", "blank"])
def test_malformed_text_and_paths_are_a_design_error_that_says_what(design, words):
    refused(design, words)


def test_a_design_in_arabic_indic_digits_is_refused():
    d = seed_design(name="Digits")
    d["dealRules"] = [{"kind": "dealGroup", "to": "tab-١", "faceUp": 1}]
    refused(d, "deals to 'tab-١'")
    d = seed_design(name="Digits", scoring={"value": "٥٠٠ - moves + ١٠٠ * count(Foundation, !empty(it))"})
    refused(d, "'scoring' must be")


def test_a_design_file_with_a_byte_order_mark_is_read(tmp_path):
    text = SHIPPED.read_text(encoding="utf-8")
    path = tmp_path / "bom.cardz"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert from_cardz(path) is RULES["spiderette"]
    assert from_cardz("\ufeff" + text) is RULES["spiderette"]


def test_rules_whose_title_is_not_their_name_read_back_under_their_name():
    rules = Rules("mine", "My Game", 1, (1, 2, 3, 4, 5, 6, 7))
    back = from_cardz(to_cardz(rules))
    assert (back.name, back.title) == ("mine", "My Game") and back == rules
    assert json.loads(to_cardz(rules))["title"] == "My Game"
    assert "title" not in json.loads(to_cardz("will_o_the_wisp"))   # (its name is its title's)


def test_an_explicit_row_by_row_deal_order_is_the_same_rules():
    layout = (1, 2, 3, 4, 5, 6, 7)
    explicit = Rules("rows", "Rows", 1, layout, deal_order=tuple(c for r in range(7) for c in range(r, 7)))
    assert explicit == Rules("rows", "Rows", 1, layout) and explicit.deal_order is None
    assert from_cardz(to_cardz(explicit)) == explicit


@pytest.mark.parametrize(("changes", "words"), [
    ({"decks": 0}, "decks must be a whole number from 1 to 2, not 0"),
    ({"decks": 10**9}, "decks must be a whole number from 1 to 2, not 1000000000"),
    ({"face_up": 0}, r"face_up must be a whole number from 1 to 1 \(the shortest column\), not 0"),
    ({"layout": (3, -1, 2)}, r"layout\[1\] must be a whole number from 1 to 52"),
    ({"layout": ()}, "layout must be a tuple of 1 to 10 column heights"),
    ({"layout": (1,) * 11}, "layout must be a tuple of 1 to 10 column heights"),
    ({"layout": (20, 20, 20)}, "layout deals 60 cards: 1 deck hold 52"),
    ({"suit_options": (3,)}, "suit_options must be a tuple of some of 4, 2, 1"),
    ({"suit_options": ()}, "suit_options must be"),
    ({"group": "colour", "suit_options": (4, 2)}, r"runs by colour"),
    ({"deal_order": (0, 0, 0)}, "deal_order must be a tuple of the column"),
    ({"start_score": -1}, "start_score must be a whole number from 0 to 999999999"),
    ({"name": "My Game"}, "name must be lower-case letters"),
    ({"title": "tab\there"}, "title must be 1 to 60 printable characters"),
])
def test_hand_built_rules_are_checked_before_anything_is_registered(changes, words):
    before = dict(RULES)
    fields = {"name": "hand_built", "title": "Hand Built", "decks": 1, "layout": (1, 2, 3, 4, 5, 6, 7), **changes}
    with pytest.raises(ValueError, match=words):
        Rules(**fields)
    assert RULES == before
    with pytest.raises(ValueError):
        Game(variant="hand_built")


def test_rules_given_lists_take_them_as_tuples():
    r = Rules("listed", "Listed", 1, [1, 2, 3], suit_options=[4, 1])
    assert r.layout == (1, 2, 3) and r.suit_options == (4, 1) and hash(r)


# ---------------------------------------------------------------------- the records of a design not read
def eight(name: str = "Eight", suits=None) -> dict:
    """The seed's design under another name (and other suit options)."""
    d = seed_design(name=name)
    if suits is not None:
        d["suits"] = suits
    return d


def test_the_unfinished_game_of_a_design_not_read_yet_is_kept_and_offered_once_it_is(spiderette_home):
    pytest.importorskip("anywidget")
    from spiderette import Widget

    rules = from_cardz(eight("My Design"))
    w = Widget(variant=rules, seed=4)
    w.play("d", delay=0)
    saved = (spiderette_home / "resume.json").read_bytes()
    forget()   # a new kernel, which has not read the design
    with warnings.catch_warnings():
        warnings.simplefilter("error", RecordsWarning)
        plain = Widget(seed=5)
        assert plain.view["resume"] is None, "not offered: it cannot be played here yet"
        again = Widget(resume=True)
    assert again.game.variant == "spiderette" and again.game.move_count == 0
    assert "read its design" in again.view["message"] and "'my_design'" in again.view["message"]
    assert (spiderette_home / "resume.json").read_bytes() == saved, "kept as it was"
    assert not list(spiderette_home.glob("*.corrupt-*"))
    from_cardz(eight("My Design"))   # read again: offered, and resumed
    assert Widget(seed=5).view["resume"]["variant"] == "my_design"
    back = Widget(resume=True)
    assert (back.game.variant, back.game.seed, [str(m) for m in back.game.history]) == ("my_design", 4, ["d"])


def test_a_game_taking_the_place_of_an_unread_designs_game_counts_that_one_lost(spiderette_home):
    pytest.importorskip("anywidget")
    from spiderette import Widget

    w = Widget(variant=from_cardz(eight("My Design")), seed=4)
    w.play("d", delay=0)
    forget()
    Widget(seed=7).play("bd", delay=0)   # its first move: the saved game is given up
    s = stats()
    assert [(r["variant"], r["suits"], r["lost"]) for r in s.apart] == [("my_design", 4, 1)]
    assert s.rows == [] and "Kept apart" in str(s)


def test_a_designs_suits_edited_between_two_kernels_keep_every_row(spiderette_home):
    rules = from_cardz(eight("Edited"))
    for i, suits in enumerate((4, 2, 1)):
        record_result(rules.name, suits, won=False, score=400, moves=100, game_id=f"d{i}")
    record_result("spiderette", 4, won=True, score=700, moves=90, game_id="s1")
    forget()
    from_cardz(eight("Edited", suits=[4]))   # the design's file edited: 4 suits only
    with warnings.catch_warnings():
        warnings.simplefilter("error", RecordsWarning)
        s = stats()
    assert [(r["variant"], r["suits"], r["played"]) for r in s.rows] == [("spiderette", 4, 1), ("edited", 4, 1)]
    assert [(r["variant"], r["suits"], r["played"]) for r in s.apart] == [("edited", 1, 1), ("edited", 2, 1)]
    text = str(s)
    assert text.index("Spiderette statistics") < text.index("Kept apart") and "edited" in text.split("Kept apart")[1]
    assert "Kept apart" in s._repr_html_()
    record_result("spiderette", 4, won=False, score=300, moves=50, game_id="s2")   # a write keeps them all
    games = json.loads((spiderette_home / "stats.json").read_text())["games"]
    assert sorted(games) == ["edited:1", "edited:2", "edited:4", "spiderette:4"]
    assert not list(spiderette_home.glob("*.corrupt-*"))


def test_a_built_in_variant_with_suits_it_never_has_is_still_damage(spiderette_home):
    record_result("spiderette", 4, won=True, score=700, moves=90, game_id="s1")
    path = spiderette_home / "stats.json"
    doc = json.loads(path.read_text())
    doc["games"]["spiderette:3"] = doc["games"]["spiderette:4"]
    path.write_text(json.dumps(doc))
    with pytest.warns(RecordsWarning, match="set aside"):
        assert stats().rows == []


# ---------------------------------------------------------------------- every Rules written reads back
NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True).filter(lambda n: n not in BUILT_IN)
TITLES = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), min_size=1, max_size=60).filter(
    lambda t: t.isprintable() and t == t.strip())


@st.composite
def valid_rules(draw) -> Rules:
    decks = draw(st.integers(1, 2))
    columns = draw(st.integers(1, MAX_COLUMNS))
    layout = tuple(draw(st.lists(st.integers(1, 52 * decks // columns), min_size=columns, max_size=columns)))
    group = draw(st.sampled_from(("suit", "colour", "card")))
    build = draw(st.sampled_from(("any", "suit", "alternate")))
    allowed = [4] if group == "colour" else [4, 2] if build == "alternate" else [4, 2, 1]
    suits = tuple(draw(st.lists(st.sampled_from(allowed), min_size=1, unique=True)))
    order = None
    if draw(st.booleans()):
        order = tuple(draw(st.permutations([c for c, h in enumerate(layout) for _ in range(h)])))
    return Rules(draw(NAMES), draw(TITLES), decks, layout, face_up=draw(st.integers(1, min(layout))),
                 deal_with_empty=draw(st.booleans()), group=group, suit_options=suits, deal_order=order,
                 start_score=draw(st.integers(0, 10**9 - 1)), run_bonus=draw(st.integers(0, 10**9 - 1)),
                 auto_send=draw(st.booleans()), build=build)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_rules())
def test_every_rules_to_cardz_writes_reads_back_equal(rules):
    try:
        text = to_cardz(rules)
        back = from_cardz(text)
        assert back == rules and back.title == rules.title
        assert to_cardz(back) == text
        g = Game(variant=back, suits=back.suit_options[0], seed=3)
        assert g.columns == len(rules.layout) and g.score == rules.start_score
    finally:
        forget()


# ---------------------------------------------------------------------- a fuzz: a refusal, or a design that plays
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=10**30, max_value=10**60)
    | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(["tab", "tab-1", "tab-10", "Down", "Same", "Run", "Card", "FaceUp", "King", "Foundation",
                      "Tableau", "Stock", "dealGroup", "none", "locked", "tab-١"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["kind", "to", "faceUp", "faceDown", "roundRobin", "repeat", "type", "name", "build",
                         "direction", "suit", "color", "unit", "gate", "value", "x"]) | st.text(max_size=6),
        inner, max_size=5),
    max_leaves=12)


def paths(d: object, here: tuple = ()) -> list[tuple]:
    """Every place in a JSON value (keys and indices from the top)."""
    out = [here]
    if isinstance(d, dict):
        for k, v in d.items():
            out += paths(v, here + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out += paths(v, here + (i,))
    return out


SEED_PLACES = [p for p in paths(seed_design()) if p]


@st.composite
def mutated_designs(draw) -> object:
    """The seed's design with one to three places replaced: by random JSON, or by a large thing (a long list
    of the same name, a long string, a huge number)."""
    d = copy.deepcopy(seed_design(name="Fuzzed"))
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(SEED_PLACES))
        where = d
        try:
            for k in place[:-1]:
                where = where[k]
            big = st.sampled_from([["tab"] * 50_000, "x" * 200_000, 10**400, list(range(20_000)),
                                   {f"k{i}": i for i in range(5_000)}])
            where[place[-1]] = draw(st.one_of(JSON, big) if draw(st.booleans()) else JSON)
        except (KeyError, IndexError, TypeError):   # (an earlier change removed the way there)
            pass
    return d


def refused_or_plays(design: object) -> None:
    """The verdict of the fuzz: a DesignError, or rules that deal a game and play moves, in bounded memory."""
    tracemalloc.start()
    try:
        try:
            rules = from_cardz(design)
        except DesignError as e:
            assert str(e)
        else:
            for suits in rules.suit_options:
                g = Game(variant=rules, suits=suits, seed=11)
                for _ in range(20):
                    legal = g.legal_moves()
                    if not legal:
                        break
                    g.apply(legal[len(legal) // 2])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        forget()
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(JSON, mutated_designs()), st.booleans())
def test_fuzz_from_cardz_refuses_or_plays(design, as_text):
    refused_or_plays(design if isinstance(design, dict) and not as_text else json.dumps(design))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_from_cardz_on_files_of_any_bytes(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "design.cardz"
    path.write_bytes(raw)
    refused_or_plays(path)
