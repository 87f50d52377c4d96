"""docs/architecture.md stays true: every path it names exists, and every folder of the
package is on its map."""

from __future__ import annotations

import re

from tests.conftest import ROOT

DOC = ROOT / "docs" / "architecture.md"
SRC = ROOT / "src" / "toon_memory"
#: ``src/…`` and ``tests/…`` paths, and ``name/`` or ``name.py`` in the layer diagram.
PATH = re.compile(r"(?<![\w/.])((?:src|tests|benchmarks|docs)/[\w./-]*[\w/])")


def _named_paths(text: str) -> set[str]:
    found = {m.group(1).rstrip("/") for m in PATH.finditer(text)}
    return {p for p in found if not p.endswith("_")}  # ``contract_<area>.py``: a pattern


def test_every_path_the_map_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = _named_paths(text)
    assert len(names) > 20, "the map names the files of the common changes"
    missing = sorted(p for p in names if not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_package_folder_is_on_the_map() -> None:
    text = DOC.read_text(encoding="utf-8")
    folders = sorted(
        str(p.relative_to(SRC))
        for p in SRC.rglob("__init__.py")
        if p.parent != SRC and "catalog" not in p.parts and "tools" not in p.parts
    )
    folders = [str((SRC / f).parent.relative_to(SRC)) if f.endswith("__init__.py") else f
               for f in folders]  # fmt: skip
    absent = [f for f in folders if f"{f.split('/')[-1]}/" not in text]
    assert not absent, f"folders missing from docs/architecture.md: {absent}"


def test_the_checker_sees_a_missing_path() -> None:
    assert _named_paths("see `src/toon_memory/nowhere.py` and tests/rules/") == {
        "src/toon_memory/nowhere.py",
        "tests/rules",
    }
    assert not (ROOT / "src/toon_memory/nowhere.py").exists()
