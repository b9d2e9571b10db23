"""Charts drawn as SVG with nothing installed: the pictures of ``plot()`` where matplotlib is missing (a browser
site without it), and of ``chart()`` always. A notebook shows a :class:`Chart` as a picture (its
``_repr_svg_``); printed, it gives its figures as text.

>>> c = bar_chart("win rate", ["greedy", "planner"], [20.0, 45.0], intervals=[(11.0, 33.0), (33.0, 58.0)],
...               ylabel="deals won (%)")
>>> c.svg.startswith("<svg") and ">planner<" in c.svg
True
>>> print(c)
win rate
  greedy   20.0  (11.0–33.0)
  planner  45.0  (33.0–58.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

#: The colours of the bars, in order (matplotlib's own, so both pictures colour a strategy alike).
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
FONT = 'font-family="sans-serif" font-size="11"'
CHAR = 6.2      # the width of a character of that font, about (pixels)
LABEL = 24      # the longest label under a bar, in characters (the bar's tooltip has it whole)


class Chart:
    """A picture as an SVG document (``svg``) with its figures as text (``text``): a notebook shows the picture
    when a cell ends with it; ``print`` gives the text."""

    def __init__(self, svg: str, text: str) -> None:
        self.svg, self.text = svg, text

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return self.text


@dataclass
class Panel:
    """One panel of bars: ``values[s][g]`` is series ``s`` in group ``g`` (one bar per series in each group),
    ``intervals[s][g]`` its interval drawn as a whisker (or ``None``)."""

    title: str
    groups: list[str]
    values: list[list[float]]
    series: list[str] = field(default_factory=lambda: [""])
    intervals: list[list[tuple[float, float]]] | None = None
    ylabel: str = ""
    xlabel: str = ""
    labels: bool = False          # each bar's value written above it
    unit: str = ""                # after a written value ("%")

    def top(self) -> float:
        tops = [v for row in self.values for v in row]
        if self.intervals:
            tops += [hi for row in self.intervals for _, hi in row]
        return _nice(max(tops, default=0.0) * (1.15 if self.labels else 1.0))

    def draw(self, x0: float, y0: float, w: float, h: float) -> str:
        """The panel in the box at ``(x0, y0)`` of ``w`` by ``h`` pixels."""
        names = [g if len(g) <= LABEL else g[:LABEL - 1] + "…" for g in self.groups]
        long = max((len(g) for g in names), default=0) * CHAR
        rotate = long > (w - 60) / max(1, len(names))
        left, right = x0 + 46, x0 + w - 8
        if rotate:   # (the first label, slanted, ends inside the panel)
            left = max(left, x0 + 4 + 0.82 * long - (right - left) / max(1, len(names)) / 2)
        bottom = y0 + h - (20 + 0.57 * long if rotate else 20) - (14 if self.xlabel else 0)
        out = [f'<text x="{x0 + w / 2}" y="{y0 + 14}" text-anchor="middle" font-weight="bold">'
               f'{escape(self.title)}</text>']
        top = y0 + 26
        if len(self.values) > 1:   # the legend, under the title: one swatch per series, in rows
            x = left
            for s, name in enumerate(self.series):
                size = 16 + len(name) * CHAR
                if x + size > right and x > left:
                    x, top = left, top + 14
                out.append(f'<rect x="{x:.1f}" y="{top - 4}" width="10" height="10" fill="{PALETTE[s % len(PALETTE)]}"'
                           f'/><text x="{x + 13:.1f}" y="{top + 5}">{escape(name)}</text>')
                x += size + 8
            top += 22
        ymax = self.top()

        def y(v: float) -> float:
            return bottom - (bottom - top) * max(0.0, v) / ymax

        for tick in _ticks(ymax):
            out.append(f'<line x1="{left}" x2="{right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>'
                       f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
        out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{bottom}" stroke="#333"/>'
                   f'<line x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}" stroke="#333"/>')
        if self.ylabel:
            mid = (top + bottom) / 2
            out.append(f'<text transform="translate({left - 36:.1f},{mid}) rotate(-90)" text-anchor="middle">'
                       f'{escape(self.ylabel)}</text>')
        slot = (right - left) / max(1, len(self.groups))
        n = len(self.values)
        width = slot * 0.7 / n
        for g, name in enumerate(names):
            centre = left + slot * (g + 0.5)
            for s in range(n):
                v = self.values[s][g]
                colour = PALETTE[(s if n > 1 else g) % len(PALETTE)]
                bx = centre + (s - n / 2) * width
                out.append(f'<rect x="{bx:.1f}" y="{y(v):.1f}" width="{width:.1f}" height="{bottom - y(v):.1f}" '
                           f'fill="{colour}" fill-opacity="0.85"><title>{escape(self._words(s, g))}</title></rect>')
                above = v
                if self.intervals:
                    lo, hi = self.intervals[s][g]
                    above = hi
                    cx = bx + width / 2
                    out.append(f'<path d="M{cx:.1f},{y(lo):.1f}V{y(hi):.1f}M{cx - 5:.1f},{y(lo):.1f}h10'
                               f'M{cx - 5:.1f},{y(hi):.1f}h10" stroke="#000" fill="none"/>')
                if self.labels:
                    out.append(f'<text x="{bx + width / 2:.1f}" y="{y(above) - 4:.1f}" text-anchor="middle">'
                               f'{v:.1f}{self.unit}</text>')
            if rotate:
                out.append(f'<text transform="translate({centre + 4:.1f},{bottom + 12}) rotate(-35)" '
                           f'text-anchor="end">{escape(name)}</text>')
            else:
                out.append(f'<text x="{centre:.1f}" y="{bottom + 15}" text-anchor="middle">{escape(name)}</text>')
        if self.xlabel:
            out.append(f'<text x="{(left + right) / 2}" y="{y0 + h - 4}" text-anchor="middle">'
                       f'{escape(self.xlabel)}</text>')
        return "".join(out)

    def _words(self, s: int, g: int) -> str:
        who = " ".join(p for p in (self.series[s] if len(self.values) > 1 else "", self.groups[g]) if p)
        text = f"{who}: {self.values[s][g]:.1f}{self.unit}"
        if self.intervals:
            lo, hi = self.intervals[s][g]
            text += f" ({lo:.1f}–{hi:.1f})"
        return text

    def as_text(self) -> str:
        """The panel's figures, one line a bar."""
        pad = max((len(g) for g in self.groups), default=0)
        lines = [self.title]
        for s in range(len(self.values)):
            if len(self.values) > 1:
                lines.append(f"  {self.series[s]}: " + ", ".join(
                    f"{g}: {v:.3g}{self.unit}" for g, v in zip(self.groups, self.values[s])))
                continue
            for g, name in enumerate(self.groups):
                line = f"  {name:<{pad}}  {self.values[s][g]:.1f}{self.unit}"
                if self.intervals:
                    lo, hi = self.intervals[s][g]
                    line += f"  ({lo:.1f}–{hi:.1f})"
                lines.append(line)
        return "\n".join(lines)


