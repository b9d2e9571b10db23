"""``Widget``: the Jupyter card table (anywidget).

Python owns the :class:`~spiderette.Game` and checks every action; the browser draws the synced ``view``
(what a player may see, no hidden card) and sends intents with ``model.send``. The wire protocol is in
``docs/widget-protocol.md``.

>>> w = Widget(seed=7)
>>> w.view["tableau"][0]["up"]
['4H']
>>> w.move(1, 3).kind
'move'
>>> f = w.play("ea d", delay=0, wait=False)
>>> [str(m) for m in f.result(timeout=10)]
['ea1', 'd']
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Iterable
from typing import Any

import anywidget
import traitlets

from ..engine import platform
from ..engine.cards import card_text
from ..engine.errors import IllegalMoveError, quote, seconds, shorten
from ..engine.errors import flag as true_or_false
from ..engine.game import Game, parse_sequence
from ..engine.move import DEAL, Move
from ..engine.variants import RULES, Rules, get_rules
from ..engine.words import plural
from ..players.limits import Limit, budget_of, tables
from .clock import GameClock
from .dispatch import Dispatch
from .frontend import static_file
from .hintbuttons import NO_USEFUL_MOVE, THINK_BUDGET, TableHints
from .postmortem import ANALYSIS_MORE, PostMortem, said
from .scorekeeper import TableRecords
from .scripted import ScriptedPlay
from .traits import Flag
from .view import view
from .winnable import WinnableCheck
from .wording import given_up, hidden_named, move_text, outcome, redo_text, refusal, sequence_refusal, undo_text

#: ``view["last"]`` kinds that are a move made on the table (the game then counts in the statistics).
MOVED = ("move", "deal", "send", "redo")
#: ``view["last"]`` kinds that start (or go on with) the game timer.
TIMED = (*MOVED, "undo")
#: The longest status line published: the table shows two lines of it and opens the rest on demand ("More",
#: "Whole plan"), so the table's own words are whole (a post-mortem's verdict, a plan of 40 moves); a longer
#: one is cut between two words (a plan: whole in ``view["hint"]["reason"]``, which "Whole plan" opens).
MAX_MESSAGE = 1000
#: ``view["offer_analysis"]``: why the table offers "Where did it go wrong?" (``None``: it does not).
OFFERS = ("lost", "no_move", "resigned")


def _ending(text: str, note: str) -> str:
    """``text`` and ``note`` after it, ``text`` cut short (between two words) if need be, so that the note is
    published whole."""
    return shorten(text, MAX_MESSAGE - len(note)) + note


def _one_way_back(g: Game, winnable_at: int | None, analysis: dict | None) -> tuple[int | None, dict | None]:
    """``view["undo_to_winnable"]`` and ``view["analysis"]`` with one offer to go back, not two: when both the
    Winnable? indicator and the analysis know an earlier winnable position, the later one (fewer moves taken
    back) keeps its button; the turning point wins a tie (its button also says which move lost)."""
    undo = analysis.get("undo") if analysis else None
    if winnable_at is None or not undo:
        return winnable_at, analysis
    assert analysis is not None   # (undo came from it)
    if g.move_count - winnable_at < undo:
        return winnable_at, {**analysis, "undo": None}
    return None, analysis


class Widget(anywidget.AnyWidget):
    """A playable Spiderette table in the notebook.

    ``Widget()`` deals a random game; ``Widget(variant="spider", suits=1, seed=42)`` a numbered one;
    ``Widget(game=g)`` shows an existing :class:`Game` (``w.game is g``). The table and its games share
    one lock (``w.game.lock``), so scripting ``w.game`` from any thread while the table plays is safe.
    ``Widget(resume=True)`` brings back the unfinished game saved by the last session (else deals as
    asked); ``record=False`` keeps the table out of the statistics and the resume file
    (:mod:`spiderette.userdata.statistics`).
    """

    _esm = static_file("widget.js")
    _css = static_file("widget.css")

    view: traitlets.Dict[str, Any] = traitlets.Dict().tag(sync=True)
    four_colour = Flag(False).tag(sync=True)
    #: The Winnable? indicator (a spoiler, off by default): the solver checks every table in the background.
    winnable = Flag(False).tag(sync=True)
    #: The variants the New-game chooser offers: ``{"name", "title", "suits"}`` each, from :data:`RULES`.
    variants: traitlets.List[dict] = traitlets.List(read_only=True).tag(sync=True)
    #: The Statistics panel's rows (``spiderette.userdata.statistics.Stats.table``), kept up to date while it is open.
    stats = traitlets.Dict().tag(sync=True)

    def __init__(self, variant: str | Rules = "spiderette", suits: int = 4, seed: int | None = None,
                 game: Game | None = None, *, four_colour: bool = False, winnable: bool = False,
                 resume: bool = False, record: bool = True, **kwargs) -> None:
        if game is not None and not isinstance(game, Game):
            raise TypeError(f"game must be a spiderette.Game, not {type(game).__name__}")
        true_or_false(winnable, "winnable")   # checked before anything is read or made
        true_or_false(four_colour, "four_colour")
        self._records = TableRecords(record)
        saved = self._records.opening(resume, game)   # resume=True: the saved game, if there is a good one
        game = saved or game or Game(variant, seed=seed, suits=suits)
        super().__init__(four_colour=four_colour, **kwargs)
        self._offer_variants()
        self._game = game
        self._lock = game.lock
        self._version = 0
        self._message = ""
        self._message_for: tuple | None = None   # the table the message was said of
        self._tone = ""                   # view.tone: "refusal" while the message is a refusal
        self._offer: str | None = None    # view.offer_analysis: one of OFFERS, for this game
        self._hints = TableHints(game.lock)                # view.hint and view.thinking: Hint and Think
        self._scripted = ScriptedPlay(self._lock, self._step)   # w.play
        self._on_move: list[Callable[[Move], object]] = []
        self._games = 0                   # bumps for every new game: part of the table's key
        self._table: tuple | None = None  # the key of the table last published
        self._winnable = WinnableCheck(game.lock)          # view.winnable: the Winnable? indicator
        self._postmortem = PostMortem(game.lock)            # view.analysis: "Where did it go wrong?"
        self._panel: str | None = None                     # view.panel: the open panel ("stats") or None
        self._clock = GameClock(game.elapsed)             # view.clock: the game timer
        self._intents = Dispatch(self, self._lock, self._step, self._refuse, self._publish, self._clock.pause,
                                 self._on_move)            # the front end's intents; view.answer
        self.on_msg(self._intents.handle)
        self._publish(TableRecords.resumed(game) if saved else self._records.take_note() or "")
        if winnable:
            self.winnable = True

    def __repr__(self) -> str:
        """Like the game's: ``<Widget spiderette, seed=1 suits=4: score 500, 0 moves, 4 deals left, playing>``."""
        return "<Widget" + repr(self._game).removeprefix("<Game")

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        """The live game: read it and script it; call :meth:`refresh` after changing it directly."""
        return self._game

    def _key(self) -> tuple:
        """The table as it stands: equal keys, same table (and same game, same place in its history)."""
        g = self._game
        return self._games, g.state_key(), len(g.history)

    def _publish(self, message: str | None = None, last: dict | None = None, tone: str = "",
                 refused: dict | None = None) -> None:
        """Publish the view. ``message`` (``None``: keep the last one) has a ``tone`` ("" or "refusal");
        ``refused`` names the action just refused (``view["refused"]``, for one view only)."""
        with self._lock:
            key = self._key()
            g = self._game
            changed = key != self._table
            if changed:
                # The table changed: a think about the old one stops, the Winnable? check starts again, an
                # analysis of a history the game no longer starts with stops.
                self._table = key
                self._hints.cancel()
                if self._postmortem.running is not None and not self._postmortem.applies(g):
                    self._postmortem.cancel()
                # the longer analysis goes on only while the position analysed is on show
                self._postmortem.stop_searching()
                self._postmortem.search_on(g, self._analysed_longer)
                if self.winnable:
                    self._winnable.start(g, key, self._key, self._publish)
            if message is not None:
                self._message = shorten(message, MAX_MESSAGE)   # (a longer plan: whole in view.hint.reason)
                self._tone = tone
                self._message_for = key
            elif self._message_for != key:   # words said of another table (w.game changed from a cell)
                self._message, self._tone, self._message_for = "", "", key
            if hidden_named(g, self._message):   # a safety net: never a card the player cannot see
                self._message, self._tone = "", ""
            verdict = self._winnable.verdict
            if verdict is not None and verdict.get("state") == "loss":
                self._offer = self._offer or "lost"
            self._version += 1
            self._clock.follow(g.status, acted=(last or {}).get("kind") in TIMED)
            g.elapsed = self._clock.elapsed   # saved with the game (the resume file, g.save)
            v = view(g)
            back, analysis = _one_way_back(g, self._winnable.undo_target(g), self._postmortem.view(g))
            v.update(version=self._version, message=self._message, tone=self._tone, refused=refused,
                     hint=self._hints.shown_on(key), last=last,
                     thinking=self._hints.thinking, winnable=self._winnable.verdict,
                     undo_to_winnable=back, analysis=analysis,
                     offer_analysis=self._offer if g.history and not g.is_won else None,
                     panel=self._panel, resume=self._records.offer(),
                     deal=None if g.seed is None else str(g.seed), clock=self._clock.view(),
                     answer=self._intents.answering)
            self.view = v
            if changed:  # after the view went out: count a win, or save the game for resume
                self._records.changed(self._game, moved=(last or {}).get("kind") in MOVED)
                note = self._records.take_note()
                if note:
                    self._publish(f"{self._message} ({note})" if self._message else note, tone=self._tone)
            if self._panel == "stats":
                self.stats = self._records.table(self._game.variant, self._game.suits)

    def set_state(self, sync_data: dict) -> None:
        """The browser changes nothing but through intents: an ``update`` of any trait from the front end
        (``view``, ``winnable``, ``variants``, ``stats``, ``four_colour``, ``_esm``, …) is ignored, and the
        traits' values are sent back so that the page shows what holds."""
        keys = [k for k in sync_data if k in self.keys]
        if keys:
            self.send_state(keys)

    def refresh(self) -> None:
        """Redraw the table from ``w.game`` (after changing the game without going through ``w``)."""
        with self._lock:
            self._hints.clear()
            self._publish("")

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the table's background work is done and drawn: Think, the Winnable? check, a
        ``play(wait=False)`` and the analysis of "Where did it go wrong?". ``False`` if ``timeout`` seconds
        passed first (``None``: no limit).

        >>> w = Widget(seed=12, winnable=True, record=False)
        >>> w.wait(60), w.view["winnable"]["state"]
        (True, 'win')
        """
        if timeout is not None:
            timeout = seconds(timeout, "timeout")
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:   # an answer is published under the lock, before its task is forgotten
                tasks = (self._hints.running, self._winnable.running, self._scripted.running, self._postmortem.running,
                         self._postmortem.searching)
                running = [f for f in tasks if f is not None and not f.done()]
            if not running:
                return True
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                return False
            if not platform.THREADS:   # (no thread finishes them: the work still waiting is done now)
                ran = False
                for f in running:
                    if f.waiting:
                        f.run_waiting()
                        ran = True
                if not ran:
                    return False
                continue
            concurrent.futures.wait(running, timeout=left)

    def on_move(self, callback: Callable[[Move], object], remove: bool = False) -> None:
        """Call ``callback(move)`` after every move, deal, send or redo made on the table by hand
        (``remove=True``: no longer; a callback that was not added is a ``ValueError``)."""
        if not callable(callback):
            raise TypeError(f"callback must be a function of a Move, not {quote(callback)}")
        true_or_false(remove, "remove")
        if remove:
            if callback not in self._on_move:
                raise ValueError(f"{quote(callback)} was not added with on_move")
            self._on_move.remove(callback)
        else:
            self._on_move.append(callback)

    # ------------------------------------------------------------------ actions (scripting and intents)
    def _refuse(self, e: IllegalMoveError, click: tuple | None = None, where: str = "",
                words: str | None = None) -> IllegalMoveError:
        """Show a refusal on the table, said once, in the refusal tone: the rule, with the cards in words
        (:func:`spiderette.notebook.wording.refusal` on the table, unless ``words`` says it already).
        ``view["refused"]`` names what was refused, for the table to mark: the move (not one later in a
        sequence given to ``play``), else the clicked group ``click`` = ``(src, count)``.

        Returns the error to raise into the cell: the same words as the status line (no card the table
        hides), with the refused move and its place in a sequence."""
        m = e.move if e.index is None else None
        refused = None
        if m is not None:
            refused = m.to_dict()
        elif click is not None:
            refused = {"kind": "click", "src": click[0], "dst": None, "count": click[1]}
        words = refusal(e) if words is None else words
        self._publish(f"Not allowed{where}: {words}", tone="refusal",
                      refused=refused)
        said = IllegalMoveError(words, e.move, e.index)   # ("move 2 (ab): " and the words, as the engine's)
        named = e.cards + (() if e.target is None else (e.target,))
        if not hidden_named(self._game, " ".join(card_text(c) for c in named)):
            said.refusal = e.refusal   # its cards are all in view: the decision as data too
        said.shown = True  # type: ignore[attr-defined]
        return said

    def _step(self, move: Move) -> Move:
        """Play one move on the table and publish it (refusals are shown, then raised)."""
        with self._lock:
            g = self._game
            runs = g.runs_completed
            try:
                move = g.resolve(move)
                text = move_text(g, move)
                g.apply(move)
            except IllegalMoveError as e:
                raise self._refuse(e) from None
            self._hints.clear()
            self._publish(outcome(g, text, move, runs), last=move.to_dict())
            return move

    def stop(self) -> bool:
        """Stop a play running in the background (``w.play(..., wait=False)``); ``True`` if one was stopped.

        Every other action on the table, from Python or from the browser, stops it first too.
        """
        return self._scripted.stop()

    def _do(self, move: Move) -> Move:
        self.stop()
        return self._step(move)

    def move(self, src: int, dst: int, count: int | None = None) -> Move:
        """Move cards from column ``src`` to ``dst`` (0-based), as :meth:`Game.move`; returns the move."""
        return self._do(Move("move", src, dst, count))

    def deal(self) -> Move:
        """Deal a row from the stock."""
        return self._do(DEAL)

    def send(self, col: int) -> Move:
        """Send the complete run at the top of column ``col`` (when runs are sent by hand)."""
        return self._do(Move("send", col))

    def apply(self, move: Move | str) -> Move:
        """Play one ``Move`` or one token of notation on the table."""
        return self._do(Move.parse(move) if isinstance(move, str) else move)

    def undo(self) -> Move | None:
        """Take back the last move or deal."""
        self.stop()
        with self._lock:
            move = self._game.undo()
            self._hints.clear()
            self._publish(outcome(self._game, undo_text(self._game, move)) if move else "Nothing to undo",
                          last={"kind": "undo"} if move else None)
            return move

    def redo(self) -> Move | None:
        """Play again the move last taken back."""
        self.stop()
        with self._lock:
            g = self._game
            redo = g.redo_list
            text = redo_text(g, redo[0]) if redo else ""   # the next move redone, not the last
            runs = g.runs_completed
            move = g.redo()
            self._hints.clear()
            self._publish(outcome(g, text, move, runs) if move else "Nothing to redo",
                          last={"kind": "redo"} if move else None)
            return move

    def restart(self) -> None:
        """Start the same deal again."""
        self.stop()
        with self._lock:
            self._records.give_up(self._game)   # a played game restarted counts as lost
            self._game.restart()
            self._records.new_game()
            self._clock.reset()
            self._hints.clear()
            self._postmortem.reset()   # an analysis of the game before names cards face down again
            self._offer = None
            self._publish("Restarted the same deal", last={"kind": "new"})

    def _offer_variants(self) -> None:
        """The New-game chooser's variants: every one known, designs read by ``from_cardz`` included."""
        self.set_trait("variants", [{"name": r.name, "title": r.title, "suits": list(r.suit_options)}
                                    for r in RULES.values()])

    def new_game(self, seed: int | None = None, variant: str | Rules | None = None,
                 suits: int | None = None) -> Game:
        """Deal a new game (same variant and suits unless given; ``variant`` may be the :class:`Rules` of a
        design file, :func:`spiderette.from_cardz`, which the chooser then offers too); returns it."""
        self.stop()
        with self._lock:
            old = self._game
            variant = old.variant if variant is None else get_rules(variant).name
            if suits is None:
                suits = old.suits if variant == old.variant else 4
            game = Game(variant, seed=seed, suits=suits, auto_remove=old.auto_remove, scoring=old.scoring,
                        lock=self._lock)
            self._offer_variants()
            self._replace(game, None, f"New game: {game.rules.title}, deal {game.seed}")
            return game

    def _replace(self, game: Game, saved_id: str | None, message: str) -> None:
        """Put ``game`` on the table (a new deal, or the saved game ``saved_id``); the old one is given up."""
        self._records.give_up(self._game)
        self._game = game
        if saved_id is None:
            self._records.new_game()
        else:
            self._records.adopt(saved_id)
        self._games += 1
        self._winnable.reset()
        self._postmortem.reset()
        self._offer = None
        self._clock.reset(game.elapsed)
        self._hints.clear()
        self._publish(message, last={"kind": "new"})

    def resume(self) -> bool:
        """Bring back the saved unfinished game (the Resume button); ``False`` (and says so) if there is none.

        The game on the table is given up (a loss in the statistics, if it was played and not won).
        """
        self.stop()
        with self._lock:
            saved = self._records.load() if self._records.offer() else None
            if saved is None:
                self._publish(self._records.take_note() or "No saved game to resume")
                return False
            self._replace(saved[0].copy(lock=self._lock), saved[1], TableRecords.resumed(saved[0]))
            return True

    def show_stats(self, show: bool = True) -> None:
        """Open (or, with ``show=False``, close) the Statistics panel on the table."""
        true_or_false(show, "show")
        with self._lock:
            self._panel = "stats" if show else None
            self._publish()

    def hint(self) -> Move | None:
        """Show a suggested move on the table, say why in the message line, and return it.

        The planner's plan comes first; pressed again on the same table, the next suggestion (its other first
        moves, best first), and so on round the list: the message says "Hint 2 of 5".
        """
        with self._lock:
            message, move = self._hints.next(self._game, self._key())
            self._said_hint(message)
            return move

    def _said_hint(self, message: str) -> None:
        """Publish what Hint or Think says; "no useful move" offers the post-mortem."""
        if message.startswith(NO_USEFUL_MOVE):
            self._offer = self._offer or "no_move"
        self._publish(message)

    def resign(self) -> None:
        """Give up the game on the table (the Give up button): a played game counts as lost in the statistics
        (once; never with ``record=False``), and the message says what was recorded. With moves in its
        history the table offers "Where did it go wrong?". The cards stay (Undo and play go on, uncounted)."""
        self.stop()
        with self._lock:
            g = self._game
            if g.is_won:
                self._publish("The game is won: nothing to give up")
                return
            recorded = self._records.give_up(g)   # "recorded", "counted_before", "not_recording", "not_played"
            self._hints.clear()
            if g.history:
                self._offer = "resigned"
            self._publish(given_up(recorded, bool(g.history)))

    # ------------------------------------------------------------------ thinking (the honest search)
    def think(self, limit: Limit | None = None, *, wait: bool = False, budget: int | None = None):
        """Plan harder without peeking: the planner (:func:`spiderette.players.planner.plan`) with ``limit``'s
        tables, ``w.think(Limit(tables=50_000))`` (a :class:`~spiderette.Limit` of tables only; ``budget`` is its
        shorthand; :data:`~spiderette.notebook.hintbuttons.THINK_BUDGET` when not given) on a copy of the table, in a
        background thread, while the kernel goes on answering clicks. In a browser tab (no threads: the page
        waits while it plans) the budget when not given is :data:`spiderette.engine.platform.BROWSER_THINK_TABLES`,
        and the table says it thought "with a smaller budget in the browser".

        ``wait=False`` returns at once a ``concurrent.futures.Future`` of the :class:`~spiderette.players.ranking.Hint`
        (``None`` when nothing improves); ``cancel()`` stops the search. ``wait=True`` returns the hint.
        When it answers and the table is still the one it looked at, the plan is shown as the Hint button
        shows one (and Hint then goes on round its alternatives); any change of the table (a move, a deal,
        undo, a new game...) stops it, and a new ``think`` stops the one before. ``view["thinking"]`` is true
        while it runs.
        """
        budget = budget_of("think", limit, {"budget": (tables(budget, "budget", none=True), None)}).tables
        smaller = ""
        if budget is None:   # (in a browser tab the page waits while it thinks: a smaller budget, said so)
            budget = platform.budget(THINK_BUDGET, platform.BROWSER_THINK_TABLES)
            smaller = platform.SMALLER_BUDGET if budget < THINK_BUDGET else ""
        true_or_false(wait, "wait")
        with self._lock:
            if self._key() != self._table:   # w.game was changed from a cell: the table catches up first
                self._publish()
            future = self._hints.think(self._game, self._key(), budget, self._key, self._said_hint, smaller)
            if not future.done():   # (without threads nor an event loop it has already answered)
                self._publish(f"Thinking {smaller}\u2026" if smaller else "Thinking\u2026")
        return future.result() if wait else future

    def stop_thinking(self) -> bool:
        """Stop a running :meth:`think`; ``True`` if one was stopped."""
        with self._lock:
            stopped = self._hints.cancel()
            self._publish("Stopped thinking" if stopped else "Not thinking")
            return stopped

    # ------------------------------------------------------------------ the Winnable? indicator
    @traitlets.observe("winnable")
    def _winnable_changed(self, change: dict) -> None:
        with self._lock:
            if change["new"]:
                self._winnable.start(self._game, self._key(), self._key, self._publish)
            else:
                self._winnable.stop()
            self._publish()

    def undo_to_winnable(self) -> int:
        """Undo back to the last earlier position the Winnable? indicator proved winnable; returns the number
        of moves taken back (0, and says so, when there is none)."""
        self.stop()
        with self._lock:
            target = self._winnable.undo_target(self._game)
            if target is None:
                self._publish("No earlier position was proven winnable")
                return 0
            g = self._game
            steps = g.move_count - target
            for _ in range(steps):
                g.undo()
            self._hints.clear()
            self._publish(f"Took back {plural(steps, 'move')}: back to a winnable position",
                          last={"kind": "undo"})
            return steps

    # ------------------------------------------------------------------ where did it go wrong?
    def where_did_it_go_wrong(self, wait: bool = False):
        """Analyse the game played so far (:func:`spiderette.analyse`, the solver peeks: a post-mortem) in
        the background, while play goes on; the table then says where a winnable game was lost, and offers
        to take the moves back to that point (:meth:`undo_to_turning_point`). Returns the ``Future`` of the
        :class:`~spiderette.Analysis` (``cancel()`` stops it), or with ``wait=True`` the analysis. In a browser
        tab (no threads: the page waits) it spends the smaller budget of :mod:`spiderette.engine.platform`, and
        the table says so."""
        true_or_false(wait, "wait")
        with self._lock:
            future = self._postmortem.start(self._game, self._analysed)
            smaller = f", {platform.SMALLER_BUDGET}" if self._postmortem.smaller else ""
            if not future.done():   # (without threads nor an event loop it has already answered)
                self._publish(f"Looking for where the game went wrong\u2026 (the solver sees every card{smaller})")
        return future.result() if wait else future

    def _analysed(self, a) -> None:
        """The analysis answered (under the lock): said only if it still applies to the table on show; when it
        left the turning point unknown and the position analysed is on show, it searches on."""
        if self._postmortem.applies(self._game):
            text = f"{said(a)} (searched {platform.SMALLER_BUDGET})" if self._postmortem.smaller else said(a)
            if self._postmortem.search_on(self._game, self._analysed_longer) is not None:
                text = _ending(text, f"; searching on with {ANALYSIS_MORE}\u00d7 the tables\u2026")
            self._publish(text)

    def _analysed_longer(self, a) -> None:
        """The longer analysis answered (under the lock, the position analysed on show): its words replace."""
        self._publish(_ending(said(a), f" (searched again with {ANALYSIS_MORE}\u00d7 the tables)"))

    def undo_to_turning_point(self) -> int:
        """Take back the moves played since the turning point the analysis found (or, when it found none, since
        the last position it knows winnable); returns how many (0, and says so, when there is none)."""
        self.stop()
        with self._lock:
            goal = self._postmortem.goal(self._game)
            steps = self._postmortem.target(self._game)
            if not steps or goal is None:
                self._publish("No turning point to go back to")
                return 0
            for _ in range(steps):
                self._game.undo()
            self._hints.clear()
            took = f"Took back {plural(steps, 'move')}"
            if goal[1] == "turning":
                self._publish(f"{took}: the next move is the one that lost the game; try another",
                              last={"kind": "undo"})
            else:
                a = self._postmortem.result
                between = a.lost_between if a is not None else None
                later = (f"; one of moves {between[0]} to {between[1]} lost the game" if between is not None
                         else "")
                self._publish(f"{took}: back to the last winnable position (seen with the hidden cards"
                              f" known){later}; try another way", last={"kind": "undo"})
            return steps

    # ------------------------------------------------------------------ scripted play
    def play(self, moves: str | Iterable[Move | str], delay: float = 0.5, wait: bool = True):
        """Play a sequence of moves one at a time, each step drawn (and animated) on the table.

        Everything is checked before anything plays: the notation, the arguments, and that the whole
        sequence is legal from the table as it is (a refusal changes nothing and says which move).
        ``wait=True`` returns the moves played; ``wait=False`` steps in a background thread and returns a
        :class:`~spiderette.players.background.PlayFuture` at once (``cancel()``, ``done()``, ``result()``),
        so the kernel stays free.
        Any other action on the table, or a new ``play``, stops a running one before it acts.
        """
        seq = parse_sequence(moves)
        delay = seconds(delay, "delay", error=ValueError)
        true_or_false(wait, "wait")
        self.stop()
        with self._lock:
            try:
                self._game.copy().play(seq)   # all or nothing: try the whole sequence first
            except IllegalMoveError as e:   # the refusal in words, naming only cards the table shows
                raise self._refuse(e, where=f" (move {e.index} of the sequence)" if e.index else "",
                                   words=sequence_refusal(self._game, e)) from None
        return self._scripted.start(seq, delay, wait)
