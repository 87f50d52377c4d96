"""Every module of the pure layers has a direct unit test of its own name (issue 18).

For ``src/toon_memory/<layer>/<path>/<name>.py`` under ``model/``, ``rules/`` (with
``rules/curation/``) and ``search/``, the test is ``tests/<layer>/<path>/test_<name>.py``,
and it imports that module itself (``import``/``from … import`` of the module, or of a
name the module defines), so the place of a new test is obvious and a test file of the
right name that never touches its module does not count. The few modules without one are
listed in ``EXEMPT`` with the reason; an exemption for a module that no longer exists, or
that has gained its own test, fails too, so the table stays small and true.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "toon_memory"
TESTS = ROOT / "tests"
PURE_LAYERS = ("model", "rules", "search")

#: Module (relative to src/toon_memory) -> why it has no test file of its own name.
EXEMPT: dict[str, str] = {
    "search/lexicon_table.py": "data only (the concept table); tests/search/test_lexicon.py "
    "and test_crosslang.py read it",
    "search/lexicon_stems.py": "generated from lexicon_table by lexicon.render(); "
    "tests/search/test_crosslang.py checks it is current",
}


def pure_modules() -> list[str]:
    """Every module of the pure layers, as a path relative to src/toon_memory (no __init__:
    a package's __init__ only re-exports its modules, each tested on its own)."""
    found = []
    for layer in PURE_LAYERS:
        for path in sorted((SRC / layer).rglob("*.py")):
            if path.name != "__init__.py":
                found.append(path.relative_to(SRC).as_posix())
    return found


def unit_test_of(module: str) -> Path:
    rel = Path(module)
    return TESTS / rel.parent / f"test_{rel.stem}.py"


def dotted(module: str) -> str:
    return "toon_memory." + module.removesuffix(".py").replace("/", ".")


def imported_modules(path: Path) -> set[str]:
    """The toon_memory modules a test file imports, or imports a name from (read with ast;
    a name re-exported by a package counts for the module that defines it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("toon_memory"):
                continue
            found.add(node.module)
            package = importlib.import_module(node.module)
            for alias in node.names:
                value = getattr(package, alias.name, None)
                if value is None or hasattr(value, "__path__") or hasattr(value, "__file__"):
                    found.add(f"{node.module}.{alias.name}")  # a module imported by name
                else:
                    found.add(getattr(value, "__module__", None) or node.module)
    return found


def test_the_pure_layers_have_modules() -> None:
    modules = pure_modules()
    assert "model/clock.py" in modules and "rules/curation/plans.py" in modules
    assert "search/rank.py" in modules and not any(m.endswith("__init__.py") for m in modules)


@pytest.mark.parametrize("module", pure_modules())
def test_each_pure_module_has_its_own_unit_test(module: str) -> None:
    if module in EXEMPT:
        pytest.skip(f"exempt: {EXEMPT[module]}")
    test = unit_test_of(module)
    assert test.is_file(), f"{module} has no direct unit test: add {test.relative_to(ROOT)}"
    assert dotted(module) in imported_modules(test), (
        f"{test.relative_to(ROOT)} does not import {dotted(module)}: test the module directly"
    )


def test_the_exemptions_are_current() -> None:
    modules = set(pure_modules())
    for module, reason in EXEMPT.items():
        assert module in modules, f"exempt module {module} no longer exists"
        assert not unit_test_of(module).is_file(), f"{module} has a test now: drop its exemption"
        assert reason.strip()


def test_imports_are_read_through_re_exports(tmp_path: Path) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "from toon_memory.search import Engine, crosslang\n"
        "import toon_memory.model.clock\n"
        "from toon_memory.rules.curation import plan_versions\n",
        encoding="utf-8",
    )
    found = imported_modules(probe)
    assert {"toon_memory.search.engine", "toon_memory.search.crosslang",
            "toon_memory.model.clock", "toon_memory.rules.curation.versions"} <= found  # fmt: skip
    assert "toon_memory.search.rank" not in found
