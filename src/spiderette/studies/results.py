"""What a study gives back: :class:`Simulation` (one strategy) and :class:`Comparison` (several, same deals).

Rows are plain dicts and always work, and so do the text tables (``Comparison.table()``) and ``chart()`` (an SVG
picture); ``to_pandas()`` needs the optional extra (``pip install "spiderette[teach]"``: pandas, matplotlib, tqdm
and Dask), and ``plot()`` draws with matplotlib when it is there, else gives ``chart()``'s picture.

>>> sim = Simulation("mine", False, [{"deal": 1, "won": True, "runs": 4, "score": 800, "moves": 100,
...                  "face_down_left": 0, "seconds": 0.1, "end": "won"}], {1: ""})
>>> print(sim.summary().splitlines()[0])
mine on 1 spiderette deal (4 suits): won 1 (100.0%, 95% CI 20.7–100.0%)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeGuard

from ..engine.errors import quote
from ..engine.game import Game
from ..engine.tabular import html_table, text_table
from ..engine.words import plural
from ..players.chart import Chart, Panel, chart
from ..players.extras import need, new_figure
from .intervals import (
    FEWER_IS_BETTER,
    MEASURES,
    Z95,
    PairedTest,
    format_interval,
    format_p,
    mcnemar,
    p_text,
    wilson_interval,
)

if TYPE_CHECKING:
    import pandas
    from matplotlib.figure import Figure


def end_kind(end: str) -> str:
    """The kind of an ``end`` without its details: ``"illegal move: ab1: …"`` -> ``"illegal move"``.

    >>> end_kind("resigned (proven lost at move 0)"), end_kind("illegal move: ab1: nothing goes on an ace")
    ('resigned', 'illegal move')
    """
    return end.split(" (", 1)[0].split(":", 1)[0]


class Simulation:
    """One strategy on many deals (what :func:`spiderette.simulate` returns).

    ``rows`` (one dict per deal, in the order of the deals), ``lines`` (deal -> the moves played, as
    notation), ``strategy`` (its label), ``peeks``, ``partial`` (``None``, or why some deals are missing),
    ``command`` (``None``, or the command that made a study read from a file: :meth:`save`, :meth:`load`).
    """

    def __init__(self, strategy: str, peeks: bool, rows: list[dict], lines: dict[int, str], *,
                 variant: str = "spiderette", suits: int = 4, max_moves: int = 1000, seed: int = 0,
                 runs_total: int = 4, partial: str | None = None, wall_seconds: float = 0.0) -> None:
        self.strategy = strategy
        self.peeks = peeks
        self.rows = rows
        self.lines = lines
        self.variant = variant
        self.suits = suits
        self.max_moves = max_moves
        self.seed = seed
        self.runs_total = runs_total
        self.partial = partial
        self.wall_seconds = wall_seconds
        self.command: str | None = None

    # ------------------------------------------------------------------ figures
    @property
    def deals(self) -> list[int]:
        return [r["deal"] for r in self.rows]

    @property
    def wins(self) -> int:
        return sum(1 for r in self.rows if r["won"])

    @property
    def win_rate(self) -> float:
        """The share of deals won (``nan`` with no deal)."""
        return self.wins / len(self.rows) if self.rows else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, len(self.rows))

    def runs_distribution(self) -> list[int]:
        """How many deals ended with 0, 1, … ``runs_total`` runs completed."""
        counts = Counter(r["runs"] for r in self.rows)
        return [counts.get(k, 0) for k in range(self.runs_total + 1)]

    def ends(self) -> Counter:
        """How the games ended, by kind (``won``, ``resigned``, ``no moves``, ``move cap``, ``illegal move``)."""
        return Counter(end_kind(r["end"]) for r in self.rows)

    def _mean(self, key: str) -> float:
        return sum(r[key] for r in self.rows) / len(self.rows) if self.rows else float("nan")

    def summary(self) -> str:
        """A few lines in words: win rate with its 95% interval, runs, how the games ended, time."""
        n = len(self.rows)
        lines = [f"{self.strategy} on {plural(n, self.variant + ' deal')} ({plural(self.suits, 'suit')}): won"
                 f" {self.wins} ({100 * self.win_rate:.1f}%, 95% CI"
                 f" {format_interval(*self.interval)})"]
        if n:
            dist = ", ".join(f"{k}: {c}" for k, c in enumerate(self.runs_distribution()))
            lines.append(f"runs completed: {dist}; mean {self._mean('runs'):.2f}")
            lines.append("ends: " + ", ".join(f"{k} {c}" for k, c in self.ends().most_common()))
            lines.append(f"moves per game {self._mean('moves'):.1f}; {self._mean('seconds') * 1000:.1f} ms per"
                         f" game")
        if self.partial:
            lines.append(f"PARTIAL: {self.partial}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        part = ", partial" if self.partial else ""
        rate = f"{100 * self.win_rate:.1f}%" if self.rows else "-"
        return (f"<Simulation {self.strategy}: won {self.wins} of {plural(len(self.rows), self.variant + ' deal')}"
                f" ({rate}, 95% CI {format_interval(*self.interval)}){part}>")

    # ------------------------------------------------------------------ games
    def row(self, deal: int) -> dict:
        """The row of deal ``deal``."""
        for r in self.rows:
            if r["deal"] == deal:
                return r
        raise ValueError(f"deal {quote(deal)} is not in this study")

    def game(self, deal: int) -> Game:
        """The game of deal ``deal`` as the strategy played it: the recorded moves replayed on the deal."""
        self.row(deal)
        g = Game(self.variant, seed=deal, suits=self.suits)
        g.play(self.lines[deal])
        return g

    def replay(self, deal: int, advice: str = "ranked"):
        """The game of deal ``deal`` in the replay viewer (:class:`spiderette.notebook.replay.Replay`); ``advice``:
        whose reasons the move list gives (``"ranked"`` or ``"planner"``)."""
        from ..notebook.replay import Replay

        return Replay(self.game(deal), advice=advice)

    # ------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike, command: str | None = None) -> None:
        """Write the study to ``path`` (JSON), with ``command``, how to make it again
        (:func:`spiderette.studies.studyfile.save`)."""
        from .studyfile import save

        save(self, path, command)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Simulation:
        """The study saved in ``path``, every game replayed and checked against its row
        (:func:`spiderette.studies.studyfile.load`; a ``ValueError`` says what is wrong with a bad file)."""
        from .studyfile import load

        return load(path)

    # ------------------------------------------------------------------ optional extras
    def to_pandas(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame: one row per deal, ``strategy`` then the rows' columns (``deal`` among
        them, a column: ``df.deal``; ``df.set_index("deal")`` to look deals up)."""
        pd = need("to_pandas()", "pandas", instead="the same rows as dicts without it: .rows")
        df = pd.DataFrame(self.rows, columns=list(self.rows[0]) if self.rows else ["deal"])
        df.insert(0, "strategy", self.strategy)
        return df

    def plot(self) -> Figure | Chart:
        """The win rate with its 95% interval, the distribution of runs completed and the cards left face down: a
        matplotlib Figure, or without matplotlib the same picture drawn as SVG (:meth:`chart`)."""
        return _plot([self], self._title())

    def chart(self) -> Chart:
        """The picture of :meth:`plot` drawn as SVG, which needs no package (a browser site without matplotlib);
        printed, its figures as text.

        >>> from spiderette import GreedyStrategy, simulate
        >>> c = simulate(GreedyStrategy(), deals=[1, 2], suits=1, progress=False).chart()
        >>> c.svg.startswith("<svg"), str(c).splitlines()[1]
        (True, 'win rate (% of deals won, 95% CI)')
        """
        return _chart([self], self._title())

    def _title(self) -> str:
        return f"{self.strategy} on {_deals(len(self.rows), self.variant, self.suits)}"


