"""A static picture of the table as SVG (``Game._repr_svg_``), for places without a kernel.

Face-down and stock cards are drawn as backs only: the picture shows what a player may see.

>>> from spiderette import Game
>>> svg = game_svg(Game(seed=7))
>>> svg.startswith("<svg") and 'data-card="4H"' in svg
True
"""

from __future__ import annotations

from html import escape

from .game import Game
from .move import LETTERS

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
    n = g.columns
    width = GAP + n * (W + GAP)
    view = g.view()
    parts: list[str] = []
    # stock, top left
    if view["stock"]:
        for i in range(min(view["deals_left"], 5)):
            parts.append(_back(GAP + 3 * i, 20))
    else:
        parts.append(_slot(GAP, 20))
    parts.append(f'<text x="{GAP}" y="14" fill="#fff" font-size="11">'
                 f'stock: {view["deals_left"]} deals</text>')
    # foundations, top right
    for j in range(view["runs_total"]):
        x = GAP + (n - view["runs_total"] + j) * (W + GAP)
        if j < len(view["foundations"]):
            parts.append(_face(x, 20, view["foundations"][j]))
        else:
            parts.append(_slot(x, 20))
    height = TOP
    for i, col in enumerate(view["tableau"]):
        x = GAP + i * (W + GAP)
        parts.append(f'<text x="{x + W / 2}" y="{TOP - 6}" fill="#fff" font-size="12" '
                     f'text-anchor="middle">{LETTERS[i]}</text>')
        y = TOP
        if not col["down"] and not col["up"]:
            parts.append(_slot(x, y))
        for _ in range(col["down"]):
            parts.append(_back(x, y))
            y += DOWN
        for code in col["up"]:
            parts.append(_face(x, y, code))
            y += UP
        height = max(height, y + H)
    status = (f'score {view["score"]} · moves {view["moves"]} · runs {view["runs"]}/{view["runs_total"]}'
              f' · {view["status"]}')
    parts.append(f'<text x="{GAP}" y="{height + 4}" fill="#fff" font-size="12">{escape(status)}</text>')
    height += 14
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            f'<rect width="100%" height="100%" rx="8" fill="#2e7d32"/>' + "".join(parts) + "</svg>")

