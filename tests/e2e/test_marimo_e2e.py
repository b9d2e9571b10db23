"""End-to-end: the widget in marimo (``notebooks/marimo_play.py`` served by ``marimo run``) and Chromium.

marimo draws the widget inside a shadow root: the page is read with Playwright locators (which pierce it),
not with ``document.querySelectorAll``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import jupyter_harness as H
import pytest

from spiderette import Game
from spiderette.notebook.view import view

pytestmark = pytest.mark.e2e

APP = H.REPO / "notebooks" / "marimo_play.py"

if importlib.util.find_spec("marimo") is None:
    if os.environ.get("CI"):  # .ci/run installs it (the e2e extra): in CI a missing piece is a failure
        raise RuntimeError("marimo is not installed")
    pytest.skip("marimo is not installed", allow_module_level=True)

class MarimoServer:
    """``marimo run APP --headless`` on a free port, with ``src/`` first on its path; stops only itself."""

    def __init__(self, app: Path) -> None:
        self.app = app
        self.port = H.free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.tmp = Path(tempfile.mkdtemp(prefix="spiderette-e2e-marimo-"))
        self.log_path = self.tmp / "server.log"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> MarimoServer:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(H.SRC)] + [p for p in [env.get("PYTHONPATH")] if p])
        for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
            (self.tmp / var.lower()).mkdir()
            env[var] = str(self.tmp / var.lower())
        env["MARIMO_SKIP_UPDATE_CHECK"] = "1"
        cmd = [sys.executable, "-m", "marimo", "run", str(self.app), "--headless", "--host", "127.0.0.1",
               "--port", str(self.port), "--no-token", "--no-sandbox"]
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, env=env, cwd=self.tmp, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"marimo exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url, timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        log = self.log()
        self.stop()
        raise RuntimeError(f"marimo did not answer within {timeout}s:\n{log}")

    def stop(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the session we made for it: marimo and its kernel
                proc.wait(timeout=10)
        if getattr(self, "_log", None):
            self._log.close()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def cleanup(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def marimo_server():
    if not (H.SRC / "spiderette" / "static" / "widget.js").exists():
        pytest.fail("the front end is not built: run `npm install && npm run build` first", pytrace=False)
    server = MarimoServer(APP).start()
    yield server
    server.stop()
    server.cleanup()


def wait_for(root, check, timeout: float = 15.0) -> dict:
    deadline = time.monotonic() + timeout
    t = root.evaluate(H.READ_ROOT)
    while not check(t):
        if time.monotonic() > deadline:
            raise AssertionError(f"the table never reached the expected state; it shows:\n{t}")
        root.page.wait_for_timeout(50)
        t = root.evaluate(H.READ_ROOT)
    return t


def test_marimo_app_draws_the_table_and_deals(browser, marimo_server):
    context = browser.new_context(viewport=H.VIEWPORT)
    context.set_default_timeout(60_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}")
            if m.type == "error" and re.search(r"spiderette|anywidget|widget\.js", m.text, re.I) else None)
    try:
        page.goto(marimo_server.url, wait_until="domcontentloaded")
        stock = page.locator('.spiderette [data-pile="stock"]')
        stock.wait_for()
        root = page.locator(".spiderette").first
        g = Game(seed=7)
        expected = H.cols_of_view(view(g))
        t = wait_for(root, lambda t: t["cols"] == expected)
        assert t["piles"] == page.locator(".spiderette [data-pile]").count() >= 8  # 7 columns and the stock
        assert t["stock_count"] == "4" and t["status"]["deals"] == "4" and t["status"]["moves"] == "0"
        status_line = page.get_by_text(re.compile(r"^playing · score"))
        assert status_line.inner_text() == "playing · score 500 · 0 moves · 4 deals left · runs 0/4"

        stock.click()  # a click on the stock deals a row
        g.deal()
        after = H.cols_of_view(view(g))
        t = wait_for(root, lambda t: t["stock_count"] == "3" and t["cols"] == after)
        assert t["status"]["deals"] == "3" and t["status"]["moves"] == "1" and t["status"]["score"] == "499"
        # the reactive cell below the table ran again (marimo state that follows the widget)
        status_line.filter(has_text="1 move").wait_for(timeout=15_000)
        assert status_line.inner_text() == "playing · score 499 · 1 move · 3 deals left · runs 0/4"
        H.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(H.ARTIFACTS / "marimo-seed7.png"), full_page=True)
        assert not problems, problems
    except BaseException:
        path = H.ARTIFACTS / "failures" / "marimo.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
        print(marimo_server.log())
        raise
    finally:
        context.close()
