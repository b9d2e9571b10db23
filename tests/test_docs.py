"""The guides of docs/ say what is true: their Python examples run, the API reference lists every public name,
and the site builds without a warning.

The examples run as the README's do (:mod:`markdown_examples`): the ```python blocks of each ``##`` section
of each ``docs/*.md``, in order, in one namespace per section, in a scratch folder with its own
``SPIDERETTE_HOME``; ``<!-- not run: reason -->`` leaves a block out. The quick build (without running the
notebooks) needs the ``docs`` extra; ``.ci/run`` also makes the whole site, notebooks run, with
``mkdocs build --strict``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from markdown_examples import REPO, marks_check, python_sections, run_section, section_id

import spiderette

DOCS = REPO / "docs"
PAGES = sorted(DOCS.glob("*.md"))
GUIDES = ("index", "try", "play", "script", "teach", "rules", "glossary", "api", "widget-protocol", "speed",
          "develop")
MAX_NOT_RUN = 3
EXAMPLES = [(page, title, section) for page in PAGES for title, section in python_sections(page).items()]


@pytest.mark.parametrize("page, title, section", EXAMPLES,
                         ids=[f"{page.stem}-{section_id(title)}" for page, title, _ in EXAMPLES])
def test_examples_run(page, title, section, tmp_path, monkeypatch):
    run_section(page, title, section, tmp_path, monkeypatch)


def test_every_guide_is_there_with_examples():
    assert {p.stem for p in PAGES} == set(GUIDES)
    with_examples = {page.stem for page, _, _ in EXAMPLES}
    assert {"index", "play", "script", "teach"} <= with_examples
    assert sum(len(section) for _, _, section in EXAMPLES) >= 20   # the blocks are all found


def test_not_run_marks_have_reasons_and_are_few():
    assert sum(len(marks_check(page)) for page in PAGES) <= MAX_NOT_RUN


# ---------------------------------------------------------------------- the API reference
def reference_names() -> list[str]:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    found = re.findall(r"^::: spiderette\.(\w+)\s*$", text, flags=re.M)
    # (a module's entry, as ``::: spiderette.env`` among the building blocks, is not a name's)
    return [n for n in found if importlib.util.find_spec(f"spiderette.{n}") is None]


def test_api_reference_has_an_entry_for_every_public_name():
    names = reference_names()
    assert len(names) == len(set(names)), "a name with two entries"
    missing = set(spiderette.__all__) - set(names)
    assert not missing, f"public names with no entry in docs/api.md: {sorted(missing)}"
    assert not set(names) - set(spiderette.__all__), "an entry for a name that is not public"


def test_api_reference_finds_each_name_and_its_docstring():
    """What mkdocstrings reads (griffe, from the source): each ``spiderette.X`` leads to a documented object,
    the lazily imported widgets too (named for it under ``TYPE_CHECKING`` in ``spiderette/__init__.py``)."""
    griffe = pytest.importorskip("griffe", reason="the docs extra (mkdocstrings) brings griffe")
    package = griffe.load("spiderette", search_paths=[str(REPO / "src")])
    for name in spiderette.__all__:
        obj = package[name]
        target = obj.final_target if obj.is_alias else obj
        assert target.docstring is not None and target.docstring.value.strip(), f"{name} has no docstring"


# ---------------------------------------------------------------------- the site
@pytest.fixture(scope="module")
def quick_site(tmp_path_factory) -> Path:
    """The site built by ``mkdocs build --strict`` without running the notebooks (quick), once a module."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings")
    pytest.importorskip("mkdocs_jupyter")
    site = tmp_path_factory.mktemp("docs") / "site"
    env = dict(os.environ, SPIDERETTE_DOCS_EXECUTE="false", NO_MKDOCS_2_WARNING="1")
    p = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                        str(REPO / "mkdocs.yml"), "--site-dir", str(site)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-5000:]
    return site


@pytest.mark.xdist_group("quick-site")
def test_site_builds_strict(quick_site):
    """``mkdocs build --strict`` without running the notebooks (quick): no broken link or anchor, no page
    left out of the navigation, no reference mkdocstrings cannot find."""
    api = (quick_site / "api" / "index.html").read_text(encoding="utf-8")
    for name in spiderette.__all__:
        assert f'id="spiderette.{name}"' in api, name
    for notebook in sorted((REPO / "notebooks").glob("*.ipynb")):
        assert (quick_site / "notebooks" / notebook.stem / "index.html").is_file(), notebook.name


