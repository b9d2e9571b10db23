"""``Replay``: step through a recorded game, a solver's line or a widget's game, in the notebook.

``Replay(g)`` replays ``g.history`` from the start of that history; ``Replay(solve(g))`` replays the solver's
line from the position solved; ``Replay(w)`` replays the game of a :class:`~spiderette.Widget`. The widget
draws the table with the same front end as the game (``table.view`` of each step: no face-down or stock
card), a slider, step buttons and the move list, each move with its hint reason. The wire protocol is in
``docs/widget-protocol.md``.

>>> from spiderette import Game
>>> g = Game(seed=7)
>>> g.play("bd ea d")
[Move.parse('bd1'), Move.parse('ea1'), Move.parse('d')]
>>> r = Replay(g)
>>> len(r), r.step
(3, 0)
>>> r.forward()
1
>>> r.view["tableau"][3]["up"]
['7C', '6H']
>>> r.entries[0]["text"], r.entries[0]["cards"]
('bd', '6♥ onto 7♣')
>>> r.entries[0]["reason"]
'hint #1: moving 6♥ onto 7♣ turns over a card in column b'
>>> r.game_at(2).history
[Move.parse('bd1'), Move.parse('ea1')]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from ..engine.cards import card_text
from ..engine.errors import IllegalMoveError, flag, is_number, quote, whole
from ..engine.game import Game
from ..engine.move import Move
from ..engine.words import plural
from ..players.advice import PlannerCommentary
from ..players.analysis import Analysis, named_move
from ..players.ranking import ranked_hints
from ..players.solver import SolveResult
from .frontend import static_file
from .traits import Flag, Seconds
from .view import view
from .wording import describe

if TYPE_CHECKING:   # (the replay needs no widget: a Widget is anything with a .game)
    from .widget import Widget

#: The seconds between steps while playing, by default, and the least and most allowed.
DEFAULT_DELAY = 0.6
MIN_DELAY = 0.05
MAX_DELAY = 10.0
#: Whose reasons the move list gives: the one-step hint ranking, or the planner's plans.
ADVICE = ("ranked", "planner")
#: The words for a move the hint ranking does not list.
NOT_SUGGESTED = "a move the hints do not suggest"
#: The traits the browser may set (anything else it sends is ignored and sent back as it was).
BROWSER_TRAITS = ("step", "playing")
#: ``table.view`` fields a replay leaves out: where a group may go, and undo and redo, are of no use on a
#: table that is watched, not played.
LEFT_OUT = ("targets", "clicks", "unforeseen", "unforeseen_deal", "deals", "after", "can_undo", "can_redo")

def hint_reason(g: Game, m: Move) -> tuple[str, int | None]:
    """Why ``m`` (about to be played in ``g``): ``("hint #2: …", 2)`` when it is the second move of
    :func:`~spiderette.players.ranking.ranked_hints` (its reason with the cards in words, as on the table), else
    ``(NOT_SUGGESTED, None)``.

    >>> from spiderette import Game
    >>> hint_reason(Game(seed=7), Move.parse("d"))
    ('hint #4: deals a new row (the moves listed above it come first)', 4)
    """
    for i, h in enumerate(ranked_hints(g, card_text), start=1):
        if h.move == m:
            return f"hint #{i}: {h.reason}", i
    return NOT_SUGGESTED, None


class Replay(anywidget.AnyWidget):
    """A recorded line of play, step by step: the table, a slider, step buttons and the move list.

    ``source`` is a :class:`Game` (its ``history`` is replayed from the position where that history
    starts), a :class:`~spiderette.SolveResult` (its ``moves`` from its ``start``; a result with no line
    shows the start and says why) or a :class:`~spiderette.Widget` (its game). The replay is a snapshot:
    later changes to the source do not reach it.

    ``step`` is the number of moves played on the table shown (0 to ``len(r)``). Step ``k`` shows
    ``table.view`` of the game after ``k`` moves, with the next move marked. The move list names the
    cards of a move and its hint reason only from the step where that move is the next one (a card is
    never named while it is face down on the table shown); ``spoilers=True`` describes the whole line at
    once. ``delay`` is the time between steps while playing (the browser keeps time). ``advice="planner"``
    gives each move the planner's view of it instead of the hint ranking's: its plan when the move starts
    it ("planner #1: a 3-move plan: …"), else what the planner would play there.
    """

    _esm = static_file("replay.js")
    _css = static_file("replay.css")

    #: The moves played on the table shown: 0 (the start) to ``len(r)``. Set by Python or the browser.
    step = traitlets.Int(0).tag(sync=True)
    #: What the table shows at ``step`` (``table.view`` plus the replay's fields; see the protocol).
    view = traitlets.Dict(read_only=True).tag(sync=True)
    #: One entry per move: ``{"text"}`` always, plus ``"cards"``, ``"reason"`` and ``"hint"`` once shown.
    moves: traitlets.List[dict] = traitlets.List(read_only=True).tag(sync=True)
    #: The browser steps forward every ``delay`` seconds while this is true; it turns false at the end.
    playing = Flag(False).tag(sync=True)
    delay = Seconds(DEFAULT_DELAY, MIN_DELAY, MAX_DELAY).tag(sync=True)
    #: A line above the table: what the source was (the solver's verdict, an analysis' summary), or "". An
    #: analysis' note names its moves as its summary does, ``gc (3♠ onto 4♠)``; their cards only from the step
    #: of the turning point on (``spoilers=True``: at once), since before it they may lie face down.
    note = traitlets.Unicode("", read_only=True).tag(sync=True)
    #: For the replay of an :class:`~spiderette.Analysis`: the step where the game's turning point is the
    #: next move (the "Turning point" button goes there), else ``None``.
    turning = traitlets.Int(None, allow_none=True, read_only=True).tag(sync=True)
    #: For the replay of an :class:`~spiderette.Analysis` whose turning point is not known: ``[last winnable,
    #: first lost]``, the steps of the last position known winnable and the first proven lost (the "Last
    #: winnable" button goes to the first), else ``None``.
    lost_range: traitlets.List[int] = traitlets.List(None, allow_none=True, read_only=True).tag(sync=True)
    four_colour = Flag(False).tag(sync=True)

    def __init__(self, source: Game | SolveResult | Analysis | Widget, *, step: int = 0,
                 delay: float = DEFAULT_DELAY, spoilers: bool = False, four_colour: bool = False,
                 advice: str = "ranked", **kwargs) -> None:
        start, line, note = _line_of(source)
        flag(spoilers, "spoilers")
        if advice not in ADVICE:
            raise ValueError(f"advice must be one of {', '.join(map(repr, ADVICE))}, not {quote(advice)}")
        self._advice = advice
        self._analysis = source if isinstance(source, Analysis) else None
        self._start = start
        self._line = line
        self._spoilers = spoilers
        self._entries = self._describe_line()
        self._cursor = start.copy()      # the game at self._at moves, moved along as the step changes
        self._at = 0
        step = whole(step, "step", 0, len(line))
        super().__init__(delay=delay, four_colour=four_colour, **kwargs)   # (the Seconds trait checks it)
        a = self._analysis
        tp = a.turning_point if a is not None else None
        # the note that names the turning point's cards, and the step from which it is shown
        self._notes = (note, _analysis_note(a, cards=True) if a is not None and tp is not None else note,
                       0 if spoilers or tp is None else tp.index)
        self.set_trait("note", note)
        self.set_trait("turning", None if tp is None else tp.index)
        known = a is not None and tp is None and a.lost_between is not None
        self.set_trait("lost_range", [a.last_winnable, a.first_lost] if known and a is not None else None)
        self._show(None)
        if step:
            self.step = step

    def _describe_line(self) -> list[dict]:
        """Each move's notation, cards and hint reason, from the position before it (checks the line)."""
        g = self._start.copy()
        out = []
        talk = PlannerCommentary(name=card_text)   # the planner's words, move by move, as PlannerStrategy plays
        for i, m in enumerate(self._line, start=1):
            try:
                m = g.resolve(m)
                entry: dict[str, Any] = {"text": g.notation(m), "cards": describe(g, m)}
                if self._advice == "planner":
                    entry["reason"], entry["hint"] = talk.reason(g, m)
                else:
                    entry["reason"], entry["hint"] = hint_reason(g, m)
                runs = g.runs_completed
                g.apply(m)
            except IllegalMoveError as e:
                raise ValueError(f"move {i} of the line ({m}) cannot be played: {e.reason}") from None
            if g.runs_completed > runs and m.kind == "move":
                entry["cards"] += ", completing a run"
            if self._analysis is not None:   # the position this move leads to, judged with the cards known
                step = self._analysis.steps[i]
                entry["verdict"] = step.verdict
                if step.odds is not None:   # an unknown: what is measured of such positions
                    entry["odds"] = step.odds.short()
            self._line[i - 1] = m
            out.append(entry)
        return out

    # ------------------------------------------------------------------ reading
    def __len__(self) -> int:
        """The number of moves in the line (the last step)."""
        return len(self._line)

    @property
    def line(self) -> list[Move]:
        """The moves replayed, in order."""
        return list(self._line)

    @property
    def entries(self) -> list[dict]:
        """Every move described (``text``, ``cards``, ``reason``, ``hint``), whatever the step."""
        return [dict(e) for e in self._entries]

    def game_at(self, n: int) -> Game:
        """A new game at step ``n``: the start with the first ``n`` moves played (``n`` from 0 to ``len(r)``)."""
        n = whole(n, "n", 0, len(self))
        g = self._start.copy()
        for m in self._line[:n]:
            g.apply(m)
        return g

    # ------------------------------------------------------------------ moving
    def go(self, n: int) -> int:
        """Show step ``n`` (0 to ``len(r)``); returns it."""
        self.step = whole(n, "step", 0, len(self))
        return self.step

    def first(self) -> int:
        """Show the start."""
        return self.go(0)

    def last(self) -> int:
        """Show the end of the line."""
        return self.go(len(self))

    def forward(self) -> int:
        """One move on (nothing at the end); returns the step."""
        return self.go(min(self.step + 1, len(self)))

    def back(self) -> int:
        """One move back (nothing at the start); returns the step."""
        return self.go(max(self.step - 1, 0))

    def play(self, delay: float | None = None) -> None:
        """Step forward every ``delay`` seconds in the browser, from the start when at the end.

        The browser keeps time, so the widget must be on show; :meth:`pause` (or the end) stops it.
        """
        if delay is not None:
            self.delay = delay
        if len(self) and self.step == len(self):
            self.step = 0
        self.playing = bool(len(self))

    def pause(self) -> None:
        """Stop playing."""
        self.playing = False

    def turning_point(self) -> int | None:
        """Show the table where the analysed game's turning point is the next move; returns the step
        (``None``, and nothing moves, for a replay without one)."""
        if self.turning is None:
            return None
        return self.go(self.turning)

    def last_winnable(self) -> int | None:
        """Show the last position known winnable of an analysed game whose turning point is not known (the
        game was lost by one of the moves after it, up to the first position proven lost); returns the step
        (``None``, and nothing moves, for a replay without one)."""
        if self.lost_range is None:
            return None
        return self.go(self.lost_range[0])

    # ------------------------------------------------------------------ traits
    @traitlets.validate("step")
    def _valid_step(self, proposal: dict) -> int:
        value = proposal["value"]
        if isinstance(value, bool) or not 0 <= value <= len(self):
            raise traitlets.TraitError(f"step must be a whole number from 0 to {len(self)}, not {quote(value)}")
        return value

    @traitlets.observe("step")
    def _step_changed(self, change: dict) -> None:
        self._show(change["old"])

    @traitlets.observe("playing")
    def _playing_changed(self, change: dict) -> None:
        if change["new"] and self.step >= len(self):
            self.playing = False   # nothing left to play

    def _show(self, old: int | None) -> None:
        """Publish the view of ``step`` (moving the cursor game there) and the move list as far as it is shown."""
        n = self.step
        g = self._cursor
        while self._at < n:
            g.apply(self._line[self._at])
            self._at += 1
        while self._at > n:
            g.undo()
            self._at -= 1
        v = {k: x for k, x in view(g).items() if k not in LEFT_OUT}
        nxt = self._line[n] if n < len(self) else None
        if old is not None and n == old + 1:
            played = self._line[old]
            last = played.to_dict()
        else:
            last = {"kind": "undo"} if old is not None and n == old - 1 else {"kind": "new"}
        v.update(step=n, steps=len(self), title=g.rules.title, last=last,
                 hint=None if nxt is None else {**nxt.to_dict(), "text": self._entries[n]["text"]},
                 message=self._message(n))
        shown = len(self) if self._spoilers else n + 1
        moves = [e if i < shown else {"text": e["text"]} for i, e in enumerate(self._entries)]
        plain, named, at = self._notes
        with self.hold_sync():
            self.set_trait("note", named if n >= at else plain)
            self.set_trait("view", v)
            if moves != self.moves:
                self.set_trait("moves", moves)
            if n >= len(self) and self.playing:
                self.playing = False

    def _message(self, n: int) -> str:
        """The status line at step ``n``: the move just played, or where the replay stands."""
        total = len(self)
        if total == 0:
            return self.note or "No moves to replay"
        if n == 0:
            return f"The start: {plural(total, 'move')} to replay"
        e = self._entries[n - 1]
        verdict = f"; {e['verdict']} after it" if "verdict" in e else ""
        if "odds" in e:
            verdict += f": {e['odds']}"
        ends = self.lost_range or ()
        if ends and n == ends[0]:
            verdict += " (the last position known winnable)"
        elif ends and n == ends[1]:
            verdict += " (the first proven lost)"
        return f"Move {n} of {total}: {e['text']}, {e['cards']} ({e['reason']}){verdict}"

    def set_state(self, sync_data: dict) -> None:
        """Take ``step`` and ``playing`` from the browser, checked: a value out of range is brought into it,
        a value of the wrong type (or any other trait) is ignored, and the browser is told what holds."""
        clean: dict = {}
        resend = []
        for key, value in sync_data.items():
            if key == "step":
                fixed = self._browser_step(value)
                if fixed is not None:
                    clean[key] = fixed
                if fixed is None or fixed != value or isinstance(value, bool):
                    resend.append(key)
            elif key == "playing" and isinstance(value, bool):
                clean[key] = value
            else:
                resend.append(key)
        super().set_state(clean)
        keys = [k for k in resend if k in self.keys]
        if keys:
            self.send_state(keys)

    def _browser_step(self, value: object) -> int | None:
        """``value`` as a step: a number is rounded and kept within 0..len; anything else is ``None``."""
        if not is_number(value):
            return None
        if isinstance(value, float):
            if not math.isfinite(value):
                return None
            value = round(value)
        return min(max(int(value), 0), len(self))


