"""``spiderette.table``, an import path the README documented: what the table shows, where a click sends a group.

Their home is :mod:`spiderette.notebook.view`; everything public there is here too."""

from .notebook.view import *  # noqa: F403
