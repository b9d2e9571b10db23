"""Run the Python examples of a Markdown page (the README, the guides of ``docs/``) as a reader would.

How the examples run: the ```python blocks of each ``##`` section run **in order, in one namespace per
section**, as a reader pastes them into the cells of one notebook (a section's later blocks may use the
names its earlier blocks made; no section relies on another; blocks before the first ``##`` form a section
of their own). A line whose comment starts with ``→`` says what it shows, and is checked: ``hint(g)  # → bd1: a
3-move plan: …`` must show that (what it prints, and for an expression what a notebook shows of its value;
``…`` stands for any text). Each section runs in a fresh scratch folder (the working directory, ``tempfile``'s folder
and ``SPIDERETTE_HOME``), with ``display`` defined as a no-op. A block that cannot run in a test (a remote
Dask scheduler) has a line ``<!-- not run: reason -->`` right before its fence: it is left out, and every
such mark must give a reason. A failing example is reported at its own file and line.

``tests/test_readme.py`` runs the README's, ``tests/test_docs.py`` those of every ``docs/*.md``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tempfile
import tokenize
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import pytest

from spiderette.engine.variants import RULES

REPO = Path(__file__).resolve().parents[1]
NOT_RUN = re.compile(r"<!--\s*not run:(.*?)-->")
#: The sections whose examples need an optional extra (by the start of their title): skipped, saying
#: which, when it is not installed.
NEEDS = {
    "Studies": ["pandas", "matplotlib"],   # res.to_pandas(), res.plot() (the teach extra)
    "Where did the game go wrong?": ["pandas", "matplotlib"],   # a.to_pandas(), a.plot() (the teach extra)
    "A Gymnasium environment": ["gymnasium", "numpy"],   # the rl extra
    "The RL environment": ["gymnasium", "numpy"],   # the API reference's spiderette.env (the rl extra)
    "Plots in a notebook": ["matplotlib"],   # new_figure (the teach extra)
}


@dataclass
class Block:
    section: str
    line: int            # the page's line of the first line of code
    lang: str
    code: str
    not_run: str | None  # the reason, for a block marked <!-- not run: reason -->


def blocks(text: str) -> list[Block]:
    """Every fenced block of a page, with its ``##`` section and its not-run mark."""
    lines = text.splitlines()
    found, section, i = [], "", 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("```"):
            lang = line[3:].strip()
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            mark = NOT_RUN.fullmatch(lines[i - 1].strip()) if i else None
            found.append(Block(section, i + 2, lang, "\n".join(lines[i + 1:end]),
                               mark.group(1).strip() if mark else None))
            i = end
        i += 1
    return found


def python_sections(path: Path) -> dict[str, list[Block]]:
    """The page's Python blocks, by ``##`` section, in order."""
    out: dict[str, list[Block]] = {}
    for b in blocks(path.read_text(encoding="utf-8")):
        if b.lang == "python":
            out.setdefault(b.section, []).append(b)
    return out


def section_text(path: Path, title: str) -> str:
    """The text of the page's ``## title`` section, up to the next ``##``."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def marks_check(path: Path) -> list[Block]:
    """The page's not-run marks, checked: each gives a reason and stands right before a Python block."""
    text = path.read_text(encoding="utf-8")
    marked = [b for b in blocks(text) if b.not_run is not None]
    assert all(b.not_run for b in marked), f"{path.name}: a <!-- not run: --> mark without a reason"
    assert all(b.lang == "python" for b in marked), f"{path.name}: a not-run mark before a block that is not Python"
    marks = re.findall(r"^\s*<!--\s*not run", text, flags=re.M)
    assert len(marks) == len(marked), f"{path.name}: a <!-- not run --> mark that is not right before a block"
    return marked


def _cleanup(namespace: dict) -> None:
    """Stop what an example left running in the background (a play, a think, the Winnable? check)."""
    from spiderette.notebook.widget import Widget

    for value in list(namespace.values()):
        if isinstance(value, Widget):
            value.stop()
            value.stop_thinking()
            value.winnable = False
        elif isinstance(value, Future):
            value.cancel()


def run_section(path: Path, title: str, section: list[Block], tmp_path: Path, monkeypatch) -> None:
    """Run one section's blocks in order in one fresh namespace, in a scratch folder (see the module)."""
    for prefix, modules in NEEDS.items():
        if title.startswith(prefix):
            for module in modules:
                pytest.importorskip(module, reason=f"the {title!r} examples of {path.name} need {module}")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("SPIDERETTE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    namespace: dict = {"__name__": "__examples__", "display": lambda *args, **kwargs: None}
    variants = dict(RULES)   # a design an example reads (from_cardz) joins RULES: forgotten after the section
    try:
        for block in section:
            if block.not_run is None:
                run_block(path, block, namespace)
    finally:
        _cleanup(namespace)
        RULES.clear()
        RULES.update(variants)


#: A comment that says what a line shows: ``hint(g)   # → bd1: a 3-move plan: …``.
SHOWS = re.compile(r"#\s*→\s?(.*)$")


def expectations(code: str) -> dict[int, str]:
    """The ``# → text`` comments of a block's code: {line of the code (1 is its first): text}."""
    found = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT and (m := SHOWS.match(tok.string)):
            found[tok.start[0]] = m.group(1).strip()
    return found


class _TextPrinter:
    """The little of IPython's pretty printer that a ``_repr_pretty_`` uses (when IPython is not installed)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def text(self, s: str) -> None:
        self.parts.append(s)

    pretty = text

    def breakable(self, sep: str = " ") -> None:
        self.parts.append(sep)


def shown(value: object) -> str:
    """What a notebook shows as a cell's result: IPython's text (its ``_repr_pretty_``), else ``repr``."""
    try:
        from IPython.core.formatters import PlainTextFormatter
    except ImportError:
        if hasattr(type(value), "_repr_pretty_"):
            printer = _TextPrinter()
            value._repr_pretty_(printer, False)
            return "".join(printer.parts)
        return repr(value)
    return PlainTextFormatter()(value)


def matches(expected: str, text: str) -> bool:
    """Whether ``text`` is what a page shows as ``expected``: ``…`` (or ``...``) stands for any text."""
    pattern = ".*?".join(re.escape(part.strip()) for part in re.split(r"…|\.\.\.", expected))
    return re.fullmatch(r"\s*" + pattern + r"\s*", text, flags=re.S) is not None


def run_block(path: Path, block: Block, namespace: dict) -> None:
    """Run a block statement by statement; a statement with a ``# → text`` comment must show ``text``: what it
    prints, and for an expression, what a notebook shows of its value (:func:`shown`)."""
    offset = block.line - 1
    expected = {offset + line: text for line, text in expectations(block.code).items()}
    # padded so that a traceback names the page's own line
    tree = ast.parse("\n" * offset + block.code, str(path))
    for statement in tree.body:
        says = [(line, text) for line, text in expected.items() if statement.lineno <= line <= statement.end_lineno]
        if not says:
            exec(compile(ast.Module([statement], []), str(path), "exec"), namespace)
            continue
        [(line, text)] = says
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), str(path), "eval"), namespace)
            else:
                exec(compile(ast.Module([statement], []), str(path), "exec"), namespace)
                value = None
        got = out.getvalue() + ("" if value is None else shown(value))
        assert matches(text, got), f"{path.name}:{line} shows {got.strip()!r}, the page says {text!r}"


def section_id(title: str) -> str:
    return re.sub(r"\W+", "-", title).strip("-") or "top"
