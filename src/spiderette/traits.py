"""Trait types of the notebook widgets that refuse bad values as the rest of the package does: a
``TypeError`` or ``ValueError`` naming the trait and quoting the value (traitlets' own ``TraitError`` is
neither, and quotes a value whole)."""

from __future__ import annotations

import traitlets

from .errors import quote, seconds


class Flag(traitlets.Bool):
    """``True`` or ``False``, nothing else (not ``1``, not ``"no"``)."""

    def validate(self, obj: object, value: object) -> bool:
        if not isinstance(value, bool):
            raise TypeError(f"{self.name} must be True or False, not {quote(value)}")
        return value


class Seconds(traitlets.Float):
    """A number of seconds from ``low`` to ``high``."""

    def __init__(self, default: float, low: float, high: float, **kwargs) -> None:
        super().__init__(default, **kwargs)
        self.low, self.high = low, high

    def validate(self, obj: object, value: object) -> float:
        value = seconds(value, self.name, high=self.high)
        if value < self.low:
            raise ValueError(f"{self.name} must be from {self.low} to {self.high} seconds, not {quote(value)}")
        return value
