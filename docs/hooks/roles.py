"""A griffe extension for the API reference: the docstrings' Sphinx roles read as Markdown.

The docstrings are written for ``help()`` and Sphinx-like roles (``:class:`Game```, ``:func:`~spiderette.solve```,
``:data:`MAX_DEALS```). Before mkdocstrings renders them as Markdown, a role naming a public name of
``spiderette`` (one with a page in the reference) becomes a link to it, and any other role plain code
(``~`` keeps only the last part of the name, as in Sphinx); and each doctest (``>>>``) becomes a fenced
example, shown as code.
"""

from __future__ import annotations

import re

import griffe


def fence_doctests(text: str) -> str:
    """Put each doctest (a paragraph whose first line starts with ``>>>``) in a ```pycon fence."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if stripped.startswith(">>>"):
            indent = lines[i][: len(lines[i]) - len(stripped)]
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            out += ([""] if out and out[-1].strip() else []) + [indent + "```pycon", *lines[i:j], indent + "```"]
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|mod|exc|obj|const):`(~?)([\w.]+)(\(\))?`")


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`name``` in every docstring of the package, once it is loaded (see the module's docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        if pkg.name != "spiderette":
            return
        public = {str(name) for name in pkg.exports or ()}

        def rewrite(match: re.Match) -> str:
            tilde, name, call = match.groups()
            last = name.rsplit(".", 1)[-1]
            shown = (last if tilde else name) + (call or "")
            if last in public and name in (last, f"spiderette.{last}"):
                return f"[`{shown}`][spiderette.{last}]"
            return f"`{shown}`"

        def walk(obj: griffe.Object) -> None:
            if obj.docstring is not None:
                obj.docstring.value = fence_doctests(ROLE.sub(rewrite, obj.docstring.value))
            for member in obj.members.values():
                if not member.is_alias:
                    walk(member)

        walk(pkg)
