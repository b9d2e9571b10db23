"""A static picture of the table as SVG (``Game._repr_svg_``), for places without a kernel.

Face-down and stock cards are drawn as backs only: the picture shows what a player may see.

>>> from spiderette import Game
>>> svg = game_svg(Game(seed=7))
>>> svg.startswith("<svg") and 'data-card="4H"' in svg
True
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .cards import card_code
from .move import LETTERS
from .words import plural

if TYPE_CHECKING:
    from .game import Game

W, H = 56, 78          # card size
GAP = 10               # between columns
UP, DOWN = 20, 8       # fan offsets of face-up and face-down cards
TOP = 20 + H + 22      # where the tableau starts
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
COLOUR = {"S": "#1a1a1a", "C": "#1a1a1a", "H": "#c62828", "D": "#c62828"}


def _back(x: float, y: float) -> str:
    return (f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="5" fill="#2f5fa8" stroke="#fff" '
            f'stroke-width="1.5"/><rect x="{x + 5}" y="{y + 5}" width="{W - 10}" height="{H - 10}" rx="3" '
            f'fill="none" stroke="#9bb8e8" stroke-width="1"/>')


def _face(x: float, y: float, code: str) -> str:
    rank, suit = code[0], code[1]
    label = "10" if rank == "T" else rank
    fill = COLOUR[suit]
    sym = SYMBOL[suit]
    return (f'<g data-card="{code}"><rect x="{x}" y="{y}" width="{W}" height="{H}" rx="5" fill="#fff" '
            f'stroke="#555" stroke-width="1"/>'
            f'<text x="{x + 4}" y="{y + 15}" fill="{fill}" font-size="13" font-weight="bold">'
            f'{label}{sym}</text>'
            f'<text x="{x + W / 2}" y="{y + H / 2 + 12}" fill="{fill}" font-size="30" '
            f'text-anchor="middle">{sym}</text></g>')


def _slot(x: float, y: float) -> str:
    return (f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="5" fill="none" stroke="#ffffff66" '
            f'stroke-width="1.5" stroke-dasharray="4 3"/>')


def game_svg(g: Game) -> str:
    """The table of ``g`` as a self-contained SVG document string."""
    with g.locked():
        n = g.columns
        deals, runs_total = g.deals_left, g.runs_total
        found = [card_code(r[0]) for r in g.foundations]
        cols = [(g.face_down(i), [card_code(c) for c in g.column(i)[g.face_down(i):]]) for i in range(n)]
        status = (f"score {g.score} · moves {g.move_count} · runs {g.runs_completed}/{runs_total}"
                  f" · {g.status}")
    width = GAP + n * (W + GAP)
    parts: list[str] = []
    # stock, top left
    if deals:
        for i in range(min(deals, 5)):
            parts.append(_back(GAP + 3 * i, 20))
    else:
        parts.append(_slot(GAP, 20))
    parts.append(f'<text x="{GAP}" y="14" fill="#fff" font-size="11">stock: {plural(deals, "deal")}</text>')
    # foundations, top right
    for j in range(runs_total):
        x = GAP + (n - runs_total + j) * (W + GAP)
        parts.append(_face(x, 20, found[j]) if j < len(found) else _slot(x, 20))
    height = TOP
    for i, (down, up) in enumerate(cols):
        x = GAP + i * (W + GAP)
        parts.append(f'<text x="{x + W / 2}" y="{TOP - 6}" fill="#fff" font-size="12" '
                     f'text-anchor="middle">{LETTERS[i]}</text>')
        y = TOP
        if not down and not up:
            parts.append(_slot(x, y))
        for _ in range(down):
            parts.append(_back(x, y))
            y += DOWN
        for code in up:
            parts.append(_face(x, y, code))
            y += UP
        height = max(height, y + H)
    parts.append(f'<text x="{GAP}" y="{height + 4}" fill="#fff" font-size="12">{escape(status)}</text>')
    height += 14
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            f'<rect width="100%" height="100%" rx="8" fill="#2e7d32"/>' + "".join(parts) + "</svg>")