def chart(panels: Sequence[Panel], title: str = "", widths: Sequence[float] | None = None,
          height: float = 300) -> Chart:
    """The panels side by side (each ``widths[i]`` pixels wide, 320 by default) under ``title``."""
    widths = list(widths) if widths is not None else [320.0] * len(panels)
    head = 24 if title else 0
    total = sum(widths)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total:g}" height="{height + head:g}" '
             f'viewBox="0 0 {total:g} {height + head:g}" {FONT}><rect width="100%" height="100%" fill="#fff"/>']
    if title:
        parts.append(f'<text x="{total / 2}" y="16" text-anchor="middle" font-size="13">{escape(title)}</text>')
    x = 0.0
    for panel, w in zip(panels, widths):
        parts.append(panel.draw(x, head, w, height))
        x += w
    parts.append("</svg>")
    text = "\n".join([*([title] if title else []), *(p.as_text() for p in panels)])
    return Chart("".join(parts), text)


def bar_chart(title: str, labels: Sequence[str], values: Sequence[float],
              intervals: Sequence[tuple[float, float]] | None = None, ylabel: str = "") -> Chart:
    """One panel of bars, one a label, each with its interval if given (see the module's example)."""
    panel = Panel(title, list(labels), [list(values)], intervals=[list(intervals)] if intervals else None,
                  ylabel=ylabel, labels=True)
    return chart([panel], widths=[max(240.0, 90.0 * len(labels) + 60)])


def _nice(v: float) -> float:
    """The round number at or above ``v`` that the axis ends at (1, 2, 2.5 or 5 times a power of ten)."""
    if v <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(v))
    return next(m * power for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * power >= v - 1e-12)


def _ticks(top: float) -> list[float]:
    """Round values from 0 to about ``top``, three to six of them."""
    power = 10 ** math.floor(math.log10(top / 6))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if top / (m * power) <= 6)
    return [round(i * step, 10) for i in range(int(top / step + 1e-9) + 1)]


def strip_chart(title: str, colours: Sequence[str], values: Sequence[float], ylabel: str = "",
                mark: int | None = None, mark_label: str = "", text: str = "") -> Chart:
    """A strip of coloured stripes, one a position (``colours``), with a line through ``values`` over them and a
    dashed mark after position ``mark`` (labelled ``mark_label``); ``text``: its figures in words.

    >>> c = strip_chart("verdicts", ["#2e7d32", "#2e7d32", "#c62828"], [20, 19, 19], "cards face down", mark=1)
    >>> c.svg.count("<rect") >= 3 and "stroke-dasharray" in c.svg
    True
    """
    w, h, left, right, top, bottom = 760.0, 220.0, 50.0, 750.0, 30.0, 185.0
    n = max(1, len(colours))
    ymax = _nice(max(values, default=0.0))
    step = (right - left) / n

    def y(v: float) -> float:
        return bottom - (bottom - top) * v / ymax

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" viewBox="0 0 {w:g} {h:g}" '
             f'{FONT}><rect width="100%" height="100%" fill="#fff"/>'
             f'<text x="{w / 2}" y="16" text-anchor="middle" font-size="12">{escape(title)}</text>']
    parts += [f'<rect x="{left + i * step:.2f}" y="{top}" width="{step + 0.3:.2f}" height="{bottom - top}" '
              f'fill="{c}" fill-opacity="0.35"/>' for i, c in enumerate(colours)]
    for tick in _ticks(ymax):
        parts.append(f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
    points = " ".join(f"{left + (i + 0.5) * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#000" stroke-width="1.5"/>'
                 f'<line x1="{left}" x2="{left}" y1="{top}" y2="{bottom}" stroke="#333"/>'
                 f'<line x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}" stroke="#333"/>'
                 f'<text x="{(left + right) / 2}" y="{h - 8}" text-anchor="middle">position (moves played)</text>'
                 f'<text transform="translate(12,{(top + bottom) / 2}) rotate(-90)" text-anchor="middle">'
                 f'{escape(ylabel)}</text>')
    if mark is not None:
        x = left + (mark + 1) * step
        parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{bottom}" stroke="#c62828" '
                     f'stroke-dasharray="5 3" stroke-width="1.5"/><text x="{x + 4:.1f}" y="{top + 12}" '
                     f'fill="#c62828">{escape(mark_label)}</text>')
    parts.append("</svg>")
    return Chart("".join(parts), text or title)
