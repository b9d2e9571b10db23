"""The honest search: a good move found without looking at a face-down or stock card.

Hindsight optimisation (Yan, Diaconis, Rusmevichientong and Van Roy, 2004): deal the hidden cards afresh many
times, consistently with what the player has seen (:meth:`spiderette.Game.redeal_hidden`, which depends only on
:meth:`spiderette.Game.observation`), search each draw with every card known
(:func:`spiderette.players.solver.search_line`, a short best-first search), and play the move that starts the
winning lines of the most draws; when no draw is won within the budget, the move that starts the best line (to
the least disordered table reached) in the most draws. (Searching each draw only up to the next deal, so that
the drawn stock cannot tempt it, did worse: 4 wins against 6 over one-suit deals 1-20 at 10 draws of 2,000
tables per move.)
The budget is counted in tables, so a seed gives the same answer on every machine.

>>> from spiderette import Game
>>> h = search_hint(Game(seed=7), samples=4, seed=1, node_limit=1500)
>>> h.move in Game(seed=7).legal_moves() and "sampled deal" in h.reason
True
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

from ..engine.errors import an_event
from ..engine.game import Game
from .limits import Limit, samples_of, seed_of
from .ranking import Hint, useful_hints
from .solver import search_line

#: The search's defaults, in one place. For one hint (``hint(g, method="search")``, :func:`search_hint`):
#: sampled deals, and tables searched in each.
SEARCH_SAMPLES = 40
SEARCH_NODES = 4000
#: For a whole game played with the search (:class:`spiderette.SearchStrategy`, every move of a study): a
#: smaller budget, since it runs at every move.
STUDY_SAMPLES = 10
STUDY_NODES = 2000


def search_hint(g: Game, samples: int = SEARCH_SAMPLES, seed: int | None = None, node_limit: int = SEARCH_NODES,
                cancel: threading.Event | None = None, time_limit: float | None = None) -> Hint | None:
    """The move that wins the most of ``samples`` redealt copies of ``g``; ``None`` when no move is useful.

    Each draw is searched with at most ``node_limit`` tables. ``seed`` fixes the draws (``None``: fresh ones).
    The reason says how many draws the move won (and that such a count is optimistic); ``alternatives`` is
    the tally of every other candidate, best first, ``value`` the share of draws won. Setting ``cancel`` (a
    ``threading.Event``) stops the search early (checked before each draw and inside each solve): the answer
    then counts only the draws made.
    ``time_limit`` (seconds, ``None``: none) may cut the search short too; the reason then says so.
    """
    samples = samples_of(samples)
    seed = seed_of(seed, none=True)
    limit = Limit.of(time_limit, node_limit, none=False)
    an_event(cancel)
    assert limit.tables is not None   # (none=False: node_limit is required)
    node_limit = limit.tables
    deadline = None if limit.time is None else time.perf_counter() + limit.time
    ranked = useful_hints(g)
    if not ranked:
        return None
    if len(ranked) == 1:
        only = ranked[0]  # nothing to weigh: no search needed
        assert only.move is not None   # (a ranked hint has its move)
        return only if only.move.kind == "deal" else only.said(f"the only useful move: {only.reason}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    draw = random.Random(seed)
    wins: Counter = Counter()    # draws in which a winning line starts with the move
    chosen: Counter = Counter()  # draws in which the best line found starts with the move
    disorder: Counter = Counter()
    made = 0
    cut = ""
    for _ in range(samples):
        if cancel is not None and cancel.is_set():
            break
        if deadline is not None and time.perf_counter() >= deadline:
            cut = f" (cut short by the time limit after {made} of {samples} draws)"
            break
        found = search_line(g.redeal_hidden(draw.randrange(2**64)), node_limit, cancel)
        if cancel is not None and cancel.is_set():
            break
        made += 1
        if found.moves:
            first = found.moves[0]
            wins[first] += found.won
            chosen[first] += 1
            disorder[first] += found.disorder
    place = {h.move: (i, h) for i, h in enumerate(ranked)}
    if not chosen:
        best = ranked[0]
        return best.said(f"no sampled deal showed a way forward{cut}; {best.reason}")
    order = sorted(set(chosen) | set(place), key=lambda m: (-wins[m], -chosen[m],
                                                           disorder[m] / chosen[m] if chosen[m] else 0,
                                                           place.get(m, (len(place),))[0]))
    tally = []
    for m in order:
        ranked_m = place[m][1] if m in place else Hint(m, "", 0)
        said = _tally(wins[m], chosen[m], made, cut, ranked_m.reason)
        tally.append(ranked_m.said(said, 0, line=(m,), value=wins[m] / made))
    top = tally[0]
    return top.said(f"{top.reason} ({OPTIMISTIC})", 0, line=top.line, value=top.value,
                      alternatives=tuple(tally[1:]))


#: What every search hint says of its count.
OPTIMISTIC = "each sampled deal is solved with its cards known, so the count is optimistic"


def _tally(won: int, started: int, made: int, cut: str, why: str) -> str:
    """What the search found for one first move, in words."""
    if won:
        said = f"wins {won} of {made} sampled deals{cut}"
    elif started:
        said = f"the best start in {started} of {made} sampled deals, none won within the budget{cut}"
    else:
        said = f"started no line found in {made} sampled deals{cut}"
    return said + (f": {why}" if why else "")
