"""Tables of text cells, printed as aligned text or shown as HTML: the one renderer behind the studies'
tables (``spiderette.studies.results.Table``) and the statistics (``spiderette.userdata.statistics.Stats``).

It lives in the engine, beside the static picture (``svg.py``), because it is the lowest wing both may
import; it knows nothing of cards or rules: headers and rows of strings in, a string out.

``align`` names each column's alignment, ``"l"`` (left) or ``"r"`` (right); one letter serves every column.

>>> print(text_table(["name", "n"], [["a", "1"], ["bcd", "22"]], align="lr"))
name   n
----  --
a      1
bcd   22
>>> html = html_table(["a<b"], [["R&D"], ["'q'"]], caption="x & y")
>>> print(*html.split("<tbody>"), sep="\\n<tbody>")
<table><caption>x &amp; y</caption><thead><tr><th>a&lt;b</th></tr></thead>
<tbody><tr><td>R&amp;D</td></tr><tr><td>&#x27;q&#x27;</td></tr></tbody></table>
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

GAP = "  "     # between two columns of the text table
RIGHT = " style='text-align:right'"


def _aligns(align: str, n: int) -> str:
    """One letter per column: ``align`` as given, or its one letter repeated."""
    if len(align) == 1:
        align *= n
    if len(align) != n or set(align) - {"l", "r"}:
        raise ValueError(f"align takes one letter 'l' or 'r', or one per column ({n}), not {align!r}")
    return align


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "l",
               rule: bool = True) -> str:
    """The headers and rows as lines of aligned columns, two spaces apart, with no space at the end of a
    line; ``rule``: a line of dashes under the headers.

    >>> print(text_table(["x", "y"], [["long", ""]], rule=False) + "|")
    x     y
    long|
    >>> text_table(["x", "y"], [], align="lc")
    Traceback (most recent call last):
    ValueError: align takes one letter 'l' or 'r', or one per column (2), not 'lc'
    """
    align = _aligns(align, len(headers))
    cells = [list(headers), *(list(r) for r in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [GAP.join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align)).rstrip()
             for row in cells]
    if rule:
        lines.insert(1, GAP.join("-" * w for w in widths))
    return "\n".join(lines)


def html_table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str = "l",
               caption: str | None = None, css_class: str | None = None) -> str:
    """The headers and rows as an HTML table, every header, cell and the caption escaped; a cell of a
    column aligned ``"r"`` is set to the right.

    >>> html = html_table(["n", "m"], [["1", "2"]], align="lr", css_class="totals")
    >>> print(*html.split("<tbody>"), sep="\\n<tbody>")
    <table class='totals'><thead><tr><th>n</th><th>m</th></tr></thead>
    <tbody><tr><td>1</td><td style='text-align:right'>2</td></tr></tbody></table>
    """
    align = _aligns(align, len(headers))
    opening = "<table" + (f" class='{escape(css_class)}'" if css_class else "") + ">"
    if caption is not None:
        opening += f"<caption>{escape(caption)}</caption>"
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td{RIGHT if a == 'r' else ''}>{escape(c)}</td>" for c, a in zip(row, align))
                   + "</tr>" for row in rows)
    return f"{opening}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
