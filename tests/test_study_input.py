"""Bad ``deals`` and ``processes`` given to a study (issue 20): a clear ``TypeError`` or ``ValueError`` at once,
never a ``MemoryError``, an ``OverflowError``, a study that reads without end, or idle processes."""

from __future__ import annotations

import itertools
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spiderette import GreedyStrategy, compare, simulate
from spiderette.studies import runner as study
from spiderette.studies.runner import MAX_DEALS, MAX_PROCESSES

#: Error messages stay short whatever the input.
SHORT = 300

played: list[int] = []


def resign_and_log(game):
    """Resigns at once, noting that it was asked: a refused study must play nothing."""
    played.append(game.move_count)


@pytest.fixture(autouse=True)
def fresh_log():
    played.clear()
    yield
    played.clear()


def refused(error, **kwargs) -> str:
    kwargs = {"deals": [1], "progress": False, **kwargs}
    with pytest.raises(error) as e:
        simulate(resign_and_log, **kwargs)
    assert played == [], "a refused study played a deal"
    message = str(e.value)
    assert len(message) < SHORT, message
    return message


# ------------------------------------------------------------------------------------------------ deals
@pytest.mark.parametrize("deals", [range(10**18), range(2**64), range(0, 2**200, 7)], ids=["1e18", "2^64", "2^200"])
def test_a_huge_range_of_deals_is_refused_saying_the_cap(deals):
    message = refused(ValueError, deals=deals)
    assert message.startswith("deals must hold at most 1,000,000 deal numbers")


def test_an_endless_iterator_is_read_one_deal_past_the_cap_and_no_further():
    counter = itertools.count()
    assert "deals must hold at most 1,000,000 deal numbers: count(0) gives more" in refused(ValueError, deals=counter)
    assert next(counter) == MAX_DEALS + 1


def test_an_iterator_with_a_false_length_is_still_capped(monkeypatch):
    monkeypatch.setattr(study, "MAX_DEALS", 5)

    class Liar:
        def __len__(self):
            return 1

        def __iter__(self):
            return itertools.count(1)

    assert "at most 5 deal numbers" in refused(ValueError, deals=Liar())


def test_the_cap_itself_is_allowed(monkeypatch):
    monkeypatch.setattr(study, "MAX_DEALS", 5)
    assert [r["deal"] for r in simulate(resign_and_log, deals=range(5), progress=False).rows] == [0, 1, 2, 3, 4]
    assert [r["deal"] for r in simulate(resign_and_log, deals=iter(range(10, 15)), progress=False).rows] == [
        10, 11, 12, 13, 14]
    played.clear()
    assert "at most 5 deal numbers, not 6" in refused(ValueError, deals=range(6))
    assert "at most 5 deal numbers" in refused(ValueError, deals=(d for d in range(6)))


@pytest.mark.parametrize("deals, error, words", [
    ([2**64], ValueError, "each deal must be a whole number from 0 to 18446744073709551615"),
    ([1, True], TypeError, "each deal must be a whole number, not True"),
    ([1, "2"], TypeError, "each deal must be a whole number, not '2'"),
    (["x" * 100_000], TypeError, "(100000 characters)"),
    ([10**5000], ValueError, "a whole number of about 5001 digits"),
], ids=["2^64", "True", "text", "long-text", "10^5000"])
def test_every_deal_is_a_deal_number(deals, error, words):
    assert words in refused(error, deals=deals)


# ------------------------------------------------------------------------------------------------ processes
@pytest.mark.parametrize("processes", [2**70, 10**400, MAX_PROCESSES + 1], ids=["2^70", "10^400", "cap+1"])
def test_too_many_processes_is_a_value_error(processes):
    assert refused(ValueError, processes=processes).startswith(f"processes must be at most {MAX_PROCESSES}, not ")


@pytest.mark.parametrize("processes, error", [(0, ValueError), (-(2**70), ValueError), (2.0, TypeError),
                                              (True, TypeError), ("4", TypeError), (None, TypeError)])
def test_processes_is_a_whole_number_from_one(processes, error):
    assert "processes must be a whole number" in refused(error, processes=processes)


def test_never_more_worker_processes_than_deals(monkeypatch):
    started: list[int] = []

    class Pool(ProcessPoolExecutor):
        def __init__(self, max_workers=None, *args, **kwargs):
            started.append(max_workers)
            super().__init__(max_workers, *args, **kwargs)

    monkeypatch.setattr(study, "ProcessPoolExecutor", Pool)
    res = simulate(GreedyStrategy(), deals=[3, 4], processes=24, progress=False, max_moves=20)
    assert started == [2]
    serial = simulate(GreedyStrategy(), deals=[3, 4], progress=False, max_moves=20)
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in res.rows] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in serial.rows]


# ------------------------------------------------------------------------------------------------ any object
SMALL_INTS = st.integers(min_value=-3, max_value=40)
ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**62), st.floats(), st.text(max_size=20),
    st.binary(max_size=10), st.complex_numbers(), st.fractions(),
    st.lists(st.one_of(SMALL_INTS, st.booleans(), st.floats(), st.text(max_size=3), st.none()), max_size=4),
    st.tuples(SMALL_INTS, SMALL_INTS), st.sets(SMALL_INTS, max_size=4), st.frozensets(SMALL_INTS, max_size=4),
    st.dictionaries(SMALL_INTS, SMALL_INTS, max_size=3),
    # ranges of a few deals, anywhere (a study of them is played: quick), and ranges too long for a study
    st.builds(lambda start, n, step: range(start, start + n * step, step),
              st.integers(min_value=-2**70, max_value=2**70), st.integers(min_value=0, max_value=12),
              st.integers(min_value=1, max_value=2**70)),
    st.builds(lambda start, extra: range(start, start + MAX_DEALS + 1 + extra),
              st.integers(min_value=-2**70, max_value=2**70), st.integers(min_value=0, max_value=2**70)),
    st.builds(iter, st.lists(SMALL_INTS, max_size=4)),
    st.just(itertools.count()), st.just(object()),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deals=ANYTHING, processes=st.one_of(st.just(1), ANYTHING))
def test_any_deals_and_processes_raise_only_type_or_value_errors(deals, processes):
    if isinstance(deals, itertools.count):
        deals = itertools.count()  # (a fresh one each time: reading it is part of the test)
    played.clear()
    strategy = resign_and_log if processes == 1 else (lambda game: None)  # (never run in other processes)
    try:
        res = simulate(strategy, deals=deals, processes=processes, progress=False)
    except (TypeError, ValueError) as e:
        assert len(str(e)) < SHORT, str(e)
        assert played == []
    else:
        assert processes == 1 and len(played) == len(res.rows) == len(set(res.deals)) >= 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deals=ANYTHING)
def test_compare_refuses_the_same_deals(deals):
    if isinstance(deals, itertools.count):
        deals = itertools.count()
    try:
        cmp = compare([resign_and_log, lambda game: None], deals=deals, progress=False)
    except (TypeError, ValueError) as e:
        assert len(str(e)) < SHORT, str(e)
    else:
        assert len(cmp.results) == 2
