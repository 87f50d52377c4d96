"""A long-lived process ranks over an index that lags its access log (``store.index_lag``):
it answers exactly what the index would answer with those lines folded in, and folds them
before whatever groups entries by use, before a write, and once they pass ``LAG_BYTES``.

Real index files and access logs in a temp folder; the reference is the same index with
the lines folded by ``fold_accesses`` (what every catch-up does), and, through ``Memory``,
a fresh process that loads the state.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY
from tests.search.test_warm import _summary
from tests.store.test_index_db import _entry, _new_db

from toon_memory import Memory
from toon_memory.search import RecallOptions
from toon_memory.search.corpus import analyse
from toon_memory.search.engine import Ranker
from toon_memory.search.source import SourceCorpus
from toon_memory.store import compaction, index_lag
from toon_memory.store.cache import Position
from toon_memory.store.index_anchor import decode_position, encode_position
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_lag import tally
from toon_memory.store.index_reads import Unsettled
from toon_memory.store.index_sync import index_path, ranking
from toon_memory.store.paths import MemoryPaths

_ENTRIES = [
    _entry("k0", ["redis", "timeout"], ["k1"], {"last_accessed": "2026-07-10"}),
    _entry("k1", ["redis", "pool"], [], {"accessed": 3}),
    _entry("k2", ["auth", "token", "redis"], [], {}),
    _entry("k3", ["cache", "redis"], ["k0"], {"category": "bug"}),
]
_IDS = [e.id for e in _ENTRIES]
_DAYS = ["2026-07-01", "2026-07-14", "2026-07-15", "", "2026-07-14x", "zz", "ä"]
_line = st.tuples(st.sampled_from([*_IDS, "unknown"]), st.sampled_from(_DAYS))
_QUERIES = ["redis timeout", "auth token", "redis"]


def _filled(folder: Path) -> IndexDb:
    db = _new_db(folder)
    with db.writing():
        for entry in _ENTRIES:
            db.upsert(entry, analyse)
        db.set_position(encode_position(Position(None, None, 0, None, 0)))
    return db


def _ranked(db: IndexDb, query: str, lagging: MemoryPaths | None) -> list[object]:
    opts = RecallOptions(query=query, limit=6, smart=True)
    with ranking(db, lagging) if lagging else db.reading():
        return _summary(Ranker(SourceCorpus(db)).recall(opts, today=TODAY))


@given(pieces=st.lists(st.lists(_line, max_size=6), min_size=1, max_size=5),
       cut=st.booleans())  # fmt: skip
@settings(max_examples=40, deadline=None)
def test_lines_held_beside_the_index_answer_as_folded_ones(  # type: ignore[no-untyped-def]
    pieces, cut
) -> None:
    """Lines appended a piece at a time (``cut``: the last one's end still being
    written): after each piece, the lagging index's answers (entries' uses and days
    included) equal those of an index with every whole line folded in, one at a time."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = MemoryPaths(root)
        log = paths.access_log
        lagging = _filled(root / "a")
        written = b""
        for i, piece in enumerate(pieces):
            text = "".join(f"{entry_id} {day}\n" for entry_id, day in piece).encode()
            if cut and i == len(pieces) - 1 and text:
                text = text[:-3]  # a line cut short: not counted by either
            written += text
            log.write_bytes(written)
            folded = _filled(root / f"f{i}")
            with folded.writing():  # the reference: each whole line folded on its own, in order
                for line in written[: written.rfind(b"\n") + 1].decode().splitlines():
                    entry_id, _, day = line.partition(" ")
                    folded.fold_access(entry_id, day)
            for query in _QUERIES:
                assert _ranked(lagging, query, paths) == _ranked(folded, query, None)
            folded.close()
        lagging.close()


def test_a_read_that_groups_by_use_asks_for_the_fold(tmp_path: Path) -> None:
    paths = MemoryPaths(tmp_path)
    db = _filled(tmp_path / "a")
    with ranking(db, paths):
        assert db.usage_groups()  # nothing held: read as it is
    paths.access_log.write_text(f"{_IDS[0]} 2026-07-15\n")
    for read in (db.usage_groups, db.stat_groups, lambda: db.ids_in_group(("", "", "", 0), -1, 9)):
        with pytest.raises(Unsettled), ranking(db, paths):
            read()
    assert not db.uses  # each snapshot let its lines go


