"""The intents the widget's front end sends, and their checks (the protocol: ``docs/widget-protocol.md``).

Every field is checked before anything acts; a bad one raises :class:`IntentError` with the words the
status line shows.

>>> deal_number(" 42 "), deal_number(""), deal_number(7)
(42, None, 7)
>>> deal_number("1.5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
spiderette.notebook.intents.IntentError: Refused: a deal number is a whole number from 0 to ..., not '1.5'
"""

from __future__ import annotations

import re

from ..engine.deals import MAX_SEED
from ..engine.errors import is_whole, quote, whole
from ..engine.game import Game
from ..engine.move import Move
from ..engine.variants import RULES, get_rules

ACTIONS = ("move", "click", "deal", "send", "undo", "redo", "restart", "hint", "new", "think", "stop_thinking",
           "winnable", "undo_to_winnable", "resume", "stats", "away", "analyse", "undo_to_turning", "four_colour",
           "resign")
#: Intents that leave a play running in the background (they do not act on the table).
KEEP_PLAYING = ("hint", "stop_thinking", "winnable", "stats", "away", "analyse", "four_colour")
#: Intents that name columns of the table they were made on: refused when made on an older table.
VERSIONED = ("move", "click", "send")
#: The longest intent ``id`` echoed back in ``view["answer"]``.
MAX_ID = 64

_DIGITS = re.compile("[0-9]{1,40}")


class IntentError(ValueError):
    """A message from the front end that is malformed or out of date."""


def field(content: dict, key: str, low: int, high: int) -> int:
    """``content[key]``, a whole number with ``low <= value < high``."""
    try:
        return whole(content.get(key), f"'{key}'", low, high - 1)
    except (TypeError, ValueError) as e:
        raise IntentError(f"Refused: {e}") from None


def flag(content: dict, key: str, default: object = None) -> bool:
    """``content[key]`` (or ``default``), ``true`` or ``false``."""
    value = content.get(key, default)
    if not isinstance(value, bool):
        raise IntentError(f"Refused: '{key}' must be true or false, not {quote(value)}")
    return value


def move_of(content: dict, columns: int) -> Move:
    """The move a ``move`` intent asks for: ``src``, ``dst`` (two different columns) and ``count``."""
    src, dst = field(content, "src", 0, columns), field(content, "dst", 0, columns)
    if src == dst:
        raise IntentError("Refused: a move needs two different columns")
    return Move("move", src, dst, field(content, "count", 1, 100))


def answer_id(content: dict) -> str | None:
    """The intent's ``id`` (a short string the front end chose), echoed in the view that answers it."""
    value = content.get("id")
    return value if isinstance(value, str) and 0 < len(value) <= MAX_ID else None


def deal_number(value: object) -> int | None:
    """The deal number a ``new`` intent asks for: a whole number, or its digits as typed (``None``:
    a random deal). A deal number is from 0 to 2**64 - 1."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = int(value.strip())
    if not is_whole(value) or not 0 <= value < MAX_SEED:
        raise IntentError(f"Refused: a deal number is a whole number from 0 to {MAX_SEED - 1}, not {quote(value)}")
    return value


def new_game_choice(content: dict, game: Game) -> tuple[str, int | None, int | None]:
    """The variant, suits and deal number a ``new`` intent asks for (suits not offered: the variant's
    first; no deal number: a random deal)."""
    variant = content.get("variant", game.variant)
    if not isinstance(variant, str) or variant not in RULES:
        raise IntentError(f"Refused: unknown variant {quote(variant)}")
    seed = deal_number(content.get("seed"))
    suits = content.get("suits")
    if suits is None:
        return variant, None, seed
    if not is_whole(suits) or suits not in (1, 2, 4):
        raise IntentError(f"Refused: suits must be 1, 2 or 4 (a whole number), not {quote(suits)}")
    options = get_rules(variant).suit_options
    return variant, suits if suits in options else options[0], seed
