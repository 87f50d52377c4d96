"""A one-shot process (``Memory(one_shot=True)``: a CLI command, a hook) compacts from the
on-disk index (or else over the bare state): no search engine is built and no derived
cache is written, and data.toon still holds every entry (read back by the official
strict decoder); a long-lived process still writes its cache."""

from __future__ import annotations

from pathlib import Path

import pytest
import toon_format
from tests.conftest import run_cli
from tests.store.test_index_sync import _builds
from tests.store.test_index_view import _past_eager_compaction

from toon_memory import Memory


def _strict_keys(memory: Memory) -> list[str]:
    data = toon_format.loads(memory.paths.data.read_text(encoding="utf-8"), strict=True)
    return [row["key"] for row in data["entries"]]


def test_a_one_shot_write_compacts_without_engine_or_cache(project: Path) -> None:
    """A small memory compacts after every write (``EAGER_COMPACT_BYTES``)."""
    for i in range(6):
        one = Memory(project, one_shot=True)
        one.remember("decision", f"key-{i}", f"decision number {i} about the pool")
        assert not one.paths.journal.exists(), "the write was folded into data.toon"
        assert one.store.loaded() is None, "written from the index: no state, no engine"
        assert not one.paths.cache.exists(), "no pickle for a process that exits next"
    one.summary("app.py", "the app")
    assert _strict_keys(one) == [f"key-{i}" for i in range(6)]
    assert Memory(project).get("key-3").content == "decision number 3 about the pool"
    lasting = Memory(project)  # a long-lived process too (``index_sync.LEAN_BYTES`` is 0)
    lasting.remember("decision", "lasting", "a long-lived process writes over the index")
    assert lasting.store.loaded() is None and not lasting.paths.cache.exists()


def test_a_cli_compact_writes_no_cache(project: Path) -> None:
    _past_eager_compaction(project, 300)
    memory = Memory(project)
    memory.remember("decision", "use-redis", "Use Redis for the session cache")
    memory.recall("redis")
    memory.paths.cache.unlink(missing_ok=True)
    assert memory.paths.journal.exists()
    run_cli("compact", project=project, check=True)
    assert not memory.paths.journal.exists()
    assert not memory.paths.cache.exists()
    keys = _strict_keys(memory)
    assert len(keys) == 301 and keys[-1] == "use-redis"
    assert Memory(project, one_shot=True).get("use-redis").content.startswith("Use Redis")


@pytest.mark.parametrize("size", [0, 300])
def test_a_compaction_after_a_write_over_the_index_moves_the_index_along(
    project: Path, size: int
) -> None:
    """A write over the index leaves it one write behind; it is caught up before the
    compaction (the one after the write in a small memory, an explicit one in a big one),
    which moves it to the new files: the next command reads it, no rebuild."""
    if size:
        _past_eager_compaction(project, size)
    else:
        Memory(project).remember("decision", "first", "the first decision")
    Memory(project, one_shot=True).recall("decision")
    built = _builds(Memory(project))
    Memory(project).paths.cache.unlink(missing_ok=True)  # (a long-lived process wrote it)
    for i in range(3):
        one = Memory(project, one_shot=True)
        one.remember("decision", f"key-{i}", f"decision number {i} about the pool")
        Memory(project, one_shot=True).compact()  # (nothing left to fold in a small memory)
        assert not one.paths.journal.exists()
        found = Memory(project, one_shot=True).recall("pool", limit=10)
        assert {hit.entry.key for hit in found.hits} >= {f"key-{j}" for j in range(i + 1)}
    assert _builds(Memory(project)) == built, "the index was never built again"
    assert not Memory(project).paths.cache.exists()
