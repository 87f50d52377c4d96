"""A cold recall reads the on-disk index, which follows every change of the memory's files.

Real files, real CLI subprocesses: another process's writes and recalls reach the
index through the journal and access-log tails; a compaction of what the index
describes moves it to the new files, while one it lags behind, a hand edit of
data.toon and a damaged index file make it rebuild; a read-only memory still
recalls; an encrypted memory never gets an index (its text stays sealed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import no_entry_cap, run_cli
from tests.fsconditions import READ_ONLY_KINDS

from toon_memory import Memory
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_sync import index_path


def _filled(project: Path, n: int = 30) -> Memory:
    no_entry_cap(project)  # hundreds of active entries: the 100-entry auto-archive is off
    memory = Memory(project)
    for i in range(n):
        links = [f"topic-{i - 1}"] if i else []
        memory.remember("knowledge", f"topic-{i}", f"redis pool {i} timeout worker {i % 7}",
                        links=links)  # fmt: skip
    return memory


def _cold(project: Path) -> tuple[list[str], Memory]:
    """Keys a fresh process would answer, and that process's memory (state not loaded)."""
    memory = Memory(project)
    keys = memory.recall("redis timeout worker 3", limit=8).keys
    return keys, memory


def _warm(project: Path) -> list[str]:
    """The same question answered by the in-memory engine over the loaded state."""
    memory = Memory(project)
    memory.store.state()
    return memory.recall("redis timeout worker 3", limit=8).keys


def test_cold_recall_uses_the_index_and_ranks_like_the_engine(project: Path) -> None:
    _filled(project)
    keys, memory = _cold(project)
    assert index_path(memory.paths).exists()  # the first cold recall built the index
    assert memory.store.loaded() is None  # from the state, then let go: it goes on over the index
    keys, memory = _cold(project)
    assert memory.store.loaded() is None  # an index that is current: no state loaded
    assert keys == _warm(project) and keys


def test_another_process_writes_reach_the_index_incrementally(project: Path) -> None:
    _filled(project, 500)  # past eager compaction: writes go to the journal
    _cold(project)
    run_cli("remember", "-c", "bug", "-k", "fresh-one", "-m", "redis timeout worker 3 pool",
            project=project, check=True)  # fmt: skip
    run_cli("recall", "worker 3", project=project, check=True)  # an access-log line
    keys, memory = _cold(project)
    assert memory.store.loaded() is None, "caught up from the logs, not rebuilt"
    assert "fresh-one" in keys
    assert keys == _warm(project)
    run_cli("forget", "fresh-one", project=project, check=True)
    keys, memory = _cold(project)
    assert memory.store.loaded() is None and "fresh-one" not in keys


def test_compaction_and_hand_edits_rebuild_it(project: Path) -> None:
    memory = _filled(project)
    _cold(project)
    memory.compact()
    keys, _ = _cold(project)
    assert keys == _warm(project)
    data = memory.paths.data
    data.write_text(data.read_text(encoding="utf-8").replace("topic-3", "hand-edited"),
                    encoding="utf-8")  # fmt: skip
    keys, _ = _cold(project)
    assert "hand-edited" in keys and "topic-3" not in keys
    assert keys == _warm(project)


def test_a_damaged_index_file_is_rebuilt(project: Path) -> None:
    memory = _filled(project)
    _cold(project)
    path = index_path(memory.paths)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"\x00garbage" * 4096)
    keys, _ = _cold(project)
    assert keys == _warm(project) and keys
    keys, again = _cold(project)
    assert again.store.loaded() is None and keys == _warm(project)


@pytest.mark.parametrize("kind", sorted(READ_ONLY_KINDS))
def test_a_read_only_memory_still_recalls(project: Path, kind: str) -> None:
    memory = _filled(project)
    want = _warm(project)
    with READ_ONLY_KINDS[kind](memory.paths.folder):
        keys, _ = _cold(project)
        assert keys == want
        keys, again = _cold(project)
        assert keys == want and again.store.loaded() is None


