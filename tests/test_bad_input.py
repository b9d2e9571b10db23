"""Bad input to the engine: wrong types, huge inputs, unreachable positions, hostile files.

Every public entry point answers a bad argument with ``TypeError`` or a ``ValueError`` subclass that names
the argument, in a message of bounded length, and leaves the game exactly as it was.
"""

from __future__ import annotations

import json
import os
import pickle
import stat
import threading

import pytest
from spiderette_testkit import build

import spiderette.engine.savefile
from spiderette import (
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    NotationError,
    SaveFileError,
    click_move,
)
from spiderette.engine.move import DEAL

#: Error messages are short whatever the input; the ones quoting a long input come to about 215 characters.
SHORT = 250
HUGE = 10 ** 5000  # str() of this is refused by Python itself ("Exceeds the limit (4300 digits)")


def started() -> Game:
    """Deal 7 with a history and a redo list, so that every part of the game can be compared."""
    g = Game(seed=7)
    g.play("bd ea d")
    g.undo()
    assert g.history and g.redo_list
    return g


def snapshot(g: Game) -> tuple:
    return g.to_dict(), g.history, g.redo_list, g.position()


def check_refusal(e: BaseException, word: str) -> None:
    """A refusal is a TypeError or a ValueError naming ``word``, short, and not Python's own digit limit."""
    assert isinstance(e, (TypeError, ValueError)), repr(e)
    text = str(e)
    assert word in text, text
    assert len(text) < SHORT, len(text)
    assert "Exceeds the limit" not in text and "int_max_str_digits" not in text, text


# ---------------------------------------------------------------------------------------- wrong arguments
BAD_CALLS = [
    ("why_illegal(None)", lambda g: g.why_illegal(None), "move"),
    ("why_illegal(42)", lambda g: g.why_illegal(42), "move"),
    ("why_illegal(b'ab')", lambda g: g.why_illegal(b"ab"), "move"),
    ("resolve(None)", lambda g: g.resolve(None), "move"),
    ("resolve([ab])", lambda g: g.resolve(["ab"]), "move"),
    ("notation(None)", lambda g: g.notation(None), "move"),
    ("notation(3.5)", lambda g: g.notation(3.5), "move"),
    ("movable(7)", lambda g: g.movable(7), "col"),
    ("movable(-1)", lambda g: g.movable(-1), "col"),
    ("movable(True)", lambda g: g.movable(True), "col"),
    ("movable('a')", lambda g: g.movable("a"), "col"),
    ("movable(None)", lambda g: g.movable(None), "col"),
    ("movable(1.0)", lambda g: g.movable(1.0), "col"),
    ("movable(HUGE)", lambda g: g.movable(HUGE), "col"),
    ("column(7)", lambda g: g.column(7), "col"),
    ("column(-1)", lambda g: g.column(-1), "col"),
    ("column(True)", lambda g: g.column(True), "col"),
    ("column('a')", lambda g: g.column("a"), "col"),
    ("column(-HUGE)", lambda g: g.column(-HUGE), "col"),
    ("face_down(7)", lambda g: g.face_down(7), "col"),
    ("face_down(-1)", lambda g: g.face_down(-1), "col"),
    ("face_down(False)", lambda g: g.face_down(False), "col"),
    ("face_down(2.0)", lambda g: g.face_down(2.0), "col"),
    ("top_card(7)", lambda g: g.top_card(7), "col"),
    ("top_card(-1)", lambda g: g.top_card(-1), "col"),
    ("top_card(True)", lambda g: g.top_card(True), "col"),
    ("top_card('a')", lambda g: g.top_card("a"), "col"),
    ("group_error(7, 1)", lambda g: g.group_error(7, 1), "col"),
    ("group_error('a', 1)", lambda g: g.group_error("a", 1), "col"),
    ("group_error(0, 0)", lambda g: g.group_error(0, 0), "count"),
    ("group_error(0, -1)", lambda g: g.group_error(0, -1), "count"),
    ("group_error(0, True)", lambda g: g.group_error(0, True), "count"),
    ("group_error(0, '2')", lambda g: g.group_error(0, "2"), "count"),
    ("group_error(0, 2.0)", lambda g: g.group_error(0, 2.0), "count"),
    ("group_error(0, None)", lambda g: g.group_error(0, None), "count"),
    ("apply(42)", lambda g: g.apply(42), "move"),
    ("apply(None)", lambda g: g.apply(None), "move"),
    ("apply(['ab'])", lambda g: g.apply(["ab"]), "move"),
    ("apply('zz')", lambda g: g.apply("zz"), "zz"),
    ("play(42)", lambda g: g.play(42), "moves"),
    ("play(None)", lambda g: g.play(None), "moves"),
    ("play(b'ab')", lambda g: g.play(b"ab"), "moves"),
    ("play({'ab': 1})", lambda g: g.play({"ab": 1}), "moves"),
    ("play([DEAL, 5])", lambda g: g.play([DEAL, 5]), "move 2"),
    ("play(['d', None])", lambda g: g.play(["d", None]), "move 2"),
    ("play('d zz')", lambda g: g.play("d zz"), "zz"),
    ("move('a', 1)", lambda g: g.move("a", 1), "src"),
    ("move(0, 'b')", lambda g: g.move(0, "b"), "dst"),
    ("move(True, 1)", lambda g: g.move(True, 1), "src"),
    ("move(0, 1, 0)", lambda g: g.move(0, 1, 0), "count"),
    ("move(0, 1, 1.0)", lambda g: g.move(0, 1, 1.0), "count"),
    ("move(0, 1, HUGE)", lambda g: g.move(0, 1, HUGE), "count"),
    ("move(0, 0)", lambda g: g.move(0, 0), "two different columns"),
    ("send(1.0)", lambda g: g.send(1.0), "src"),
    ("send(None)", lambda g: g.send(None), "src"),
    ("send('a')", lambda g: g.send("a"), "src"),
    ("parse_move(None)", lambda g: g.parse_move(None), "notation"),
    ("parse_move(5)", lambda g: g.parse_move(5), "notation"),
    ("parse_move('ab cd')", lambda g: g.parse_move("ab cd"), "ab cd"),
]


