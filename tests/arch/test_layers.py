"""The dependency direction of docs/architecture.md, enforced over the source's imports.

Every ``import`` in ``src/toon_memory`` is read with ``ast``: lazy imports inside
functions and imports under ``if TYPE_CHECKING:`` included (mypy follows those too,
so a cycle through them is still a cycle in the design).

A *part* is a top-level folder of the package (``model``, ``rules``, ``store``…), or
one folder of ``adapters/``; each sits on a whole-number layer.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "toon_memory"

#: Parts of the package and their layer: a part may import only from parts of a
#: lower layer, or from its own part.
LAYERS: dict[str, int] = {
    "errors": 0,
    "model": 1, "system": 1,
    "search": 2,
    "rules": 3,
    "store": 4, "project": 4,
    "memory": 5,
    "render": 6,
    "adapters": 7, "adapters.slm": 7, "adapters.demo": 7, "adapters.installer": 7,
    "adapters.viewer": 7,
    "adapters.server": 8,
    "adapters.cli": 9,
    "__main__": 10, "__init__": 10,
}  # fmt: skip
#: Same-layer parts that may import each other in this one direction.
ALLOWED_PEERS = {("project", "store")}
#: Parts that must never import each other, whatever their layers: the ranking and the
#: storage meet only in ``memory``; adapters and renderers reach data only through
#: ``Memory`` (``adapters.slm`` is the simple-local-memory workspace, files of its own).
FORBIDDEN = {("search", "store"), ("search", "project"), ("search", "render"),
             ("store", "search"),
             ("adapters.server", "store"), ("adapters.viewer", "store"),
             ("adapters.installer", "store"), ("adapters.cli", "store"),
             ("adapters.server", "project"), ("adapters.viewer", "project")}  # fmt: skip
#: The one module of ``store`` an adapter may use: where a memory and a project live.
ADAPTERS_MAY_USE = {"toon_memory.store.paths"}


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"] or ["__init__"]
        yield ".".join(parts), path


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield from _from_target(node, module, is_package)
        stack.extend(ast.iter_child_nodes(node))


def _from_target(node: ast.ImportFrom, module: str, is_package: bool) -> Iterator[str]:
    base = node.module or ""
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(["toon_memory", *here[: len(here) - node.level + 1], base]).strip(".")
    for alias in node.names:
        full = f"{base}.{alias.name}"
        yield full if _is_module(full) else base


def _is_module(name: str) -> bool:
    if not name.startswith("toon_memory."):
        return False
    rel = Path(*name.split(".")[1:])
    return (SRC / rel).with_suffix(".py").exists() or (SRC / rel / "__init__.py").exists()


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = _imports(tree, module, path.name == "__init__.py")
        graph[module] = {name for name in found}
    return graph


def _part(name: str) -> str:
    if name == "toon_memory":
        return "__init__"
    parts = name.removeprefix("toon_memory.").split(".")
    return ".".join(parts[:2]) if parts[0] == "adapters" and len(parts) > 1 else parts[0]


GRAPH = _graph()


def _ours(name: str) -> bool:
    return name == "toon_memory" or name.startswith("toon_memory.")


def test_every_part_has_a_layer() -> None:
    parts = {_part("toon_memory." + module) for module in GRAPH}
    assert parts <= set(LAYERS), f"add to LAYERS: {sorted(parts - set(LAYERS))}"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down_the_layers(module: str) -> None:
    source = _part("toon_memory." + module)
    for target in sorted(t for t in GRAPH[module] if _ours(t)):
        dest = _part(target)
        if dest == source or (dest == "__init__" and target == "toon_memory"):
            continue
        edge = (source, dest)
        if target in ADAPTERS_MAY_USE and source.startswith("adapters."):
            continue
        assert edge not in FORBIDDEN, f"{module} imports {target}: {source} must not use {dest}"
        ok = LAYERS[dest] < LAYERS[source] or edge in ALLOWED_PEERS
        assert ok, f"{module} (layer {LAYERS[source]}) imports {target} (layer {LAYERS[dest]})"


def test_no_import_cycles_between_modules() -> None:
    modules = {f"toon_memory.{m}" if m != "__init__" else "toon_memory" for m in GRAPH}
    edges = {
        (f"toon_memory.{m}" if m != "__init__" else "toon_memory"): {
            t for t in targets if t in modules and t != "toon_memory"
        }
        for m, targets in GRAPH.items()
    }
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt) :], nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)


def test_only_server_imports_mcp_and_only_cli_imports_click() -> None:
    for module, targets in GRAPH.items():
        part = _part("toon_memory." + module)
        if any(t == "mcp" or t.startswith(("mcp.", "mcp_types")) for t in targets):
            assert part == "adapters.server", f"{module} imports mcp"
        if any(t == "click" or t.startswith("click.") for t in targets):
            assert part == "adapters.cli", f"{module} imports click"


def test_search_touches_no_files() -> None:
    io_modules = {"os", "pathlib", "shutil", "subprocess", "tempfile", "io"}
    for module, targets in GRAPH.items():
        if _part("toon_memory." + module) != "search":
            continue
        assert not (targets & io_modules), f"{module} imports {sorted(targets & io_modules)}"
        tree = ast.parse((SRC / Path(*module.split("."))).with_suffix(".py").read_text()
                         if (SRC / Path(*module.split("."))).with_suffix(".py").exists()
                         else (SRC / Path(*module.split(".")) / "__init__.py").read_text())  # fmt: skip
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == "open"]  # fmt: skip
        assert not calls, f"{module} calls open()"


def test_the_checker_sees_a_cycle_and_a_wrong_way_import(tmp_path: Path) -> None:
    """The rules above can fail: a hand-made wrong-way import is caught."""
    tree = ast.parse("from toon_memory.adapters.cli.main import cli\n")
    found = set(_imports(tree, "store.bad", False))
    assert found == {"toon_memory.adapters.cli.main"}
    assert LAYERS[_part("toon_memory.adapters.cli.main")] > LAYERS["store"]
    lazy = ast.parse("def f():\n    from toon_memory.search import Engine\n")
    assert set(_imports(lazy, "store.bad", False)) == {"toon_memory.search"}
    guarded = ast.parse("if TYPE_CHECKING:\n    from toon_memory.memory.api import Memory\n")
    assert set(_imports(guarded, "store.bad", False)) == {"toon_memory.memory.api"}