def test_an_encrypted_memory_gets_no_index(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOON_MEMORY_KEY", "a test passphrase")
    memory = _filled(project, 5)
    _cold(project)
    assert index_path(memory.paths).exists()  # made while the memory was plain
    memory.security.encrypt()
    assert not index_path(memory.paths).exists()  # gone with the plain text
    keys, cold = _cold(project)
    assert "topic-3" in keys
    assert not index_path(cold.paths).exists()


def _builds(memory: Memory) -> int:
    db = IndexDb.open(index_path(memory.paths), memory.store.derived_key)
    assert db is not None
    try:
        return db.builds()
    finally:
        db.close()


def test_our_own_compaction_moves_the_index_instead_of_rebuilding_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", "0")  # a writer's view at this size too
    _filled(project, 500)
    memory = Memory(project)
    memory.remember("bug", "fresh-one", "redis timeout worker 3 pool")
    memory.recall("worker 3")  # an access-log line: a pending count the compaction folds in
    _cold(project)  # the index is current
    builds = _builds(memory)
    assert Memory(project).compact()
    keys, fresh = _cold(project)
    assert _builds(fresh) == builds, "moved to the compacted files, not rebuilt"
    assert keys == _warm(project)
    view = fresh._recaller.lean()
    assert view is not None
    with view.db.reading():
        seen = [(e.id, e.accessed, view.persisted_row(e)["accessed"]) for e in view.each()]
    state = Memory(project).store.state()
    assert seen == [(e.id, e.accessed, state.persisted_row(e)["accessed"])
                    for e in state.entries.values()]  # fmt: skip


def test_an_index_behind_the_compaction_is_rebuilt(project: Path) -> None:
    _filled(project, 500)
    _cold(project)
    builds = _builds(Memory(project))
    run_cli("remember", "-c", "bug", "-k", "late-one", "-m", "a write the index has not seen",
            project=project, check=True)  # fmt: skip
    loaded = Memory(project)
    loaded.store.state()  # a process with its state loaded compacts without the index
    assert loaded.compact()  # folds a journal line the index never read
    _keys, fresh = _cold(project)
    assert _builds(fresh) == builds + 1
    assert Memory(project).get("late-one").content == "a write the index has not seen"


def test_a_rebuild_reads_the_files_without_building_the_engine_or_the_cache(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory the index serves writes for (``TOON_MEMORY_LEAN_BYTES``), whose derived files
    are gone (a fresh clone, a big import): the first cold recall fills the index from the
    files alone; the full state, asked for later in the same process or another one, still
    comes with its engine."""
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", "0")
    _filled(project, 40)
    memory = Memory(project)
    memory.paths.cache.unlink()
    expected = _warm(project)
    memory.paths.cache.unlink()
    keys, memory = _cold(project)
    assert keys == expected and index_path(memory.paths).exists()
    assert not memory.paths.cache.exists()  # the index only: no pickle of every entry
    assert memory.store.loaded() is None
    state = memory.store.state()  # the same process now wants every entry
    assert state.derived is not None and len(state.derived) == 40
    assert memory.stats().total == 40
    memory.paths.cache.unlink()  # (a cache holds the engine: it would be taken as it is)
    bare = Memory(project).store
    assert bare.bare_state().derived is None  # a state for an index: no engine built
    assert bare.state().derived is not None  # asked for whole: the engine comes back


def test_a_small_memory_s_rebuild_keeps_its_engine_and_cache(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the lean size (``TOON_MEMORY_LEAN_BYTES``) every write of a long-lived process
    loads the state: the rebuild that loads it anyway leaves its engine's pickle for it."""
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", str(64 * 1024 * 1024))
    _filled(project, 40)
    memory = Memory(project)
    memory.paths.cache.unlink(missing_ok=True)
    keys, memory = _cold(project)
    assert keys and memory.paths.cache.exists()
