"""``search`` sits below ``render``, ``memory`` and the adapters, and its package stays cheap."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import toon_memory.search as search

SEARCH = Path(search.__file__).parent
#: What ``search`` may import from the package: the layers below it, and itself.
ALLOWED = ("toon_memory.model.entry", "toon_memory.model.checks", "toon_memory.errors",
           "toon_memory.model.clock", "toon_memory.search")  # fmt: skip


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name.startswith("toon_memory")]


def test_search_imports_only_the_layers_below_it() -> None:
    wrong = {
        f"{path.name}: {name}"
        for path in sorted(SEARCH.glob("*.py"))
        for name in _imports(path)
        if not name.startswith(ALLOWED)
    }
    assert wrong == set()  # e.g. no engine.py -> render.recall (the budget lives in search)


def test_public_names_are_not_shadowed_by_submodules() -> None:
    for info in pkgutil.iter_modules(search.__path__):
        importlib.import_module(f"{search.__name__}.{info.name}")
    for name in search.__all__:
        assert not isinstance(getattr(search, name), ModuleType), name


def test_package_init_imports_its_submodules_lazily() -> None:
    """``scoring`` needs only ``paths``/``decay``/``tokenize``: the engine must not come along."""
    tree = ast.parse((SEARCH / "__init__.py").read_text(encoding="utf-8"))
    eager = [
        node.module
        for node in tree.body  # top level only: the TYPE_CHECKING block is an ``if``
        if isinstance(node, ast.ImportFrom) and node.module
    ]
    assert eager == ["__future__", "importlib", "typing"]
    code = "import toon_memory.search as s, sys; s.Engine; print('toon_memory.search.engine' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