#: What a page says when its links into ``lite/`` need the browser site built into the built site (docs/try.md).
LITE_BUILD = "python lite/build.py --output site/lite"


class Links(HTMLParser):
    """Every ``href`` and ``src`` of an HTML page, raw HTML written in the Markdown too, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [value for name, value in attrs if name in ("href", "src") and value]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def dead_links(site: Path, lite: Path | None = None) -> list[str]:
    """The relative links of the built site's pages whose target is missing: ``"page -> link"``.

    A link into ``lite/`` (the browser site, built apart by ``lite/build.py``) is dead on a page that does not
    say how to build it (:data:`LITE_BUILD`); on one that does, it is looked for in ``lite`` when a built browser
    site is given, and the notebook its ``?path=`` opens must be one of ``notebooks/``.
    """
    dead = []
    for page in sorted(site.rglob("*.html")):
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        text = "".join(parser.text)   # (a highlighted command is split into spans)
        for link in parser.found:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path:   # another site, data:, mailto:, or #anchor
                continue
            path = unquote(parts.path)   # (404.html, served at any address, links from the site's root)
            target = (site / path.lstrip("/") if path.startswith("/") else page.parent / path).resolve()
            if target.is_dir() or parts.path.endswith("/"):
                target = target / "index.html"
            where = f"{page.relative_to(site)} -> {link}"
            if not target.is_relative_to(site.resolve()):
                dead.append(where)
                continue
            inside = target.relative_to(site.resolve())
            if inside.parts[:1] == ("lite",):
                opens = parse_qs(parts.query).get("path", [])
                if LITE_BUILD not in text or any(not (REPO / "notebooks" / nb).is_file() for nb in opens) \
                        or (lite is not None and not (lite / inside.relative_to("lite")).is_file()):
                    dead.append(where)
            elif not target.exists():
                dead.append(where)
    return dead


@pytest.mark.xdist_group("quick-site")
def test_every_link_of_the_built_site_leads_somewhere(quick_site):
    """Raw HTML links escape the strict build's check (try.md's links into the browser site did): every
    ``href`` and ``src`` of every built page is looked for in the site; those into ``lite/`` in a built browser
    site too where ``SPIDERETTE_LITE_SITE`` names one (``.ci/run``), or else only on a page that says how to
    build it."""
    lite = Path(os.environ["SPIDERETTE_LITE_SITE"]) if os.environ.get("SPIDERETTE_LITE_SITE") else None
    dead = dead_links(quick_site, lite)
    assert not dead, f"{len(dead)} dead links: {dead[:20]}"
    try_page = Links()
    try_page.feed((quick_site / "try" / "index.html").read_text(encoding="utf-8"))
    assert sum(link.startswith("../lite/") for link in try_page.found) == 7 and LITE_BUILD in "".join(try_page.text)


def first_visit_mib(text: str) -> list[str]:
    """The sizes a text gives the browser site's first visit: ``['27']``."""
    return re.findall(r"first visit[^|]{0,120}?\b(\d+(?:\.\d+)?) MiB", text)


def test_the_browser_sites_first_visit_has_one_size():
    """The README, Try it in your browser and Play give the size of a first visit of the browser site as the Speed
    guide's measured figure (``benchmarks/lite.py``), rounded: once 27 MiB in one and 38 MiB (the whole site's
    files) in another."""
    speed = (DOCS / "speed.md").read_text(encoding="utf-8")
    measured = re.search(r"\| what a first visit downloads[^|]*\| (\d+(?:\.\d+)?) MiB \|", speed)
    assert measured, "the Speed guide's row of the first visit"
    figure = str(round(float(measured[1])))
    for page in (REPO / "README.md", DOCS / "try.md", DOCS / "play.md"):
        assert first_visit_mib(page.read_text(encoding="utf-8")) == [figure], page.name


