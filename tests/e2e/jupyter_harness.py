"""Drive the spiderette widget in a real JupyterLab / Notebook 7 and Chromium (Playwright).

Used by the end-to-end tests (``tests/e2e``) and by ``benchmarks/widget.py``. Nothing here knows the
rules of the game: the tests compute what they expect with :class:`spiderette.Game` in the test process.

The pieces:

* :class:`JupyterServer` starts ``jupyter lab`` (or ``jupyter notebook``) on a free port with a random
  token, in an isolated temp root / config / settings / runtime directory, with ``src/`` first on the
  kernel's ``PYTHONPATH`` (so the working tree is tested even if the package is not installed) and
  ``SPIDERETTE_HOME`` in its temp directory (statistics and resume files), and stops it (REST
  shutdown, then terminate, then kill -- only the process it started).
* :func:`launch_browser` launches the Debian Chromium (never ``playwright install``).
* :func:`open_notebook` writes a notebook, opens it, waits for an idle kernel, runs all cells and waits
  for the widget(s) to be drawn.
* :func:`kernel_eval` / :func:`kernel_json` run code in the notebook's kernel from the page.
* :func:`table` reads what a player sees on one widget (piles, cards, status line).
* :func:`drag` / :func:`grab_point` play a pointer drag-and-drop with ``page.mouse``.
* :class:`FrameLog` records the kernel websocket frames and decodes them (both wire protocols).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("SPIDERETTE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1400, "height": 1000}

# The widget's import line in every notebook: the public name, as a user writes it.
IMPORT = "from spiderette import Widget"

# Lab settings that keep the page quiet and every cell attached to the DOM.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
    # no autosave: a notebook reused by the next test is rewritten on disk and reverted (see refill_notebook);
    # a save in between would raise JupyterLab's "file changed" dialog
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterServer:
    """A ``jupyter lab`` or ``jupyter notebook`` server in its own temp directories."""

    def __init__(self, app: str = "lab") -> None:
        if app not in ("lab", "notebook"):
            raise ValueError(app)
        self.app = app
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        self.tmp = Path(tempfile.mkdtemp(prefix=f"spiderette-e2e-{app}-"))
        self.root = self.tmp / "root"
        self.root.mkdir()
        self.log_path = self.tmp / "server.log"
        self.proc: subprocess.Popen | None = None

    # ------------------------------------------------------------------ life cycle
    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        dirs = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_RUNTIME_DIR": "runtime",
                "JUPYTERLAB_SETTINGS_DIR": "settings", "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
                "IPYTHONDIR": "ipython"}
        for var, name in dirs.items():
            (self.tmp / name).mkdir()
            env[var] = str(self.tmp / name)
        for rel, value in SETTINGS.items():
            path = self.tmp / "settings" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        env["PYTHONPATH"] = os.pathsep.join([str(SRC)] + [p for p in [env.get("PYTHONPATH")] if p])
        # statistics and the resume file of every kernel go to the server's temp folder, never the user's
        env["SPIDERETTE_HOME"] = str(self.tmp / "home")
        # the table's searches count in tables alone: the kernel's verdicts never depend on the clock
        env["SPIDERETTE_TABLES_ONLY"] = "1"
        env.pop("ANYWIDGET_HMR", None)
        env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
        return env

    def start(self, timeout: float = 60.0) -> JupyterServer:
        cls = "LabApp" if self.app == "lab" else "JupyterNotebookApp"
        cmd = [sys.executable, "-m", "jupyter", self.app, "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
               "--ServerApp.open_browser=False", f"--{cls}.expose_app_in_browser=True"]
        if self.app == "lab":  # (JupyterNotebookApp has none of these: an unknown trait unloads it)
            cmd += ["--LabApp.news_url=None", "--LabApp.collaborative=False",
                    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, env=self._env(), cwd=self.root, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                code, log = self.proc.returncode, self.log()
                self.stop()
                raise RuntimeError(f"jupyter {self.app} exited with {code}:\n{log}")
            try:
                with urllib.request.urlopen(self.api("status"), timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        else:
            self.stop()
            raise RuntimeError(f"jupyter {self.app} did not answer within {timeout}s:\n{self.log()}")
        if "error linking extension" in self.log() or "error loading extension" in self.log():
            log = self.log()
            self.stop()
            raise RuntimeError(f"jupyter {self.app} started without one of its extensions:\n{log}")
        return self

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            try:  # a clean shutdown also shuts the kernels down
                req = urllib.request.Request(self.api("shutdown"), method="POST", data=b"")
                urllib.request.urlopen(req, timeout=5).close()
                proc.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                pass
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    # The server and the kernels it started are in the session we made for it.
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=10)
        if getattr(self, "_log", None):
            self._log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> JupyterServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    # ------------------------------------------------------------------ urls and files
    def api(self, path: str) -> str:
        return f"{self.base}/api/{path}?token={self.token}"

    def url(self, notebook: str) -> str:
        if self.app == "lab":
            return f"{self.base}/lab/tree/{notebook}?token={self.token}&reset"
        return f"{self.base}/notebooks/{notebook}?token={self.token}"

    def write_notebook(self, name: str, cells: Iterable[str]) -> str:
        import nbformat

        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
        if not name.endswith(".ipynb"):
            name += ".ipynb"
        nbformat.write(nb, self.root / name)
        return name


# ---------------------------------------------------------------------- browser
def launch_browser(playwright):
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(CHROMIUM)
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def chromium_version() -> str:
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


KERNEL = "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
KERNEL_IDLE = f"""() => {{
  try {{ return !!window.jupyterapp && {KERNEL}.status === 'idle'; }} catch (e) {{ return false; }}
}}"""


# JupyterLab loaded, no document open in its main area (a Launcher may be), no dialog up: a notebook can
# be opened in it
LAB_READY = """() => {
  const app = window.jupyterapp;
  return !!app && !!app.shell && location.pathname.includes('/lab')
    && ![...app.shell.widgets('main')].some((w) => w.context) && !document.querySelector('.jp-Dialog');
}"""


def close_notebooks(page, server: JupyterServer, timeout: float = 30_000) -> None:
    """Close every document open in JupyterLab (unsaved changes dropped) and shut down every kernel."""
    page.evaluate("() => { for (const w of [...window.jupyterapp.shell.widgets('main')]) w.dispose(); }")
    # (JupyterLab may open a Launcher in the empty main area: it stays, the next notebook opens beside it)
    shut_down_kernels(server)
    page.wait_for_function(LAB_READY, timeout=timeout, polling=50)


def open_notebook(page, server: JupyterServer, name: str, cells: Iterable[str], widgets: int = 1,
                  timeout: float = 90_000) -> str:
    """Write and open a notebook, run all its cells, wait until ``widgets`` tables are drawn."""
    nb = server.write_notebook(name, cells)
    if server.app == "lab" and page.evaluate(LAB_READY):
        # JupyterLab is loaded and empty (the test before closed its notebooks): open this one in it
        page.evaluate("(path) => window.jupyterapp.commands.execute('docmanager:open', {path})", nb)
        page.wait_for_function("""(path) => { const w = window.jupyterapp.shell.currentWidget;
                                   return !!w && !!w.context && w.context.path === path; }""",
                               arg=nb, timeout=timeout, polling=50)
    else:
        page.goto(server.url(nb), wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_IDLE, timeout=timeout, polling=100)
    _run_all_cells(page, widgets, timeout)
    return nb


def _run_all_cells(page, widgets: int, timeout: float) -> None:
    """Run every cell of the current notebook; wait for ``widgets`` tables drawn and the kernel idle."""
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        f"() => document.querySelectorAll('.spiderette [data-pile=\"stock\"]').length >= {widgets}",
        timeout=timeout, polling=50)
    page.wait_for_function(KERNEL_IDLE, timeout=timeout, polling=100)


# The kernel forgets the test before: every widget closed (its comm too: the page's widget manager drops its
# model), every name of the user namespace deleted (and the output history that holds the last widget).
KERNEL_FORGET = """import ipywidgets as _ipw
_ipw.Widget.close_all()
get_ipython().run_line_magic('reset', '-f')
import gc as _gc
_gc.collect()
del _gc
"""

NOTEBOOK_PANEL = """(path) => [...window.jupyterapp.shell.widgets('main')]
  .find((w) => w.context && w.context.path === path)"""


def notebook_open(page, path: str) -> bool:
    """Whether the notebook ``path`` is open in JupyterLab with a live kernel (it can be refilled)."""
    try:
        return bool(page.evaluate(f"""(path) => {{
          const w = ({NOTEBOOK_PANEL})(path);
          const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
          return !!k && !k.isDisposed && ['idle', 'busy'].includes(k.status);
        }}""", path))
    except Exception:  # noqa: BLE001 - a page that cannot say is not reused
        return False


def refill_notebook(page, server: JupyterServer, path: str, cells: Iterable[str], widgets: int = 1,
                    timeout: float = 90_000) -> str:
    """Give the open notebook ``path`` new cells and run them in its kernel, which forgets the test before:
    the kernel and the page are reused, each test still makes its own widgets in cells of its own."""
    page.evaluate(f"""(path) => window.jupyterapp.shell.activateById(({NOTEBOOK_PANEL})(path).id)""", path)
    page.wait_for_function(f"""(path) => window.jupyterapp.shell.currentWidget === ({NOTEBOOK_PANEL})(path)""",
                           arg=path, timeout=timeout, polling=50)
    page.wait_for_function(KERNEL_IDLE, timeout=timeout, polling=50)
    kernel_eval(page, KERNEL_FORGET)
    cells = list(cells)
    server.write_notebook(path, cells)
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.context.revert(); }")
    page.wait_for_function("""(n) => { const w = window.jupyterapp.shell.currentWidget;
        return w.content.widgets.length === n && !document.querySelector('.spiderette'); }""",
                           arg=len(cells), timeout=timeout, polling=50)
    _run_all_cells(page, widgets, timeout)
    return path


def shut_down_kernels(server: JupyterServer) -> None:
    """Delete every session of the server (their kernels are shut down)."""
    with urllib.request.urlopen(server.api("sessions"), timeout=30) as r:
        sessions = json.load(r)
    for session in sessions:
        req = urllib.request.Request(server.api(f"sessions/{session['id']}"), method="DELETE")
        urllib.request.urlopen(req, timeout=30).close()


class KernelError(RuntimeError):
    pass


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def kernel_eval(page, code: str, timeout: float = 60_000) -> str:
    """Run ``code`` in the current notebook's kernel; return its stdout and result text.

    Raises :class:`KernelError` (with the traceback) if the code raised.
    """
    res = page.evaluate(f"""async (code) => {{
      const kernel = {KERNEL};
      const out = [];
      let err = null;
      const future = kernel.requestExecute({{code, silent: false, store_history: false,
                                             stop_on_error: false}});
      future.onIOPub = (msg) => {{
        const t = msg.header.msg_type, c = msg.content;
        if (t === 'stream') out.push(c.text);
        else if (t === 'execute_result' && c.data && c.data['text/plain']) out.push(c.data['text/plain']);
        else if (t === 'error') err = c.ename + ': ' + c.evalue + '\\n' + (c.traceback || []).join('\\n');
      }};
      try {{ await future.done; }} catch (e) {{ err = err || String(e); }}
      return {{out: out.join(''), err}};
    }}""", code)
    if res["err"]:
        raise KernelError(_ANSI.sub("", res["err"]))
    return res["out"]


def kernel_json(page, expr: str, setup: str = ""):
    """The value of the Python expression ``expr`` in the kernel, through JSON."""
    code = f"{setup}\nimport json as _j\nprint('\\x1e' + _j.dumps({expr}))"
    out = kernel_eval(page, code)
    return json.loads(out.rsplit("\x1e", 1)[1])


# ---------------------------------------------------------------------- what the player sees
# What one widget shows, read from its root element (also used where the widget is not in the page's own
# DOM, e.g. in marimo): the tableau, foundations, stats bar, buttons, banner and stock.
READ_ROOT = """(root) => {
  const cols = [];
  for (let c = 0; ; c++) {
    const p = root.querySelector(`[data-pile="tableau-${c}"]`);
    if (!p) break;
    cols.push({
      down: p.querySelectorAll('[data-face="down"]').length,
      up: [...p.querySelectorAll('[data-card]')].map((e) => e.getAttribute('data-card')),
    });
  }
  const foundations = [];
  for (let f = 0; ; f++) {
    const p = root.querySelector(`[data-pile="foundation-${f}"]`);
    if (!p) break;
    const card = p.querySelector('[data-card]');
    foundations.push(card ? card.getAttribute('data-card') : null);
  }
  const status = {};
  for (const e of root.querySelectorAll('[data-status]')) status[e.getAttribute('data-status')] = e.textContent.trim();
  const banner = root.querySelector('[data-banner]');
  const buttons = {};
  for (const b of root.querySelectorAll('[data-action]')) buttons[b.getAttribute('data-action')] = !b.disabled;
  const stock = root.querySelector('[data-pile="stock"]');
  const count = stock && stock.querySelector('.sp-count');
  return {
    cols, foundations, status, buttons,
    pending: root.dataset.pending === undefined ? null : root.dataset.pending,  // intents not answered yet
    stock: !!stock,
    stock_count: count ? count.textContent.trim() : null,
    piles: root.querySelectorAll('[data-pile]').length,
    banner: banner ? banner.getAttribute('data-banner') : null,
    cards: root.querySelectorAll('[data-card]').length,
    down: root.querySelectorAll('[data-face="down"]').length,
  };
}"""

# The same, for widget ``i`` of the page (null when there is none).
READ_TABLE = f"""(i) => {{
  const root = document.querySelectorAll('.spiderette')[i];
  return root ? ({READ_ROOT})(root) : null;
}}"""


def table(page, index: int = 0) -> dict:
    """What widget ``index`` on the page shows: ``cols`` [{down, up}], ``status``, ``foundations``..."""
    return page.evaluate(READ_TABLE, index)


def wait_table(page, check: Callable[[dict], bool], index: int = 0, timeout: float = 10.0) -> dict:
    """Poll :func:`table` until ``check(table)`` holds; fail with the last table seen."""
    deadline = time.monotonic() + timeout
    t = table(page, index)
    while not (t and check(t)):
        if time.monotonic() > deadline:
            raise AssertionError(f"the table never reached the expected state; it shows:\n"
                                 f"{json.dumps(t, indent=1)}")
        page.wait_for_timeout(50)  # (not time.sleep: this lets Playwright deliver its events)
        t = table(page, index)
    return t


def expect(actual, message: str | None = None):
    """Playwright's ``expect`` (imported when used: this module loads without Playwright)."""
    from playwright.sync_api import expect as _expect

    return _expect(actual, message)


