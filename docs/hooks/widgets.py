"""MkDocs hook: the notebooks' widgets drawn by the package's own front end, bundled into the site.

nbconvert's pages load a widget manager (and, through it, anywidget) from a CDN when they are viewed: with no
network, or once the CDN moves on, the tables and the replays are empty boxes, and nothing pins the version
drawn. Instead, each notebook page of this site:

- loses the scripts that fetched the widget manager, MathJax (the notebooks have no formulas) and, on a page
  with no diagram, Mermaid;
- loads ``assets/spiderette/embed.js`` (``js/embed.js``), which draws every widget from the page's saved widget
  state: spiderette's table and replay with ``widget.js`` and ``replay.js`` as ``npm run build`` made them,
  copied beside it; tqdm's progress bars as plain HTML;
- keeps the state of spiderette's widgets without their module and CSS (``_esm``, ``_css``: about 120 kB a
  widget, the same for every one), which the bundled files stand for.

A page of the site reaches no other site to draw a notebook (``tests/e2e/test_site_e2e.py`` checks it, on a
built site, with every other request blocked).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "src" / "spiderette" / "static"
EMBED = REPO / "js" / "embed.js"
#: Where the front end goes in the site.
ASSETS = "assets/spiderette"
#: The files of the front end the pages draw with (built by ``npm run build``), and the drawing script.
BUNDLED = ("widget.js", "widget.css", "replay.js", "replay.css")
#: The anywidget ids of the widgets the bundled files draw (their ``_esm`` and ``_css`` are left out).
OURS = ("spiderette.notebook.widget.Widget", "spiderette.notebook.replay.Replay")

_STATE = re.compile(r'(<script type="application/vnd\.jupyter\.widget-state\+json">)(.*?)(</script>)', re.S)
_MANAGER = re.compile(r"<script>\s*\(function\(\) \{\s*function addWidgetsRenderer\(\).*?</script>", re.S)
_MATHJAX = re.compile(r'<!-- Load mathjax -->\s*<script src="[^"]*">\s*</script>')
_MERMAID = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{'
                      r'\s*const diagrams = document\.querySelectorAll\("\.jp-Mermaid.*?</script>', re.S)


def on_post_page(output: str, page, config) -> str:
    if 'type="application/vnd.jupyter.widget-view+json"' not in output:
        return output
    output = _MANAGER.sub("", output, count=1)
    output = _MATHJAX.sub("", output)
    if 'class="jp-Mermaid' not in output:
        output = _MERMAID.sub("", output)
    output = _STATE.sub(lambda m: m.group(1) + slim_state(m.group(2)) + m.group(3), output, count=1)
    src = get_relative_url(f"{ASSETS}/embed.js", page.url)
    return output.replace("</body>", f'<script type="module" src="{src}"></script>\n</body>', 1)


def slim_state(text: str) -> str:
    """The page's widget state (JSON, as nbconvert wrote it into the page) without the module and CSS of
    spiderette's widgets."""
    data = json.loads(html.unescape(text) if text.lstrip().startswith("{&") else text)
    for model in data.get("state", {}).values():
        state = model.get("state", {})
        if state.get("_anywidget_id") in OURS:
            state["_esm"] = state["_css"] = ""
    return json.dumps(data).replace("</", "<\\/")


def on_post_build(config) -> None:
    missing = [name for name in BUNDLED if not (STATIC / name).is_file()]
    if missing:
        raise PluginError(f"the site draws the notebooks' widgets with the built front end, and "
                         f"{', '.join(missing)} are missing from {STATIC}: run `npm ci && npm run build` first")
    out = Path(config["site_dir"]) / ASSETS
    out.mkdir(parents=True, exist_ok=True)
    for name in BUNDLED:
        shutil.copyfile(STATIC / name, out / name)
    shutil.copyfile(EMBED, out / "embed.js")
