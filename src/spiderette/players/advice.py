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
from ..engine.predicates import visible_key
from ..engine.words import plural
from .limits import DEFAULT_SECONDS, Limit, a_limit, budget_of, samples_of, seed_of, tables
from .memory import tables_met
from .planner import DEFAULT_BUDGET, Plan, plan, table_after
from .ranking import Hint, best_hint, group_onto, ranked_hints
from .search import SEARCH_NODES, SEARCH_SAMPLES, search_hint
from .solver import solve
from .terms import line_terms, said

METHODS = ("planner", "ranked", "search", "solver")


def step_words(g: Game, m: Move, name: Callable[[int], str]) -> str:
    """One move of a plan in words, said before it is played in ``g``: ``"9D onto TC"``."""
    if m.kind == "deal":
        return "deal a row"
    if m.kind == "send":
        assert m.src is not None   # (a send names its column)
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
    >>> plan_reason(Game(seed=7), plan(Game(seed=7), budget=2000, turns=1))
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


def _moves_words(n: int) -> str:
    return plural(n, "move")


#: The term a plan's ending already says (``Plan.ends_with``), left out of the words that follow it.
_SAID_BY_ENDING = {"turn": "turns over a card", "run": "completes a run", "empty": "empties a column"}


def _with_terms(reason: str, terms: tuple[str, ...], ends_with: str) -> str:
    """A plan's reason followed by what else its line changes on the table (:mod:`.terms`)."""
    rest = [t for t in terms if t != _SAID_BY_ENDING.get(ends_with)]
    return f"{reason} (and {said(rest)})" if rest else reason


#: What the first suggestion does when it is not a line that improves the table, for :func:`_line_words`.
_FIRST_DOES = {"deal": "deals: no line improves the table", "send": "sends a finished run",
               "fill": "fills the empty columns to deal", "prepare": "prepares the table, then deals"}


def _line_words(p: Plan, value: int, terms: tuple[str, ...], moves: int) -> str:
    """What an alternative's best line of ``moves`` moves (ending on a table of ``value``) does, in the
    named terms of :mod:`.terms`, and where the planner ranks it: below the first suggestion."""
    does = _FIRST_DOES.get(p.ends_with[0])
    below = f"ranked below the first suggestion, which {does}" if does else "ranked below the first suggestion"
    if p.start_value - value <= 0:
        return f"no line it starts makes the table better ({below})"
    return f"its best line ({_moves_words(moves)}) {said(terms) or 'changes nothing in view'}; {below}"


def _told_apart(suggestions: list[Hint]) -> list[Hint]:
    """The suggestions with the columns named wherever two of them would read alike (two re-parks of a 4♠
    from different columns onto a 5♠ read the same without them)."""
    heads = [h.reason.split("; ")[0] for h in suggestions]
    out = []
    for h, head in zip(suggestions, heads):
        m = h.move
        if heads.count(head) > 1 and m is not None and m.kind == "move" and m.src is not None \
                and m.dst is not None:
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
    p = plan(g, budget=budget, seen=seen, cancel=cancel)
    if p is None:
        return None
    ranked = {h.move: h for h in ranked_hints(g, name)}
    alternatives = []
    for (m, v), line in zip(p.alternatives, p.alternative_lines):
        if m != p.move:   # the ranking's judgement of the move (or its plain words) and what its line does
            why = ranked.get(m) or Hint(m, step_words(g, m, name), 0)
            terms = line_terms(g, line)
            alternatives.append(why.said(f"{why.reason}; {_line_words(p, v, terms, len(line))}", 0, line=line,
                                         value=float(v), terms=terms))
    terms = line_terms(g, p.line)
    said_first = _with_terms(plan_reason(g, p, name), terms, p.ends_with[0])
    first, *rest = _told_apart([Hint(p.move, said_first, 0, p.line, float(p.value), terms=terms), *alternatives])
    return replace(first, alternatives=tuple(rest))


def _solver_hint(g: Game, limit: Limit) -> Hint:
    if g.is_won:
        return Hint(None, "the game is won", 0)
    result = solve(g, limit)
    if result.result == "win" and result.moves:
        return Hint(result.moves[0], f"spoiler: the first move of a winning line of {plural(len(result.moves), 'move')}"
                                     " (the solver sees every hidden card)", 0, tuple(result.moves))
    if result.result == "loss":
        return Hint(None, "not winnable from here (proven: the solver tried every line, seeing every hidden"
                          " card)", 0)
    head = "probably lost" if result.odds is not None and result.odds.probably_lost else "unknown"
    odds = f"; {result.odds.words()}" if result.odds is not None else ""
    return Hint(None, f"{head} within the budget ({result.reason}, {plural(result.nodes, 'table')}){odds}", 0)


