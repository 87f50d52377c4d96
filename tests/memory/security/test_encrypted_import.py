"""A big import into an encrypted memory (one new data.toon, ``store.bulk``) is sealed too:
no file holds an imported text in clear, and every entry reads back with the key."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import no_entry_cap
from tests.memory.security.conftest import grep

from toon_memory import Memory
from toon_memory.store.paths import home_dir

WORD = "wombatsecretword"


def test_a_big_import_into_an_encrypted_memory_stays_sealed(project: Path, tmp_path: Path) -> None:
    no_entry_cap(project)
    memory = Memory(project)
    memory.remember("knowledge", "first", "stored before encrypting")
    memory.security.encrypt()
    rows = [{"key": f"bulk-{i}", "content": f"{WORD} {i}"} for i in range(1200)]
    export = tmp_path / "export.json"
    export.write_text(json.dumps(rows))
    report = Memory(project).import_(export)
    assert report.added == 1200
    assert not memory.paths.journal.exists()  # written whole, as one new data.toon
    assert grep(WORD, project, home_dir()) == []
    fresh = Memory(project)
    assert len(fresh.entries()) == 1201
    assert fresh.get("bulk-1199").content == f"{WORD} 1199"
