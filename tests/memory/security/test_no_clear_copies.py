"""An encrypted memory is never copied somewhere in clear: Gist and plain-global exports refuse."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.memory.security.conftest import grep, snapshot

from toon_memory import Memory
from toon_memory.errors import EncryptionError


def test_gist_and_global_exports_of_an_encrypted_memory_are_refused(project: Path) -> None:
    memory = Memory(project)
    memory.remember("decision", "db", "Zanzibarian database choice")
    memory.security.encrypt()
    home = Memory(global_store=True).paths.folder.parent
    before = snapshot(project)
    with pytest.raises(EncryptionError, match="Gist export"):
        memory.sharing.export_gist()
    with pytest.raises(EncryptionError, match="global memory"):
        memory.sharing.export_global()
    assert snapshot(project) == before
    assert grep("Zanzibarian", project, home) == []
