"""The store: journal, compaction, cache, access log, corruption — on real files."""

from __future__ import annotations

from pathlib import Path

import pytest
import toon_format

from toon_memory.errors import CorruptFileError
from toon_memory.model.entry import FIELDS, Entry
from toon_memory.store import compaction, journal
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.state import State
from toon_memory.store.store import Store


def _entry(n: int, **extra: object) -> Entry:
    return Entry(
        id=f"{n:08x}", category="knowledge", key=f"key-{n}", content=f"content {n}", **extra
    )  # type: ignore[arg-type]


def _put(store: Store, entry: Entry) -> None:
    store.mutate(lambda state: ([journal.put(state.persisted_row(entry))], None))


@pytest.fixture
def paths(tmp_path: Path) -> MemoryPaths:
    return MemoryPaths(tmp_path / ".toon-memory" / "memory")


@pytest.fixture
def lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Large-memory behaviour: no eager compaction, so writes stay in the journal."""
    monkeypatch.setattr(compaction, "EAGER_COMPACT_BYTES", 0)


def test_small_memory_is_compacted_eagerly(paths: MemoryPaths) -> None:
    store = Store(paths)
    _put(store, _entry(1))
    data = toon_format.loads(paths.data.read_text(), strict=True)
    assert [row["key"] for row in data["entries"]] == ["key-1"]
    assert not paths.journal.exists()
    assert (paths.folder / ".gitignore").read_text().count("journal.jsonl") == 1


def test_journal_holds_writes_until_compaction(paths: MemoryPaths, lazy: None) -> None:
    store = Store(paths)
    for n in range(3):
        _put(store, _entry(n))
    assert not paths.data.exists()
    assert len(paths.journal.read_text().splitlines()) == 3
    fresh = Store(paths)
    assert sorted(e.key for e in fresh.state().entries.values()) == ["key-0", "key-1", "key-2"]
    assert fresh.compact()
    assert not paths.journal.exists()
    rows = toon_format.loads(paths.data.read_text(), strict=True)["entries"]
    assert [r["key"] for r in rows] == ["key-0", "key-1", "key-2"]


def test_torn_journal_tail_is_ignored_and_repaired(paths: MemoryPaths, lazy: None) -> None:
    store = Store(paths)
    _put(store, _entry(1))
    with paths.journal.open("ab") as handle:
        handle.write(b'{"op": "put", "entry": {"id": "dead')  # a write that never returned
    fresh = Store(paths)
    assert [e.key for e in fresh.state().entries.values()] == ["key-1"]
    _put(fresh, _entry(2))
    lines = paths.journal.read_text().splitlines()
    assert len(lines) == 2 and all(line.endswith("}") for line in lines)
    assert sorted(e.key for e in Store(paths).state().entries.values()) == ["key-1", "key-2"]


def test_hand_edit_is_noticed(paths: MemoryPaths) -> None:
    store = Store(paths)
    _put(store, _entry(1))
    store.state()
    text = paths.data.read_text().replace("content 1", "edited by hand")
    paths.data.write_text(text)
    assert Store(paths).state().entries["00000001"].content == "edited by hand"
    assert store.state().entries["00000001"].content == "edited by hand"


def test_corrupt_file_is_never_overwritten(paths: MemoryPaths) -> None:
    paths.folder.mkdir(parents=True)
    header = "entries[1|]{" + "|".join(FIELDS) + "}:"
    broken = f'version: 1\n{header}\n  "unterminated|x\n'
    paths.data.write_text(broken)
    store = Store(paths)
    with pytest.raises(CorruptFileError) as caught:
        _put(store, _entry(1))
    assert "data.toon:3" in str(caught.value)
    assert paths.data.read_text() == broken


def test_access_log_counts_without_touching_data(paths: MemoryPaths) -> None:
    store = Store(paths)
    _put(store, _entry(1))
    before = paths.data.read_bytes()
    store.record_access(["00000001", "00000001"])
    assert paths.data.read_bytes() == before
    assert Store(paths).state().entries["00000001"].accessed == 2
    # a later write of the same entry must not double count the pending accesses
    state = store.state()
    entry = state.entries["00000001"].copy(content="changed")
    store.mutate(lambda s: ([journal.put(s.persisted_row(entry))], None))
    assert Store(paths).state().entries["00000001"].accessed == 2
    assert Store(paths).compact()
    assert toon_format.loads(paths.data.read_text(), strict=True)["entries"][0]["accessed"] == 2


def test_compaction_carries_over_a_tail_written_meanwhile(paths: MemoryPaths, lazy: None) -> None:
    first, second = Store(paths), Store(paths)
    _put(first, _entry(1))
    first.state()
    original = compaction.write_temp

    def write_then_interleave(path: Path, data: bytes) -> Path:
        temp = original(path, data)
        _put(second, _entry(2))  # another writer lands between encode and swap
        return temp

    compaction.write_temp = write_then_interleave  # type: ignore[assignment]
    try:
        assert first.compact()
    finally:
        compaction.write_temp = original
    assert sorted(e.key for e in Store(paths).state().entries.values()) == ["key-1", "key-2"]
    assert sorted(e.key for e in first.state().entries.values()) == ["key-1", "key-2"]


def test_damaged_cache_is_a_miss_and_lives_outside_the_project(paths: MemoryPaths) -> None:
    store = Store(paths)
    _put(store, _entry(1))
    cache = paths.cache
    assert cache.exists() and paths.folder not in cache.parents
    cache.write_bytes(cache.read_bytes()[:-40])
    assert [e.key for e in Store(paths).state().entries.values()] == ["key-1"]


_UNPICKLED: list[str] = []


class _Noted:
    """A cached state that notes when it is unpickled."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __setstate__(self, state: dict[str, str]) -> None:
        self.name = state["name"]
        _UNPICKLED.append(self.name)