def _without_history(g: Game) -> Game:
    """The position of ``g`` as a new game: no history, nothing to redo (so every step is as if played afresh)."""
    try:
        return Game.from_dict(g.to_dict())
    except ValueError:  # (a position the checks do not take back: keep the copy, its history and all)
        return g.copy()


def _line_of(source: object) -> tuple[Game, list[Move], str]:
    """The start position, the moves and the note of what is replayed."""
    if not isinstance(source, (Game, Analysis, SolveResult)) and isinstance(getattr(source, "game", None), Game):
        source = source.game  # type: ignore[attr-defined]  # a Widget (anything that holds a game: checked above)
    if isinstance(source, Game):
        start = source.copy()   # takes the game's lock: a whole snapshot
        line = start.history
        while start.undo() is not None:
            pass
        return _without_history(start), line, ""
    if isinstance(source, Analysis):
        return _without_history(source.start), list(source.moves), _analysis_note(source, cards=False)
    if isinstance(source, SolveResult):
        if not isinstance(source.start, Game):
            raise ValueError("this SolveResult has no start position to replay from (solve() gives one)")
        note = f"Solver: {source}" + ("" if source.moves else "; no line to show")
        return _without_history(source.start), list(source.moves), note
    raise TypeError("Replay shows a spiderette Game, a SolveResult (from solve()), an Analysis (from analyse()) or a"
                    " Widget, "
                    f"not {type(source).__name__}")