def wait_kernel(page, expr: str, check: Callable[[object], bool] = bool, timeout: float = 10.0):
    """Poll the Python expression ``expr`` in the kernel until ``check(value)`` holds; fail with the last value."""
    deadline = time.monotonic() + timeout
    value = kernel_json(page, expr)
    while not check(value):
        if time.monotonic() > deadline:
            raise AssertionError(f"in the kernel, {expr} stayed {value!r}")
        page.wait_for_timeout(50)
        value = kernel_json(page, expr)
    return value


def kernel_caught_up(page) -> None:
    """Return once the kernel has handled every message the page sent it before (an intent the last action
    sent, if any, is answered by then): the kernel handles its shell messages in turn, and the answer's
    messages come before this execution's end. What follows may then assert that nothing was sent."""
    kernel_eval(page, "None")


# The tables (``.spiderette`` roots) at rest: the same boxes for the root, the felt, every pile and card for
# ``frames`` animation frames running, and no finite animation or transition running in them.
SETTLED = """async ([sel, frames, timeout]) => {
  const raf = () => new Promise((r) => requestAnimationFrame(() => r()));
  const snap = () => {
    const out = [window.innerWidth, window.innerHeight];
    for (const root of document.querySelectorAll(sel))
      for (const e of [root, ...root.querySelectorAll('.sp-table, [data-pile], [data-card]')]) {
        const b = e.getBoundingClientRect();
        out.push(b.left, b.top, b.width, b.height);
      }
    return out.join(',');
  };
  const moving = () => document.getAnimations().some((a) => {
    const t = a.effect && a.effect.target;
    return a.playState === 'running' && t && t.closest && t.closest(sel)
      && a.effect.getComputedTiming().iterations !== Infinity;
  });
  const t0 = performance.now();
  let last = snap(), same = 0;
  while (same < frames) {
    await raf();
    const now = snap();
    if (now === last && !moving()) same++; else { same = 0; last = now; }
    if (performance.now() - t0 > timeout) throw new Error('the table never came to rest');
  }
  return true;
}"""


