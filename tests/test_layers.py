"""The package's layers point one way, and nothing imports what it should not.

numerics ← mechanics ← system ← examples (the slices' models) ← views (widgets, exercises,
the scene package, the slices' views, exercises and scenes) ← the catalog of worked examples ←
verify and the command line.  The graph is read from the source (every ``import``, lazy ones
inside functions included), so an import that only runs later still counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

#: Layers from the bottom; a module may import its own layer and the ones below.
LAYERS = ("numerics", "mechanics", "system", "examples", "views", "catalog", "top")

#: Parts of a slice (companion/examples/<name>/<part>.py) that draw or ask: the views layer.
VIEW_PARTS = {"view", "exercises", "scene"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    """The layer of a module of the package."""
    parts = module.split(".")[1:]
    head = parts[0] if parts else ""
    if head in ("numerics",):
        return "numerics"
    if head in ("mechanics",) or module in ("companion.geometry.metric",
                                            "companion.geometry.planar",
                                            "companion.geometry"):
        return "mechanics"
    if head in ("system", "model", "checks", "geometry", "stability", "linearize"):
        return "system"
    if head == "examples":
        if len(parts) == 1 or (len(parts) == 2 and (PACKAGE / "examples" / parts[1]).is_dir()):
            return "catalog"  # the list, and each slice's record
        if len(parts) == 2:  # companion.examples.record, companion.examples.independent
            return "examples"
        return "views" if parts[2] in VIEW_PARTS else "examples"
    if head in ("widgets", "exercises", "scene", "diagrams"):
        return "views"
    return "top"  # verify, book, __main__, the package itself


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path) -> set[str]:
    """Every companion module ``path`` imports, at the top or inside a function.

    ``from companion.examples.knife_edge import view`` imports the module ``…knife_edge.view``
    (its package's ``__init__`` runs too, but that is Python's doing, not an edge).  The root
    package ``companion`` is a thin namespace and counts for nothing.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    found: set[str] = set()
    annotations_only = {id(n) for block in ast.walk(tree) if _is_type_checking_block(block)
                        for n in ast.walk(block)}
    for node in ast.walk(tree):
        if id(node) in annotations_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
    return {m for m in found if m in MODULES and m != "companion"}


def _is_type_checking_block(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``: imports for annotations only, never run."""
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and (
        node.test.id == "TYPE_CHECKING")


GRAPH = {name: imports_of(path) - {name} for name, path in MODULES.items()}


def upward(module: str, targets: set[str]) -> list[str]:
    """The targets in a higher layer than ``module``."""
    mine = LAYERS.index(layer(module))
    return sorted(m for m in targets if LAYERS.index(layer(m)) > mine)


def test_the_graph_is_read():
    assert "companion.examples.knife_edge.system" in GRAPH
    assert "companion.system" in GRAPH["companion.examples.knife_edge.system"]


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_upward_import(module):
    bad = upward(module, GRAPH[module])
    assert not bad, f"{module} ({layer(module)}) imports a higher layer: " + ", ".join(
        f"{m} ({layer(m)})" for m in bad)


def test_no_import_cycle():
    edges = GRAPH
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            pytest.fail("import cycle: " + " → ".join(cycle))


def test_only_verify_reads_the_printed_results():
    readers = sorted(m for m, targets in GRAPH.items()
                     if any(t == "companion.book" or t.startswith("companion.book.")
                            for t in targets) and not m.startswith("companion.book"))
    assert readers == ["companion.verify"]


def test_the_layer_rule_catches_a_bad_import():
    """The rule can fail: a slice's model importing the catalog, or a widget a slice's
    view, is upward; a view importing its own model is not."""
    assert upward("companion.examples.knife_edge.system", {"companion.examples"})
    assert upward("companion.widgets.explorer", {"companion.examples.knife_edge"})
    assert upward("companion.mechanics.lagrange", {"companion.system"})
    assert not upward("companion.examples.knife_edge.view",
                      {"companion.examples.knife_edge.system", "companion.widgets.explorer"})