@pytest.mark.parametrize("call, word", [(c, w) for _, c, w in BAD_CALLS], ids=[n for n, _, _ in BAD_CALLS])
def test_a_wrong_argument_is_refused_by_name_and_changes_nothing(call, word):
    g = started()
    before = snapshot(g)
    with pytest.raises((TypeError, ValueError)) as info:
        call(g)
    check_refusal(info.value, word)
    assert snapshot(g) == before


def test_a_huge_count_in_group_error_is_refused_by_name():
    # group_error checks the type and the lower bound of count, but writes an oversized count out in full:
    # with 5000 digits that is Python's own "Exceeds the limit (4300 digits)" ValueError, naming nothing.
    g = started()
    before = snapshot(g)
    try:
        why = g.group_error(0, HUGE)
    except (TypeError, ValueError) as e:
        check_refusal(e, "count")
    else:
        assert isinstance(why, str) and len(why) < SHORT, why
    assert snapshot(g) == before


@pytest.mark.parametrize("text", ["ab", "bd", "ab3", "d", "sa", " BD "])
def test_notation_is_accepted_by_why_illegal_resolve_and_notation(text):
    g = started()
    before = snapshot(g)
    m = Move.parse(text)
    assert g.why_illegal(text) == g.why_illegal(m)
    assert g.notation(text) == g.notation(m)
    if g.why_illegal(text) is None:
        assert g.resolve(text) == g.resolve(m)
    else:
        with pytest.raises(IllegalMoveError):
            g.resolve(text)
    assert snapshot(g) == before


