"""Widget speed in a real JupyterLab + Chromium: click -> redraw, render time, bytes per move.

    python benchmarks/widget.py [--rounds 20] [--json] [--against REF]

Needs what the end-to-end tests need (jupyterlab, playwright, /usr/bin/chromium; the front end built
into src/spiderette/static/). Uses the harness of tests/e2e (tests/e2e/jupyter_harness.py).

What is measured, and how:

* click -> first visible change and click -> confirmed view: in the page, the time from the click (the
  ``timeStamp`` of its ``pointerup``, on a capturing window listener) to the first change of the table's
  drawing (a MutationObserver on ``.sp-table``: the front end's prediction, drawn before Python answers,
  when it can tell the outcome), and to the moment the DOM shows Python's answer (the deals / moves
  counter changes and, in a front end that queues intents, its ``data-pending`` is "0": the stats bar
  follows the prediction there); each also to the next animation frame.
  The kernel round trip (intent -> Python -> new ``view`` -> redraw) is inside the second; Playwright's
  input dispatch is in neither. The mouse button is held ``HOLD_MS`` (80 ms) as in a person's click, so the
  page's work for the press (JupyterLab following the focus from a button back to the table) is done
  before the click starts, as it is for a player. Deals (click on the stock), undos (Undo button) and click-moves (click
  on 6H) on deal 7, alternated, ``--rounds`` each.
* render: the widget's own ``render({model, el})`` (the built ES module from ``w._esm``, a stand-in
  model holding a full table's view: deal 7 after its four deals, 52 cards) into a fresh element in the
  JupyterLab page, timed synchronously with a forced style + layout (``getBoundingClientRect``); and the
  redraw of the live widget (``model.trigger('change:view')`` on its real model, with layout).
* bytes per move: Playwright records the kernel websocket frames; per action, the size of the frames
  received (the comm ``update`` carrying the ``view`` and all of them: status busy/idle too) and sent
  (the intent); and ``len(json.dumps(w.view))`` in the kernel.

* --against REF: the same figures for the front end of git revision REF too (its js/ built with the
  repository's esbuild, drawn for the same Python), the two builds taking turns in blocks of 5 rounds, each
  block in a fresh page of one JupyterLab: on a shared machine whose speed drifts from minute to minute, a
  comparison only means something when both meet the same load.

Targets: click -> first visible change <= 16 ms (one frame), click -> confirmed view <= 100 ms,
render <= 16 ms, <= 2 KB per move. A benchmark, not a test: it prints the figures and whether each target
is met, and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

import jupyter_harness as H  # noqa: E402

TARGET_CLICK_MS = 100.0
TARGET_FIRST_MS = 16.0
#: How long the mouse button is held in a click (a person's click lasts about 100 ms; the page does its
#: work for the press, such as moving the focus, before the button comes up).
HOLD_MS = 80
TARGET_RENDER_MS = 16.0
TARGET_BYTES = 2048

ARM = """([counter]) => {
  // Resolve with {first, first_frame, dom, frame} (ms after the click): the first change of the table's
  // drawing (a MutationObserver on .sp-table: what the player sees move, a prediction included) and the
  // change of the status counter once no intent waits (Python's view has arrived and is drawn: the
  // confirmed answer); each
  // also to the next animation frame after it. The click starts at its pointerup (a card acts on
  // pointerup, the stock and the buttons on click, which follows it).
  const root = document.querySelector('.spiderette');
  const el = root.querySelector(`[data-status="${counter}"]`);
  const tableEl = root.querySelector('.sp-table');
  const before = el.textContent;
  window.__timing = new Promise((resolve, reject) => {
    let t0 = null;
    let first = null;
    let firstFrame = null;
    const onUp = (e) => { if (t0 === null) t0 = e.timeStamp; };
    window.addEventListener('pointerup', onUp, {capture: true});
    const seen = new MutationObserver(() => {
      if (t0 === null || first !== null) return;
      first = performance.now() - t0;
      seen.disconnect();
      requestAnimationFrame(() => { firstFrame = performance.now() - t0; });
    });
    seen.observe(tableEl, {subtree: true, childList: true});
    // (a front end that draws its prediction in the stats bar too says in data-pending how many intents
    // wait for Python: the confirmed view is the one drawn when none waits)
    const waiting = () => root.dataset.pending !== undefined && root.dataset.pending !== '0';
    const obs = new MutationObserver(() => {
      if (el.textContent === before || t0 === null || waiting()) return;
      const dom = performance.now();
      obs.disconnect();
      seen.disconnect();
      window.removeEventListener('pointerup', onUp, {capture: true});
      requestAnimationFrame(() => {
        const frame = performance.now() - t0;
        const f = first === null ? dom - t0 : first;
        resolve({first: f, first_frame: firstFrame === null ? frame : firstFrame, dom: dom - t0, frame});
      });
    });
    obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true,
                       attributeFilter: ['data-pending']});
    setTimeout(() => reject(new Error('no redraw within 10 s')), 10000);
  });
}"""

RENDER = """async ([source, view, reps]) => {
  const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
  const mod = await import(url);
  const widget = mod.default && mod.default.render ? mod.default : mod;
  const model = {
    get: (k) => (k === 'view' ? view : k === 'four_colour' ? false : undefined),
    set() {}, save_changes() {}, on() {}, off() {}, send() {},
  };
  const host = document.querySelector('.spiderette').parentElement;
  const times = [];
  for (let i = 0; i < reps; i++) {
    const el = document.createElement('div');
    host.after(el);
    const t0 = performance.now();
    const cleanup = await widget.render({model, el});
    el.querySelector('.spiderette').getBoundingClientRect();
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
    const cards = el.querySelectorAll('[data-card]').length + el.querySelectorAll('[data-face="down"]').length;
    if (cards !== 52) throw new Error(`rendered ${cards} cards, not 52`);
    if (typeof cleanup === 'function') cleanup();
    el.remove();
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  return times;
}"""

REDRAW = f"""async ([reps]) => {{
  const model = await ({H.MODEL_JS})(0);
  const root = document.querySelector('.spiderette');
  const times = [];
  for (let i = 0; i < reps; i++) {{
    const t0 = performance.now();
    model.trigger('change:view', model, model.get('view'));
    root.getBoundingClientRect();
    void document.body.offsetHeight;
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 30));
  }}
  return times;
}}"""


def timed_click(page, locator, counter: str, on_card: bool = False) -> dict:
    page.evaluate(ARM, [counter])
    x, y = H.grab_point(locator) if on_card else H.centre(locator)
    page.mouse.click(x, y, delay=HOLD_MS)
    result = page.evaluate("window.__timing")
    page.wait_for_timeout(250)  # the 150 ms card animation ends; late frames (status idle) come in
    return result


def frames_of(frames) -> dict:
    """Bytes received / sent for one action, from its websocket frames."""
    views = H.comm_views(frames)
    return {
        "in": sum(size for d, size, _m, _r in frames if d == "in"),
        "out": sum(size for d, size, _m, _r in frames if d == "out"),
        "update": sum(size for size, _v in views),
        "updates": len(views),
        "view_json": max((len(json.dumps(v)) for _s, v in views), default=0),
    }


def median(xs) -> float:
    return statistics.median(xs) if xs else float("nan")


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for mod in ("jupyterlab", "anywidget", "ipywidgets", "playwright"):
        try:
            from importlib.metadata import version
            versions[mod] = version(mod)
        except Exception:  # noqa: BLE001
            versions[mod] = "?"
    return {"nproc": os.cpu_count(), "cpu": cpu or platform.processor(), "python": platform.python_version(),
            "chromium": H.chromium_version(), **versions}


KINDS = ("deal", "undo after deal", "move (click)", "undo after move")
#: Rounds measured in one page before the other build takes its turn (with --against).
BLOCK = 5


def build_front_end(ref: str, out: Path) -> Path:
    """The front end (js/) of git revision ``ref`` built into ``out`` with the repository's esbuild."""
    import subprocess

    repo = Path(__file__).resolve().parents[1]
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", ref, "js"], cwd=repo, check=True,
                           capture_output=True, text=True).stdout.split()
    for f in files:
        dst = out / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(subprocess.run(["git", "show", f"{ref}:{f}"], cwd=repo, check=True,
                                       capture_output=True).stdout)
    esbuild = repo / "node_modules" / ".bin" / "esbuild"
    subprocess.run([str(esbuild), str(out / "js" / "widget.js"), str(out / "js" / "widget.css"), "--bundle",
                    "--format=esm", "--target=es2020", f"--outdir={out / 'static'}", "--log-level=warning"],
                   cwd=repo, check=True)
    return out / "static"