def _analysis_note(a: Analysis, cards: bool) -> str:
    """The note of an analysis' replay. Its moves are named as the summary names them (``gc``, at the position
    they are played from): with their cards (``gc (3♠ onto 4♠)``, the summary's words) when ``cards``, else in
    notation only (the note shows at every step, and a card named there may lie face down at the start)."""
    tp = a.turning_point
    if tp is not None:
        g = a.start.copy()
        for m in a.moves[:tp.index]:
            g.apply(m)

        def name(m: Move) -> str:
            return named_move(g, m) if cards else g.notation(m)

        said = (f"turning point: move {tp.index + 1}, {name(tp.move)}, lost a winnable game; {name(tp.kept)} kept it"
                " winnable")
        if tp.planner is not None:
            said += f"; the honest planner would have played {name(tp.planner)}" + {
                True: ", which keeps it winnable", False: ", which loses it too", None: ""}[tp.planner_keeps]
        if not cards:
            said += f" (their cards are named from move {tp.index + 1} on)"
    elif a.lost_between is not None:
        first, last = a.lost_between   # (winnable after move first - 1: last_winnable)
        said = (f"lost between move {first} and move {last}: winnable after"
                f" {plural(first - 1, 'move')} (a winning line of"
                f" {plural(len(a.winning_line), 'move')}), proven lost after {last}")
    elif a.last_winnable is not None and a.last_winnable < len(a.moves):
        said = (f"winnable after {plural(a.last_winnable, 'move')} (a winning line of"
                f" {plural(len(a.winning_line), 'move')}); whether and where it was lost is not known")
    elif a.first_lost:
        said = f"lost by move {a.first_lost} at the latest; whether it was ever winnable is not known"
    else:
        said = a.summary.split(".")[0].lower()
    return f"Analysis (the solver sees every card): {said}"
