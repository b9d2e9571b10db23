"""Fixtures of the tests in this folder; the helpers they share are in ``spiderette_testkit.py`` (a plain module:
``tests/`` is on ``pythonpath`` in the pytest configuration). Every test keeps its statistics in a folder of its
own: the ``spiderette_home`` fixture of the repository's ``conftest.py``."""

from __future__ import annotations

import pytest
from spiderette_testkit import VARIANT_SUITS, VS_IDS


@pytest.fixture(params=VARIANT_SUITS, ids=VS_IDS)
def vs(request):
    """Each (variant, suits) pair in turn."""
    return request.param
