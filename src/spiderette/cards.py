"""``spiderette.cards``, an import path the README documented: cards as ints and codes.

Their home is :mod:`spiderette.engine.cards`; everything public there is here too."""

from .engine.cards import *  # noqa: F403
