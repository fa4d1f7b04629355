"""No module of mindgames imports itself back: the import graph of ``mindgames/``, ``models/``
and ``solver/`` (under their installed names) has no cycle.

A cycle at the top of modules breaks on the day one of them imports a name of the other
before it is defined; one through an import deferred into a function works, but says that
two modules are one concern cut in the wrong place (``commands/grid.py`` was the command
line and the answering helpers its workers and ``explain`` imported back).  So neither is
allowed.  The graph is made from the source (every module parsed, nothing imported): an
edge for each import a module makes when it is imported, that is at its top level (also
inside ``try``, ``with``, a class or an ``if`` other than ``if TYPE_CHECKING:`` and
``if __name__ == "__main__":``), and, in the *deferred* graph, inside its functions too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: each folder of the repository, by the package name it is installed as (pyproject's package-dir)
PACKAGES = {
    "mindgames": ROOT / "mindgames",
    "mindgames.models": ROOT / "models",
    "mindgames.solver": ROOT / "solver",
}


def modules() -> dict[str, Path]:
    """Every module of the packages, by its installed name (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def import_statements(body: list[ast.stmt], deferred: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements run when a module is imported; ``deferred``: those inside its
    functions too (run when they are called)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            test = ast.unparse(node.test)
            if test not in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "__name__ == '__main__'"):
                yield from import_statements(node.body, deferred)
            yield from import_statements(node.orelse, deferred)
        elif isinstance(node, ast.Try):
            for part in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from import_statements(part, deferred)
        elif isinstance(node, (ast.With, ast.ClassDef, ast.For, ast.While)):
            yield from import_statements(node.body, deferred)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and deferred:
            yield from import_statements(node.body, deferred)


def imported(name: str, path: Path, known: dict[str, Path], deferred: bool = False) -> set[str]:
    """The modules of ``known`` that module ``name`` imports when it is imported (and,
    ``deferred``, when its functions run).

    ``from package import submodule`` is an edge to the submodule alone: the package is
    being imported already when its submodule runs (a package that imports its own
    submodules is no cycle)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: set[str] = set()
    for node in import_statements(ast.parse(path.read_text(), str(path)).body, deferred):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names)
            continue
        base = package
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = ".".join(part for part in (base if node.level else "", node.module or "") if part)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            edges.add(submodule if submodule in known else source)
    return {edge for edge in edges if edge in known and edge != name}


def import_graph(deferred: bool = False) -> dict[str, set[str]]:
    """Module -> the modules it imports at its top level (``deferred``: in its functions too)."""
    known = modules()
    return {name: imported(name, path, known, deferred) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path back to its start) through each strongly connected part of
    ``graph`` that has one (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    parts.append(sorted(part))
    return [cycle_in(graph, set(part)) for part in parts]


def cycle_in(graph: dict[str, set[str]], part: set[str]) -> list[str]:
    """A path from the part's first module back to itself, within the part (breadth first)."""
    start = min(part)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & part):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle in {sorted(part)}")


def test_the_graph_is_made_of_every_module():
    graph = import_graph()
    assert "mindgames.commands.grid" in graph and "mindgames.models.kind" in graph
    assert "mindgames.solver.proof.checker" in graph
    assert "mindgames.models.kind" in graph["mindgames.models.runner"]  # a top-level import
    assert "mindgames.models.compare" not in graph["mindgames.service.kinds"]  # inside functions only
    assert "mindgames.models.compare" in import_graph(deferred=True)["mindgames.service.kinds"]


def test_cycles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_no_module_imports_another_that_imports_it_back_at_import_time():
    found = cycles(import_graph())
    assert found == [], "\n".join(" -> ".join(cycle) for cycle in found)


def test_no_command_module_imports_another_that_imports_it_back_even_deferred():
    found = [cycle for cycle in cycles(import_graph(deferred=True)) if any(".commands." in n for n in cycle)]
    assert found == [], "\n".join(" -> ".join(cycle) for cycle in found)


def test_no_module_imports_another_that_imports_it_back_even_deferred():
    found = cycles(import_graph(deferred=True))
    assert found == [], "\n".join(" -> ".join(cycle) for cycle in found)