def test_the_link_check_finds_dead_links(tmp_path):
    site = tmp_path / "site"
    (site / "a").mkdir(parents=True)
    (site / "index.html").write_text('<a href="a/">a</a> <img src="gone.png"> <a href="https://x.org/">x</a>'
                                     ' <a href="#top">top</a> <a href="../outside.html">out</a>')
    (site / "a" / "index.html").write_text('<a href="../lite/lab/index.html">lab</a>')
    assert dead_links(site) == ["a/index.html -> ../lite/lab/index.html", "index.html -> gone.png",
                                "index.html -> ../outside.html"]
    (site / "a" / "index.html").write_text(f'<a href="../lite/lab/index.html">lab</a> <code>{LITE_BUILD}</code>'
                                           ' <a href="../lite/n/index.html?path=99-none.ipynb">none</a>')
    assert dead_links(site) == ["a/index.html -> ../lite/n/index.html?path=99-none.ipynb",
                                "index.html -> gone.png", "index.html -> ../outside.html"]
    (tmp_path / "lite" / "lab").mkdir(parents=True)
    assert "a/index.html -> ../lite/lab/index.html" in dead_links(site, tmp_path / "lite")
    (tmp_path / "lite" / "lab" / "index.html").write_text("")
    assert "a/index.html -> ../lite/lab/index.html" not in dead_links(site, tmp_path / "lite")


# ---------------------------------------------------------------------- what building the site needs
#: The distribution of each module a notebook may need, directly or through spiderette (res.plot(): matplotlib).
DISTRIBUTIONS = {"numpy": "numpy", "pandas": "pandas", "matplotlib": "matplotlib", "gymnasium": "gymnasium",
                 "spiderette.env": "gymnasium", "spiderette.players.extras": "matplotlib"}
#: What a notebook's code may call that needs an optional package.
CALLS = {".plot(": ["matplotlib"], ".to_pandas(": ["pandas"], "new_figure(": ["matplotlib"]}


def notebook_needs() -> dict[str, set[str]]:
    """The distributions each notebook needs beyond spiderette's own dependencies: from its imports and calls."""
    import json

    needs = {}
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        code = "\n".join("".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
                         if c["cell_type"] == "code")
        modules = set(re.findall(r"^\s*(?:from|import)\s+([\w.]+)", code, flags=re.M))
        found = set()
        for module in modules:
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or module in ("spiderette",):
                continue
            dist = DISTRIBUTIONS.get(module) or DISTRIBUTIONS.get(top)
            if dist is None and top != "spiderette":
                raise AssertionError(f"{path.name} imports {module}: add it to DISTRIBUTIONS and to the docs extra")
            if dist:
                found.add(dist)
        found |= {d for call, dists in CALLS.items() if call in code for d in dists}
        needs[path.name] = found
    return needs


def test_docs_extra_holds_what_the_notebooks_need():
    """``pip install -e ".[docs]" && mkdocs serve`` (the README) runs the notebooks: the docs extra installs what
    they import and what the spiderette calls they make need (matplotlib for ``plot()``, ...)."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    extra = text.split("\ndocs = [", 1)[1].split("\n]", 1)[0]   # (tomllib is Python 3.11+)
    docs = set(re.findall(r'^\s*"([A-Za-z0-9_.-]+)', extra, flags=re.M))
    needs = notebook_needs()
    assert needs["04-the-ladder.ipynb"] >= {"matplotlib", "pandas"}   # the finder finds them
    for name, dists in needs.items():
        assert dists <= docs, f"{name} needs {sorted(dists - docs)}, not in the docs extra of pyproject.toml"


# ---------------------------------------------------------------------- examples that play keep to scratch statistics
def playing_command_lines() -> list[tuple[str, str]]:
    """The lines of the guides' shell blocks that play a game from piped input: (page, line)."""
    from markdown_examples import blocks

    found = []
    for page in PAGES:
        for block in blocks(page.read_text(encoding="utf-8")):
            if block.lang in ("bash", "sh", "shell", "console"):
                found += [(page.name, line.split("  #")[0].strip()) for line in block.code.splitlines()
                          if "|" in line.split("  #")[0] and "spiderette play" in line]
    return found


