"""Fixtures of the tests in this folder; the helpers they share are in ``spiderette_testkit.py`` (a plain module:
``tests/`` is on ``pythonpath`` in the pytest configuration). Every test keeps its statistics in a folder of its
own: the ``spiderette_home`` fixture of the repository's ``conftest.py``."""

from __future__ import annotations

import pytest
from spiderette_testkit import VARIANT_SUITS, VS_IDS

from spiderette.engine import ccore


@pytest.fixture(params=VARIANT_SUITS, ids=VS_IDS)
def vs(request):
    """Each (variant, suits) pair in turn."""
    return request.param


@pytest.fixture(params=["compiled", "pure"])
def search_core(request):
    """Each search core in turn (:mod:`spiderette.engine.ccore`): the test's searches run on the compiled core,
    then on the pure-Python one; the compiled run is skipped where the core was not built."""
    if request.param == "pure":
        with ccore.pure_python():
            yield request.param
        return
    if not ccore.COMPILED:
        pytest.skip(f"the compiled search core is not here ({ccore.WHY_PURE})")
    yield request.param
