"""Shared helpers: build valid hand-made positions from "the columns I care about".

``build(variant, tableau=[...], stock=[...], ...)`` returns a dict for ``Game.from_dict``. Cards are
written as in ``to_dict`` (``"|5H"`` is face down). The rest of the deck goes where the test says:

* ``"*"`` inside a column (in its face-down part) is replaced by every card not named anywhere else,
  face down; if ``"*"`` is the last item of the column, the last of those cards is turned face up;
* ``stock_size=N`` first tops the stock up to ``N`` cards (after the cards named in ``stock``);
* a column given as ``["+"]`` gets one card that is left, face up;
* with no ``"*"`` at all, whatever is left goes to the end of the stock.

Positions are written with four suits; with ``suits=2`` clubs become spades and diamonds hearts, with
``suits=1`` everything is spades (``suited`` does the same for expected values), so one hand-made position
serves every suit option of a variant.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from spiderette import Game, Move
from spiderette.engine.cards import card_code, make_deck, parse_card
from spiderette.engine.variants import RULES

#: The source folder of this tree (``pythonpath`` in the pytest configuration puts it first on ``sys.path``).
SRC = Path(__file__).resolve().parents[1] / "src"

#: Every (variant, suits) combination the rules allow.
VARIANT_SUITS = [(name, s) for name, rules in RULES.items() for s in rules.suit_options]
VS_IDS = [f"{v}-{s}" for v, s in VARIANT_SUITS]
#: The variants whose groups and runs go by suit (every one but red-black).
SUIT_VARIANTS = [vs for vs in VARIANT_SUITS if RULES[vs[0]].group == "suit"]

_SUIT_MAP = {4: {}, 2: {"C": "S", "D": "H"}, 1: {"H": "S", "C": "S", "D": "S"}}


def suited(code: str, suits: int) -> str:
    """``code`` as it reads with ``suits`` suits (``"|5D"`` -> ``"|5H"`` with two suits)."""
    if code in ("*", "+"):
        return code
    mark = "|" if code.startswith("|") else ""
    c = card_code(parse_card(code.lstrip("|")))
    return mark + c[0] + _SUIT_MAP[suits].get(c[1], c[1])


def run(suit: str = "S", top: int = 13, bottom: int = 1) -> list[str]:
    """The cards of one suit from rank ``top`` down to rank ``bottom``: ``run("S")`` is KS..AS."""
    ranks = "A23456789TJQK"
    return [ranks[r - 1] + suit for r in range(top, bottom - 1, -1)]


def build(variant: str = "spiderette", tableau=(), stock=(), stock_size: int | None = None,
          foundations=(), suits: int = 4, **extra) -> dict:
    rules = RULES[variant]
    n = rules.columns
    assert len(tableau) <= n, "more columns than the variant has"
    cols = [[suited(c, suits) for c in col] for col in tableau] + [[] for _ in range(n - len(tableau))]
    stock = [suited(c, suits) for c in stock]
    found = [[suited(c, suits) for c in (run(r) if isinstance(r, str) else r)] for r in foundations]
    named = Counter(c.lstrip("|") for col in cols for c in col if c not in ("*", "+"))
    named.update(stock)
    named.update(c for r in found for c in r)
    deck = Counter(card_code(c) for c in make_deck(rules.decks, suits))
    too_many = named - deck
    assert not too_many, f"the hand-made position uses cards the deck lacks: {dict(too_many)}"
    rest = []
    for c in (card_code(c) for c in make_deck(rules.decks, suits)):
        if named[c]:
            named[c] -= 1
        else:
            rest.append(c)
    if stock_size is not None:
        need = stock_size - len(stock)
        assert 0 <= need <= len(rest), "cannot make the stock that size"
        stock = stock + rest[len(rest) - need:]
        rest = rest[:len(rest) - need]
    for col in cols:
        if col == ["+"]:
            assert rest, "no card left for a '+' column"
            col[0] = rest.pop(0)
    stars = [(i, j) for i, col in enumerate(cols) for j, c in enumerate(col) if c == "*"]
    assert len(stars) <= 1, "at most one '*'"
    if stars:
        i, j = stars[0]
        filler = ["|" + c for c in rest]
        if j == len(cols[i]) - 1 and filler:
            filler[-1] = filler[-1][1:]
        cols[i][j:j + 1] = filler
    else:
        stock = stock + rest
    return {"variant": variant, "suits": suits, "tableau": cols, "stock": stock,
            "foundations": found, **extra}


# A process (a kernel) that counts `n` games (ids "<tag>-<i>") into the statistics of the folder given; with
# "browser" last, as a kernel of a browser tab does (``platform.BROWSER``: JupyterLite's drive).
COUNTER = """
import sys
from spiderette.engine import platform
platform.BROWSER = sys.argv[4:] == ["browser"]
from spiderette.userdata.statistics import record_result
folder, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(n):
    record_result("spiderette", 4, won=i % 2 == 0, score=500 + i, moves=10 + i, game_id=f"{tag}-{i}", folder=folder)
