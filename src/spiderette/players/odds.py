"""What an undecided verdict means, measured: the odds that a position the solver left undecided is winnable.

Most undecided four-suit positions are neither shown winnable nor proven lost within any budget a player waits
for (their reachable tables run to tens of millions). What can be said is measured: of positions like this one
(the same variant and suits, about as many cards still hidden) that the solver left undecided after as many
tables, how many proved winnable when searched with ten times the budget, how many were proven lost, and how
many stayed undecided even then.
``benchmarks/odds.py`` measures it on deals and played games that no test uses, and writes the table shipped
beside this module (``odds.json``, with the command that remade it); a verdict quotes the row of its variant,
its number of suits, the largest measured budget the search spent, and its count of hidden cards.

The words (undecided, odds, "positions like it") are defined in the documentation's glossary
(``docs/glossary.md``). "Probably lost" is said only where the measurement supports it: even counting every
position that stayed undecided with ten times the search as winnable, the share is below one half, with 95%
confidence.

>>> o = odds_for("spiderette", 4, nodes=200_000, hidden=30)
>>> o.budget, o.hidden[0] <= 30 <= o.hidden[1], 0 <= o.share <= 1
(200000, True, True)
>>> odds_for("spiderette", 4, nodes=10, hidden=30) is None      # (less search than any measured budget)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("odds.json")


@dataclass(frozen=True)
class Odds:
    """One measured row: positions of ``variant`` with ``suits`` suits and ``hidden`` cards hidden (a range),
    left undecided after ``budget`` tables: ``undecided`` of them, of which ``winnable`` were won and ``lost``
    proven lost with ``factor`` times the search (the rest stayed undecided). ``interval`` is the 95% interval
    of the winnable share; ``open_high`` the upper end of the 95% interval of the share that was not proven
    lost (winnable or still undecided)."""

    variant: str
    suits: int
    budget: int
    hidden: tuple[int, int]
    undecided: int
    winnable: int
    lost: int
    factor: int
    interval: tuple[float, float]
    open_high: float

    @property
    def share(self) -> float:
        """The share of such positions that turned out winnable."""
        return self.winnable / self.undecided

    @property
    def probably_lost(self) -> bool:
        """Whether "probably lost" is supported: fewer than half of such positions could still be winnable, even
        counting every one left undecided with more search as winnable (95% confidence)."""
        return self.open_high < 0.5

    @property
    def head(self) -> str:
        """What the position is called: ``"probably lost"`` where that is supported, else ``"undecided"``."""
        return "probably lost" if self.probably_lost else "undecided"

    def words(self) -> str:
        """The odds in words, whole: what "like it" means, the share and its interval, the rest.

        >>> o = Odds("spiderette", 4, 200_000, (21, 30), 40, 5, 20, 10, (0.05, 0.27), 0.53)
        >>> o.words()[:106]
        'of 40 positions like it (the same variant and suits, 21-30 cards hidden, left undecided by 200,000 tables)'
        >>> o.words()[106:]
        ', 5 proved winnable with 10 times the search (95% interval 5-27%) and 20 were proven lost'
        >>> o.short()[:60]
        'undecided: 5 of 40 like it (21-30 cards hidden, undecided by'
        >>> o.short()[60:]
        ' 200,000 tables) proved winnable with 10× the search'
        """
        lo, hi = self.interval
        text = (f"of {self.undecided} positions like it (the same variant and suits, {self._like()}), {self.winnable}"
                f" proved winnable with {self.factor} times the search (95% interval {100 * lo:.0f}-{100 * hi:.0f}%)")
        return text + (f" and {self.lost} were proven lost" if self.lost else "")

    def short(self) -> str:
        """A few words for the table's Winnable? line: ``"probably lost: 1 of 8 like it (...) proved winnable
        with 10× the search"``, where "like it" says how the positions counted were like this one."""
        like = self._like().replace("left undecided", "undecided")
        return (f"{self.head}: {self.winnable} of {self.undecided} like it ({like}) proved winnable with"
                f" {self.factor}× the search")

    def _like(self) -> str:
        return f"{self.hidden[0]}-{self.hidden[1]} cards hidden, left undecided by {self.budget:,} tables"


@lru_cache(maxsize=1)
def table() -> tuple[Odds, ...]:
    """Every measured row (read once from ``odds.json``)."""
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return tuple(Odds(r["variant"], r["suits"], r["budget"], tuple(r["hidden"]), r["undecided"], r["winnable"],
                      r["lost"], data["factor"], tuple(r["interval"]), r["open_high"]) for r in data["rows"])


def odds_for(variant: str, suits: int, nodes: int, hidden: int) -> Odds | None:
    """The measured odds for a position of ``variant`` with ``suits`` suits and ``hidden`` cards hidden (face
    down and in the stock), left undecided after a search of ``nodes`` tables: the row of the largest budget
    measured that the search reached, or ``None`` when nothing was measured for it."""
    rows = [o for o in table() if o.variant == variant and o.suits == suits and o.budget <= nodes
            and o.hidden[0] <= hidden <= o.hidden[1]]
    return max(rows, key=lambda o: o.budget) if rows else None
