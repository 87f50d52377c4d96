"""``store.compaction_stream``: a one-shot compaction writes data.toon from the on-disk
index, the same bytes as the state's compaction, or leaves it to the state.

Properties: after any history of remembers (a repeated key merges), forgets, pins,
tags, recalls (accesses), summaries and compactions, in one-shot and long-lived
processes, every compaction by a one-shot process loads no state and writes byte for
byte the data.toon a long-lived process's compaction (over its state) writes from a
copy of the same folder. No index, an index behind the files, an unreadable row and an
encrypted memory fall back to the state (the same bytes, no temp file left); a write
landing while the file is streamed is carried over, a compaction meanwhile wins.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from tests.conftest import run_cli
from tests.memory.test_exporting import _apply, _steps
from tests.store.test_index_view import _past_eager_compaction

from toon_memory import Memory
from toon_memory.search.corpus import analyse
from toon_memory.store.compaction_stream import files_position, streamed_data
from toon_memory.store.index_anchor import decode_position
from toon_memory.store.index_db import IndexDb, drop_index, index_path


def _state_compacted(project: Path, copy: Path) -> bytes | None:
    """data.toon as a long-lived process's compaction writes it over its state, in a
    copy of ``project`` (another folder: no index of its own is made or read); None
    when there is no memory folder yet."""
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(project, copy)
    memory = Memory(copy)
    memory.store.state()  # a process with its state loaded compacts over it
    assert memory.compact()
    if not memory.paths.folder.is_dir():
        return None
    assert memory.store.loaded() is not None, "compacted over the state"
    return memory.paths.data.read_bytes()


def _data(memory: Memory) -> bytes | None:
    return memory.paths.data.read_bytes() if memory.paths.folder.is_dir() else None


def _catch_up_index(project: Path) -> None:
    """Bring the index up to the files (a recall leaves it its own accesses behind)."""
    db = Memory(project, one_shot=True).store.index(analyse, None)
    assert db is not None
    db.close()


def _no_temp_left(memory: Memory) -> None:
    assert not [p.name for p in memory.paths.folder.iterdir() if p.name.endswith(".tmp")]


def _one_shot_compaction(project: Path, copy: Path) -> Memory:
    """A one-shot compaction, checked against the state's on a copy of the same files."""
    want = _state_compacted(project, copy)
    one = Memory(project, one_shot=True)
    assert one.compact()
    assert one.store.loaded() is None, "written from the index, no state loaded"
    assert _data(one) == want
    assert not one.paths.journal.exists() and not one.paths.access_log.exists()
    if want is not None:
        _no_temp_left(one)
    return one


@pytest.mark.parametrize("filler", [0, 250])
@settings(max_examples=15, deadline=None)
@given(steps=_steps)
def test_a_streamed_compaction_writes_the_states_data_toon(
    filler: int, steps: list[tuple[object, ...]]
) -> None:
    """``filler`` 0: a small memory, every write compacted after it (the one-shot ones
    streamed); 250: writes stay in the journal until a compaction step."""
    with tempfile.TemporaryDirectory() as tmp:
        project, copy = Path(tmp) / "project", Path(tmp) / "copy"
        project.mkdir()
        if filler:
            _past_eager_compaction(project, filler)
        Memory(project, one_shot=True).recall("queues")  # the index, before the history
        for number, step in enumerate(steps):
            one_shot = number % 2 == 0
            if step[0] == "compact" and one_shot:
                _one_shot_compaction(project, copy)
            else:
                _apply(Memory(project, one_shot=one_shot), step)
        Memory(project, one_shot=True).recall("queues decision pool")  # accesses pending
        _one_shot_compaction(project, copy)


def test_a_cli_compact_writes_the_states_data_toon(project: Path, tmp_path: Path) -> None:
    _past_eager_compaction(project, 300)
    for i in range(3):
        run_cli("remember", "-c", "decision", "-k", f"key-{i % 2}", "-m", f"pool size {i}",
                project=project, check=True)  # fmt: skip
    run_cli("forget", "filler-7", project=project, check=True)
    run_cli("recall", "pool", project=project, check=True)
    want = _state_compacted(project, tmp_path / "copy")
    run_cli("compact", project=project, check=True)
    memory = Memory(project)
    assert memory.paths.data.read_bytes() == want
    assert not memory.paths.journal.exists() and not memory.paths.cache.exists()