class Table(list):
    """Rows (dicts) that print as an aligned text table, show as HTML in a notebook, and become a DataFrame."""

    def __str__(self) -> str:
        return text_table(*self._cells()) if self else "(empty)"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return html_table(*self._cells()) if self else "<p>(empty)</p>"

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        """The headers (the first row's keys) and the rows' cells as text."""
        cols = list(self[0])
        return cols, [[_cell(r.get(c)) for c in cols] for r in self]

    def to_pandas(self) -> pandas.DataFrame:
        return need("to_pandas()", "pandas", instead="the table is a list of dicts without it").DataFrame(list(self))


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.3g}"
    return str(v)


class Comparison:
    """Several strategies on the same deals (what :func:`spiderette.compare` returns).

    ``results`` holds one :class:`Simulation` per strategy; ``deals`` the deals every one of them played
    (all of them, unless the study was interrupted: ``partial``).
    """

    def __init__(self, results: Sequence[Simulation], partial: bool = False) -> None:
        self.results = list(results)
        common = set.intersection(*(set(r.deals) for r in self.results)) if self.results else set()
        self.deals = [d for d in self.results[0].deals if d in common] if self.results else []
        self.partial = (f"interrupted: {plural(len(self.deals), 'deal')} played by every strategy" if partial else None)

    @property
    def labels(self) -> list[str]:
        return [r.strategy for r in self.results]

    def _index(self, which: int | str) -> int:
        if isinstance(which, str) and which in self.labels:
            return self.labels.index(which)
        n = len(self.results)
        if isinstance(which, int) and not isinstance(which, bool) and -n <= which < n:
            return which % n
        raise ValueError(f"no strategy {quote(which)} here: one of {', '.join(map(repr, self.labels))}"
                         " or its index")

    def paired(self, first: int | str = 0, second: int | str = 1, measure: str | Callable[[Game], float] = "won",
               better: str | None = None) -> PairedTest:
        """A paired test of two strategies (indexes or labels) on the deals both played.

        ``measure="won"``: McNemar's test on the deals won. Any other measure: the sign test on the deals where
        the two differ, which tells strategies apart when nobody wins:

        * a number column of the rows: ``"runs"`` (completed), ``"face_down_left"`` (fewer is better),
          ``"suited"`` (cards in suited runs at the end), ``"score"``, ``"moves"``, …;
        * a function of the final game, ``measure=lambda game: ...`` returning a number (each game is
          replayed from its moves: :meth:`Simulation.game`), named in the sentence by its ``__name__``.

        ``"score"`` is the game's score, 500 − moves + 100 × runs: it counts every move against the player, so a
        strategy that resigns at once keeps 500 and wins the test against any that plays on. To compare play,
        take a measure that only grows by playing well: ``"runs"``, ``"suited"``, ``"face_down_left"`` or the
        cards turned over (``turned`` below).

        ``better``: ``"higher"`` (the default, but ``"lower"`` for ``face_down_left``) or ``"lower"``: which
        way a deal counts for a strategy. A measure that is neither is a ``ValueError`` naming the choices.

        >>> from spiderette import GreedyStrategy, RulesOfThumb, compare
        >>> cmp = compare([GreedyStrategy(), RulesOfThumb()], deals=range(1, 6), suits=4, progress=False)
        >>> str(cmp.paired(0, 1, measure="suited")).startswith("sign test (exact binomial): ")
        True
        >>> def turned(game):
        ...     "The cards turned over: face down at the start of the deal (21 in Spiderette), not at the end."
        ...     return game.rules.face_down_at_start - sum(game.face_down(i) for i in range(game.columns))
        >>> t = cmp.paired(0, 1, measure=turned)
        >>> t.measure, t.only_first + t.only_second <= 5
        ('turned', True)
        """
        label, values = self._measure(measure)
        if better is None:
            better = "lower" if label in FEWER_IS_BETTER else "higher"
        if better not in ("higher", "lower"):
            raise ValueError(f"better must be 'higher' or 'lower', not {quote(better)}")
        i, j = self._index(first), self._index(second)
        return self._paired(i, j, label, values(i), values(j), better)

    def _paired(self, i: int, j: int, label: str, a: dict, b: dict, better: str) -> PairedTest:
        sign = -1 if better == "lower" else 1
        only_a = sum(1 for d in self.deals if sign * (a[d] - b[d]) > 0)
        only_b = sum(1 for d in self.deals if sign * (b[d] - a[d]) > 0)
        test = mcnemar(only_a, only_b)
        return replace(test, names=(self.labels[i], self.labels[j]), measure=label, better=better,
                       method=test.method if label == "won" else "exact binomial" if test.method ==
                       "exact binomial" else "normal approximation")

    def _measure(self, measure: object) -> tuple[str, Callable[[int], dict]]:
        """``(its label, strategy index -> {deal: value})`` for a measure: a number column or a function."""
        columns = self._number_columns()
        choices = (f"measure must be a number column of the rows ({', '.join(map(repr, columns))}) or a function"
                   f" of the final game (game -> number), not {quote(measure)}")
        if isinstance(measure, str):
            if measure not in columns:
                raise ValueError(choices)
            return measure, lambda i: {r["deal"]: _number(r[measure], measure) for r in self.results[i].rows}
        if callable(measure):
            label = getattr(measure, "__name__", None)
            label = label if isinstance(label, str) and label.isidentifier() else "measure"
            cache: dict[int, dict] = {}

            def values(i: int) -> dict:
                if i not in cache:
                    res = self.results[i]
                    cache[i] = {d: _number(measure(res.game(d)), label) for d in self.deals}
                return cache[i]
            return label, values
        raise ValueError(choices)

    def _number_columns(self) -> list[str]:
        """The columns of the rows that hold numbers in every row (``deal`` aside)."""
        rows = [r for res in self.results for r in res.rows]
        if not rows:
            return list(MEASURES)
        return [k for k in rows[0] if k != "deal" and all(_is_number(r.get(k)) for r in rows)]

    def table(self, measure: str | Callable[[Game], float] | None = None, better: str | None = None) -> Table:
        """One row per strategy on the common deals; the last columns compare each with the first.

        With ``measure`` (as :meth:`paired` takes it: a number column or a function of the final game), two
        more columns: its mean and the sign test's p against the first strategy.
        """
        out = Table()
        common = set(self.deals)
        first_wins = sum(1 for r in self.results[0].rows if r["deal"] in common and r["won"]) if self.results else 0
        extra = None
        if measure is not None:
            label, values = self._measure(measure)
            if better is None:
                better = "lower" if label in FEWER_IS_BETTER else "higher"
            if better not in ("higher", "lower"):
                raise ValueError(f"better must be 'higher' or 'lower', not {quote(better)}")
            extra = label, values
        for i, res in enumerate(self.results):
            rows = [r for r in res.rows if r["deal"] in common]
            n, wins = len(rows), sum(1 for r in rows if r["won"])
            row = {"strategy": res.strategy, "deals": n, "won": wins,
                   "win rate": f"{100 * wins / n:.1f}%" if n else "-",
                   "95% CI": format_interval(*wilson_interval(wins, n)),
                   "runs": round(sum(r["runs"] for r in rows) / n, 2) if n else None,
                   "face down": round(sum(r["face_down_left"] for r in rows) / n, 1) if n else None,
                   "moves": round(sum(r["moves"] for r in rows) / n, 1) if n else None,
                   "ms/game": round(1000 * sum(r["seconds"] for r in rows) / n, 1) if n else None}
            if extra is not None:
                label, values = extra
                mine = values(i)
                row[f"{label} (mean)"] = round(sum(mine[d] for d in self.deals) / n, 2) if n else None
            if len(self.results) > 1:
                row[f"vs {self.labels[0]}"] = "" if i == 0 else f"{100 * (wins - first_wins) / max(n, 1):+.1f} pts"
                row["p (McNemar)"] = "" if i == 0 else format_p(self.paired(0, i).p_value)
                row["p (face down, sign)"] = "" if i == 0 else format_p(self.paired(0, i, "face_down_left").p_value)
                if extra is not None:
                    assert better is not None   # (given, or chosen above with extra)
                    label, values = extra
                    row[f"p ({label}, sign)"] = "" if i == 0 else format_p(
                        self._paired(0, i, label, values(0), values(i), better).p_value)
            out.append(row)
        return out

    def summary(self) -> str:
        text = str(self.table())
        if len(self.results) == 2:
            text += "\n" + str(self.paired())
        if self.partial:
            text += f"\nPARTIAL: {self.partial}"
        return text

    def __repr__(self) -> str:
        part = ", partial" if self.partial else ""
        return f"<Comparison of {', '.join(self.labels)} on {plural(len(self.deals), 'deal')}{part}>"

    def to_pandas(self) -> pandas.DataFrame:
        """Every row of every strategy, with a ``strategy`` column (long form: one row per strategy and deal;
        ``deal`` a column, the index 0, 1, …)."""
        pd = need("to_pandas()", "pandas", instead="the same figures without it: .table(), and each strategy's"
                  " .results[i].rows")
        return pd.concat([r.to_pandas() for r in self.results], ignore_index=True)

    def plot(self) -> Figure | Chart:
        """Win rates side by side with their 95% intervals, the runs-completed distributions, and the cards left
        face down (its mean with a 95% interval): a matplotlib Figure, shown as a picture in a notebook; without
        matplotlib (a browser site without it), the same picture drawn as SVG (:meth:`chart`)."""
        return _plot(self._restricted(), self._title())

    def chart(self) -> Chart:
        """The picture of :meth:`plot` drawn as SVG, which needs no package; printed, its figures as text.

        >>> from spiderette import RandomStrategy, RulesOfThumb, compare
        >>> cmp = compare([RandomStrategy(seed=1), RulesOfThumb()], deals=range(1, 6), suits=1, progress=False)
        >>> for line in str(cmp.chart()).splitlines()[-3:]:
        ...     print(line)
        cards left face down (mean, 95% CI)
          random (seed=1)  18.4  (15.9–20.9)
          rules of thumb   7.8  (1.6–14.0)
        """
        return _chart(self._restricted(), self._title())

    def _restricted(self) -> list[Simulation]:
        common = set(self.deals)
        return [_restrict(r, common) for r in self.results]

    def _title(self) -> str:
        first = self.results[0] if self.results else None
        title = _deals(len(self.deals), first.variant, first.suits) if first else ""
        if len(self.results) == 2:
            t = self.paired()
            title += f"; McNemar {p_text(t.p_value)} ({t.only_first} vs {plural(t.only_second, 'deal')} differ)"
        return title


