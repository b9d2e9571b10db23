"""Counts in words: ``1 move``, ``2 moves``. Every count the package shows with its noun goes through
:func:`plural`, so none says "1 moves".

>>> plural(1, "move"), plural(24, "card"), plural(1, "deal") + " left"
('1 move', '24 cards', '1 deal left')
"""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun``, in the plural (``nouns``, else ``noun`` and an s) unless ``n`` is 1; thousands
    separated by commas.

    >>> plural(0, "table"), plural(2_500_000, "table"), plural(1, "loss", "losses"), plural(3, "loss", "losses")
    ('0 tables', '2,500,000 tables', '1 loss', '3 losses')
    """
    return f"{n:,} {noun if n == 1 else nouns or noun + 's'}"
