"""Collection rules for the whole repository (the test helpers are in tests/conftest.py).

``src/spiderette/env.py`` needs the optional ``rl`` extra (gymnasium, numpy): without it, its doctests are
not collected, and ``tests/test_env.py`` skips itself.
"""

import importlib.util

collect_ignore = []
if any(importlib.util.find_spec(name) is None for name in ("gymnasium", "numpy")):
    collect_ignore.append("src/spiderette/env.py")
