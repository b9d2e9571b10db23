"""The documentation site's notebooks draw their tables and replays offline, with the package's own front end.

These tests read a built site (``mkdocs build``, notebooks run): ``.ci/run`` builds it, then runs them with
``SPIDERETTE_SITE=site``. They serve it on 127.0.0.1 and open its notebook pages in Chromium with every request
to another address refused: each spiderette widget is drawn from the page's saved state by the bundled
``assets/spiderette/`` files, exactly as Python left it, with a line saying it is a picture.

Run: ``mkdocs build --strict --site-dir site && SPIDERETTE_SITE=site pytest tests/e2e/test_site_e2e.py``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import jupyter_harness as H
import pytest

pytestmark = pytest.mark.e2e

SITE = os.environ.get("SPIDERETTE_SITE")
#: The notebook pages with spiderette widgets, and how many of each kind the build leaves on them.
PAGES = {"01-play": {"widget": 2}, "02-scripting": {"widget": 2}, "03-strategy": {"replay": 2},
         "04-the-ladder": {"replay": 1}}


@pytest.fixture(scope="module")
def site():
    if not SITE:
        pytest.skip("needs a built site: .ci/run runs these after `mkdocs build` with SPIDERETTE_SITE=site")
    root = Path(SITE).resolve()
    if not (root / "notebooks" / "01-play" / "index.html").is_file():
        pytest.fail(f"SPIDERETTE_SITE={SITE}: no built site there (mkdocs build --site-dir {SITE})", pytrace=False)
    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):   # (no line per file served)
        pass


@pytest.fixture(scope="module")
def offline_page(browser, site):
    """A page that may load from the local server only: every other request is refused and kept in
    ``page.refused``."""
    _, base = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.refused = []
    host = urlsplit(base).netloc

    def route(r):
        url = r.request.url
        if urlsplit(url).netloc == host or url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            page.refused.append(url)
            r.abort()

    context.route("**/*", route)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def saved_models(html: str) -> dict:
    state = re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', html, re.S)
    return json.loads(state.group(1))["state"]


def open_notebook(page, base: str, name: str):
    page.refused.clear()
    page.errors.clear()
    page.goto(f"{base}/notebooks/{name}/", wait_until="load")
    page.wait_for_function("document.documentElement.dataset.spEmbed === 'done'", timeout=30_000)


@pytest.mark.parametrize("name", list(PAGES))
def test_the_notebook_pages_draw_their_widgets_offline(offline_page, site, name):
    root, base = site
    page = offline_page
    html = (root / "notebooks" / name / "index.html").read_text(encoding="utf-8")
    # nothing on the page would fetch from another site, and the pages carry no copy of the front end
    assert "unpkg.com" not in html and "cdnjs" not in html and "addWidgetsRenderer" not in html
    models = saved_models(html)
    ours = [m["state"] for m in models.values() if m["model_module"] == "anywidget"]
    assert ours and all(s["_esm"] == "" and s["_css"] == "" for s in ours)

    open_notebook(page, base, name)
    assert page.refused == [] and page.errors == []
    for kind, count in PAGES[name].items():
        hosts = page.locator(f'.sp-embed[data-embed="{kind}"]')
        assert hosts.count() == count
        for i in range(count):
            host = hosts.nth(i)
            assert host.get_attribute("data-drawn") == "true"
            assert "A picture of the" in host.locator(".sp-embed-note").inner_text()
            assert host.locator(".sp-table .sp-card").count() > 0
    H.ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".sp-embed[data-embed]").first.screenshot(path=str(H.ARTIFACTS / f"site-{name}.png"))


def test_the_table_on_the_play_page_is_the_one_python_left(offline_page, site):
    """The play notebook's table, drawn on the site, shows the cards of Python's last view of it: the same
    face-up cards in each column, the same count of face-down ones, and no face-down card named."""
    root, base = site
    page = offline_page
    models = saved_models((root / "notebooks" / "01-play" / "index.html").read_text(encoding="utf-8"))
    views = [m["state"]["view"] for m in models.values()
             if m["state"].get("_anywidget_id") == "spiderette.notebook.widget.Widget"]
    open_notebook(page, base, "01-play")
    tables = page.locator('.sp-embed[data-embed="widget"]')
    drawn_views = []
    for i in range(tables.count()):
        drawn_views.append(tables.nth(i).evaluate("""host => [...host.querySelectorAll('.sp-col')].map(col => ({
            up: [...col.querySelectorAll('.sp-card.sp-up')].map(c => c.dataset.card),
            down: col.querySelectorAll('.sp-card.sp-down:not(.sp-coming)').length}))"""))
    expected = [[{"up": c["up"], "down": c["down"]} for c in v["tableau"]] for v in views]
    assert sorted(map(json.dumps, drawn_views)) == sorted(map(json.dumps, expected))
    # a picture: a click changes nothing and sends nothing anywhere
    table = tables.first
    before = table.inner_html()
    table.locator(".sp-card.sp-up").first.click(force=True)
    assert table.inner_html() == before and page.refused == [] and page.errors == []


def test_a_replay_on_the_site_shows_its_moves_and_reasons(offline_page, site):
    root, base = site
    page = offline_page
    models = saved_models((root / "notebooks" / "03-strategy" / "index.html").read_text(encoding="utf-8"))
    replays = [m["state"] for m in models.values()
               if m["state"].get("_anywidget_id") == "spiderette.notebook.replay.Replay"]
    open_notebook(page, base, "03-strategy")
    hosts = page.locator('.sp-embed[data-embed="replay"]')
    lengths = sorted(hosts.nth(i).locator("[data-replay-move]").count() for i in range(hosts.count()))
    assert lengths == sorted(len(r["moves"]) + 1 for r in replays)   # a row a move, and the start
    first = max(replays, key=lambda r: len(r["moves"]))["moves"][0]
    texts = " ".join(hosts.nth(i).locator("[data-replay-move]").nth(1).inner_text() for i in range(hosts.count()))
    assert first["text"] in texts
