"""No import circle crosses a folder (docs/architecture.md): modules of one noun folder may lean on each
other, but a circle between two folders means two rooms that cannot be understood, moved or tested apart.
`lint-imports` checks the layers; this checks the circles, from the same import graph (grimp)."""

from __future__ import annotations

import grimp

PACKAGES = ("kit", "models", "providers", "tasks", "schedules", "app", "herald")


def import_circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            for target in imported:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        circles.append(sorted(component))
    return circles


def folder_of(module: str, modules: set[str]) -> str:
    is_package = any(other.startswith(module + ".") for other in modules)
    return module if is_package else module.rpartition(".")[0]


def test_the_circle_finder_finds_a_circle_and_only_circles():
    class Graph:
        edges = {"a.x": {"b.y"}, "b.y": {"a.x", "c.z"}, "c.z": set()}
        modules = set(edges)

        def find_modules_directly_imported_by(self, module):
            return self.edges[module]

    assert import_circles(Graph()) == [["a.x", "b.y"]]


def test_no_import_circle_crosses_a_folder():
    graph = grimp.build_graph(*PACKAGES)
    modules = set(graph.modules)
    crossing = [circle for circle in import_circles(graph)
                if len({folder_of(module, modules) for module in circle}) > 1]
    assert crossing == [], f"import circles across folders: {crossing}"