def wait_settled(page, selector: str = ".spiderette", frames: int = 3, timeout: float = 15_000) -> None:
    """Wait until the tables are at rest (a resize, a theme, a scroll or the cards' flights have been drawn)."""
    page.evaluate(SETTLED, [selector, frames, timeout])


# The file whose presence holds the answers (one for each test process: the kernels it drives run beside it)
HOLD_PATH = Path(tempfile.gettempdir()) / f"spiderette-e2e-hold-{os.getpid()}"


class Hold:
    """While held (``with H.Hold() as hold:``), Python's answers to the intents of a widget whose dispatch
    calls ``_hold_wait()`` (see :func:`hold_wait_code`) wait; ``hold.release()`` (or the end of the ``with``)
    lets them go. The test, not the machine's speed, decides when Python answers: what the table draws before
    the answer is read before it for sure."""

    def __init__(self) -> None:
        self.path = HOLD_PATH

    def hold(self) -> Hold:
        self.path.touch()
        return self

    def __enter__(self) -> Hold:
        return self.hold()

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        self.path.unlink(missing_ok=True)


def hold_wait_code() -> str:
    """Kernel code defining ``_hold_wait()``: returns once no :class:`Hold` is held (60 s at most)."""
    return f"""
import os as _os, time as _time
def _hold_wait(path={str(HOLD_PATH)!r}):
    deadline = _time.monotonic() + 60
    while _os.path.exists(path) and _time.monotonic() < deadline:
        _time.sleep(0.01)
"""


