"""Every notebook in notebooks/ runs from top to bottom without an error, and shows what a reader expects.

Each runs in a fresh kernel that imports spiderette from this tree (``src/`` first on ``PYTHONPATH``), keeps
its statistics in a temporary ``SPIDERETTE_HOME`` and works in a temporary folder. The notebooks are
committed without outputs.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))

#: What a reader sees in each notebook's outputs (a notebook not named here: no error is enough).
EXPECTED = {
    "01-play.ipynb": [
        "will_o_the_wisp",           # the variants, listed
        "winnable (line of",         # the solver's verdict on deal 7
        "No games recorded yet",     # the statistics (a fresh SPIDERETTE_HOME)
    ],
    "02-scripting.ipynb": [
        "spiderette:4 ",             # the position text
        "NotationError - bad move 'zz'",
        "IllegalMoveError - move 2 (ab)",   # all or nothing: the first move was legal, the second not
        "True True True",            # saved and loaded: the same position, history and undo
        "Move.parse('fa1')",         # the background play's moves
    ],
    "03-strategy.ipynb": [
        "lost a winnable game",      # analyse found the turning point of a lost game
        "kept it winnable",          # and the move that would have kept it
    ],
    "04-the-ladder.ipynb": [
        "planner",                   # the expert on the ladder
        "McNemar",                   # the paired tests
        "fewer cards left face down by planner",   # the four-suit measure beyond the win rate, paired
        "-move plan: ",              # hint(g) names its plan
        "--strategies solver",       # the shipped four-suit solver rung says how it was made
        "solver (peeks)",            # and stands in the table beside the honest rungs
    ],
    "05-learning.ipynb": [
        "learnt: ",                  # the trained agent, next to random play
        "after games | runs per game (held-out)",   # the checkpoint table: learning on held-out deals
        "favourite first move on deal 7:",
    ],
    "06-what-the-expert-learned.ipynb": [
        "cards still hidden at the end",   # what the value predicts
        "runs_done",                       # the weights, by name
        "| 4 deals left",                  # the staged weights read as a worth by the deals left
        "games | ridge | R² held out",     # the weights as the games grow, with and without the ridge
        "planner (value='handmade')",      # before and after, paired
        "planner (value='my_value.json')", # a value of one's own, labelled by its file's name
        "sign test",
    ],
}
#: Pictures a notebook shows as cell results (its plots: shown with no %matplotlib magic).
IMAGES = {"03-strategy.ipynb": 1, "04-the-ladder.ipynb": 2, "05-learning.ipynb": 1,
          "06-what-the-expert-learned.ipynb": 1}


def execute(nb, tmp_path: Path, monkeypatch, first: tuple[str, ...] = (), allow_errors: bool = False) -> None:
    """Run ``nb`` in a fresh kernel, ``first`` (folders) on its ``PYTHONPATH`` before this tree's ``src``."""
    # the kernel inherits the environment of this process
    monkeypatch.setenv("SPIDERETTE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*first, str(REPO / "src"), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    work = tmp_path / "work"
    work.mkdir()
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=allow_errors,
                            resources={"metadata": {"path": str(work)}}).execute()


def outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", ""))
            data = out.get("data", {})
            parts.append(data.get("text/plain", ""))
            parts.append(data.get("text/html", ""))
    return "\n".join(p if isinstance(p, str) else "".join(p) for p in parts)



def check_the_lessons_point(path: Path, text: str) -> None:
    """What a reader of the notebook at ``path`` sees in its outputs ``text``: the EXPECTED lines, and in lessons
    05 and 06 that what they train learns."""
    missing = [s for s in EXPECTED.get(path.name, []) if s not in text]
    assert not missing, f"{path.name}: not in the outputs: {missing}"
    if path.name == "05-learning.ipynb":
        check_the_agent_learns(text)
    if path.name == "06-what-the-expert-learned.ipynb":
        check_the_class_value_learns(text)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    nb = nbformat.read(path, as_version=4)
    assert not [c for c in nb.cells if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))], \
        "commit the notebook without outputs"
    execute(nb, tmp_path, monkeypatch)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = outputs_text(nb)
    check_the_lessons_point(path, text)
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= IMAGES.get(path.name, 0), f"{path.name}: {len(images)} pictures shown"


#: What the browser site lacks offline (Pyodide without its distribution's packages): the bare package's kernel
#: cannot import these.
BARE = ("numpy", "pandas", "matplotlib", "gymnasium")

