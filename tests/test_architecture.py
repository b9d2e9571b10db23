"""The wings of the package and the direction of their imports (the Develop guide, docs/develop.md, "Layout").

Every module of ``src/spiderette`` belongs to a wing: the folder it is in, or ``top`` for the modules beside
``__init__.py``. A wing imports only from itself and from lower wings (its rank is higher), never from a wing
of the same rank or above: so there is no import circle between wings. Every import counts, the ones inside
functions and under ``TYPE_CHECKING`` too.

And one import path per name (pre-1.0, no shims): no module only re-exports names that live elsewhere, and
every import of a name of the package, in the package, the tests, the benchmarks, the notebooks and the
guides' code, is from the module that defines it (or from ``spiderette`` itself, the public API).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

import spiderette

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "spiderette"

#: wing -> rank. The engine (the rules) imports nothing above it; the players (hints, solver, planner,
#: strategies) play by the engine; the player's files (userdata) read and write the engine's formats; the
#: notebook's widgets use the players and keep the player's files; a study plays strategies on many deals and
#: shows a deal in the notebook's replay viewer; the top (the package, the command line, the Gymnasium
#: environment) may use everything.
RANK = {"engine": 0, "players": 1, "userdata": 1, "notebook": 2, "studies": 3, "top": 4}

#: The modules beside __init__.py.
TOP = {"__init__", "__main__", "cli", "env"}

#: What the engine and the players may import from outside the package when they run: the standard library
#: only (they work without the widgets' anywidget and traitlets; an optional extra is imported by name, when
#: asked for, through ``players/extras.py``).
STANDALONE = ("engine", "players")



def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "static" not in p.parts}


def wing(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK and parts[1] != "top" else "top"


def imports(module: str, run_only: bool = False) -> list[tuple[int, str]]:
    """``(line, module imported)`` for every import of ``module``'s source, relative ones made absolute;
    ``run_only``: not those under ``if TYPE_CHECKING:`` (never run)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for top in ast.walk(tree)
                   if isinstance(top, ast.If) and getattr(top.test, "id", None) == "TYPE_CHECKING"
                   for n in ast.walk(top)}
    found = []
    for node in ast.walk(tree):
        if run_only and id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            # ``from .engine import cards`` imports the module spiderette.engine.cards
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
            found += [(node.lineno, t) for t in subs or [target]]
    return found


def test_every_module_is_in_a_wing():
    top = {m.split(".")[1] for m in MODULES if wing(m) == "top" and m != "spiderette"}
    assert top <= TOP, f"modules beside __init__.py that belong in a wing: {sorted(top - TOP)}"
    for name in RANK.keys() - {"top"}:
        assert f"spiderette.{name}" in MODULES, f"the wing {name}/ has no __init__.py"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_goes_up(module):
    mine = wing(module)
    wrong = []
    for line, target in imports(module):
        if (target != "spiderette" and not target.startswith("spiderette.")):
            continue
        theirs = wing(target) if target != "spiderette" else "top"
        if theirs != mine and RANK[theirs] >= RANK[mine]:
            wrong.append(f"line {line}: {target} ({theirs}, rank {RANK[theirs]})")
    assert not wrong, f"{module} ({mine}, rank {RANK[mine]}) imports from its rank or above: {wrong}"


@pytest.mark.parametrize("module", [m for m in sorted(MODULES) if wing(m) in STANDALONE])
def test_the_engine_and_the_players_need_only_the_standard_library(module):
    outside = sorted({t for _, t in imports(module, run_only=True)
                      if t.split(".")[0] not in sys.stdlib_module_names and t.split(".")[0] != "spiderette"})
    assert not outside, f"{module} imports {outside}"


def test_no_import_circle_between_wings():
    edges = {w: set() for w in RANK}
    for module in MODULES:
        for _, target in imports(module):
            if target.startswith("spiderette.") and wing(target) != wing(module):
                edges[wing(module)].add(wing(target))
    seen, done = set(), set()

    def visit(w, path):
        assert w not in seen - done, f"an import circle between wings: {' -> '.join([*path, w])}"
        if w in done:
            return
        seen.add(w)
        for v in sorted(edges[w]):
            visit(v, [*path, w])
        done.add(w)

    for w in RANK:
        visit(w, [])


def own_names(module: str) -> set[str]:
    """The names ``module`` defines itself: its top-level functions, classes and assignments (not its imports)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    names, todo = set(), list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.Try)):   # (a name defined one way or another)
            todo += [*node.body, *node.orelse, *getattr(node, "finalbody", ()),
                     *(n for h in getattr(node, "handlers", ()) for n in h.body)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


@pytest.mark.parametrize("module", [m for m, p in sorted(MODULES.items()) if p.name != "__init__.py"])
def test_no_module_only_re_exports(module):
    """Pre-1.0, no shims: a module is more than imports (a name has one home, one import path)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    doc = [n for n in tree.body[:1] if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)]
    rest = [n for n in tree.body if n not in doc and not isinstance(n, (ast.Import, ast.ImportFrom))
            and not (isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["__all__"])]
    assert rest, f"{module} only re-exports: import the names from their home instead"
    stars = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
    assert not stars, f"{module} re-exports with import * (lines {stars})"
    listed = next((n.value for n in tree.body if isinstance(n, ast.Assign)
                   and [getattr(t, "id", None) for t in n.targets] == ["__all__"]), None)
    if listed is not None:
        foreign = sorted(set(ast.literal_eval(listed)) - own_names(module))
        assert not foreign, f"{module}.__all__ lists names that live elsewhere: {foreign}"


