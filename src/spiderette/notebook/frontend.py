"""The built front end of the notebook widgets (``static/``, made by ``npm run build`` from ``js/``)."""

from __future__ import annotations

from pathlib import Path

#: Where the build puts the widgets' ES modules and style sheets.
STATIC = Path(__file__).parent.parent / "static"


def static_file(name: str) -> Path | str:
    """The built front-end file ``static/<name>`` (for ``_esm`` / ``_css``), or a stand-in that says it is missing."""
    path = STATIC / name
    if path.exists():
        return path
    if name.endswith(".js"):
        # Without the built front end (an install that skipped `npm run build`) say so on the table.
        return ("export default { render({ el }) { el.textContent = 'spiderette: the front end is not built"
                " (run npm install && npm run build in the source tree)'; } };")
    return ""
