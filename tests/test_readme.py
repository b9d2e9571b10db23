"""README.md says what is true: its Python examples run, its two commands exist, its links lead somewhere.

The examples run as :mod:`markdown_examples` says (the guides' examples too, in ``tests/test_docs.py``): the
```python blocks of each ``##`` section in order, in one namespace per section, in a scratch folder with its
own ``SPIDERETTE_HOME``; a block marked ``<!-- not run: reason -->`` is left out (at most
:data:`MAX_NOT_RUN`). What the README once held in full now lives in the guides of ``docs/``: the checks of
that text (the API table, ``w.play``, the extras) read the guide that holds it.
"""

from __future__ import annotations

import re
import shlex

import pytest
from markdown_examples import REPO, blocks, marks_check, python_sections, run_section, section_id, section_text

import spiderette
from spiderette import Game, IllegalMoveError, NotationError, cli
from spiderette.cli import lab
from spiderette.notebook.widget import Widget

README = REPO / "README.md"
DOCS = REPO / "docs"
MAX_NOT_RUN = 3
SECTIONS = python_sections(README)


def extras() -> dict[str, str]:
    """The optional extras of pyproject.toml: name -> the text of its list (tomllib is Python 3.11+)."""
    text = (REPO / "pyproject.toml").read_text()
    part = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r"^([\w-]+) = \[(.*?)\]", part, flags=re.M | re.S))


@pytest.mark.parametrize("title", list(SECTIONS), ids=[section_id(t) for t in SECTIONS])
def test_examples_run(title, tmp_path, monkeypatch):
    run_section(README, title, SECTIONS[title], tmp_path, monkeypatch)


def test_not_run_marks_have_reasons_and_are_few():
    marked = marks_check(README)
    assert len(marked) <= MAX_NOT_RUN
    assert sum(len(v) for v in SECTIONS.values()) >= 3 + len(marked)  # the tour's three cells are all found


# ---------------------------------------------------------------------- the two commands
def two_commands() -> list[str]:
    [block] = [b for b in blocks(README.read_text(encoding="utf-8")) if b.section == "Two commands"]
    assert block.lang == "bash"
    return [line.split("  #")[0].strip() for line in block.code.splitlines() if line.strip()]


def test_two_commands_play_and_test():
    play, test = two_commands()
    assert play == 'pip install -e ".[lab]" && spiderette lab'
    assert test.startswith("pip install -e ") and " pytest" in test.split("&&")[1]
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
    """The table at the top of the API reference (once the README's "API at a glance") names every public name."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    table = text[text.index("| names | what |"):text.index("\n## ")]
    named = set(re.findall(r"`([A-Za-z_.]+)`", table))
    assert not set(spiderette.__all__) - named


def heading_anchors(path) -> set[str]:
    """The anchors of a page's headings, as the site makes them (Python-Markdown's toc slugs)."""
    slugify = pytest.importorskip("markdown.extensions.toc").slugify
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)  # no heading inside a code block
    return {slugify(h, "-") for h in re.findall(r"^#{1,6} (.+?)\s*$", text, flags=re.M)}


def test_local_links_exist():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"(?<!!)\[[^\]]*\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert links
    assert [link for link in links if not (REPO / link).exists()] == []
    for name in ("01-play.ipynb", "02-scripting.ipynb"):
        assert f"notebooks/{name}" in text and (REPO / "notebooks" / name).is_file()


def test_readme_links_into_every_guide():
    """Each task is one link away: the README links every guide of the site, and its anchors exist."""
    text = README.read_text(encoding="utf-8")
    for page in ("try", "play", "script", "teach", "rules", "api", "speed", "develop", "widget-protocol"):
        assert f"(docs/{page}.md" in text, page
    for page, anchor in re.findall(r"\]\(docs/([\w-]+\.md)#([^)]+)\)", text):
        assert anchor in heading_anchors(DOCS / page), f"docs/{page}#{anchor}"


def test_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) < 150


# ---------------------------------------------------------------------- what the Script guide says of w.play
def test_widget_play_is_all_or_nothing():
    """"`w.play` checks the whole sequence before anything plays (a bad token, a bad `delay` or an illegal
    move changes nothing and says which move)"."""
    script = (DOCS / "script.md").read_text(encoding="utf-8")
    assert "`w.play` checks the whole sequence before anything plays" in script
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
    """The extras the Develop guide's Tests section names exist."""
    text = section_text(DOCS / "develop.md", "Tests")
    for extra in ("e2e", "rl", "teach", "test", "docs"):
        assert f"`{extra}`" in text and extra in extras()


def test_gitignore_covers_the_first_hours_files():
    """The README's virtual environment (``.venv``) and the notebook ``spiderette lab`` copies stay out of git."""
    import shutil
    import subprocess

    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    for path in (".venv/bin/python", lab.NOTEBOOK_NAME, f"games/{lab.NOTEBOOK_NAME}"):
        p = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=REPO)
        assert p.returncode == 0, f"{path} is not ignored by .gitignore"


# ---------------------------------------------------------------------- what the examples say they show
def test_the_tour_says_what_it_shows_and_is_held_to_it():
    """The tour's answers (``g.legal_moves()``, ``hint(g)``, ``solve``) carry a ``# →`` comment, which the runner
    checks (:func:`markdown_examples.run_block`)."""
    tour = [line for b in blocks(README.read_text(encoding="utf-8")) if b.section == "A tour in three cells"
            for line in b.code.splitlines()]
    marked = [line.split("#")[0].strip() for line in tour if "# →" in line]
    assert marked == ["g.legal_moves()", "hint(g)", "print(solve(g, node_limit=200_000))"]


def test_the_runner_holds_a_line_to_what_it_says_it_shows(tmp_path):
    from markdown_examples import Block, run_block

    def run(code: str) -> None:
        run_block(tmp_path / "page.md", Block("s", 1, "python", code, None), {})

    run("1 + 1   # → 2\nprint('a', 'b c')   # → a … c\nx = [3]\nx  # → [3]")
    run("from spiderette import Game, hint\ng = Game(seed=7)\nhint(g)   # → bd1: moving 6H onto 7C …")  # the sentence
    for wrong in ("1 + 1   # → 3", "print('abc')   # → ab", "x = 1\nx   # → 1 …2",
                  "from spiderette import Game, hint\nhint(Game(seed=7))   # → Hint(move=…"):
        with pytest.raises(AssertionError, match="page.md:"):
            run(wrong)
