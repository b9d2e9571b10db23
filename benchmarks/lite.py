"""The browser site (JupyterLite, ``lite/build.py``) in Chromium: its size, the time from opening it to a drawn
table, and a click's first visible change against the browser's own Python kernel.

    python benchmarks/lite.py [--site DIR] [--opens 3] [--rounds 10] [--json]

``--site`` is a site built with ``python lite/build.py --expose-app-in-browser`` (default: one is built into a
temporary folder, which needs the ``lite`` extra and npm). It is served by a local HTTP server; every other
request is refused, as in ``tests/e2e/test_lite_e2e.py``.

What is measured, and how:

* size: the site's files on disk, and the bytes a first visit downloads (counted by the server) from opening
  the play notebook to its table drawn.
* open -> drawn table: ``--opens`` times, in a fresh browser context each (nothing cached, nothing stored: a
  first visit), from ``page.goto`` of ``lab/index.html?path=01-play.ipynb`` to the kernel started (idle),
  then the notebook's cells run (Run All) to the table drawn (its stock in the page); both added up.
* click -> first visible change and -> confirmed view: the same measurement as ``benchmarks/widget.py``
  (its ``ARM`` script: from the click's ``pointerup`` to the first change of the table's drawing, and to
  the counter showing Python's answer, each to the next animation frame), for deals, undos and click-moves
  on deal 7 of the play notebook's table (Winnable? off, so that no search follows each click),
  ``--rounds`` each. Pyodide runs in a web worker, so the page draws its prediction while the kernel works.

Targets: click -> first visible change <= 16 ms (one frame), as in JupyterLab. A benchmark, not a test: it
prints the figures and whether the target is met, and exits 0.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import jupyter_harness as H  # noqa: E402


def _widget_benchmark():
    """``benchmarks/widget.py``, for its click measurement (one way of timing a click for both kernels)."""
    spec = importlib.util.spec_from_file_location("widget_benchmark", Path(__file__).with_name("widget.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


W = _widget_benchmark()
TARGET_FIRST_MS = W.TARGET_FIRST_MS
KERNEL_IDLE = H.KERNEL_IDLE
TABLE_DRAWN = "() => document.querySelectorAll('.spiderette [data-pile=\"stock\"]').length >= 1"


class _Counting(http.server.SimpleHTTPRequestHandler):
    served: list[int]

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass

    def copyfile(self, source, outputfile) -> None:
        n = 0
        while chunk := source.read(64 * 1024):
            outputfile.write(chunk)
            n += len(chunk)
        self.served.append(n)


class Server:
    """The site on a local HTTP server that counts the bytes it serves."""

    def __init__(self, site: Path) -> None:
        self.served: list[int] = []
        handler = type("Handler", (_Counting,), {"served": self.served})
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, name="lite-site", daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def new_page(browser, server: Server):
    """A fresh context (a first visit) where only the local server answers."""
    context = browser.new_context(viewport=H.VIEWPORT)
    context.set_default_timeout(60_000)
    refused: list[str] = []

    def only_local(route) -> None:
        if route.request.url.startswith(server.url + "/"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    return context, context.new_page(), refused


def open_play(browser, server: Server) -> tuple[dict, object, object, list[str]]:
    """Open the play notebook and run it: the seconds to the kernel and to the table, the bytes served."""
    context, page, refused = new_page(browser, server)
    before = len(server.served)
    t0 = time.monotonic()
    page.goto(f"{server.url}/lab/index.html?path=01-play.ipynb", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_IDLE, timeout=300_000, polling=50)
    kernel = time.monotonic() - t0
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(TABLE_DRAWN, timeout=300_000, polling=20)
    drawn = time.monotonic() - t0
    page.wait_for_function(KERNEL_IDLE, timeout=300_000, polling=100)
    return ({"kernel_s": kernel, "drawn_s": drawn, "bytes": sum(server.served[before:])}, context, page,
            refused)


def measure_clicks(page, rounds: int) -> dict[str, list[dict]]:
    """``rounds`` of deal, undo, click-move, undo on the notebook's table (``w``), Winnable? off."""
    H.kernel_eval(page, "w.winnable = False\nw.new_game(seed=7)")
    H.wait_table(page, lambda t: t["status"].get("moves") == "0" and t.get("pending") in (None, "0"), timeout=60)
    root = H.root(page)
    root.scroll_into_view_if_needed()
    stock, undo, six = H.pile(page, "stock"), root.locator('[data-action="undo"]'), H.card(page, "6H")
    clicks: dict[str, list[dict]] = {k: [] for k in W.KINDS}
    page.wait_for_timeout(500)   # (the notebook's scrolling ends)
    for _ in range(2):   # warm up
        W.timed_click(page, stock, "deals")
        W.timed_click(page, undo, "deals")
    for _ in range(rounds):
        for name, loc, counter in zip(W.KINDS, (stock, undo, six, undo), ("deals", "deals", "moves", "moves")):
            clicks[name].append(W.timed_click(page, loc, counter, on_card=loc is six))
    return clicks