def _is_number(v: object) -> TypeGuard[float]:
    return isinstance(v, (int, float)) and not (isinstance(v, float) and v != v)   # (bools are ints; not nan)


def _number(v: object, label: str) -> float:
    """A measure's value, checked: a number (``True`` counts 1)."""
    if not _is_number(v):
        raise ValueError(f"the measure {label} must give a number for every deal, not {quote(v)}")
    return v


def _restrict(res: Simulation, deals: set[int]) -> Simulation:
    rows = [r for r in res.rows if r["deal"] in deals]
    return Simulation(res.strategy, res.peeks, rows, {d: res.lines[d] for d in res.lines if d in deals},
                      variant=res.variant, suits=res.suits, runs_total=res.runs_total)


def _deals(n: int, variant: str, suits: int) -> str:
    """``"200 spiderette deals (4 suits)"``: what a plot's title says was played."""
    return f"{plural(n, variant + ' deal')} ({plural(suits, 'suit')})"


def _face_down(results: list[Simulation]) -> tuple[list[float], list[float]]:
    """The mean of the cards left face down of each study, and the half width of its 95% interval."""
    means, halves = [], []
    for r in results:
        xs_ = [row["face_down_left"] for row in r.rows]
        n = len(xs_)
        mean = sum(xs_) / n if n else 0.0
        sd = (sum((x - mean) ** 2 for x in xs_) / (n - 1)) ** 0.5 if n > 1 else 0.0
        means.append(mean)
        halves.append(Z95 * sd / n ** 0.5 if n else 0.0)
    return means, halves