@pytest.mark.parametrize("kwargs, word, kind", [
    ({"suits": 4.0}, "suits", TypeError),
    ({"suits": True}, "suits", TypeError),
    ({"suits": "4"}, "suits", TypeError),
    ({"suits": None}, "suits", TypeError),
    ({"suits": 3}, "suits", ValueError),
    ({"suits": HUGE}, "suits", ValueError),
    ({"seed": 7.0}, "seed", TypeError),
    ({"seed": True}, "seed", TypeError),
    ({"seed": "7"}, "seed", TypeError),
    ({"seed": -1}, "-1", ValueError),
    ({"seed": HUGE}, "deal number", ValueError),
    ({"auto_remove": 1}, "auto_remove", TypeError),
    ({"scoring": None}, "scoring", ValueError),
    ({"scoring": ["standard"]}, "scoring", ValueError),
    ({"scoring": "s" * 100_000}, "scoring", ValueError),
    ({"variant": None}, "variant", ValueError),
    ({"variant": ["spider"]}, "variant", ValueError),
    ({"variant": "v" * 100_000}, "variant", ValueError),
], ids=lambda p: ",".join(f"{k}={'HUGE' if v is HUGE else repr(v)[:12]}" for k, v in p.items())
    if isinstance(p, dict) else None)
def test_game_arguments_are_checked(kwargs, word, kind):
    with pytest.raises((TypeError, ValueError)) as info:
        Game(**kwargs)
    assert isinstance(info.value, kind), repr(info.value)
    check_refusal(info.value, word)


@pytest.mark.parametrize("lock", [5, "lock", threading.Lock()], ids=["int", "str", "plain-Lock"])
def test_a_lock_that_is_not_an_rlock_is_refused(lock):
    # Game(lock=5) is accepted today and every later call fails with "'int' object does not support the
    # context manager protocol"; Game(lock=threading.Lock()) is accepted and the first play() deadlocks,
    # because play holds the lock and apply takes it again.
    with pytest.raises(TypeError, match="lock"):
        Game(seed=7, lock=lock)


def test_an_rlock_is_accepted_and_used():
    lock = threading.RLock()
    g = Game(seed=7, lock=lock)
    assert g.lock is lock
    g.play("bd ea")
    assert g.undo() == Move.parse("ea1") and g.redo() == Move.parse("ea1")


# ---------------------------------------------------------------------------------------- whole numbers only
def test_suits_must_be_a_whole_number_everywhere(tmp_path):
    for suits in (4.0, True):
        with pytest.raises(TypeError, match="suits"):
            Game(seed=7, suits=suits)
        d = Game(seed=7).to_dict()
        with pytest.raises(InvalidPositionError, match="suits"):
            Game.from_dict(dict(d, suits=suits))
        g = Game(seed=7)
        g.play("bd")
        path = tmp_path / "g.json"
        g.save(path)
        doc = json.loads(path.read_text())
        doc["start"]["suits"] = suits
        path.write_text(json.dumps(doc))
        with pytest.raises(SaveFileError, match="suits"):
            Game.load(path)


def edited_save(tmp_path, edit) -> object:
    g = Game(seed=7)
    g.play("bd")
    path = tmp_path / "g.json"
    g.save(path)
    doc = json.loads(path.read_text())
    assert doc["version"] == 1 and doc["position"]["moves"] == 1
    edit(doc)
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("edit", [
    lambda doc: doc.update(version=True),
    lambda doc: doc.update(version=1.0),
    lambda doc: doc["position"].update(suits=4.0),
    lambda doc: doc["position"].update(moves=True),
], ids=["version-true", "version-1.0", "position-suits-4.0", "position-moves-true"])
def test_a_save_file_with_stand_ins_for_whole_numbers_is_refused(tmp_path, edit):
    # The loader compares "version" and the saved position with ==, and in Python True == 1 == 1.0: a file
    # edited by hand this way is let through today, though whole numbers are required everywhere else.
    with pytest.raises(SaveFileError):
        Game.load(edited_save(tmp_path, edit))


