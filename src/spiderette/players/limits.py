"""A search budget, checked once: seconds and tables (like ``chess.engine.Limit``), and the caps of every budget.

Every search that takes ``time_limit`` (seconds) and ``node_limit`` (tables expanded) builds a :class:`Limit`
from them, so the rules, and their words, live here only: a wrong type is a ``TypeError``, a wrong value a
``ValueError``, each naming the argument:

>>> Limit(time=2, tables=500)
Limit(time=2.0, tables=500)
>>> Limit.of(time_limit=None, node_limit=0)
Traceback (most recent call last):
...
ValueError: node_limit must be a whole number from 1 to 1000000000 or None, not 0
>>> Limit.of(node_limit="many")
Traceback (most recent call last):
...
TypeError: node_limit must be a whole number from 1 to 1000000000 or None, not 'many'
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass

from ..engine.errors import MAX_SECONDS, is_whole, quote, seconds, whole

#: The most tables any one budget may hold (``node_limit``, the planner's ``budget``): a billion tables is
#: hours of search and gigabytes of memory; a larger number is refused, not silently cut.
MAX_TABLES = 10**9
#: The most redealt copies the honest search may sample for one move (``samples``).
MAX_SAMPLES = 100_000
#: The most seconds a ``time_limit`` may hold (about 31 years).
MAX_TIME = MAX_SECONDS


def tables(value: object, name: str = "node_limit", none: bool = False) -> int | None:
    """``value`` as a number of tables: a whole number from 1 to :data:`MAX_TABLES` (or ``None`` when ``none``).

    >>> tables(10**400, "budget")
    Traceback (most recent call last):
    ...
    ValueError: budget must be a whole number from 1 to 1000000000, not a whole number of 401 digits
    """
    if value is None and none:
        return None
    told = f"{name} must be a whole number from 1 to {MAX_TABLES}{' or None' if none else ''}, not {quote(value)}"
    if not is_whole(value):
        raise TypeError(told)
    if not 1 <= value <= MAX_TABLES:
        raise ValueError(told)
    return value


def samples_of(value: object) -> int:
    """``value`` as a number of sampled deals: a whole number from 1 to :data:`MAX_SAMPLES`."""
    return whole(value, "samples", 1, MAX_SAMPLES)


def seed_of(value: object, name: str = "seed", none: bool = False) -> int | None:
    """``value`` as the seed of a random choice: a whole number from 0 to 2**64 - 1 (or ``None`` when ``none``:
    fresh randomness). NaN, a float or a bool is a ``TypeError``: the same seed must give the same answer.

    >>> seed_of(float("nan"))
    Traceback (most recent call last):
    ...
    TypeError: seed must be a whole number, not nan
    """
    if value is None and none:
        return None
    return whole(value, name, 0, 2**64 - 1)


class Seconds(float):
    """A number of seconds given by default, not by the caller: :meth:`Limit.of` drops it when a ``node_limit``
    is given, so that a budget in tables alone gives the same answer on any machine (its ``repr`` is the
    number's)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return float.__repr__(self)


#: The seconds a solve has when neither ``time_limit`` nor ``node_limit`` is given.
DEFAULT_SECONDS = Seconds(10.0)


@dataclass(frozen=True)
class Limit:
    """A budget: at most ``time`` seconds (a number > 0) and ``tables`` expanded tables (a whole number from 1
    to :data:`MAX_TABLES`); ``None``: no such limit (``none=False``: ``tables`` is required). Checked when
    made: a wrong type raises ``TypeError`` and a wrong value ``ValueError``, naming ``time_limit`` or
    ``node_limit``, the arguments it comes from."""

    time: float | None = None
    tables: int | None = None
    none: InitVar[bool] = True

    def __post_init__(self, none: bool) -> None:
        object.__setattr__(self, "time", seconds(self.time, "time_limit", positive=True, none=True))
        tables(self.tables, "node_limit", none)

    @classmethod
    def of(cls, time_limit: object = None, node_limit: object = None, *, none: bool = True) -> Limit:
        """The budget of the keyword arguments ``time_limit`` and ``node_limit``, checked (see :class:`Limit`); a
        default time (:data:`DEFAULT_SECONDS`) counts only when no ``node_limit`` is given.

        >>> Limit.of(DEFAULT_SECONDS), Limit.of(DEFAULT_SECONDS, 5000), Limit.of(10.0, 5000)
        (Limit(time=10.0, tables=None), Limit(time=None, tables=5000), Limit(time=10.0, tables=5000))
        """
        if isinstance(time_limit, Seconds) and node_limit is not None:
            time_limit = None
        return cls(time_limit, node_limit, none)
