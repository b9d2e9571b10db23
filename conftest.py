"""Collection rules for the whole repository (the test helpers are in tests/conftest.py).

``src/spiderette/env.py`` needs the optional ``rl`` extra (gymnasium, numpy): without it, its doctests are
not collected, and ``tests/test_env.py`` skips itself. Tests marked ``slow`` run only with ``SPIDERETTE_SLOW=1``.

The doctests in ``src/`` (and every test) keep statistics and resume files in a temporary folder
(``SPIDERETTE_HOME``), never in the user's data folder; ``tests/conftest.py`` gives each test its own. The
table's searches count in tables alone (``SPIDERETTE_TABLES_ONLY``): no verdict depends on the clock.
"""

import importlib.util
import os

import pytest

try:   # Hypothesis profiles: HYPOTHESIS_PROFILE=quick runs every property test in seconds (tests that set
    # their own max_examples keep it); the default is thorough.
    from hypothesis import HealthCheck, settings

    settings.register_profile("thorough", max_examples=150, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "thorough"))
except ImportError:   # the test extra is not installed: only the doctests run
    pass

SLOW = os.environ.get("SPIDERETTE_SLOW") == "1"

collect_ignore = []
if any(importlib.util.find_spec(name) is None for name in ("gymnasium", "numpy")):
    collect_ignore.append("src/spiderette/env.py")


def pytest_configure(config):
    """Before anything is collected or set up (session fixtures, subprocesses started at import): a scratch
    ``SPIDERETTE_HOME`` and ``XDG_DATA_HOME`` for the whole run, so that even code that escaped the per-test
    folder below never reaches the user's data folder."""
    import tempfile

    scratch = tempfile.mkdtemp(prefix="spiderette-tests-")
    os.environ["SPIDERETTE_HOME"] = os.path.join(scratch, "home")
    # the table's searches count in tables alone, never seconds: the same verdicts however busy the machine
    # (the browser tests' kernels inherit it)
    os.environ["SPIDERETTE_TABLES_ONLY"] = "1"
    os.environ["XDG_DATA_HOME"] = os.path.join(scratch, "xdg-data")


@pytest.fixture(scope="session")
def _homes(tmp_path_factory):
    """The folder the tests' own data folders are made in (one per test process)."""
    return tmp_path_factory.mktemp("spiderette-homes")


@pytest.fixture(autouse=True)
def spiderette_home(_homes, monkeypatch):
    """Every test keeps its statistics and resume file (``spiderette.userdata``) in a fresh folder of its own: the
    test suite never writes into the user's data folder. The folder is returned (not yet created).

    (``tempfile.mkdtemp`` rather than ``tmp_path_factory.mktemp``, which lists every folder made before it to
    number the next: 8 ms a test once six thousand folders were there.)"""
    import tempfile
    from pathlib import Path

    home = Path(tempfile.mkdtemp(dir=_homes)) / "home"
    monkeypatch.setenv("SPIDERETTE_HOME", str(home))
    return home


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (long sweeps, installs into fresh environments) run only with ``SPIDERETTE_SLOW=1``:
    the README's test line leaves them out, ``.ci/run`` runs them after it (``-m slow``)."""
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set SPIDERETTE_SLOW=1 (.ci/run does)")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
