"""Fixtures for the end-to-end tests: one JupyterLab server and one Chromium for the session, one
JupyterLab page for each test module, and a fresh notebook and kernel in it for every test (the page is
loaded again after a test that failed or left it in an odd state).

Run: ``python -m pytest tests/e2e -m e2e -x -q`` (needs /usr/bin/chromium, jupyterlab, notebook, playwright).
On a failure the page is saved to ``test-artifacts/failures/<test>.png``.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import jupyter_harness as H
import pytest

# The kernel imports spiderette from the working tree (src/ first on its PYTHONPATH); so do the tests (the
# pytest configuration's pythonpath).

_MISSING = [m for m in ("playwright", "jupyterlab", "nbformat", "ipykernel", "anywidget")
            if importlib.util.find_spec(m) is None]
SKIP_REASON = (f"not installed: {', '.join(_MISSING)}" if _MISSING
               else None if Path(H.CHROMIUM).exists() else f"no Chromium at {H.CHROMIUM}")


def pytest_collection_modifyitems(items):
    if SKIP_REASON and os.environ.get("CI"):
        # .ci/run installs all of it: in CI a missing piece is a failure, never a silent skip
        raise pytest.UsageError(f"end-to-end tests cannot run in CI: {SKIP_REASON}")
    if SKIP_REASON:
        skip = pytest.mark.skip(reason=SKIP_REASON)
        for item in items:
            if "e2e" in item.keywords:
                item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep


@pytest.fixture(scope="session")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    b = H.launch_browser(playwright)
    yield b
    b.close()


@pytest.fixture(scope="session")
def lab_server():
    if not (H.SRC / "spiderette" / "static" / "widget.js").exists():
        pytest.fail("the front end is not built: run `npm install && npm run build` first", pytrace=False)
    server = H.JupyterServer("lab").start()
    yield server
    server.stop()


class Page:
    """A browser page with its console errors, page errors and kernel websocket frames."""

    def __init__(self, page, server: H.JupyterServer) -> None:
        self.page = page
        self.server = server
        self.notebook: str | None = None  # the notebook opened last
        self.console: list[tuple[str, str]] = []
        self.errors: list[str] = []
        page.on("console", lambda m: self.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.frames = H.FrameLog(page)

    def open(self, name: str, cells: list[str], widgets: int = 1) -> str:
        self.notebook = H.open_notebook(self.page, self.server, name, cells, widgets=widgets)
        return self.notebook

    def reopen(self) -> None:
        """Load the page again on the notebook opened last, as a player who reloads the browser tab."""
        self.page.goto(self.server.url(self.notebook), wait_until="domcontentloaded")

    def widget_problems(self) -> list[str]:
        """Console errors/warnings and page errors that come from the widget (not from JupyterLab)."""
        out = [f"pageerror: {e}" for e in self.errors]
        for kind, text in self.console:
            if kind in ("error", "warning") and re.search(r"spiderette|anywidget|widget\.js", text, re.I):
                out.append(f"console.{kind}: {text.splitlines()[0]}")
        return out

    def begin(self) -> None:
        """A test starts on this page: nothing of the test before it is seen (its logs, size, media)."""
        self.console.clear()
        self.errors.clear()
        self.frames.frames.clear()
        self.frames.recording = True
        self.page.set_viewport_size(H.VIEWPORT)
        self.page.emulate_media(reduced_motion="no-preference")

    def end(self) -> bool:
        """A test is over: close its notebooks and shut their kernels down. False when the page is not
        fit for the next test (it is then closed and a new one made)."""
        try:
            H.close_notebooks(self.page, self.server)
        except Exception as e:  # noqa: BLE001 - an odd page is replaced, never reused
            print(f"the page is not reused: {type(e).__name__}: {e}")
            return False
        return True


def _shot(page: Page, request) -> None:
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        path = H.ARTIFACTS / "failures" / (re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name) + ".png")
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            page.page.screenshot(path=str(path), full_page=True)
        except Exception as e:  # noqa: BLE001 - a failed screenshot must not hide the failure
            print(f"could not save {path}: {e}")


def _new_page(browser, server) -> Page:
    context = browser.new_context(viewport=H.VIEWPORT)
    context.set_default_timeout(30_000)
    return Page(context.new_page(), server)


def _page(browser, server, request):
    page = _new_page(browser, server)
    yield page
    _shot(page, request)
    page.page.context.close()


class _Desk:
    """The JupyterLab page a test module's tests take turns on (JupyterLab loads once, not per test)."""

    def __init__(self, browser, server) -> None:
        self.browser, self.server, self.page = browser, server, None

    def take(self) -> Page:
        if self.page is None:
            self.page = _new_page(self.browser, self.server)
        self.page.begin()
        return self.page

    def give_back(self, failed: bool) -> None:
        if self.page is not None and (failed or not self.page.end()):
            self.close()

    def close(self) -> None:
        if self.page is not None:
            self.page.page.context.close()
            self.page = None


@pytest.fixture(scope="module")
def _lab_desk(browser, lab_server):
    desk = _Desk(browser, lab_server)
    yield desk
    desk.close()


@pytest.fixture
def lab(_lab_desk, request):
    """A JupyterLab page with no notebook open (open one with ``lab.open(name, cells)``: a fresh kernel)."""
    page = _lab_desk.take()
    yield page
    _shot(page, request)
    rep = getattr(request.node, "rep_call", None)
    _lab_desk.give_back(failed=rep is None or not rep.passed)


@pytest.fixture
def seed7(lab, request):
    """JupyterLab showing ``w = Widget(seed=7); w`` in a notebook of its own (a fresh kernel)."""
    lab.open(request.node.name, [f"{H.IMPORT}\nw = Widget(seed=7)\nw"])
    return lab


@pytest.fixture(scope="module")
def notebook_server():
    pytest.importorskip("notebook", reason="notebook 7 is not installed")
    server = H.JupyterServer("notebook").start()
    yield server
    server.stop()


@pytest.fixture
def nb7(browser, notebook_server, request):
    """A fresh Jupyter Notebook 7 page."""
    yield from _page(browser, notebook_server, request)
