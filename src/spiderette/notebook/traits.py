"""Trait types of the notebook widgets that refuse bad values as the rest of the package does: a
``TypeError`` or ``ValueError`` naming the trait and quoting the value (traitlets' own ``TraitError`` is
neither, and quotes a value whole)."""

from __future__ import annotations

import traitlets

from ..engine.errors import is_number, quote


class Flag(traitlets.Bool):
    """``True`` or ``False``, nothing else (not ``1``, not ``"no"``)."""

    def validate(self, obj: object, value: object) -> bool:
        if not isinstance(value, bool):
            raise TypeError(f"{self.name} must be True or False, not {quote(value)}")
        return value


class Seconds(traitlets.Float):
    """A number of seconds from ``low`` to ``high`` (an ``int`` or ``float``, not a ``bool``)."""

    def __init__(self, default: float, low: float, high: float, **kwargs) -> None:
        super().__init__(default, **kwargs)
        self.low, self.high = low, high

    def validate(self, obj: object, value: object) -> float:
        if not is_number(value):
            raise TypeError(f"{self.name} must be a number of seconds, not {quote(value)}")
        if not self.low <= value <= self.high:   # (NaN fails it; so does a number too large for a float)
            raise ValueError(f"{self.name} must be from {self.low} to {self.high} seconds, not {quote(value)}")
        return float(value)