def _chart(results: list[Simulation], title: str) -> Chart:
    """:func:`_plot`'s three panels as SVG (:mod:`spiderette.players.chart`)."""
    labels = [r.strategy for r in results]
    rates = [100 * r.win_rate if r.rows else 0.0 for r in results]
    ci = [(100 * r.interval[0], 100 * r.interval[1]) for r in results]
    runs_total = max((r.runs_total for r in results), default=0)
    dists = []
    for r in results:
        dist = r.runs_distribution() + [0] * (runs_total - r.runs_total)
        dists.append([100 * c / max(1, len(r.rows)) for c in dist])
    means, halves = _face_down(results)
    panels = [
        Panel("win rate (% of deals won, 95% CI)", labels, [rates], intervals=[ci], ylabel="deals won (%)",
              labels=True, unit="%"),
        Panel("runs completed per game (% of deals)", [str(k) for k in range(runs_total + 1)], dists,
              series=labels, ylabel="deals (%)", xlabel="runs completed", unit="%"),
        Panel("cards left face down (mean, 95% CI)", labels, [means],
              intervals=[[(max(0.0, m - h), m + h) for m, h in zip(means, halves)]], ylabel="cards (fewer is better)",
              labels=True),
    ]
    return chart(panels, title, widths=[340, 460, 340], height=330)


