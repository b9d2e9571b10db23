"""README.md says what is true: its Python examples run, its two commands exist, its API table is complete.

How the examples run: the ```python blocks of each ``##`` section run **in order, in one namespace per
section**, as a reader pastes them into the cells of one notebook (a section's later blocks may use the
names its earlier blocks made; no section relies on another). Each section runs in a fresh scratch folder
(the working directory, ``tempfile``'s folder and ``SPIDERETTE_HOME``), with ``display`` defined as a no-op.
A block that cannot run in a test (a remote Dask scheduler) has a line ``<!-- not run: reason -->`` right
before its fence: it is left out, and every such mark must give a reason (at most :data:`MAX_NOT_RUN`).
A failing example is reported at its README line.
"""

from __future__ import annotations

import re
import shlex
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import pytest

import spiderette
from spiderette import Game, IllegalMoveError, NotationError, cli
from spiderette.notebook.widget import Widget

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MAX_NOT_RUN = 3
NOT_RUN = re.compile(r"<!--\s*not run:(.*?)-->")
#: The sections whose examples need an optional extra: skipped, saying which, when it is not installed.
NEEDS = {
    "Studies": ["pandas", "matplotlib"],   # res.to_pandas(), res.plot() (the teach extra)
    "A Gymnasium environment": ["gymnasium", "numpy"],   # the rl extra
}


@dataclass
class Block:
    section: str
    line: int            # the README line of the first line of code
    lang: str
    code: str
    not_run: str | None  # the reason, for a block marked <!-- not run: reason -->


def blocks(text: str | None = None) -> list[Block]:
    """Every fenced block of the README, with its ``##`` section and its not-run mark."""
    lines = (README.read_text(encoding="utf-8") if text is None else text).splitlines()
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


def sections() -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = {}
    for b in blocks():
        if b.lang == "python":
            out.setdefault(b.section, []).append(b)
    return out


SECTIONS = sections()


def section_text(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def extras() -> dict[str, str]:
    """The optional extras of pyproject.toml: name -> the text of its list (tomllib is Python 3.11+)."""
    text = (REPO / "pyproject.toml").read_text()
    part = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r"^([\w-]+) = \[(.*?)\]", part, flags=re.M | re.S))


def _cleanup(namespace: dict) -> None:
    """Stop what an example left running in the background (a play, a think, the Winnable? check)."""
    for value in list(namespace.values()):
        if isinstance(value, Widget):
            value.stop()
            value.stop_thinking()
            value.winnable = False
        elif isinstance(value, Future):
            value.cancel()


@pytest.mark.parametrize("title", list(SECTIONS), ids=[re.sub(r"\W+", "-", t).strip("-") for t in SECTIONS])
def test_examples_run(title, tmp_path, monkeypatch):
    for prefix, modules in NEEDS.items():
        if title.startswith(prefix):
            for module in modules:
                pytest.importorskip(module, reason=f"the README's {title!r} examples need {module}")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("SPIDERETTE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    namespace: dict = {"__name__": "__readme__", "display": lambda *args, **kwargs: None}
    try:
        for block in SECTIONS[title]:
            if block.not_run is None:
                # padded so that a traceback names the README's own line
                exec(compile("\n" * (block.line - 1) + block.code, str(README), "exec"), namespace)
    finally:
        _cleanup(namespace)


def test_not_run_marks_have_reasons_and_are_few():
    marked = [b for b in blocks() if b.not_run is not None]
    assert all(b.not_run for b in marked), "a <!-- not run: --> mark without a reason"
    assert all(b.lang == "python" for b in marked)
    assert len(marked) <= MAX_NOT_RUN
    text = README.read_text(encoding="utf-8")
    marks = re.findall(r"^\s*<!--\s*not run", text, flags=re.M)
    assert len(marks) == len(marked), "a <!-- not run --> mark that is not right before a block"
    assert sum(len(v) for v in SECTIONS.values()) >= 10 + len(marked)  # the examples are all found


# ---------------------------------------------------------------------- the two commands
def two_commands() -> list[str]:
    [block] = [b for b in blocks() if b.section == "Two commands"]
    assert block.lang == "bash"
    return [line.split("  #")[0].strip() for line in block.code.splitlines() if line.strip()]


def test_two_commands_play_and_test():
    play, test = two_commands()
    assert play == 'pip install -e ".[lab]" && spiderette lab'
    assert test.startswith("pip install -e ") and test.endswith(" pytest")
    known = extras()
    assert '"jupyterlab>=4"' in known["lab"]
    installs = shlex.split(test.split("&&")[0])[3].removeprefix(".[").removesuffix("]").split(",")
    assert set(installs) <= set(known) and {"test", "e2e"} <= set(installs)
    assert "lab" in cli.build_parser().format_help()


def test_ci_runs_the_readmes_test_line():
    _, test = two_commands()
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert any(line == test or line.startswith(test + " ||") for line in ci), ".ci/run must run: " + test


def test_api_table_names_every_public_name():
    table = section_text("The API at a glance")
    named = set(re.findall(r"`([A-Za-z_.]+)`", table))
    assert not set(spiderette.__all__) - named


def test_local_links_exist():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"(?<!!)\[[^\]]*\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert links
    assert [link for link in links if not (REPO / link).exists()] == []
    for name in ("01-play.ipynb", "02-scripting.ipynb"):
        assert f"notebooks/{name}" in text and (REPO / "notebooks" / name).is_file()


# ---------------------------------------------------------------------- what the README says of w.play
def test_widget_play_is_all_or_nothing():
    """"`w.play` checks the whole sequence before anything plays (a bad token, a bad `delay` or an illegal
    move changes nothing and says which move)"."""
    assert "`w.play` checks the whole sequence before anything plays" in README.read_text(encoding="utf-8")
    w = Widget(seed=7, record=False)
    start = w.game.position()
    with pytest.raises(NotationError, match="zz"):
        w.play("bd zz", delay=0)
    with pytest.raises(ValueError, match="delay"):
        w.play("bd", delay=-1)
    with pytest.raises(IllegalMoveError, match=r"move 2 \(ga\)"):
        w.play("bd ga", delay=0)
    with pytest.raises(IllegalMoveError, match=r"move 3"):
        w.play("bd ea ga", delay=0, wait=False)
    assert w.game.position() == start == Game(seed=7).position()
    assert w.play("bd ea d", delay=0) == Game(seed=7).play("bd ea d")


def test_optional_extras_are_named_right():
    """The extras the Tests section names exist."""
    text = section_text("Tests")
    for extra in ("e2e", "rl", "teach", "test"):
        assert f"`{extra}`" in text and extra in extras()
