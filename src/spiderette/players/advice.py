"""Advice: ``hint(g)`` and ``hints(g)``, every way the package suggests a move, with the reason in words.

Four methods, from the most useful to a player to the most instructive about the rules:

* ``"planner"`` (the default): the honest expert (:func:`spiderette.players.planner.plan`) plans among the face-up
  cards and names its plan: "a 3-move plan: 5S to the empty column e, 9D onto TC, then 8S onto 9D turns over a
  card in column c". The hint carries the plan (``.line``), its value and the other first moves
  (``.alternatives``, best first);
* ``"ranked"``: the one-step ranking of :mod:`spiderette.players.ranking` (instant; the simple rules of thumb);
* ``"search"``: the hindsight search (:func:`spiderette.players.search.search_hint`) with the tally of every
  candidate;
* ``"solver"``: the first move of a winning line found with every card known, a spoiler and labelled one;
  on a lost or undecided position a hint with no move that says so.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> h = hint(g)
>>> h.move == h.line[0] and h.move in g.legal_moves()
True
>>> hint(g, method="ranked").reason
'moving 6H onto 7C turns over a card in column b'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from ..engine.cards import card_code
from ..engine.errors import quote
from ..engine.game import Game, a_game
from ..engine.move import LETTERS, Move
from ..engine.predicates import tables_met
from .limits import DEFAULT_SECONDS, Limit, samples_of, seed_of, tables
from .planner import DEFAULT_BUDGET, Plan, plan
from .ranking import Hint, best_hint, group_onto, ranked_hints
from .search import SEARCH_NODES, SEARCH_SAMPLES, search_hint
from .solver import solve

METHODS = ("planner", "ranked", "search", "solver")


def step_words(g: Game, m: Move, name: Callable[[int], str]) -> str:
    """One move of a plan in words, said before it is played in ``g``: ``"9D onto TC"``."""
    if m.kind == "deal":
        return "deal a row"
    if m.kind == "send":
        return f"send the run in column {LETTERS[m.src]}"
    return group_onto(g, m, name)


def _achieves(ends_with: tuple[str, int | None]) -> str:
    """What a plan's last move does, in words (``Plan.ends_with``)."""
    what, col = ends_with
    c = LETTERS[col] if col is not None else ""
    return {
        "turn": f"turns over a card in column {c}",
        "run": f"completes a run in column {c}",
        "empty": f"empties column {c}",
        "fill": f"fills the empty column {c}, so that the stock can be dealt",
        "send": f"sends the finished run in column {c} to the foundations",
        "deal": "deals a new row: nothing among the face-up cards makes the table better",
        "prepare": "then deals: the best table to deal on",
    }.get(what, "leaves the cards in better order")


