"""The bookkeeping of one table (a ``Widget``): which game it plays, when that game counts, and the saving.

The rules are in :mod:`spiderette.userdata.statistics`; this applies them to the changes a table makes. Nothing here
raises for a file: a problem is reported once (a :class:`~spiderette.userdata.datafolder.RecordsWarning` and a note
for the status line) and the table plays on.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> os.environ["SPIDERETTE_HOME"] = folder          # (the tests give each test a folder of its own)
>>> from spiderette import Game, stats
>>> g, t = Game(seed=7), TableRecords()
>>> t.changed(g, moved=False); t.played              # nothing played yet
False
>>> g.move(1, 3)
Move.parse('bd1')
>>> t.changed(g, moved=True); sorted(os.listdir(folder))
['resume.json']
>>> t.give_up(g), stats()["spiderette", 4]["lost"]  # New game: a played game given up is a loss
('recorded', 1)
"""

from __future__ import annotations

import warnings

from ..engine.errors import clip, flag
from ..engine.game import Game
from ..engine.words import plural
from ..userdata.datafolder import RecordsWarning, home, new_id
from ..userdata.resumefile import RESUME_FILE, clear_resume, load_resume, resume_info, save_resume
from ..userdata.statistics import Stats, counted, read_stats, record_result

#: How much of a path or an error a status line shows (a path is worth seeing, within reason).
PATH_SHOWN = 120


class TableRecords:
    """The records of one table (a ``Widget``): its game's id, whether the game counts yet, and the saving
    after each change, by the rules of :mod:`spiderette.userdata.statistics`. ``enabled=False``: nothing is recorded.

    Nothing here raises: a file that cannot be read or written is reported once, as a
    :class:`RecordsWarning` and as :attr:`note` (for the status line), and the table plays on.
    """

    def __init__(self, enabled: bool = True) -> None:
        flag(enabled, "record")
        self.enabled = enabled
        self.game_id = new_id()
        self.played = False    # a move was made on the table in this game
        self.counted = False   # its result is in the statistics
        self.note: str | None = None
        self._failed = False

    def _guard(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # a file problem must never stop the game
            if not self._failed:
                self._failed = True
                why = e.strerror if isinstance(e, OSError) and e.strerror else str(e) or type(e).__name__
                where = f" ({clip(str(e.filename), PATH_SHOWN)})" if isinstance(e, OSError) and e.filename else ""
                why = clip(why, PATH_SHOWN)
                self.note = f"Could not {what}: {why}{where}"
                warnings.warn(self.note, RecordsWarning, stacklevel=4)
            return None

    def opening(self, resume: object, game: object = None) -> Game | None:
        """The game a table made with ``resume=True`` starts from: the saved one (adopted), else ``None``."""
        flag(resume, "resume")
        if resume and (game is not None or not self.enabled):
            raise ValueError("resume=True takes the saved game: give no game, and keep record=True")
        saved = self.load() if resume else None
        if saved is None:
            return None
        self.adopt(saved[1])
        return saved[0]

    @staticmethod
    def resumed(game: Game) -> str:
        """The status line after a resume."""
        n = game.move_count
        return f"Resumed the saved game: {game.rules.title}, deal {game.seed}, {plural(n, 'move')}"

    def take_note(self) -> str | None:
        """The problem to show in the status line, once."""
        note, self.note = self.note, None
        return note

    def new_game(self) -> None:
        """The table deals a new game (or restarts): a new id; it counts once a move is made."""
        self.game_id, self.played, self.counted = new_id(), False, False

    def give_up(self, game: Game) -> str:
        """The table leaves ``game`` (New game, Restart, Resume, Give up): a loss if it was played and not won.

        Returns what was recorded: ``"recorded"`` (its result, now), ``"counted_before"`` (its result was
        recorded already), ``"not_recording"`` (this table keeps no records) or ``"not_played"`` (no move was
        made: a game never touched does not count).
        """
        if not self.enabled:
            return "not_recording"
        if not self.played:
            return "not_played"
        told = "counted_before" if self.counted else "recorded"
        if not self.counted:
            self._count(game, won=game.is_won)
        self._guard("clear the saved game", clear_resume, self.game_id)
        return told

    def changed(self, game: Game, moved: bool) -> None:
        """After a change of the table (``moved``: a move, deal, send or redo): count a win, or save."""
        if not self.enabled:
            return
        self.played = self.played or moved
        if not self.played or self.counted:
            return
        if game.is_won:
            self._count(game, won=True)
            self._guard("clear the saved game", clear_resume, self.game_id)
        else:
            self._guard("save the game for resume", self._save, game)

    def _save(self, game: Game) -> None:
        info = resume_info()
        if info is not None and info["id"] != self.game_id:
            if counted(self.game_id):  # given up meanwhile (another table took its place): it is over
                self.counted = True
                return
            # this game takes the saved one's place: that one is given up (a loss, unless counted already)
            record_result(info["variant"], info["suits"], won=False, score=info["score"], moves=info["moves"],
                          game_id=info["id"], unread_design=not info["playable"])
        save_resume(game, self.game_id)

    def _count(self, game: Game, won: bool) -> None:
        self.counted = True
        self._guard("record the result", record_result, game.variant, game.suits, won=won, score=game.score,
                    moves=game.move_count, game_id=self.game_id)

    def offer(self) -> dict | None:
        """The saved game the Resume button offers (``None`` when there is none, or it is on the table)."""
        if not self.enabled:
            return None
        info = self._guard("read the saved game", resume_info)
        if not info or info["id"] == self.game_id or not info["playable"]:   # (a design not read: kept, not offered)
            return None
        return {k: info[k] for k in ("variant", "suits", "seed", "moves", "score")}

    def load(self) -> tuple[Game, str] | None:
        """The saved game and its id, or ``None`` (a damaged file is set aside and :attr:`note` says so)."""
        if not self.enabled:
            return None
        there = self._guard("look for the saved game", lambda: (home() / RESUME_FILE).exists())
        info = self._guard("read the saved game", resume_info) if there else None
        if info is not None and not info["playable"]:   # kept for when its design is read again
            self.note = (f"The saved game is of the design {info['variant']!r} ({plural(info['suits'], 'suit')}),"
                         " not read in this session: read its design (from_cardz) to resume it")
            return None
        loaded = self._guard("read the saved game", load_resume)
        if loaded is None and there and self.note is None:
            self.note = "The saved game could not be read: it was set aside (see the warning)"
        return loaded

    def adopt(self, game_id: str) -> None:
        """The table now plays the saved game ``game_id`` (it was played; it may have been counted)."""
        self.game_id, self.played = game_id, True
        self.counted = bool(self._guard("read the statistics", counted, game_id))

    def table(self, variant: str, suits: int) -> dict:
        """The Statistics panel's data: ``{"rows": [...]}``, the current variant's row marked."""
        s = self._guard("read the statistics", read_stats) or Stats()
        return {"rows": s.table((variant, suits))}
