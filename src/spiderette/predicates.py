"""``spiderette.predicates``, an import path the README documented: the named move predicates.

Their home is :mod:`spiderette.engine.predicates`; everything public there is here too."""

from .engine.predicates import *  # noqa: F403