#: A ``sitecustomize`` that makes the packages of ``BARE`` fail to import, as where they are not installed.
SITECUSTOMIZE = f"""import sys

BARE = {BARE!r}


class Missing:
    "The packages of BARE are not there (the browser site offline)."

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BARE:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, Missing())
"""
#: The pictures a lesson shows drawn as SVG where matplotlib is missing (its ``plot()``s).
CHARTS = {"03-strategy.ipynb": 1, "04-the-ladder.ipynb": 2, "06-what-the-expert-learned.ipynb": 1}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_with_the_bare_package(path, tmp_path, monkeypatch):
    """Every lesson runs top to bottom where numpy, pandas, matplotlib and Gymnasium are missing (the browser site
    offline): no cell fails (Run All would stop there), each cell that needs one of them says so in one line and
    shows nothing else, the lesson's key outputs are there, and its plots are drawn as SVG pictures."""
    nb = nbformat.read(path, as_version=4)
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    check = "\n".join(f"try:\n    import {name}\n    print('imported {name}')\nexcept ModuleNotFoundError:\n    pass"
                      for name in BARE)
    nb.cells.insert(0, nbformat.v4.new_code_cell(check))
    execute(nb, tmp_path, monkeypatch, first=(str(bare),), allow_errors=True)
    first, *cells = [c for c in nb.cells if c.cell_type == "code"]
    assert first.outputs == [], f"the kernel is not bare: {outputs_text(nbformat.v4.new_notebook(cells=[first]))}"
    failed = [(c.source.splitlines()[0], o.get("ename"), o.get("evalue")) for c in cells for o in c.outputs
              if o.output_type == "error"]
    assert failed == [], f"{path.name}: {len(failed)} cells fail without {', '.join(BARE)}: {failed}"
    for c in cells:
        said = "".join(o.get("text", "") for o in c.outputs if o.output_type == "stream")
        if "Skipped: " in said:
            assert len(c.outputs) == 1 and said.count("\n") == 1 and said.startswith("Skipped: this cell needs "), \
                f"{path.name}: a cell that needs a missing package says so in one line, and nothing else: {said!r}"
            named = said.split("needs ", 1)[1].split(" (", 1)[0].split(" and ")
            assert set(named) <= set(BARE) and 'pip install "spiderette[' in said, said
    text = outputs_text(nb)
    check_the_lessons_point(path, text)
    # (the plots' pictures: a Game shown as a cell's result is a picture too, of the table)
    charts = [o["data"]["image/svg+xml"] for c in cells if ".plot()" in c.source or ".chart()" in c.source
              for o in c.outputs if "image/svg+xml" in o.get("data", {})]
    assert len(charts) >= CHARTS.get(path.name, 0), f"{path.name}: {len(charts)} pictures drawn without matplotlib"
    assert all("win rate" in svg for svg in charts), "the lesson's point: which way of playing wins more"


def check_the_agent_learns(text: str) -> None:
    """Lesson 05's agent learns: clearly better than random on the same deals, measured at every checkpoint."""
    import re

    learnt, random_ = map(float, re.search(r"learnt: ([0-9.]+) runs per game, random: ([0-9.]+)", text).groups())
    assert learnt >= 2 * random_ and learnt - random_ >= 0.3, (learnt, random_)
    rows = re.findall(r"^ *(\d+) \| +([0-9.]+) \|", text, re.M)   # the checkpoints: 0, 5, 20, 50, 150 games
    assert [int(n) for n, _ in rows] == [0, 5, 20, 50, 150], rows


def check_the_class_value_learns(text: str) -> None:
    """Lesson 06's value of one's own (fitted in the lesson, saved to my_value.json) leaves fewer cards face down
    than the hand-made value on the lesson's deals."""
    import re

    first, mine = map(int, re.search(r"(\d+) deals? with fewer cards left face down by planner \(value='handmade'\),"
                                     r" (\d+) by planner \(value='my_value.json'\)", text).groups())
    assert mine > first, (mine, first)


def test_the_play_notebook_is_first():
    assert NOTEBOOKS and NOTEBOOKS[0].name == "01-play.ipynb"
    assert (REPO / "notebooks" / "02-scripting.ipynb") in NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_valid_with_cell_ids(path, recwarn):
    """Every cell has an id, and the notebook validates as it is (no nbformat warning in ``mkdocs build``)."""
    import json
    import warnings

    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert [i for i, c in enumerate(cells) if not c.get("id")] == [], f"{path.name}: cells without an id"
    assert len({c["id"] for c in cells}) == len(cells), f"{path.name}: two cells with one id"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=nbformat.NO_CONVERT))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_says_how_long_it_runs(path):
    """A teacher plans a lesson around it: the first cell says the notebook's expected run time."""
    import json

    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert "**Expected run time:" in first, f"{path.name}: its first cell does not say how long it runs"


