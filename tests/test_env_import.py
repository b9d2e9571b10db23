"""``spiderette.env`` without gymnasium says how to install it (runs whether gymnasium is installed or not)."""

import importlib
import subprocess
import sys

import pytest
from spiderette_testkit import src_env


def test_import_without_the_rl_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # an import of gymnasium now fails
    monkeypatch.delitem(sys.modules, "spiderette.env", raising=False)
    with pytest.raises(ImportError, match=r'gymnasium is missing\): pip install "spiderette\[rl\]"'):
        importlib.import_module("spiderette.env")


def test_the_package_does_not_need_gymnasium():
    code = ("import sys; sys.modules['gymnasium'] = None; import spiderette;"
            " assert spiderette.Game(seed=7).deals_left == 4 and 'spiderette.env' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, env=src_env(), timeout=60)
