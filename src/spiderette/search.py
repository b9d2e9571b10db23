"""The honest search: a good move found without looking at a face-down or stock card.

Hindsight optimisation (Yan, Diaconis, Rusmevichientong and Van Roy, 2004): deal the hidden cards afresh many
times, consistently with what the player has seen (:meth:`spiderette.Game.redeal_hidden`, which depends only on
:meth:`spiderette.Game.observation`), search each draw with every card known (:func:`spiderette.solver.plan`,
a short best-first search), and play the move that starts the winning lines of the most draws; when no draw is
won within the budget, the move that starts the best line (to the least disordered table reached) in the most
draws. (Searching each draw only up to the next deal, so that the drawn stock cannot tempt it, did worse: 4
wins against 6 over one-suit deals 1-20 at 10 draws of 2,000 tables per move.)
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

from .errors import quote
from .game import Game
from .hints import Hint, best_hint, ranked_hints
from .solver import plan, solve


def search_hint(g: Game, samples: int = 40, seed: int | None = None, node_limit: int = 4000,
                cancel: threading.Event | None = None, time_limit: float | None = None) -> Hint | None:
    """The move that wins the most of ``samples`` redealt copies of ``g``; ``None`` when no move is useful.

    Each draw is searched with at most ``node_limit`` tables. ``seed`` fixes the draws (``None``: fresh ones).
    The reason says how many draws the move won. Setting ``cancel`` (a ``threading.Event``) stops the search
    early (checked before each draw and inside each solve): the answer then counts only the draws made.
    ``time_limit`` (seconds, ``None``: none) may cut the search short too; the reason then says so.
    """
    for name, value, low in (("samples", samples, 1), ("node_limit", node_limit, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be a whole number >= {low}, not {quote(value)}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be a number of seconds > 0 or None, not {quote(time_limit)}")
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    ranked = ranked_hints(g)
    if not ranked:
        return None
    if len(ranked) == 1:
        only = ranked[0]  # nothing to weigh: no search needed
        return only if only.move.kind == "deal" else Hint(only.move, f"the only useful move: {only.reason}",
                                                          only.rank)
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
        found = plan(g.redeal_hidden(draw.randrange(2**64)), node_limit, cancel)
        if cancel is not None and cancel.is_set():
            break
        made += 1
        if found.moves:
            first = found.moves[0]
            wins[first] += found.won
            chosen[first] += 1
            disorder[first] += found.disorder
    place = {h.move: (i, h.reason) for i, h in enumerate(ranked)}
    if not chosen:
        best = ranked[0]
        return Hint(best.move, f"no sampled deal showed a way forward{cut}; {best.reason}", best.rank)
    move = min(chosen, key=lambda m: (-wins[m], -chosen[m], disorder[m] / chosen[m], place.get(m, (len(place),))[0]))
    why = place.get(move, (0, ""))[1]
    if wins[move]:
        said = f"wins {wins[move]} of {made} sampled deals{cut}"
    else:
        said = f"the best start in {chosen[move]} of {made} sampled deals, none won within the budget{cut}"
    return Hint(move, said + (f": {why}" if why else ""), 0)


METHODS = ("ranked", "search", "solver")


def hint(g: Game, method: str = "ranked", samples: int = 40, seed: int | None = None, node_limit: int = 4000,
         time_limit: float | None = None) -> Hint | None:
    """A suggested move with its reason, by one of three methods:

    * ``"ranked"`` (instant): the best of :func:`spiderette.hints`, one move deep;
    * ``"search"``: :func:`search_hint`, which looks ahead without peeking at a hidden card (``time_limit``,
      if given, may cut it short);
    * ``"solver"``: the first move of a winning line found with every card known — a spoiler, and labelled
      one (``None`` if no win was found within ``time_limit`` seconds, 10 when not given).

    >>> from spiderette import Game
    >>> hint(Game(seed=7)).reason
    'moving 6H onto 7C turns over a card in column b'
    """
    if method == "ranked":
        return best_hint(g)
    if method == "search":
        return search_hint(g, samples, seed, node_limit, time_limit=time_limit)
    if method == "solver":
        result = solve(g, time_limit=10.0 if time_limit is None else time_limit)
        if result.result != "win" or not result.moves:
            return None
        return Hint(result.moves[0], f"spoiler: the first move of a winning line of {len(result.moves)} moves"
                                     " (the solver sees every hidden card)", 0)
    raise ValueError(f"method must be one of {', '.join(METHODS)}, not {quote(method)}")
