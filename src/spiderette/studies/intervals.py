"""The little statistics a study needs, without scipy: a Wilson interval and McNemar's paired test.

A win rate from ``n`` deals is uncertain; the **Wilson score interval** says by how much, and behaves well
near 0% and 100% (where Spiderette's win rates live). Two strategies played on the same deals are compared
by **McNemar's test**, which looks only at the deals where they differ: won by one and lost by the other.

>>> lo, hi = wilson_interval(81, 263)              # Newcombe (1998), example (a)
>>> round(lo, 4), round(hi, 4)
(0.2553, 0.3662)
>>> mcnemar(1, 9).p_value                          # 10 deals differ, 9 of them the second's: exact
0.021484375
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..engine.errors import whole
from ..engine.words import plural

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Below this many discordant deals McNemar's test is the exact binomial one (the usual rule of thumb).
EXACT_BELOW = 25


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``(0.0, 1.0)`` when ``trials`` is 0.

    >>> wilson_interval(0, 20)[1] > 0.16                # no win in 20 deals: the rate may still be 16%
    True
    """
    trials = whole(trials, "trials", 0)
    successes = whole(successes, "successes", 0, trials)
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def binomial_two_sided(k: int, n: int) -> float:
    """The exact two-sided p-value of ``k`` successes in ``n`` fair coin tosses (doubled smaller tail)."""
    n = whole(n, "n", 0)
    k = whole(k, "k", 0, n)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** n)))


def chi2_one_df_survival(x: float) -> float:
    """P(X >= x) for a chi-square variable with one degree of freedom.

    >>> round(chi2_one_df_survival(3.841458820694124), 6)
    0.05
    """
    return math.erfc(math.sqrt(max(0.0, x) / 2))


#: The built-in measures a paired test compares, in the words its sentence uses: (the test's name, what a
#: deal "better" for one strategy means). Any other number column of the rows, or a function of the final
#: game, is compared by the sign test too (:meth:`spiderette.Comparison.paired`).
MEASURES = {
    "won": ("McNemar", "won only by"),
    "runs": ("sign test", "with more runs completed by"),
    "face_down_left": ("sign test", "with fewer cards left face down by"),
    "suited": ("sign test", "with more cards in suited runs by"),
}
#: The measures of which less is better (for the others, more is).
FEWER_IS_BETTER = frozenset({"face_down_left"})


@dataclass(frozen=True)
class PairedTest:
    """A paired test of two strategies on the same deals: McNemar's on wins, or the sign test on a measure.

    ``only_first`` deals came out better for the first strategy (won by it and lost by the second; or, for a
    measure, more runs completed, fewer cards left face down, a higher value of one's own measure),
    ``only_second`` the other way round; ties do not count. ``method`` is ``"exact binomial"`` or
    ``"chi-square"`` (with continuity correction) for wins, ``"exact binomial"`` or ``"normal
    approximation"`` for a measure; ``names`` the two strategies' names and ``measure`` what was compared
    (``"won"``, ``"runs"``, ``"face_down_left"``, ``"suited"``, another column, or a function's name), with
    ``better`` (``"higher"`` or ``"lower"``: which way is better), for the sentence, which is also what a
    notebook shows.

    >>> print(PairedTest(5, 2, 0.453125, "exact binomial", ("mine", "greedy"), "score"))
    sign test (exact binomial): 5 deals with a higher score for mine, 2 for greedy; p = 0.453
    >>> print(mcnemar(40, 2))
    McNemar (chi-square): 40 deals won only by the first, 2 only by the second; p < 0.001
    """

    only_first: int
    only_second: int
    p_value: float
    method: str
    names: tuple[str, str] = ("the first", "the second")
    measure: str = "won"
    better: str = "higher"

    def __str__(self) -> str:
        if self.measure == "won":
            return (f"McNemar ({self.method}): {plural(self.only_first, 'deal')} won only by {self.names[0]},"
                    f" {self.only_second} only by {self.names[1]}; {p_text(self.p_value)}")
        if self.measure in MEASURES:
            test, better = MEASURES[self.measure]
            return (f"{test} ({self.method}): {plural(self.only_first, 'deal')} {better} {self.names[0]},"
                    f" {self.only_second} by {self.names[1]}; {p_text(self.p_value)}")
        return (f"sign test ({self.method}): {plural(self.only_first, 'deal')} with a {self.better} {self.measure} for"
                f" {self.names[0]}, {self.only_second} for {self.names[1]}; {p_text(self.p_value)}")

    def _repr_pretty_(self, p, cycle: bool) -> None:   # a notebook cell's result: the sentence
        p.text(str(self))


def mcnemar(only_first: int, only_second: int, exact: bool | None = None) -> PairedTest:
    """McNemar's test from the two discordant counts.

    ``exact=None`` uses the exact binomial test when fewer than :data:`EXACT_BELOW` deals differ, else the
    chi-square statistic ``(|b - c| - 1)² / (b + c)``; ``True`` or ``False`` chooses.

    >>> t = mcnemar(34, 14)
    >>> t.method, round(t.p_value, 4)
    ('chi-square', 0.0061)
    """
    b = whole(only_first, "only_first", 0)
    c = whole(only_second, "only_second", 0)
    if exact is not None and not isinstance(exact, bool):
        raise TypeError(f"exact must be True, False or None, not {exact!r}")
    if exact is None:
        exact = b + c < EXACT_BELOW
    if exact:
        return PairedTest(b, c, binomial_two_sided(min(b, c), b + c), "exact binomial")
    if b + c == 0:
        return PairedTest(b, c, 1.0, "chi-square")
    stat = (abs(b - c) - 1) ** 2 / (b + c) if abs(b - c) >= 1 else 0.0
    return PairedTest(b, c, min(1.0, chi2_one_df_survival(stat)), "chi-square")


def format_p(p: float) -> str:
    """A p-value as people write it: ``0.021``, ``< 0.001``.

    >>> format_p(0.021484375), format_p(1e-9), format_p(1.0)
    ('0.021', '< 0.001', '1')
    """
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}".rstrip("0").rstrip(".") if p < 1 else "1"


def p_text(p: float) -> str:
    """A p-value in a sentence: ``"p = 0.021"``, ``"p < 0.001"`` (never ``"p = < 0.001"``).

    >>> p_text(0.021484375), p_text(1e-9)
    ('p = 0.021', 'p < 0.001')
    """
    text = format_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def format_interval(lo: float, hi: float) -> str:
    """``"4.0–6.8%"``: an interval of rates as percentages.

    >>> format_interval(*wilson_interval(81, 263))
    '25.5–36.6%'
    """
    return f"{100 * lo:.1f}–{100 * hi:.1f}%"
