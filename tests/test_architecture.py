"""The wings of the package and the direction of their imports (the Develop guide, docs/develop.md, "Layout").

Every module of ``src/spiderette`` belongs to a wing: the folder it is in, or ``top`` for the modules beside
``__init__.py``. A wing imports only from itself and from lower wings (its rank is higher), never from a wing
of the same rank or above: so there is no import circle between wings. Every import counts, the ones inside
functions and under ``TYPE_CHECKING`` too.
"""

from __future__ import annotations

import ast
import importlib
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
#: environment, the kept import paths) may use everything.
RANK = {"engine": 0, "players": 1, "userdata": 1, "notebook": 2, "studies": 3, "top": 4}

#: The modules beside __init__.py, and the import paths the README documented before the wings, kept as
#: modules that only re-export their new home.
TOP = {"__init__", "__main__", "cli", "env"}
KEPT = {"cards": "engine.cards", "predicates": "engine.predicates", "planner": "players.planner",
        "table": "notebook.view"}

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
    assert top <= TOP | set(KEPT), f"modules beside __init__.py that belong in a wing: {sorted(top - TOP - set(KEPT))}"
    for name in RANK.keys() - {"top"}:
        assert f"spiderette.{name}" in MODULES, f"the wing {name}/ has no __init__.py"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_goes_up(module):
    mine = wing(module)
    wrong = []
    for line, target in imports(module):
        if target != "spiderette" and not target.startswith("spiderette."):
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


@pytest.mark.parametrize("old", sorted(KEPT))
def test_the_documented_import_paths_still_work(old):
    kept, home = importlib.import_module(f"spiderette.{old}"), importlib.import_module(f"spiderette.{KEPT[old]}")
    public = getattr(home, "__all__", None) or [n for n in vars(home) if not n.startswith("_") and n != "annotations"]
    assert public and all(getattr(kept, n) is getattr(home, n) for n in public)
    tree = ast.parse(MODULES[f"spiderette.{old}"].read_text(encoding="utf-8"))
    assert all(isinstance(n, (ast.Expr, ast.ImportFrom)) for n in tree.body), "a kept path only re-exports"


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