# ---------------------------------------------------------------------------------------- bounded messages
@pytest.mark.parametrize("size", [1000, 100_000, 1_000_000])
def test_a_long_move_gives_a_short_message_quoting_its_start(size):
    g = started()
    before = snapshot(g)
    text = ("ab" * size)[:size]
    with pytest.raises(NotationError) as info:
        g.apply(text)
    msg = str(info.value)
    assert len(msg) < SHORT and "ababab" in msg and str(size) in msg, msg
    assert snapshot(g) == before
    with pytest.raises(NotationError) as info:
        g.play(text)
    assert len(str(info.value)) < SHORT and "ababab" in str(info.value)
    assert snapshot(g) == before


def test_move_parse_of_a_million_characters():
    with pytest.raises(NotationError) as info:
        Move.parse("x" * 10 ** 6)
    msg = str(info.value)
    assert len(msg) < SHORT and "xxxx" in msg and "1000000" in msg, msg


@pytest.mark.parametrize("where", ["stock", "tableau", "foundations", "variant", "scoring", "key"])
def test_a_200000_character_string_in_a_position_gives_a_short_message(where):
    d = Game(seed=7).to_dict()
    long = "Q" * 200_000
    if where == "stock":
        d["stock"][0] = long
    elif where == "tableau":
        d["tableau"][1][0] = "|" + long
    elif where == "foundations":
        d["foundations"] = [[long]]
    elif where == "key":
        d[long] = 1
    else:
        d[where] = long
    with pytest.raises(InvalidPositionError) as info:
        Game.from_dict(d)
    assert len(str(info.value)) < SHORT, len(str(info.value))


@pytest.mark.parametrize("field, index", [("moves", 4), ("score", 5), ("seed", 6)])
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_5000_digit_number_in_position_text(field, index, sign):
    fields = Game(seed=7).position().split()
    fields[index] = sign + "9" * 5000
    with pytest.raises(ValueError) as info:
        Game.from_position(" ".join(fields))
    e = info.value
    assert type(e) is InvalidPositionError, repr(e)
    assert len(str(e)) < SHORT and "Exceeds the limit" not in str(e)


@pytest.mark.parametrize("field", ["moves", "score", "seed", "suits"])
@pytest.mark.parametrize("number", [HUGE, -HUGE, 10 ** 30], ids=["huge", "-huge", "1e30"])
def test_a_huge_number_in_position_data(field, number):
    d = Game(seed=7).to_dict()
    d[field] = number
    with pytest.raises(ValueError) as info:
        Game.from_dict(d)
    e = info.value
    assert type(e) is InvalidPositionError, repr(e)
    assert len(str(e)) < SHORT and "Exceeds the limit" not in str(e), str(e)


def test_a_5000_digit_number_in_a_save_file(tmp_path):
    g = Game(seed=7)
    g.play("bd")
    path = tmp_path / "g.json"
    g.save(path)
    text = path.read_text()
    for old in ('"moves": 1', '"version": 1', '"score": 499', '"seed": 7'):
        assert old in text
        path.write_text(text.replace(old, old.split(":")[0] + ": " + "9" * 5000, 1))
        with pytest.raises(ValueError) as info:
            Game.load(path)
        assert type(info.value) is SaveFileError, repr(info.value)


def test_moves_of_a_5000_digit_number_in_from_dict():
    d = Game(seed=7).to_dict()
    d["moves"] = HUGE
    with pytest.raises(InvalidPositionError, match="moves") as info:
        Game.from_dict(d)
    assert len(str(info.value)) < SHORT


# ---------------------------------------------------------------------------------------- positions
def after_one_deal() -> dict:
    g = Game(seed=7)
    g.play("d")
    d = g.to_dict()
    assert len(d["stock"]) == 17 and d["moves"] == 1 and d["score"] == 499
    return d


def test_a_stock_of_17_with_no_moves_is_refused():
    d = after_one_deal()
    for score in (None, 500, 499):
        with pytest.raises(InvalidPositionError, match="moves"):
            Game.from_dict(dict(d, moves=0, score=score))
    fields = Game.from_dict(d).position().split()
    fields[4], fields[5] = "0", "500"
    with pytest.raises(InvalidPositionError, match="moves"):
        Game.from_position(" ".join(fields))