def _plot(results: list[Simulation], title: str) -> Figure | Chart:
    try:
        fig = new_figure(figsize=(13, 3.8), layout="constrained")
    except ImportError:   # no matplotlib (a browser site without it): the same picture as SVG
        return _chart(results, title)
    ax1, ax2, ax3 = fig.subplots(1, 3, width_ratios=[1, 1.6, 1])
    labels = [r.strategy for r in results]
    rates = [100 * r.win_rate if r.rows else 0.0 for r in results]
    lows = [100 * r.interval[0] for r in results]
    highs = [100 * r.interval[1] for r in results]
    xs = range(len(results))
    ax1.bar(xs, rates, color=[f"C{i}" for i in xs], alpha=0.8)
    ax1.errorbar(xs, rates, yerr=[[max(0.0, v - lo) for v, lo in zip(rates, lows)],
                                  [max(0.0, hi - v) for v, hi in zip(rates, highs)]],
                 fmt="none", ecolor="black", capsize=5)
    for x, v, hi in zip(xs, rates, highs):
        ax1.annotate(f"{v:.1f}%", (x, hi), textcoords="offset points", xytext=(0, 3), ha="center")
    many = len(results) > 2
    ax1.set_xticks(list(xs), labels, rotation=20 if many else 0, ha="right" if many else "center")
    ax1.set_ylabel("deals won (%), 95% CI")
    ax1.set_ylim(0, max(5.0, max(highs, default=0) * 1.2))
    ax1.set_title("win rate")
    runs_total = max(r.runs_total for r in results)
    width = 0.8 / len(results)
    for i, r in enumerate(results):
        dist = r.runs_distribution() + [0] * (runs_total - r.runs_total)
        n = max(1, len(r.rows))
        ax2.bar([k + (i - (len(results) - 1) / 2) * width for k in range(runs_total + 1)],
                [100 * c / n for c in dist], width=width, label=r.strategy, color=f"C{i}", alpha=0.8)
    ax2.set_xticks(range(runs_total + 1))
    ax2.set_xlabel("runs completed")
    ax2.set_ylabel("deals (%)")
    ax2.set_title("runs completed per game")
    if len(results) > 1:
        ax2.legend()
    # the cards still face down at the end: it tells strategies apart when nobody wins (fewer is better)
    means, halves = _face_down(results)
    ax3.bar(xs, means, color=[f"C{i}" for i in xs], alpha=0.8)
    ax3.errorbar(xs, means, yerr=halves, fmt="none", ecolor="black", capsize=5)
    ax3.set_xticks(list(xs), labels, rotation=20 if many else 0, ha="right" if many else "center")
    ax3.set_ylabel("cards (mean, 95% CI)")
    ax3.set_title("cards left face down (fewer is better)")
    fig.suptitle(title)
    return fig