SECTION_POINTER = r"`docs/([\w-]+)\.md`, sections? ((?:\*[^*]+\*(?:,? and |, )?)+)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_points_to_figures_that_exist(path):
    """Where a notebook sends the reader for the figures over many deals: a section of a guide that is there
    (``docs/teach.md``, section *Title*), not the README (whose figures moved to the guides)."""
    import json
    import re

    text = "\n".join("".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"])
    flat = re.sub(r"\s+", " ", text)
    assert not re.search(r"README('s)? (gives the )?figures|figures (are )?in the README", flat), \
        f"{path.name} points to figures in the README"
    for page, titles in re.findall(SECTION_POINTER, flat):
        guide = REPO / "docs" / f"{page}.md"
        assert guide.is_file(), f"{path.name}: no docs/{page}.md"
        headings = set(re.findall(r"^#{2,4} (.+?)\s*$", guide.read_text(encoding="utf-8"), flags=re.M))
        for title in re.findall(r"\*([^*]+)\*", titles):
            assert title in headings, f"{path.name}: docs/{page}.md has no section {title!r}"
    if "figures" in flat and "1000" in flat.replace(",", ""):   # (1,000 and 1–1000 too)
        assert re.search(SECTION_POINTER, flat), f"{path.name} speaks of figures without saying where they are"


TIMES = REPO / "benchmarks" / "data" / "notebook_times.json"
STATED = re.compile(r"\*\*Expected run time: about (half a minute|a minute|\d+ seconds|\d+ minutes)\*\*")


def stated_seconds(first_cell: str) -> int:
    """The seconds a notebook's first cell promises ("about 4 minutes": 240)."""
    m = STATED.search(first_cell)
    assert m, "the first cell says '**Expected run time: about N minutes**' (or seconds, a minute, half a minute)"
    said = m.group(1)
    return {"half a minute": 30, "a minute": 60}.get(said) or int(said.split()[0]) * (60 if "minute" in said else 1)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_time_is_the_measured_one(path):
    """The stated run time is honest: at least what ``benchmarks/notebook_times.py`` measured for this very code
    (its fingerprint) on a 2-core machine with a busy loop on each core, and the first cell quotes that
    measurement. No clock is read here: a change to a notebook's code needs a new measurement."""
    import json
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from notebook_times import fingerprint
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    record = json.loads(TIMES.read_text(encoding="utf-8")).get(path.name)
    assert record, f"{path.name}: not measured; run python benchmarks/notebook_times.py {path.stem}"
    assert record["fingerprint"] == fingerprint(path), \
        f"{path.name} changed since it was timed; run python benchmarks/notebook_times.py {path.stem}"
    assert record["load"] >= 2 and record["cores"] == 2, "timed on a 2-core machine with a busy loop on each core"
    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    assert stated_seconds(first) >= record["seconds"], (path.name, record["seconds"])
    flat = re.sub(r"\s+", " ", first)
    assert "2-core machine under load" in flat and "benchmarks/notebook_times.py" in flat, flat
    measured = re.search(r"measured: (?:(\d+) min )?(\d+) s", flat)
    assert measured, "the first cell quotes the measured time ('measured: 3 min 59 s')"
    minutes, seconds = int(measured.group(1) or 0), int(measured.group(2))
    assert minutes * 60 + seconds == round(record["seconds"]), (flat, record["seconds"])


def test_the_lessons_for_a_class_fit_the_hour_with_the_measured_times():
    """The Teach guide's "Lessons for a class": three lessons whose slots add up to 50 minutes, each notebook time
    it quotes the recorded one (``benchmarks/notebook_times.py``), and no cell of a lesson longer than a minute."""
    import json

    teach = (REPO / "docs" / "teach.md").read_text(encoding="utf-8")
    section = teach.split("\n## Lessons for a class\n", 1)[1].split("\n## ", 1)[0]
    lessons = re.split(r"\n### (Lesson \d: .+)\n", section)[1:]
    assert len(lessons) == 6, "three lessons, each a '### Lesson n: ...' heading"
    record = json.loads(TIMES.read_text(encoding="utf-8"))
    for title, body in zip(lessons[::2], lessons[1::2]):
        minutes = [int(m) for m in re.findall(r"^\| (\d+) \|", body, flags=re.M)]
        assert sum(minutes) == 50, (title, minutes)
        quoted = re.findall(r"`(0\d-[\w-]+)`: (?:(\d+) min )?(\d+) s", body)
        for name, mins, secs in quoted:
            assert int(mins or 0) * 60 + int(secs) == round(record[f"{name}.ipynb"]["seconds"]), (title, name)
    assert all(r["longest_cell"] < 60 for r in record.values()), "a lesson's cell runs longer than a minute"
    quoted = set(re.findall(r"`(0\d-[\w-]+)`: ", section))
    assert {"01-play", "03-strategy", "04-the-ladder", "06-what-the-expert-learned"} <= quoted, quoted