"""


def count_at_once(folder: Path, kernels: int, games: int, browser: bool = False) -> list[int]:
    """``kernels`` processes count ``games`` games each into ``folder``'s statistics at the same time; their
    exit codes."""
    import subprocess
    import sys

    procs = [subprocess.Popen([sys.executable, "-c", COUNTER, str(folder), f"k{k}", str(games),
                               *(["browser"] if browser else [])], env=src_env()) for k in range(kernels)]
    return [p.wait(timeout=300) for p in procs]


def src_env() -> dict[str, str]:
    """The environment for a Python subprocess that imports the spiderette of this tree (``src/`` first on
    ``PYTHONPATH``), whatever is installed."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}


def game(*args, **kwargs) -> Game:
    return Game.from_dict(build(*args, **kwargs))


def send(w, **msg) -> dict:
    """Deliver an intent to widget ``w`` as the browser would, quoting the current version unless given."""
    msg.setdefault("version", w.view["version"])
    w._intents.handle(w, msg, [])
    return w.view


def hidden_codes(g: Game) -> set[str]:
    """Codes of cards that are face down or in the stock and nowhere face up (two decks repeat codes)."""
    d = g.to_dict()
    down = {c[1:] for col in d["tableau"] for c in col if c.startswith("|")}
    shown = {c for col in d["tableau"] for c in col if not c.startswith("|")}
    shown |= {c for run in d["foundations"] for c in run}
    return (down | set(d["stock"])) - shown


def tableau(g: Game) -> list[list[str]]:
    return g.to_dict()["tableau"]


def oversized(path: Path, size: int) -> Path:
    """A sparse file of ``size`` bytes at ``path`` (nothing written), for the readers' size caps."""
    with path.open("wb") as f:
        f.truncate(size)
    return path


def reachable(g: Game, key: Callable[[Game], object] = Game.state_key, limit: int | None = None) -> int | None:
    """How many tables (told apart by ``key``) the engine's own legal moves reach from ``g``, ``g`` counted;
    None when one of them is won (a cross-check of the solver and the proof pass). With ``limit``, an
    AssertionError when there are that many."""
    seen, stack = {key(g)}, [g.copy()]
    while stack:
        h = stack.pop()
        for m in h.legal_moves():
            k = h.copy()
            k.apply(m)
            if k.is_won:
                return None
            name = key(k)
            if name not in seen:
                seen.add(name)
                stack.append(k)
                assert limit is None or len(seen) < limit
    return len(seen)


def refused_in_line(g: Game, line) -> str | None:
    """Why the engine refuses ``line`` from ``g`` (the move and the reason), or ``None``: every move plays."""
    probe = g.copy()
    for i, m in enumerate(line):
        assert isinstance(m, Move)
        why = probe.why_illegal(m)
        if why is not None:
            return f"move {i + 1} ({m}): {why}"
        probe.apply(m)
    return None
