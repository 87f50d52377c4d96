"""The dependency direction of docs/architecture.md, enforced over the source's imports.

Every ``import`` in ``src/toon_memory`` is read with ``ast`` (lazy imports inside
functions included; imports under ``if TYPE_CHECKING:`` excluded, they never run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "toon_memory"

#: Top-level parts of the package and their layer: a part may import only
#: from parts of a lower layer, or from its own part.
LAYERS: dict[str, float] = {
    "errors": 0, "model": 1, "clock": 1,
    "store": 2, "config": 2, "project": 2, "search": 2,
    "tagging": 3, "remember": 3, "archiving": 3, "stats": 3, "changes": 3,
    "scoring": 4, "import_rules": 4, "secrets_scan": 3, "curation": 4.5, "merging": 3, "session": 1.5,
    "recalling": 5, "editing": 5, "maintenance": 5, "transfer": 5,
    "coordination": 5.5, "curating": 5.5, "sharing": 5.5, "security": 5.5, "watching": 5.2, "context": 5.7,
    "memory": 6,
    "render": 7, "slm": 7, "demo": 8,
    "agents": 9, "server": 9, "viewer": 9,
    "cli": 10, "__main__": 11, "__init__": 11,
}  # fmt: skip
#: Same-layer parts that may import each other in this one direction.
ALLOWED_PEERS = {("config", "store"), ("project", "store"), ("server", "viewer")}
#: Parts that must never import each other, whatever their layers.
FORBIDDEN = {("search", "store"), ("search", "config"), ("search", "project"),
             ("store", "search"), ("search", "render")}  # fmt: skip


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
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
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
    return name.removeprefix("toon_memory.").split(".")[0] if name != "toon_memory" else "__init__"


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
            assert part == "server", f"{module} imports mcp"
        if any(t == "click" or t.startswith("click.") for t in targets):
            assert part == "cli", f"{module} imports click"


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
    tree = ast.parse("from toon_memory.cli.main import cli\n")
    found = set(_imports(tree, "store.bad", False))
    assert found == {"toon_memory.cli.main"}
    assert LAYERS[_part("toon_memory.cli.main")] > LAYERS["store"]
    lazy = ast.parse("def f():\n    from toon_memory.search import Engine\n")
    assert set(_imports(lazy, "store.bad", False)) == {"toon_memory.search"}
    guarded = ast.parse("if TYPE_CHECKING:\n    from toon_memory.memory import Memory\n")
    assert set(_imports(guarded, "store.bad", False)) == set()
