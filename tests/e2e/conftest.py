"""Fixtures for the end-to-end tests: one JupyterLab server and one Chromium for the session, one
JupyterLab page for each test module, and one notebook and kernel in it that the module's tests take turns on:
each test gets the notebook with its own cells, run in a kernel that has forgotten the test before (every widget
closed, every name deleted), so each test still makes its own widgets. A test marked ``fresh_kernel`` gets a
notebook and a kernel of its own; after a test that failed or left the page in an odd state, the page is made
anew (and so is the kernel).

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
def e2e_group(item) -> str:
    """The xdist group of a browser test: its module."""
    return "e2e-" + item.module.__name__.rsplit(".", 1)[-1]


SKIP_REASON = (f"not installed: {', '.join(_MISSING)}" if _MISSING
               else None if Path(H.CHROMIUM).exists() else f"no Chromium at {H.CHROMIUM}")


def pytest_collection_modifyitems(items):
    # With pytest-xdist (``-n 2 --dist loadgroup``, the README's test line) the tests of one module go to one
    # worker, in their order: they take turns on one JupyterLab page and kernel (the fixtures below).
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(pytest.mark.xdist_group(e2e_group(item)))
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


def pytest_configure(config):
    config.addinivalue_line("markers", "fresh_kernel: the test gets a notebook and a kernel of its own "
                                       "(not the module's shared one): it restarts the kernel, or changes the "
                                       "kernel's process for good")


class Page:
    """A browser page with its console errors, page errors and kernel websocket frames."""

    def __init__(self, page, server: H.JupyterServer) -> None:
        self.page = page
        self.server = server
        self.notebook: str | None = None  # the notebook opened last
        self.shared: str | None = None  # the name of the notebook the module's tests take turns on (or None)
        self.reused = False  # whether the test's notebook was the one of the test before (its kernel too)
        self.console: list[tuple[str, str]] = []
        self.errors: list[str] = []
        page.on("console", lambda m: self.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.frames = H.FrameLog(page)

    def open(self, name: str, cells: list[str], widgets: int = 1) -> str:
        if self.shared is None:  # (a notebook and a kernel of the test's own)
            if self.notebook and H.notebook_open(self.page, self.notebook):
                H.close_notebooks(self.page, self.server)  # (the module's shared one, left by the test before)
            self.notebook = H.open_notebook(self.page, self.server, name, cells, widgets=widgets)
        elif self.notebook == self.shared and H.notebook_open(self.page, self.shared):
            self.reused = True
            H.refill_notebook(self.page, self.server, self.shared, cells, widgets=widgets)
        else:
            if self.notebook and self.server.app == "lab" and not self.page.evaluate(H.LAB_READY):
                H.close_notebooks(self.page, self.server)
            self.notebook = H.open_notebook(self.page, self.server, self.shared, cells, widgets=widgets)
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

    def begin(self, shared: str | None = None) -> None:
        """A test starts on this page: nothing of the test before it is seen (its logs, size, media).
        ``shared``: the name of the notebook the module's tests take turns on (None: a notebook of its own)."""
        self.shared = None if shared is None else re.sub(r"[^A-Za-z0-9_.-]+", "_", shared) + ".ipynb"
        self.reused = False
        self.console.clear()
        self.errors.clear()
        self.frames.frames.clear()
        self.frames.recording = True
        self.page.set_viewport_size(H.VIEWPORT)
        self.page.emulate_media(reduced_motion="no-preference")

    def end(self) -> bool:
        """A test is over: close its notebooks and shut their kernels down (the module's shared notebook stays
        open with its kernel, for the next test). False when the page is not fit for the next test (it is then
        closed and a new one made)."""
        try:
            if self.shared is not None and self.notebook == self.shared and H.notebook_open(self.page, self.shared):
                return True
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

    def take(self, shared: str | None) -> Page:
        if self.page is None:
            self.page = _new_page(self.browser, self.server)
        self.page.begin(shared)
        return self.page

    def give_back(self, failed: bool) -> None:
        if self.page is not None and (failed or not self.page.end()):
            self.close()

    def close(self) -> None:
        if self.page is not None:
            self.page.page.context.close()
            self.page = None
            try:  # (the kernels of the page's notebooks go with it)
                H.shut_down_kernels(self.server)
            except OSError as e:
                print(f"could not shut the kernels down: {e}")


@pytest.fixture(scope="module")
def _lab_desk(browser, lab_server):
    desk = _Desk(browser, lab_server)
    yield desk
    desk.close()


@pytest.fixture
def lab(_lab_desk, request):
    """A JupyterLab page; ``lab.open(name, cells)`` runs ``cells`` in the module's shared notebook, in a kernel
    that has forgotten the test before (or, for a test marked ``fresh_kernel``, in a notebook ``name`` of its own
    with a fresh kernel)."""
    fresh = request.node.get_closest_marker("fresh_kernel") is not None
    page = _lab_desk.take(None if fresh else request.module.__name__.rsplit(".", 1)[-1])
    yield page
    H.Hold().release()  # (a test that failed holding Python's answers lets them go)
    _shot(page, request)
    rep = getattr(request.node, "rep_call", None)
    _lab_desk.give_back(failed=rep is None or not rep.passed)


@pytest.fixture
def seed7(lab, request):
    """JupyterLab showing ``w = Widget(seed=7); w`` (in the module's shared notebook, see ``lab``)."""
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