def widget_cell(static: Path | None) -> str:
    """The notebook cell showing ``w``: our widget, or one drawn by the front end built in ``static``."""
    if static is None:
        return f"{H.IMPORT}\nw = Widget(seed=7)\nw"
    return (f"import pathlib\n{H.IMPORT}\n\nclass Baseline(Widget):\n"
            f"    _esm = pathlib.Path({str(static / 'widget.js')!r})\n"
            f"    _css = pathlib.Path({str(static / 'widget.css')!r})\n\nw = Baseline(seed=7)\nw")


def measure_clicks(page, log, rounds: int, clicks: dict, sizes: dict) -> None:
    """``rounds`` of deal, undo, click-move, undo on the widget of ``page`` (its websocket frames in ``log``),
    appended to clicks/sizes."""
    root = H.root(page)
    stock, undo = H.pile(page, "stock"), root.locator('[data-action="undo"]')
    six = H.card(page, "6H")
    for _ in range(3):  # warm up (JIT, caches, first-time layout)
        timed_click(page, stock, "deals")
        timed_click(page, undo, "deals")
    for _ in range(rounds):
        for name, loc, counter in zip(KINDS, (stock, undo, six, undo), ("deals", "deals", "moves", "moves")):
            mark = log.mark()
            clicks[name].append(timed_click(page, loc, counter, on_card=loc is six))
            sizes[name].append(frames_of(log.since(mark)))


