"""``spiderette.planner``, an import path the README documented: the honest expert.

Their home is :mod:`spiderette.players.planner`; everything public there is here too."""

from .players.planner import *  # noqa: F403