@pytest.mark.parametrize("moves", [10 ** 30, 10 ** 6 + 1, -1])
def test_an_impossible_move_count_is_refused(moves):
    d = after_one_deal()
    with pytest.raises(InvalidPositionError, match="moves"):
        Game.from_dict(dict(d, moves=moves, score=None))


@pytest.mark.parametrize("score", [-10 ** 30, 10 ** 30, 500, 498, 499.0, True])
def test_a_score_that_does_not_follow_from_the_table_is_refused(score):
    d = after_one_deal()
    with pytest.raises(InvalidPositionError, match="score"):
        Game.from_dict(dict(d, score=score))


def test_the_score_is_500_less_the_moves_plus_100_per_run():
    d = after_one_deal()
    assert Game.from_dict(dict(d, moves=40, score=460)).score == 460
    with pytest.raises(InvalidPositionError, match="score"):
        Game.from_dict(dict(d, moves=40, score=461))
    g = Game.from_dict(build(tableau=[["*"], ["+"], ["+"], ["+"], ["+"], ["+"]], foundations=["S"],
                             stock_size=10, moves=30))
    assert g.score == 500 - 30 + 100 and g.runs_completed == 1


@pytest.mark.parametrize("stock, deals", [(24, 0), (17, 1), (10, 2), (3, 3), (0, 4)])
def test_moves_left_out_are_the_fewest_one_per_deal(stock, deals):
    d = build(tableau=[["*"], ["+"], ["+"], ["+"], ["+"], ["+"], ["+"]], stock_size=stock)
    assert "moves" not in d
    g = Game.from_dict(d)
    assert g.move_count == deals and g.score == 500 - deals
    if deals:
        with pytest.raises(InvalidPositionError, match="moves"):
            Game.from_dict(dict(d, moves=deals - 1))


def test_moves_left_out_count_the_sends_when_runs_are_sent_by_hand():
    d = build(tableau=[["*"], ["+"], ["+"], ["+"], ["+"], ["+"]], foundations=["S"], stock_size=10,
              auto_remove=False)
    assert Game.from_dict(d).move_count == 3  # two deals and one send
    with pytest.raises(InvalidPositionError, match="moves"):
        Game.from_dict(dict(d, moves=2))
    auto = build(tableau=[["*"], ["+"], ["+"], ["+"], ["+"], ["+"]], foundations=["S"], stock_size=10)
    assert Game.from_dict(auto).move_count == 2  # the run left by itself


def test_a_study_position_with_many_face_down_cards_is_accepted():
    # docs/script.md: face-down counts are deliberately not checked, so studies can hide more than a deal would.
    d = build(tableau=[["*"], ["+"], ["+"], ["+"], ["+"], ["+"], ["+"]], stock_size=24)
    g = Game.from_dict(d)
    assert g.face_down(0) == 52 - 24 - 6 - 1 == 21
    assert [g.face_down(i) for i in range(1, 7)] == [0] * 6
    h = Game.from_position(g.position())
    assert h.to_dict() == g.to_dict()
    study = build(tableau=[["|KS", "|QS", "|JS", "|TS", "|9S", "|8S", "|7S", "|6S", "|5S", "4H"],
                           ["*"], ["+"], ["+"], ["+"], ["+"], ["+"]], stock_size=3, moves=200)
    assert Game.from_dict(study).face_down(0) == 9


def test_an_empty_column_cannot_have_face_down_cards():
    # from_state takes face-down counts as numbers; for an empty column a count above 0 is accepted today,
    # and the first card moved there is then face down on top, which the checks say never happens.
    g = Game(seed=7)
    cols = [list(g.column(i)) for i in range(7)]
    down = [g.face_down(i) for i in range(7)]
    cols[1].append(cols[0].pop())  # column a is now empty
    down[0] = 5
    with pytest.raises(InvalidPositionError, match="column a"):
        Game.from_state(columns=cols, face_down=down, stock=list(g.stock))