def test_a_cache_of_another_data_toon_is_a_miss_without_reading_its_state(tmp_path: Path) -> None:
    """The version and position are read first: a cache made for another data.toon (a git
    pull, an import, a compaction without the state) costs its first bytes, not an unpickle
    of every entry; one of this data.toon is read whole."""
    from toon_memory.store.cache import Position, load_cache, save_cache

    path = tmp_path / "cache.pickle"
    here: tuple[int, int, int] = (1, 2, 3)
    save_cache(path, "v1", Position(here, None, 0, None, 0), _Noted("state"))
    _UNPICKLED.clear()
    assert load_cache(path, "v1", (1, 2, 4)) is None
    assert load_cache(path, "v2", here) is None
    assert _UNPICKLED == []
    found = load_cache(path, "v1", here)
    assert found is not None and found[1].name == "state" and _UNPICKLED == ["state"]
    import pickle  # the layout before: one pickle of version, position and state

    path.write_bytes(pickle.dumps(("v1", Position(here, None, 0, None, 0), _Noted("old"))))
    _UNPICKLED.clear()
    assert load_cache(path, "v1", here) is None and _UNPICKLED == []


def test_state_key_index_follows_status(paths: MemoryPaths) -> None:
    state = State()
    entry = _entry(1)
    state.apply([journal.put(entry.to_row())])
    assert state.by_key("key-1") is not None
    state.apply([journal.put(entry.copy(status="obsolete").to_row())])
    assert state.by_key("key-1") is None


def test_write_atomic_never_replaces_a_device_or_a_folder(tmp_path: Path) -> None:
    import os
    import stat

    from toon_memory.system.atomic import write_atomic

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    for target in (fifo, folder, Path(os.devnull)):
        with pytest.raises(OSError):
            write_atomic(target, b"data")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and folder.is_dir()
    assert stat.S_ISCHR(os.lstat(os.devnull).st_mode)
    write_atomic(tmp_path / "plain", b"data")
    assert (tmp_path / "plain").read_bytes() == b"data"


def test_a_durable_write_syncs_and_a_heartbeat_replaces_its_file_without_syncing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``write_atomic`` fsyncs the file and its folder; a session's heartbeat (nothing reads
    it after a power cut) is replaced whole without a sync, while the memory's own
    writes keep theirs."""
    import os

    from toon_memory import Memory
    from toon_memory.system.atomic import write_atomic

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    folder = tmp_path / "files"
    folder.mkdir()
    write_atomic(folder / "durable", b"one")
    assert len(synced) == 2  # the file, then the folder
    synced.clear()
    write_atomic(folder / "durable", b"two", durable=False)
    assert not synced and (folder / "durable").read_bytes() == b"two"
    assert [p.name for p in folder.iterdir()] == ["durable"]  # no temp file left
    memory = Memory(tmp_path / "project")
    memory.remember("decision", "k", "a decision")
    synced.clear()
    memory.sessions.beat("s-1", agent="test")
    assert not synced
    assert [s.id for s in memory.sessions.list().sessions] == ["s-1"]
    memory.remember("decision", "k2", "another decision")
    assert synced  # the journal's append is still fsync'd