def measure_render(page, reps: int) -> dict:
    """render() of a full table into a fresh element and the redraw of the live widget: ms, ``reps`` times
    each after three for warming up (the game of ``page`` is dealt to the end)."""
    H.kernel_eval(page, "w.play('d d d d', delay=0)")
    H.wait_table(page, lambda t: t["status"]["deals"] == "0")
    view = H.kernel_json(page, "w.view")
    source = H.kernel_eval(page, "print(w._esm if isinstance(w._esm, str) else open(w._esm).read())")
    render = page.evaluate(RENDER, [source, view, reps + 3])
    redraw = page.evaluate(REDRAW, [reps + 3])
    start = H.kernel_json(page, "Widget(seed=7).view")
    return {"render": render[3:], "redraw": redraw[3:],
            "view_json_bytes": {"start": len(json.dumps(start)), "full table": len(json.dumps(view))}}


def summary(clicks: dict, sizes: dict) -> dict:
    return {
        "click_to_redraw_ms": {
            k: {"first": median([r["first"] for r in v]), "first_frame": median([r["first_frame"] for r in v]),
                "dom": median([r["dom"] for r in v]), "frame": median([r["frame"] for r in v]),
                "max_first": max(r["first"] for r in v), "max_dom": max(r["dom"] for r in v)}
            for k, v in clicks.items()},
        "bytes_per_action": {
            k: {f: median([s[f] for s in v]) for f in ("update", "in", "out", "updates", "view_json")}
            for k, v in sizes.items()},
    }