def test_a_column_whose_top_card_is_face_down_is_refused():
    d = Game(seed=7).to_dict()
    d["tableau"][0] = ["|" + c.lstrip("|") for c in d["tableau"][0]]
    with pytest.raises(InvalidPositionError, match="face"):
        Game.from_dict(d)


# ---------------------------------------------------------------------------------------- illegal moves
def after_bd_d() -> Game:
    g = Game(seed=7)
    g.play("bd d")
    assert g.to_dict()["tableau"][0] == ["4H", "9S"]
    return g


def test_illegal_move_error_carries_the_move_and_the_reason():
    g = after_bd_d()
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as info:
        g.apply("ab2")
    e = info.value
    assert e.move == Move.parse("ab2") and e.index is None
    assert "is not in sequence" in e.reason and "only the top 1 of column a move together" in e.reason
    assert str(e).startswith("ab2") and e.reason in str(e)
    assert snapshot(g) == before
    with pytest.raises(IllegalMoveError) as info:
        click_move(g, 0, 2)
    e = info.value
    assert "is not in sequence" in e.reason and "only the top 1 of column a move together" in e.reason
    with pytest.raises(IllegalMoveError) as info:
        g.move(0, 1, 2)
    assert info.value.move == Move.parse("ab2") and str(info.value).startswith("ab2")
    assert snapshot(g) == before


def test_play_errors_say_which_move_and_take_everything_back():
    g = after_bd_d()
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as info:
        g.play(["fa", "ab5", "d"])
    e = info.value
    assert e.index == 2 and e.move == Move.parse("ab5") and str(e).startswith("move 2 (ab5): ")
    assert "face-up" in e.reason
    assert snapshot(g) == before
    with pytest.raises(IllegalMoveError) as info:
        g.play("ab2")
    assert info.value.index is None and str(info.value).startswith("ab2")
    assert snapshot(g) == before


def raised(call) -> BaseException:
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the test wants the error itself
        return e
    raise AssertionError("no error was raised")


def test_every_error_pickles_with_its_message_move_and_reason(tmp_path):
    g = after_bd_d()
    folder = tmp_path / "folder"
    folder.mkdir()
    errors = [
        raised(lambda: g.apply("ab2")),
        raised(lambda: g.play(["fa", "ab5"])),
        raised(lambda: click_move(g, 0, 2)),
        raised(lambda: g.apply("zz")),
        raised(lambda: Game.from_dict({"variant": "spiderette"})),
        raised(lambda: Game.from_position("x" * 1000)),
        raised(lambda: Game.load(folder)),
    ]
    kinds = [IllegalMoveError, IllegalMoveError, IllegalMoveError, NotationError, InvalidPositionError,
             InvalidPositionError, SaveFileError]
    for e, kind in zip(errors, kinds):
        assert type(e) is kind, repr(e)
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is kind and str(back) == str(e) and back.args == e.args
        for attr in ("move", "reason", "index"):
            assert getattr(back, attr, None) == getattr(e, attr, None)
    assert errors[1].index == 2 and pickle.loads(pickle.dumps(errors[1])).index == 2
    assert errors[2].move is None and pickle.loads(pickle.dumps(errors[2])).reason == errors[2].reason


# ---------------------------------------------------------------------------------------- Game.load
@pytest.fixture
def saved(tmp_path):
    g = Game(seed=7)
    g.play("bd ea d")
    g.undo()
    path = tmp_path / "g.json"
    g.save(path)
    return path