def test_a_tail_it_cannot_read_as_its_own_asks_for_the_fold(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Another access log than the position's (a compaction's), one cut shorter than the
    position, a data.toon or journal that changed, or more than ``LAG_BYTES`` of it."""
    paths = MemoryPaths(tmp_path)
    log = paths.access_log
    log.write_text(f"{_IDS[0]} 2026-07-15\n" * 4)
    db = _filled(tmp_path / "a")

    def at(offset: int, data: object = None) -> None:
        with db.writing():
            position = Position(data, None, 0, log.stat().st_ino, offset)  # type: ignore[arg-type]
            db.set_position(encode_position(position))

    def refused() -> None:
        with pytest.raises(Unsettled), ranking(db, paths):
            pass

    at(20)
    with ranking(db, paths):
        assert db.uses == {_IDS[0]: (3, "2026-07-15")}  # the lines past offset 20
    log.write_text("x\n")  # cut shorter than the position
    refused()
    other = tmp_path / "other.log"
    other.write_text(f"{_IDS[0]} 2026-07-15\n" * 4)
    inode = log.stat().st_ino
    other.replace(log)  # another file (made while the old one was there: another inode)
    assert log.stat().st_ino != inode
    with db.writing():
        db.set_position(encode_position(Position(None, None, 0, inode, 20)))
    refused()
    at(20)
    paths.data.write_text("hand edit\n")  # data.toon is not the position's any more
    refused()
    paths.data.unlink()
    paths.journal.write_text("{}\n")  # nor the journal
    refused()
    paths.journal.unlink()
    at(0)
    monkeypatch.setattr("toon_memory.store.index_sync.LAG_BYTES", 30)
    refused()


# -- through Memory: a long-lived process and the fresh ones around it ----------------
def _memory(project: Path, n: int = 40) -> Memory:
    memory = Memory(project)
    for i in range(n):
        memory.remember("knowledge", f"topic-{i}", f"redis pool {i} timeout worker {i % 7}")
    memory.close()
    return Memory(project)  # a new long-lived process: the state not loaded


def _reference(project: Path, query: str) -> list[tuple[str, int, str]]:
    """A fresh process's answer over the loaded state (every access folded in)."""
    memory = Memory(project)
    memory.store.state()
    result = memory._recaller.rank(RecallOptions(query=query, limit=10))
    return [(h.entry.key, h.entry.accessed, h.entry.last_accessed) for h in result.hits]


def _answer(memory: Memory, query: str) -> list[tuple[str, int, str]]:
    result = memory._recaller.rank(RecallOptions(query=query, limit=10))
    return [(h.entry.key, h.entry.accessed, h.entry.last_accessed) for h in result.hits]


def _position(memory: Memory) -> Position | None:
    db = IndexDb.open(index_path(memory.paths), memory.store.derived_key)
    assert db is not None
    try:
        return decode_position(db.position())
    finally:
        db.close()


def test_a_server_s_recalls_leave_the_index_behind_and_answer_as_a_fresh_process(
    project: Path,
) -> None:
    memory = _memory(project)
    memory.recall("redis worker 3")  # builds the index
    before = _position(memory)
    for query in ("redis worker 3", "pool timeout", "worker 5", "redis worker 3"):
        memory.recall(query)
    assert _position(memory) == before  # no fold written
    for query in ("redis worker 3", "pool timeout worker"):
        assert _answer(memory, query) == _reference(project, query)
    one_shot = Memory(project, one_shot=True)  # a CLI recall folds them in
    one_shot.recall("worker 3")
    assert _position(memory) != before
    assert _answer(memory, "redis worker 3") == _reference(project, "redis worker 3")


def test_a_recall_by_use_and_a_write_fold_what_is_held(project: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    memory = _memory(project)
    monkeypatch.setattr(compaction, "EAGER_COMPACT_BYTES", 0)  # the write goes to the journal
    memory.recall("redis worker 3")
    memory.recall("redis worker 3")
    held = _position(memory)
    assert held is not None
    assert _answer(memory, "") == _reference(project, "")  # ranked by use: folded first
    folded = _position(memory)
    assert folded is not None and folded.access_offset > held.access_offset
    memory.recall("pool timeout")
    memory.remember("bug", "fresh-bug", "redis worker timeout in the pool")
    after = _position(memory)
    assert after is not None
    assert memory.paths.journal.exists()  # not compacted: caught up by the write
    assert after.access_offset == memory.paths.access_log.stat().st_size  # folded


def test_past_lag_bytes_the_accesses_are_folded(project: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    memory = _memory(project)
    memory.recall("redis worker 3")
    monkeypatch.setattr(index_lag, "LAG_BYTES", 200)
    monkeypatch.setattr("toon_memory.store.index_sync.LAG_BYTES", 200)
    offsets = []
    for _ in range(6):
        memory.recall("redis worker 3")
        position = _position(memory)
        assert position is not None
        offsets.append(position.access_offset)
        size = memory.paths.access_log.stat().st_size
        assert size - position.access_offset <= 200 + size // 2  # never far behind
    assert len(set(offsets)) > 1  # folded more than once
    assert _answer(memory, "redis worker 3") == _reference(project, "redis worker 3")


@given(lines=st.lists(_line, max_size=30))
@settings(max_examples=60, deadline=None)
def test_a_fold_of_tallied_lines_leaves_what_folding_each_line_leaves(lines) -> None:  # type: ignore[no-untyped-def]
    """``fold_accesses`` updates each entry once with its tally (``index_lag.tally``); the
    rows it leaves are those of folding the lines one at a time, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        at_once, one_by_one = _filled(Path(tmp) / "a"), _filled(Path(tmp) / "b")
        with at_once.writing():
            at_once.fold_accesses(tally(f" {entry_id} {day}\t" for entry_id, day in lines))
        with one_by_one.writing():
            for entry_id, day in lines:
                one_by_one.fold_access(entry_id, day)
        sql = "SELECT id, accessed, pending, last_accessed FROM docs ORDER BY id"
        assert at_once.conn.execute(sql).fetchall() == one_by_one.conn.execute(sql).fetchall()
        at_once.close()
        one_by_one.close()