#: The arguments each method of :func:`hint` takes (``hints`` takes ``limit`` and ``budget`` for the planner,
#: nothing more).
ARGUMENTS = {"planner": ("limit", "budget"), "ranked": (),
             "search": ("limit", "samples", "seed", "node_limit", "time_limit"),
             "solver": ("limit", "node_limit", "time_limit")}


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


def hint(g: Game, limit: Limit | None = None, *, method: str = "planner", samples: int | None = None,
         seed: int | None = None, node_limit: int | None = None, time_limit: float | None = None,
         budget: int | None = None) -> Hint | None:
    """A suggested move with its reason, by one of the methods above; each takes only its own arguments
    (:data:`ARGUMENTS`; another method's argument is a ``TypeError`` that names it). ``limit``, a
    :class:`~spiderette.Limit`, is the budget of the planner, the search and the solver: ``budget``,
    ``node_limit`` and ``time_limit`` are its shorthands.

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
      ``None`` and whose reason says "not winnable from here (proven…)" or "unknown within the budget…" (with
      the odds measured for such positions, where there are some: :mod:`spiderette.players.odds`; "probably
      lost within the budget…" where they support it).

    Budgets are capped at :data:`~spiderette.players.limits.MAX_TABLES` tables.

    >>> from spiderette import Game, Limit
    >>> h = hint(Game(seed=7), Limit(tables=10), method="solver")     # or node_limit=10
    >>> h.move, h.reason
    (None, 'unknown within the budget (node limit reached, 10 tables)')
    >>> hint(Game(seed=7), method="ranked", budget=500)
    Traceback (most recent call last):
    ...
    TypeError: hint(method='ranked') takes no other argument, not budget (budget is an argument of method='planner')
    """
    a_game(g, "hint")
    a_limit(limit, "hint", ("budget", "node_limit", "time_limit"))
    _method(method, METHODS, {"limit": limit, "samples": samples, "seed": seed, "node_limit": node_limit,
                              "time_limit": time_limit, "budget": budget}, "hint")
    if method == "planner":
        budget = _planner_tables("hint", limit, budget)
    elif method == "search":
        samples = samples_of(SEARCH_SAMPLES if samples is None else samples)
        seed = seed_of(seed, none=True)
        given = Limit.of(time_limit, SEARCH_NODES if node_limit is None else node_limit, none=False)
        limit = budget_of("hint", limit, {"node_limit": (given.tables, SEARCH_NODES),
                                          "time_limit": (given.seconds, None)})
    elif method == "solver":
        given = Limit.of(time_limit, node_limit)
        limit = budget_of("hint", limit, {"node_limit": (given.tables, None), "time_limit": (given.seconds, None)},
                          default=Limit(seconds=DEFAULT_SECONDS))
    if method == "planner":
        assert budget is not None   # (the planner's tables: _planner_tables above)
        return planner_hint(g, budget)   # (it reads one snapshot, taken under the game's lock)
    g = g.copy()   # every method reads one snapshot, taken under the game's lock
    if method == "ranked":
        return best_hint(g)
    assert limit is not None   # (budget_of above: the search's and the solver's Limit)
    if method == "search":
        assert samples is not None and limit.tables is not None   # (samples_of and budget_of above)
        return search_hint(g, samples, seed, limit.tables, time_limit=limit.seconds)
    return _solver_hint(g, limit)


def _planner_tables(call: str, limit: object, budget: object) -> int:
    """The planner's tables of :func:`hint` or :func:`hints`: ``limit``'s, or the shorthand ``budget``'s."""
    budget = tables(DEFAULT_BUDGET if budget is None else budget, "budget")
    given = budget_of(call, limit, {"budget": (budget, DEFAULT_BUDGET)}).tables
    assert given is not None   # (budget_of gives a Limit without tables the shorthand's number)
    return given