def cols_of_view(view: dict) -> list[dict]:
    """The ``cols`` part of :func:`table` that a ``view`` (or ``spiderette.notebook.view.view(g)``) should draw."""
    return [{"down": c["down"], "up": list(c["up"])} for c in view["tableau"]]


def root(page, index: int = 0):
    return page.locator(".spiderette").nth(index)


def pile(page, name: str, index: int = 0):
    return root(page, index).locator(f'[data-pile="{name}"]')


def card(page, code: str, index: int = 0):
    return root(page, index).locator(f'[data-pile^="tableau-"] [data-card="{code}"]')


def grab_point(locator) -> tuple[float, float]:
    """A point on the visible strip at the top of a card (a fanned card is covered below)."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + min(12.0, box["height"] / 4)


def centre(locator) -> tuple[float, float]:
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, source, target, steps: int = 10, target_point: tuple[float, float] | None = None) -> None:
    """Press on ``source`` (a card), move in ``steps`` onto ``target`` (its centre), release."""
    x0, y0 = grab_point(source)
    x1, y1 = target_point or centre(target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0 + 8, steps=2)
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


def screenshot(page, name: str, index: int = 0) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    root(page, index).screenshot(path=str(path), animations="disabled")
    return path


# ---------------------------------------------------------------------- the widget model in the page
# The spiderette model behind the ``index``-th widget output of the current notebook (JupyterLab and
# Notebook 7), found through the output's widget renderer, which holds the widget manager.
MODEL_JS = """async (index) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const found = [];
  const walk = (w) => {
    if (!w) return;
    if (w._manager && w._manager.promise) found.push(w);
    for (const c of (w.widgets || [])) walk(c);
  };
  for (const cell of panel.content.widgets) walk(cell.outputArea);
  const r = found[index];
  if (!r) throw new Error(`no widget output #${index} (found ${found.length})`);
  const manager = await r._manager.promise;
  const models = await Promise.all(Object.values(manager._models || {}));
  const model = models.find((m) => {
    const v = m.get('view');
    return v && typeof v === 'object' && 'tableau' in v;
  });
  if (!model) throw new Error('no spiderette model in the widget manager');
  return model;
}"""


def send_intent(page, msg: object, index: int = 0) -> None:
    """Send ``msg`` to Python as the front end would (``model.send``), from the page."""
    page.evaluate(f"""async ([index, msg]) => {{
      const model = await ({MODEL_JS})(index);
      model.send(msg);
    }}""", [index, msg])


def model_view(page, index: int = 0) -> dict:
    """The ``view`` held by the widget model in the page (what was synced to the browser)."""
    return page.evaluate(f"""async (index) => {{
      const model = await ({MODEL_JS})(index);
      return JSON.parse(JSON.stringify(model.get('view')));
    }}""", index)


# ---------------------------------------------------------------------- websocket frames
def decode_frame(payload: bytes | str) -> dict | None:
    """A kernel websocket frame as a Jupyter message dict (``channel``, ``header``, ``content``...).

    Handles the JSON text protocol and the binary ``v1.kernel.websocket.jupyter.org`` one; ``None``
    for anything else.
    """
    if isinstance(payload, str):
        try:
            msg = json.loads(payload)
        except ValueError:
            return None
        return msg if isinstance(msg, dict) and "header" in msg else None
    data = bytes(payload)
    if len(data) < 8:
        return None
    (n,) = struct.unpack_from("<Q", data, 0)
    if not 5 <= n <= 1000 or 8 + 8 * n > len(data):
        try:
            return decode_frame(data.decode())
        except UnicodeDecodeError:
            return None
    offsets = list(struct.unpack_from(f"<{n}Q", data, 8))
    parts = [data[offsets[i]:offsets[i + 1] if i + 1 < n else len(data)] for i in range(n)]
    try:
        msg = {"channel": parts[0].decode(), "header": json.loads(parts[1]),
               "parent_header": json.loads(parts[2]), "metadata": json.loads(parts[3]),
               "content": json.loads(parts[4])}
    except (ValueError, IndexError):
        return None
    msg["buffers"] = parts[5:]
    return msg


class FrameLog:
    """Every kernel websocket frame the page sends and receives, with its size in bytes."""

    def __init__(self, page) -> None:
        self.frames: list[tuple[str, int, dict | None, bytes | str]] = []  # (direction, bytes, msg, raw)
        self.recording = True
        page.on("websocket", self._on_socket)

    def _on_socket(self, ws) -> None:
        if "/channels" not in ws.url:
            return
        ws.on("framereceived", lambda payload: self._add("in", payload))
        ws.on("framesent", lambda payload: self._add("out", payload))

    def _add(self, direction: str, payload: bytes | str) -> None:
        if not self.recording:
            return
        size = len(payload.encode()) if isinstance(payload, str) else len(payload)
        self.frames.append((direction, size, decode_frame(payload), payload))

    def mark(self) -> int:
        return len(self.frames)

    def since(self, mark: int) -> list[tuple[str, int, dict | None, bytes | str]]:
        return self.frames[mark:]


def comm_views(frames) -> list[tuple[int, dict]]:
    """The ``view`` states that came in as comm messages: (frame bytes, view)."""
    out = []
    for direction, size, msg, _raw in frames:
        if direction != "in" or not msg or msg["header"].get("msg_type") not in ("comm_msg", "comm_open"):
            continue
        state = (msg["content"].get("data") or {}).get("state") or {}
        if isinstance(state.get("view"), dict):
            out.append((size, state["view"]))
    return out
