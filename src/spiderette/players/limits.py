"""A search budget, checked once: seconds and tables (like ``chess.engine.Limit``).

Every search that takes ``time_limit`` (seconds) and ``node_limit`` (tables expanded) builds a :class:`Limit`
from them, so the two rules, and their words, live here only:

>>> Limit(time=2, tables=500)
Limit(time=2.0, tables=500)
>>> Limit.of(time_limit=None, node_limit=0)
Traceback (most recent call last):
...
ValueError: node_limit must be a whole number >= 1 or None, not 0
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass

from ..engine.errors import is_whole, quote, seconds, whole


@dataclass(frozen=True)
class Limit:
    """A budget: at most ``time`` seconds (a number > 0) and ``tables`` expanded tables (a whole number >= 1);
    ``None``: no such limit. Checked when made; a wrong value raises ``ValueError`` naming ``time_limit`` or
    ``node_limit``, the arguments it comes from.

    How a missing or wrong number of tables is refused, as each caller has always said it:

    * ``none``: ``tables`` may be ``None`` (else it is required, and the words drop "or None");
    * ``error``: the exception for a wrong ``tables`` (``ValueError``); ``None``: the words of
      :func:`~spiderette.engine.errors.whole`, a ``TypeError`` for a wrong type and a ``ValueError`` below 1.
    """

    time: float | None = None
    tables: int | None = None
    none: InitVar[bool] = True
    error: InitVar[type[Exception] | None] = ValueError

    def __post_init__(self, none: bool, error: type[Exception] | None) -> None:
        object.__setattr__(self, "time", seconds(self.time, "time_limit", positive=True, none=True, error=ValueError))
        if self.tables is None and none:
            return
        if error is None:
            whole(self.tables, "node_limit", 1)
        elif not is_whole(self.tables) or self.tables < 1:
            raise error(f"node_limit must be a whole number >= 1{' or None' if none else ''}, not {quote(self.tables)}")

    @classmethod
    def of(cls, time_limit: object = None, node_limit: object = None, *, none: bool = True,
           error: type[Exception] | None = ValueError) -> Limit:
        """The budget of the keyword arguments ``time_limit`` and ``node_limit``, checked (see :class:`Limit`)."""
        return cls(time_limit, node_limit, none, error)