def run(rounds: int, against: str | None = None) -> dict:
    """Measure our front end (and, with ``against``, the one of that git revision: the two take turns in
    blocks of BLOCK rounds, each in a fresh page of the same JupyterLab, so that both meet the same load)."""
    import tempfile

    from playwright.sync_api import sync_playwright

    out: dict = {"machine": machine(), "rounds": rounds}
    with tempfile.TemporaryDirectory() as tmp, H.JupyterServer("lab") as server, sync_playwright() as p:
        builds: dict[str, Path | None] = {"this": None}
        if against:
            builds[against] = build_front_end(against, Path(tmp))
        clicks = {b: {k: [] for k in KINDS} for b in builds}
        sizes = {b: {k: [] for k in KINDS} for b in builds}
        renders: dict[str, dict] = {b: {"render": [], "redraw": []} for b in builds}
        browser = H.launch_browser(p)
        try:
            pages = 0
            left = rounds
            reps = max(rounds, 20)
            while left > 0:
                n = min(left, BLOCK) if against else left
                for b, static in builds.items():
                    pages += 1
                    page = browser.new_page(viewport=H.VIEWPORT)
                    log = H.FrameLog(page)  # (before the page opens its kernel websocket)
                    H.open_notebook(page, server, f"bench{pages}", [widget_cell(static)])
                    measure_clicks(page, log, n, clicks[b], sizes[b])
                    # a full table (the game dealt to the end), drawn in each block too
                    r = measure_render(page, -(-reps * n // rounds))
                    renders[b]["render"] += r["render"]
                    renders[b]["redraw"] += r["redraw"]
                    if b == "this":
                        out["view_json_bytes"] = r["view_json_bytes"]
                        if left - n <= 0:
                            H.screenshot(page, "bench-full-table.png")
                    page.close()
                left -= n
        finally:
            browser.close()

        def render_ms(r: dict) -> dict:
            return {"render into a fresh element": median(r["render"]),
                    "redraw of the live widget": median(r["redraw"]),
                    "max render": max(r["render"]), "max redraw": max(r["redraw"])}

        out.update(summary(clicks["this"], sizes["this"]))
        out["render_ms"] = render_ms(renders["this"])
        if against:
            out["against"] = {"ref": against, **summary(clicks[against], sizes[against]),
                              "render_ms": render_ms(renders[against])}
    return out


def report(r: dict) -> None:
    m = r["machine"]
    print(f"machine: {m['nproc']} cpu(s) {m['cpu']}; {m['chromium']}; python {m['python']}, "
          f"jupyterlab {m['jupyterlab']}, anywidget {m['anywidget']}, ipywidgets {m['ipywidgets']}, "
          f"playwright {m['playwright']}")
    print(f"\nclick -> first visible change of the table (median of {r['rounds']}; drawn before Python answers"
          " when the front end can tell)")
    base = r.get("against")
    ref = f"   | {base['ref']}:" if base else ""

    def then(*path: str, fmt: str = "{:.1f}") -> str:
        """The baseline's figure at ``path`` (with --against), else nothing."""
        if not base:
            return ""
        x = base
        for key in path:
            x = x[key]
        return f"{ref} {fmt.format(x)}"

    worst_first = 0.0
    for k, v in r["click_to_redraw_ms"].items():
        worst_first = max(worst_first, v["first_frame"])
        print(f"  {k:<18} DOM {v['first']:7.1f} ms   next frame {v['first_frame']:7.1f} ms"
              f"   (max DOM {v['max_first']:.1f})"
              + (then("click_to_redraw_ms", k, "first") + ", next frame " +
                 f"{base['click_to_redraw_ms'][k]['first_frame']:.1f}" if base else ""))
    print(f"  target <= {TARGET_FIRST_MS:.0f} ms (one frame): {'met' if worst_first <= TARGET_FIRST_MS else 'NOT met'}")
    print(f"\nclick -> confirmed view drawn (median of {r['rounds']}; kernel round trip included)")
    worst = 0.0
    for k, v in r["click_to_redraw_ms"].items():
        worst = max(worst, v["dom"])
        print(f"  {k:<18} DOM {v['dom']:7.1f} ms   next frame {v['frame']:7.1f} ms   (max DOM {v['max_dom']:.1f})"
              + (then("click_to_redraw_ms", k, "dom") + ", next frame " +
                 f"{base['click_to_redraw_ms'][k]['frame']:.1f}" if base else ""))
    print(f"  target <= {TARGET_CLICK_MS:.0f} ms: {'met' if worst <= TARGET_CLICK_MS else 'NOT met'}")
    rm = r["render_ms"]
    print("\nrender of a full table (52 cards), median")
    print(f"  render() into a fresh element + layout: {rm['render into a fresh element']:6.2f} ms"
          f" (max {rm['max render']:.2f})" + then("render_ms", "render into a fresh element", fmt="{:.2f}"))
    print(f"  redraw of the live widget + layout:     {rm['redraw of the live widget']:6.2f} ms"
          f" (max {rm['max redraw']:.2f})" + then("render_ms", "redraw of the live widget", fmt="{:.2f}"))
    ok = max(rm["render into a fresh element"], rm["redraw of the live widget"]) <= TARGET_RENDER_MS
    print(f"  target <= {TARGET_RENDER_MS:.0f} ms: {'met' if ok else 'NOT met'}")
    print("\nbytes over the kernel websocket per action (median)")
    worst_b = 0
    for k, v in r["bytes_per_action"].items():
        worst_b = max(worst_b, v["update"])
        print(f"  {k:<18} view update {v['update']:6.0f} B in {v['updates']:.0f} message(s)"
              f" (view JSON {v['view_json']:.0f} B); all frames in {v['in']:6.0f} B, out {v['out']:5.0f} B"
              + then("bytes_per_action", k, "update", fmt="{:.0f}"))
    vj = r["view_json_bytes"]
    print(f"  len(json.dumps(w.view)): {vj['start']} B at the start, {vj['full table']} B on a full table")
    print(f"  target <= {TARGET_BYTES} B per move (view update): {'met' if worst_b <= TARGET_BYTES else 'NOT met'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20, help="clicks of each kind (default 20)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    ap.add_argument("--against", metavar="REF",
                    help="also measure the front end of git revision REF (built with the repository's esbuild), "
                         "the two taking turns in the same JupyterLab: a comparison that a busy machine does "
                         "not tilt (the Python side is this one for both)")
    args = ap.parse_args()
    t0 = time.monotonic()
    r = run(args.rounds, args.against)
    report(r)
    print(f"\n({time.monotonic() - t0:.0f} s)")
    if args.json:
        print(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