def test_piped_play_examples_write_into_scratch_statistics(tmp_path):
    """A guide's ``... | spiderette play`` example plays a game: run as shown, it records into a scratch folder
    (or none), never into the reader's statistics (here a stand-in folder named by ``SPIDERETTE_HOME``)."""
    import shutil

    lines = playing_command_lines()
    assert lines, "the Play guide's piped example is found"
    if shutil.which("bash") is None or shutil.which("mktemp") is None:
        pytest.skip("bash and mktemp run the examples")
    yours = tmp_path / "yours"
    for page, line in lines:
        command = line.replace("spiderette play", f"{sys.executable} -m spiderette play")
        env = dict(os.environ, SPIDERETTE_HOME=str(yours), TMPDIR=str(tmp_path),
                   PYTHONPATH=os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
        p = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, (page, line, p.stderr[-2000:])
        assert "Move" in p.stdout or "move" in p.stdout, p.stdout[-500:]
        assert not yours.exists(), f"{page}: {line!r} wrote into the reader's statistics"


def test_examples_give_budgets_in_tables_not_seconds():
    """A budget in seconds gives another answer on a busy machine (the README's solve once said "unknown" on one,
    "winnable" with a budget in tables): the examples of the README, the guides and the notebooks give the
    searches ``node_limit=`` (or ``budget=``), never ``time_limit=`` a number."""
    import json

    from markdown_examples import blocks

    seconds = re.compile(r"\btime_limit\s*=\s*[0-9]")
    found = []
    for page in [REPO / "README.md", *PAGES]:
        for block in blocks(page.read_text(encoding="utf-8")):
            if block.lang in ("python", "py", "pycon"):
                found += [f"{page.name}:{block.line + i}" for i, line in enumerate(block.code.splitlines())
                          if seconds.search(line)]
    for nb in sorted((REPO / "notebooks").glob("*.ipynb")):
        for n, cell in enumerate(json.loads(nb.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "code" and seconds.search("".join(cell["source"])):
                found.append(f"{nb.name}: cell {n}")
    assert not found, found


# ---------------------------------------------------------------------- the words of the verdicts
#: The words the verdicts use, and their anchors in the glossary (issue 43: they needed teaching first).
VERDICT_WORDS = {"table": "table", "budget": "budget", "decided": "decided", "undecided": "undecided",
                 "odds": "odds", "turning point": "turning-point", "range": "range"}


def test_the_glossary_defines_each_word_of_the_verdicts():
    glossary = (DOCS / "glossary.md").read_text(encoding="utf-8")
    headings = {section_id(h).lower(): body for h, body in
                re.findall(r"^## (.+)\n((?:(?!^## ).*\n?)*)", glossary, flags=re.M)}
    for word, anchor in VERDICT_WORDS.items():
        assert anchor in headings, f"the glossary has no section for {word!r}"
        assert word.split()[0] in headings[anchor].lower() and len(headings[anchor].split()) >= 25, word
    # the words the post-mortem quotes are explained where they are defined
    assert "undecided within the budget" in headings["undecided"]
    assert "positions like it" in headings["odds"] and "10× the search" in headings["odds"]
    assert "Lost between move" in headings["range"]
    assert "glossary.md" in re.search(r"^nav:\n((?:  .*\n)+)", (REPO / "mkdocs.yml").read_text(), flags=re.M).group(1)


def test_the_guides_link_the_verdicts_words_to_the_glossary():
    teach = (DOCS / "teach.md").read_text(encoding="utf-8")
    post_mortem = teach.split("## Where did the game go wrong?", 1)[1].split("\n## ", 1)[0]
    missing = [w for w, anchor in VERDICT_WORDS.items() if f"](glossary.md#{anchor})" not in post_mortem]
    assert not missing, f"the Teach guide's post-mortem does not link {missing} to the glossary"
    play = (DOCS / "play.md").read_text(encoding="utf-8")
    for anchor in ("undecided", "odds", "turning-point", "range"):
        assert f"](glossary.md#{anchor})" in play, anchor
    odds = teach.split('### What "unknown" means', 1)[1].split("\n#", 1)[0]
    assert "](glossary.md#undecided)" in odds and "](glossary.md#odds)" in odds
    from spiderette.players import analysis, odds

    assert "docs/glossary.md" in analysis.__doc__ and "docs/glossary.md" in odds.__doc__


def test_long_code_lines_wrap_on_the_site():
    """Issue 43: the guides' code comments were cut at 1280 px (the scroll bar shows only on hover)."""
    import yaml

    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    sheets = config["extra_css"]
    assert sheets == ["stylesheets/extra.css"]
    css = (DOCS / sheets[0]).read_text(encoding="utf-8")
    rule = re.search(r"\.md-typeset pre > code[^{]*\{([^}]*)\}", css)
    assert rule and re.search(r"white-space:\s*pre-wrap", rule.group(1))