def hints(g: Game, limit: Limit | None = None, *, method: str = "planner", budget: int | None = None) -> list[Hint]:
    """Every suggestion of a method, best first: the planner's first moves (the plan, then its
    alternatives, with ``limit``'s tables, a :class:`~spiderette.Limit` of tables only, or ``budget``, its
    shorthand: :data:`DEFAULT_BUDGET` when not given), or with ``method="ranked"`` every useful legal move of
    the one-step ranking (which takes no budget).

    >>> from spiderette import Game
    >>> [str(h.move) for h in hints(Game(seed=7), method="ranked")][:2]
    ['bd1', 'df1']
    """
    a_game(g, "hints")
    a_limit(limit, "hints", ("budget",))
    _method(method, ("planner", "ranked"), {"limit": limit, "budget": budget}, "hints")
    if method == "ranked":
        return ranked_hints(g.copy())   # one snapshot, taken under the game's lock
    h = planner_hint(g, _planner_tables("hints", limit, budget))   # (it copies g)
    return [] if h is None else [h, *h.alternatives]


class PlannerCommentary:
    """The planner's words on each move of a game, in order (the replay's ``advice="planner"``), judging each
    move as :class:`~spiderette.players.planner.PlannerStrategy` plays: a plan is followed to its end while
    the table is the one it expected, so a move that carries on the plan is the planner's choice ("move 2 of
    its plan") even where a fresh plan would start another way. ``seen`` grows with the tables met.

    >>> from spiderette import Game, PlannerStrategy
    >>> g, s = Game(seed=12, suits=1), PlannerStrategy()
    >>> talk = PlannerCommentary()
    >>> for _ in range(6):
    ...     m = s(g)
    ...     assert talk.reason(g, m)[1] == 1   # every move the planner played is its first choice
    ...     g.apply(m)
    """

    def __init__(self, budget: int = DEFAULT_BUDGET, name: Callable[[int], str] = card_code) -> None:
        self.budget, self.name = budget, name
        self.seen: set = set()
        self._line: list[Move] = []
        self._total = 0
        self._said = ""
        self._expect: tuple | None = None

    def reason(self, g: Game, m: Move) -> tuple[str, int | None]:
        """Why the planner would (or would not) play ``m`` in ``g``, the next position of the game: as
        :func:`planner_reason` says it, or "planner #1: move k of its plan: ..." on the way through a plan."""
        key = visible_key(g)
        self.seen.add(key)
        if self._line and key == self._expect and g.why_illegal(self._line[0]) is None:
            step = self._total - len(self._line) + 1
            planned = self._line[0]
            self._follow(g)
            if planned == m:
                return f"planner #1: move {step} of its plan: {self._said}", 1
            return (f"not the planner's choice; it plays {step_words(g, planned, self.name)}: move {step} of its"
                    f" plan: {self._said}"), None
        h = planner_hint(g, self.budget, self.name, self.seen)
        if h is None:
            self._line = []
            return "the planner would resign here: nothing improves", None
        self._line, self._total, self._said = list(h.line), len(h.line), h.reason
        self._follow(g)
        for i, x in enumerate([h, *h.alternatives], start=1):
            if x.move == m:
                return f"planner #{i}: {x.reason}", i
        assert h.move is not None   # (a planner hint has its move)
        return f"not the planner's choice; it plays {step_words(g, h.move, self.name)}: {h.reason}", None

    def _follow(self, g: Game) -> None:
        """Take the plan's next move off, and expect the table it leads to."""
        move = self._line.pop(0)
        if self._line:
            self._expect = table_after(g, move)


def planner_reason(g: Game, m: Move, seen: set | None = None, budget: int = DEFAULT_BUDGET,
                   name: Callable[[int], str] = card_code) -> tuple[str, int | None]:
    """Why the planner would (or would not) play ``m`` in ``g``: ``("planner #1: a 2-move plan: …", 1)``
    when ``m`` is its plan's first move, ``#k`` for its k-th suggestion, else what it plays instead and
    ``None``. ``seen``: the visible tables already met in the game (as :class:`PlannerStrategy` keeps them).

    >>> from spiderette import Game
    >>> g = Game(seed=7)
    >>> why, rank = planner_reason(g, hint(g).move)   # the planner's own move: its first suggestion
    >>> rank, why.startswith("planner #1: moving ")
    (1, True)
    """
    h = planner_hint(g, budget, name, seen)
    if h is None:
        return "the planner would resign here: nothing improves", None
    for i, x in enumerate([h, *h.alternatives], start=1):
        if x.move == m:
            return f"planner #{i}: {x.reason}", i
    assert h.move is not None   # (a planner hint has its move)
    return f"not the planner's choice; it plays {step_words(g, h.move, name)}: {h.reason}", None