@pytest.mark.parametrize("text", [
    "[" * 100_000,
    "{" * 100_000,
    '{"format": "spiderette-save", "version": 1, "start": ' + '{"a": ' * 100_000,
    '{"format": "spiderette-save", "version": 1, "history": ' + "[" * 100_000 + "]" * 100_000 + "}",
])
def test_a_deeply_nested_file_is_refused(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(ValueError) as info:
        Game.load(path)
    assert type(info.value) is SaveFileError, repr(info.value)


def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    outcome: list[BaseException | Game] = []

    def load():
        try:
            outcome.append(Game.load(fifo))
        except BaseException as e:  # noqa: BLE001 - reported below
            outcome.append(e)

    t = threading.Thread(target=load, daemon=True)
    t.start()
    t.join(5)
    blocked = t.is_alive()
    if blocked:  # release the reader so the thread does not outlive the test
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        t.join(5)
    assert not blocked, "Game.load blocked on a named pipe"
    assert len(outcome) == 1 and type(outcome[0]) is SaveFileError, outcome
    assert "not a regular file" in str(outcome[0])


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(SaveFileError, match="is a folder"):
        Game.load(tmp_path)


def test_a_file_over_max_bytes_is_refused_before_reading(saved, monkeypatch):
    size = saved.stat().st_size
    monkeypatch.setattr(spiderette.engine.savefile, "MAX_BYTES", size - 1)
    with pytest.raises(SaveFileError, match="too large"):
        Game.load(saved)
    monkeypatch.setattr(spiderette.engine.savefile, "MAX_BYTES", size)
    assert Game.load(saved).history == [Move.parse("bd1"), Move.parse("ea1")]


def test_a_file_one_byte_over_the_real_limit_is_refused_by_its_size(tmp_path):
    # a sparse file (no room taken); read first, it would be refused as having "grown past" the limit
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(spiderette.engine.savefile.MAX_BYTES + 1)
    with pytest.raises(SaveFileError, match="too large"):
        Game.load(path)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o604])
def test_save_keeps_the_permission_bits_of_an_existing_file(tmp_path, mode):
    path = tmp_path / "g.json"
    path.write_text("old")
    os.chmod(path, mode)
    g = Game(seed=7)
    g.play("bd")
    g.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == mode
    assert Game.load(path).history == [Move.parse("bd1")]


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_a_new_save_file_gets_0666_less_the_umask(tmp_path, umask):
    path = tmp_path / "new.json"
    old = os.umask(umask)
    try:
        Game(seed=7).save(path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask


@pytest.mark.parametrize("where", ["json", "replace", "fsync"])
def test_a_failed_save_leaves_no_temporary_file(tmp_path, monkeypatch, where):
    path = tmp_path / "g.json"
    Game(seed=8).save(path)
    before = path.read_bytes()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    if where == "json":  # fails half way through writing
        monkeypatch.setattr(spiderette.engine.savefile, "document", lambda g: {"start": [1, 2, object()]})
    elif where == "replace":
        monkeypatch.setattr(spiderette.engine.savefile.os, "replace", boom)
    else:
        monkeypatch.setattr(spiderette.engine.savefile.os, "fsync", boom)
    g = Game(seed=7)
    g.play("bd")
    with pytest.raises((OSError, TypeError)):
        g.save(path)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]
    assert path.read_bytes() == before


def test_a_save_into_a_missing_folder_fails_and_leaves_nothing(tmp_path):
    with pytest.raises(OSError):
        Game(seed=7).save(tmp_path / "nowhere" / "g.json")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", [None, 5, "a\0b", b"a\0b", ["g.json"]], ids=repr)
def test_load_of_a_path_that_is_no_path(path):
    with pytest.raises(ValueError) as info:
        Game.load(path)
    assert type(info.value) is SaveFileError, repr(info.value)
    assert len(str(info.value)) < SHORT


def test_load_of_a_very_long_path_gives_a_short_message(tmp_path):
    path = str(tmp_path / ("x" * 100_000))
    with pytest.raises(SaveFileError) as info:
        Game.load(path)
    assert len(str(info.value)) < 500


def test_loading_the_saved_game_keeps_history_and_redo(saved):
    g = Game.load(saved)
    assert g.history == [Move.parse("bd1"), Move.parse("ea1")] and g.redo_list == [DEAL]