def build_site(out: Path) -> Path:
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py"), "--output", str(out),
                    "--expose-app-in-browser"], check=True)
    return out


def run(site: Path, opens: int, rounds: int) -> dict:
    from playwright.sync_api import sync_playwright

    files = [p for p in site.rglob("*") if p.is_file()]
    out: dict = {"machine": W.machine(), "site": str(site),
                 "site_bytes": sum(p.stat().st_size for p in files), "site_files": len(files)}
    server = Server(site)
    try:
        with sync_playwright() as p:
            browser = H.launch_browser(p)
            try:
                visits, refused = [], []
                for i in range(opens):
                    visit, context, page, refused_here = open_play(browser, server)
                    visits.append(visit)
                    refused += refused_here
                    if i == opens - 1:
                        out["clicks"] = measure_clicks(page, rounds)
                    context.close()
                out["opens"] = visits
                out["refused"] = refused
            finally:
                browser.close()
    finally:
        server.close()
    return out


def median(xs) -> float:
    return statistics.median(xs) if xs else float("nan")


def report(r: dict) -> None:
    m = r["machine"]
    print(f"machine: {m['nproc']} cores, {m['cpu']}; Chromium {m['chromium']}; Python {m['python']}")
    print(f"site: {r['site_bytes'] / 2**20:.1f} MiB in {r['site_files']} files ({r['site']})")
    opens = r["opens"]
    print(f"a first visit downloads {median([o['bytes'] for o in opens]) / 2**20:.1f} MiB "
          f"(open the play notebook, run it, table drawn)")
    print(f"open -> kernel ready   median {median([o['kernel_s'] for o in opens]):5.1f} s   "
          + "  ".join(f"{o['kernel_s']:.1f}" for o in opens))
    print(f"open -> table drawn    median {median([o['drawn_s'] for o in opens]):5.1f} s   "
          + "  ".join(f"{o['drawn_s']:.1f}" for o in opens) + f"   ({len(opens)} first visits)")
    worst = 0.0
    print("click -> first visible change, and -> confirmed view (Python's answer drawn), medians:")
    for kind, rows in r["clicks"].items():
        first = median([x["first_frame"] for x in rows])
        worst = max(worst, first)
        print(f"  {kind:<18} first change {median([x['first'] for x in rows]):6.1f} ms, next frame {first:6.1f} ms;"
              f"   confirmed {median([x['dom'] for x in rows]):6.1f} ms, next frame "
              f"{median([x['frame'] for x in rows]):6.1f} ms   ({len(rows)} clicks)")
    print(f"  target <= {TARGET_FIRST_MS:.0f} ms (one frame) to the first change: "
          f"{'met' if worst <= TARGET_FIRST_MS else 'NOT met'}")
    print(f"requests refused (not to the local server): {len(r['refused'])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, help="a site built with lite/build.py --expose-app-in-browser "
                                              "(default: built here into a temporary folder)")
    ap.add_argument("--opens", type=int, default=3, help="first visits timed (default 3)")
    ap.add_argument("--rounds", type=int, default=10, help="clicks of each kind (default 10)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site.resolve() if args.site else build_site(Path(tmp) / "site")
        r = run(site, args.opens, args.rounds)
    report(r)
    print(f"\n({time.monotonic() - t0:.0f} s)")
    if args.json:
        print(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