def _python_of_markdown(text: str) -> list[str]:
    """The Python of a guide: its fenced code blocks (prompts removed)."""
    blocks = re.findall(r"```(?:python|py|pycon)?[^\n]*\n(.*?)```", text, re.S)
    return ["\n".join(re.sub(r"^(>>> |\.\.\. )", "", line) for line in b.splitlines()) for b in blocks]


def _sources() -> list[tuple[str, str, str | None]]:
    """``(where, Python source, package for relative imports)`` of every place that imports the package."""
    found = []
    for module, path in MODULES.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found.append((module, path.read_text(encoding="utf-8"), package))
    for path in sorted([*REPO.glob("tests/**/*.py"), *REPO.glob("benchmarks/*.py"), *REPO.glob("notebooks/*.py")]):
        found.append((str(path.relative_to(REPO)), path.read_text(encoding="utf-8"), None))
    for path in sorted([REPO / "README.md", *REPO.glob("docs/*.md")]):
        text = path.read_text(encoding="utf-8")
        found += [(f"{path.relative_to(REPO)} (block {i})", b, None) for i, b in enumerate(_python_of_markdown(text))]
    for path in sorted(REPO.glob("notebooks/*.ipynb")):
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            text = "".join(cell["source"])
            if cell["cell_type"] == "code":
                code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("%", "!")))
                found.append((f"{path.relative_to(REPO)} (cell {i})", code, None))
            else:
                found += [(f"{path.relative_to(REPO)} (cell {i})", b, None) for b in _python_of_markdown(text)]
    return found


def test_every_name_is_imported_from_its_home():
    own = {m: own_names(m) for m in MODULES}
    wrong = []
    for where, source, package in _sources():
        try:
            tree = ast.parse(source)
        except SyntaxError:   # (a guide's block that is not Python: a shell session, output)
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("spiderette.") or target not in MODULES:
                continue   # the public API (from spiderette import ...), or another package
            for a in node.names:
                if f"{target}.{a.name}" not in MODULES and a.name not in own[target]:
                    homes = sorted(m for m, names in own.items() if a.name in names)
                    wrong.append(f"{where}, line {node.lineno}: {a.name} from {target} (its home: {homes})")
    assert not wrong, "names imported from a module that only passes them on:\n" + "\n".join(wrong)


def test_the_public_api_comes_from_the_wings():
    for name in spiderette.__all__:
        home = getattr(getattr(spiderette, name), "__module__", None)   # (RULES and VARIANTS are values)
        assert home is None or wing(home) != "top", (name, home)


def test_the_layout_names_every_module():
    readme = (REPO / "docs" / "develop.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout"):]
    for module, path in MODULES.items():
        if path.name == "__init__.py":
            continue
        assert re.search(rf"(?<![\w/]){re.escape(path.name)}\b", layout), module


def test_the_layout_names_every_file_of_the_front_end_the_benchmarks_and_the_browser_site():
    """Once js/autoscroll.js, js/keep-keys.js, lite/ and four benchmarks were missing from it."""
    layout = (REPO / "docs" / "develop.md").read_text(encoding="utf-8").split("## Layout", 1)[1]
    files = [*sorted((REPO / "js").glob("*.js")), *sorted((REPO / "benchmarks").glob("*.py")),
             *sorted((REPO / "lite").glob("*.py"))]
    assert len(files) > 25
    missing = [str(p.relative_to(REPO)) for p in files
               if not re.search(rf"(?<![\w/-]){re.escape(p.name)}(?![\w-])", layout)]
    assert not missing, f"the Layout of docs/develop.md does not name {missing}"
    assert re.search(r"^lite/ ", layout, flags=re.M)


#: What only the ``e2e`` extra installs (pyproject.toml): the browser tests import it inside their tests and
#: fixtures, so that ``pytest -m "not e2e"`` collects with the base and ``test`` extras alone.
E2E_ONLY = {"playwright", "nbformat", "nbclient", "marimo", "notebook", "ipykernel", "jupyterlab"}


def test_the_browser_tests_are_collected_without_the_e2e_extra():
    found = []
    for path in sorted((REPO / "tests" / "e2e").glob("*.py")):
        for node in ast.parse(path.read_text()).body:   # (the module's own lines: run when it is collected)
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name}:{node.lineno} {n}" for n in names if n.split(".")[0] in E2E_ONLY]
    assert not found, f"imported at module level, needs the e2e extra to collect: {found}"