def plan_reason(g: Game, p: Plan, name: Callable[[int], str] = card_code) -> str:
    """The reason of a plan for ``g``, naming its moves in cards (``name``: ``card_code`` or card words).

    >>> from spiderette.players.planner import plan
    >>> from spiderette import Game
    >>> plan_reason(Game(seed=7), plan(Game(seed=7)))
    'moving 3S onto 4H turns over a card in column e'
    """
    if p.ends_with[0] in ("deal", "send"):
        return _achieves(p.ends_with)
    probe = g.copy()
    steps = []
    for m in p.line:
        steps.append(step_words(probe, m, name))
        probe.apply(m)
    if p.ends_with[0] == "prepare":   # one move, then the deal
        return f"moving {steps[0]} {_achieves(p.ends_with)}"
    if len(steps) == 1:
        return f"moving {steps[0]} {_achieves(p.ends_with)}"
    return f"a {len(steps)}-move plan: {', '.join(steps[:-1])}, then {steps[-1]} {_achieves(p.ends_with)}"


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _moves_words(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


#: What the first suggestion does when it is not a line that gains points, for :func:`_gain_words`.
_FIRST_DOES = {"deal": "deals: no line improves the table", "send": "sends a finished run",
               "fill": "fills the empty columns to deal", "prepare": "prepares the table, then deals"}


def _gain_words(p: Plan, value: int, moves: int) -> str:
    """How a line of ``moves`` moves ending on a table of ``value`` compares with the first suggestion, in
    words with no negative number: what it gains on the table now (in points of
    :func:`~spiderette.players.planner.table_value`, a cost: the lower, the better)."""
    does = _FIRST_DOES.get(p.ends_with[0])
    first = (f"the first suggestion {does}" if does else
             f"the first suggestion: {_points(p.start_value - p.value)} in {_moves_words(len(p.line))}")
    gain = p.start_value - value
    if gain <= 0:
        return f"no line it starts makes the table better ({first})"
    return f"its best line gains {_points(gain)} in {_moves_words(moves)} ({first})"


def _told_apart(suggestions: list[Hint]) -> list[Hint]:
    """The suggestions with the columns named wherever two of them would read alike (two re-parks of a 4♠
    from different columns onto a 5♠ read the same without them)."""
    heads = [h.reason.split("; ")[0] for h in suggestions]
    out = []
    for h, head in zip(suggestions, heads):
        m = h.move
        if heads.count(head) > 1 and m is not None and m.kind == "move":
            where = f" (column {LETTERS[m.src]} to column {LETTERS[m.dst]})"
            h = replace(h, reason=head + where + h.reason[len(head):])
        out.append(h)
    return out


def planner_hint(g: Game, budget: int = DEFAULT_BUDGET, name: Callable[[int], str] = card_code,
                 seen: set | None = None, cancel: threading.Event | None = None) -> Hint | None:
    """The planner's suggestion as a :class:`Hint` (``None``: nothing improves and nothing can be dealt).

    Its reason names the plan; ``value`` is the plan's value (lower is better); ``alternatives`` are the
    other first moves, in the planner's order (best first), each with the line it starts, its value and a
    reason that compares what it gains with the plan's. ``seen``: the visible tables already met (``None``:
    the game's own memory, from its history). The game is read from a copy taken under its lock.
    """
    with g.locked():   # one snapshot (the game's own memory is kept between calls)
        seen = tables_met(g) if seen is None else seen
        g = g.copy()
    p = plan(g, budget, seen, cancel=cancel)
    if p is None:
        return None
    ranked = {h.move: h for h in ranked_hints(g, name)}
    alternatives = []
    for (m, v), line in zip(p.alternatives, p.alternative_lines):
        if m != p.move:   # the ranking's judgement of the move (or its plain words) and what its line gains
            why = ranked.get(m) or Hint(m, step_words(g, m, name), 0)
            alternatives.append(why.said(f"{why.reason}; {_gain_words(p, v, len(line))}", 0, line=line,
                                         value=float(v)))
    first, *rest = _told_apart([Hint(p.move, plan_reason(g, p, name), 0, p.line, float(p.value)), *alternatives])
    return replace(first, alternatives=tuple(rest))


def _solver_hint(g: Game, time_limit: float | None, node_limit: int | None) -> Hint:
    if g.is_won:
        return Hint(None, "the game is won", 0)
    result = solve(g, time_limit=DEFAULT_SECONDS if time_limit is None else time_limit, node_limit=node_limit)
    if result.result == "win" and result.moves:
        return Hint(result.moves[0], f"spoiler: the first move of a winning line of {len(result.moves)} moves"
                                     " (the solver sees every hidden card)", 0, tuple(result.moves))
    if result.result == "loss":
        return Hint(None, "not winnable from here (proven: the solver tried every line, seeing every hidden"
                          " card)", 0)
    return Hint(None, f"unknown within the budget ({result.reason})", 0)


#: The arguments each method of :func:`hint` takes (``hints`` takes ``budget`` for the planner, nothing more).
ARGUMENTS = {"planner": ("budget",), "ranked": (), "search": ("samples", "seed", "node_limit", "time_limit"),
             "solver": ("node_limit", "time_limit")}


def _method(method: object, methods: tuple[str, ...], given: dict[str, object], caller: str) -> str:
    """``method`` if it is one of ``methods`` and every argument in ``given`` (those not left at ``None``)
    is its own; a wrong type or an argument of another method is a ``TypeError``, an unknown name a
    ``ValueError``."""
    told = f"method must be one of {', '.join(map(repr, methods))}, not {quote(method)}"
    if not isinstance(method, str):
        raise TypeError(told)
    if method not in methods:
        raise ValueError(told)
    foreign = [k for k, v in given.items() if v is not None and k not in ARGUMENTS[method]]
    if foreign:
        owners = {k: [m for m in methods if k in ARGUMENTS[m]] for k in foreign}
        said = "; ".join(f"{k} is an argument of method={' or '.join(map(repr, owners[k]))}" for k in foreign)
        takes = ", ".join(ARGUMENTS[method]) or "no other argument"
        raise TypeError(f"{caller}(method={method!r}) takes {takes}, not {', '.join(foreign)} ({said})")
    return method


def hint(g: Game, method: str = "planner", samples: int | None = None, seed: int | None = None,
         node_limit: int | None = None, time_limit: float | None = None, budget: int | None = None) -> Hint | None:
    """A suggested move with its reason, by one of the methods above; each takes only its own arguments
    (:data:`ARGUMENTS`; another method's argument is a ``TypeError`` that names it):

    * ``"planner"``: ``budget`` tables planned among the face-up cards (:data:`DEFAULT_BUDGET` when not
      given); ``None`` only when nothing improves and nothing can be dealt (the planner would resign);
    * ``"ranked"``: the best of the one-step ranking; ``None`` when nothing useful is left;
    * ``"search"``: ``samples`` redealt copies (:data:`~spiderette.players.search.SEARCH_SAMPLES` when not
      given; ``seed``, a whole number, fixes them), each searched with at most ``node_limit`` tables
      (:data:`~spiderette.players.search.SEARCH_NODES` when not given; ``time_limit`` may cut it short);
      ``.alternatives`` is the tally of every other candidate, and the reason warns that the count is
      optimistic;
    * ``"solver"``: with every card known, within ``time_limit`` seconds (10 when neither is given) or
      ``node_limit`` tables; never ``None``: a lost or undecided position gives a hint whose ``move`` is
      ``None`` and whose reason says "not winnable from here (proven…)" or "unknown within the budget…".

    Budgets are capped at :data:`~spiderette.players.limits.MAX_TABLES` tables.

    >>> from spiderette import Game
    >>> h = hint(Game(seed=7), method="solver", node_limit=10)
    >>> h.move, h.reason
    (None, 'unknown within the budget (node limit reached)')
    >>> hint(Game(seed=7), method="ranked", budget=500)
    Traceback (most recent call last):
    ...
    TypeError: hint(method='ranked') takes no other argument, not budget (budget is an argument of method='planner')
    """
    a_game(g, "hint")
    _method(method, METHODS, {"samples": samples, "seed": seed, "node_limit": node_limit, "time_limit": time_limit,
                              "budget": budget}, "hint")
    if method == "planner":
        budget = tables(DEFAULT_BUDGET if budget is None else budget, "budget")
    elif method == "search":
        samples = samples_of(SEARCH_SAMPLES if samples is None else samples)
        seed = seed_of(seed, none=True)
        Limit.of(time_limit, SEARCH_NODES if node_limit is None else node_limit, none=False)
    elif method == "solver":
        Limit.of(time_limit, node_limit)
    if method == "planner":
        return planner_hint(g, budget)   # (it reads one snapshot, taken under the game's lock)
    g = g.copy()   # every method reads one snapshot, taken under the game's lock
    if method == "ranked":
        return best_hint(g)
    if method == "search":
        return search_hint(g, samples, seed, SEARCH_NODES if node_limit is None else node_limit,
                           time_limit=time_limit)
    return _solver_hint(g, time_limit, node_limit)


def hints(g: Game, method: str = "planner", budget: int | None = None) -> list[Hint]:
    """Every suggestion of a method, best first: the planner's first moves (the plan, then its
    alternatives, with ``budget`` tables: :data:`DEFAULT_BUDGET` when not given), or with ``method="ranked"``
    every useful legal move of the one-step ranking (which takes no budget).

    >>> from spiderette import Game
    >>> [str(h.move) for h in hints(Game(seed=7), method="ranked")][:2]
    ['bd1', 'df1']
    """
    a_game(g, "hints")
    _method(method, ("planner", "ranked"), {"budget": budget}, "hints")
    if method == "ranked":
        return ranked_hints(g.copy())   # one snapshot, taken under the game's lock
    h = planner_hint(g, tables(DEFAULT_BUDGET if budget is None else budget, "budget"))   # (it copies g)
    return [] if h is None else [h, *h.alternatives]


def planner_reason(g: Game, m: Move, seen: set | None = None, budget: int = DEFAULT_BUDGET,
                   name: Callable[[int], str] = card_code) -> tuple[str, int | None]:
    """Why the planner would (or would not) play ``m`` in ``g``: ``("planner #1: a 2-move plan: …", 1)``
    when ``m`` is its plan's first move, ``#k`` for its k-th suggestion, else what it plays instead and
    ``None``. ``seen``: the visible tables already met in the game (as :class:`PlannerStrategy` keeps them).

    >>> from spiderette import Game
    >>> planner_reason(Game(seed=7), Move.parse("ea1"))
    ('planner #1: moving 3S onto 4H turns over a card in column e', 1)
    """
    h = planner_hint(g, budget, name, seen)
    if h is None:
        return "the planner would resign here: nothing improves", None
    for i, x in enumerate([h, *h.alternatives], start=1):
        if x.move == m:
            return f"planner #{i}: {x.reason}", i
    return f"not the planner's choice; it plays {step_words(g, h.move, name)}: {h.reason}", None