def _written_over_the_index(project: Path) -> Memory:
    _past_eager_compaction(project, 250)
    memory = Memory(project, one_shot=True)
    memory.remember("decision", "use-redis", "Use Redis for the session cache")
    memory.recall("redis")
    return memory


def _falls_back(project: Path, copy: Path, *, sync: bool = True) -> None:
    want = _state_compacted(project, copy)
    one = Memory(project, one_shot=True)
    assert one.compact() if sync else one.store.compact()
    assert one.store.loaded() is not None, "compacted over the state"
    assert one.paths.data.read_bytes() == want
    _no_temp_left(one)


def test_no_index_falls_back_to_the_state(project: Path, tmp_path: Path) -> None:
    memory = _written_over_the_index(project)
    drop_index(memory.paths)
    index_path(memory.paths).mkdir()  # no SQLite file can be made there
    _falls_back(project, tmp_path / "copy")


def test_an_index_behind_the_files_falls_back_to_the_state(project: Path, tmp_path: Path) -> None:
    """A long-lived process's write leaves the index behind; a compaction given no way
    to catch it up (``Store.compact()`` without ``sync``) reads the state."""
    memory = _written_over_the_index(project)
    Memory(project).remember("decision", "use-pool", "Use a pool of workers")
    db = IndexDb.open(index_path(memory.paths), memory.store.derived_key)
    assert db is not None
    try:
        assert decode_position(db.position()) != files_position(memory.paths)
    finally:
        db.close()
    _falls_back(project, tmp_path / "copy", sync=False)


def test_an_unreadable_row_falls_back_and_leaves_no_temp_file(
    project: Path, tmp_path: Path
) -> None:
    memory = _written_over_the_index(project)
    _catch_up_index(project)
    conn = sqlite3.connect(index_path(memory.paths))
    with conn:
        conn.execute("UPDATE docs SET body = x'00' WHERE pos = (SELECT max(pos) FROM docs)")
    conn.close()
    _falls_back(project, tmp_path / "copy")


def test_an_encrypted_memory_compacts_over_its_state(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_KEY", "a passphrase for this test")
    memory = _written_over_the_index(project)
    memory.security.encrypt()
    one = Memory(project, one_shot=True)
    one.remember("decision", "use-pool", "Use a pool of workers")
    assert one.paths.journal.exists()
    assert one.compact()
    assert one.store.loaded() is not None and not index_path(one.paths).exists()
    assert b"pool of workers" not in one.paths.data.read_bytes()
    assert Memory(project).get("use-pool").content == "Use a pool of workers"


def test_a_write_while_streaming_is_carried_over(project: Path, tmp_path: Path) -> None:
    memory = _written_over_the_index(project)
    _catch_up_index(project)
    want = _state_compacted(project, tmp_path / "copy")
    store = Memory(project, one_shot=True).store
    streamed = streamed_data(store.paths, store.derived_key, store.lock)
    assert streamed is not None and streamed[0] is not None
    temp, folded = streamed
    Memory(project, one_shot=True).remember("decision", "use-pool", "Use a pool of workers")
    assert store._swap(temp, folded, None)
    assert memory.paths.data.read_bytes() == want
    assert memory.paths.journal.exists(), "the write landed meanwhile: its line kept"
    assert Memory(project).get("use-pool").content == "Use a pool of workers"
    assert Memory(project).get("use-redis").content.startswith("Use Redis")


def test_a_compaction_while_streaming_wins(project: Path) -> None:
    memory = _written_over_the_index(project)
    _catch_up_index(project)
    store = Memory(project, one_shot=True).store
    streamed = streamed_data(store.paths, store.derived_key, store.lock)
    assert streamed is not None and streamed[0] is not None
    temp, folded = streamed
    assert Memory(project).compact()
    theirs = memory.paths.data.read_bytes()
    assert not store._swap(temp, folded, None)
    assert not temp.exists() and memory.paths.data.read_bytes() == theirs
    _no_temp_left(memory)
