"""``store.index_packs``: packs made from one transaction's postings, offered with the slots
changed since, never across a rebuild or past ``STALE_SLOTS``, made again after
``REPACK_AFTER`` changed entries; a busy or read-only index is left as it is."""

from __future__ import annotations

import threading
from array import array
from pathlib import Path

import pytest
from tests.store.test_index_db import _entry, _new_db

from toon_memory.search.corpus import analyse
from toon_memory.search.term_data import TermData, pack_postings
from toon_memory.store import index_db, index_packs
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_packs import LENGTHS, ROWS


@pytest.fixture(autouse=True)
def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_packs, "PACK_FROM", 3)
    monkeypatch.setattr(index_packs, "CHECK_AFTER", 1)


def _filled(folder: Path) -> IndexDb:
    db = _new_db(folder)
    with db.writing():
        for i in range(6):
            db.upsert(_entry(f"k{i}", ["redis", "timeout"] if i % 2 else ["redis"], [], {}),
                      analyse)  # fmt: skip
    return db


def _packed(folder: Path) -> IndexDb:
    """``_filled``, then its packs made."""
    db = _filled(folder)
    db.keep_packs_fresh(pack_postings)
    return db


def _head(db: IndexDb) -> str:
    """The term most entries hold (every entry says "redis")."""
    return str(db.conn.execute("SELECT term FROM terms ORDER BY df DESC LIMIT 1").fetchone()[0])


def _terms(db: IndexDb) -> set[str]:
    return {t for (t,) in db.conn.execute("SELECT term FROM packs")}


def test_the_common_terms_and_the_lengths_are_packed_as_their_postings(tmp_path: Path) -> None:
    db = _packed(tmp_path)
    with db.reading():
        common = {t for (t,) in db.conn.execute("SELECT term FROM terms WHERE df >= 3")}
        assert common and _terms(db) == common | {LENGTHS, ROWS}
        for term in common:
            found = db.packed(term)
            assert found is not None and found[1] == []
            assert found[0] == TermData(db.postings(term), None).packed()
        lengths = db.packed(LENGTHS)
        assert lengths is not None
        slots = dict(db.conn.execute("SELECT slot, len FROM docs"))
        assert array("d", lengths[0]).tolist() == [slots.get(s, 0.0) for s in range(max(slots) + 1)]
        rows = db.packed_rows()
        assert rows is not None and rows[1] == []
        everywhere = range(-1, max(slots) + 3)  # unknown slots on both sides left out
        assert rows[0].rows_at(everywhere) == db.rows_at(everywhere) != []


def test_the_common_terms_are_the_packed_ones_held_by_the_most_entries(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    with db.writing():  # "redis" in 8 entries, "timeout" in 6, "cache" in 4, "queue" in 2
        for i in range(8):
            words = ["redis", *(["timeout"] if i < 6 else []), *(["cache"] if i < 4 else [])]
            db.upsert(_entry(f"k{i}", [*words, *(["queue"] if i < 2 else [])], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)
    with db.reading():
        packed = _terms(db) - {LENGTHS, ROWS}
        by_use = sorted(packed, key=lambda term: (-db.doc_freq(term), term))
        assert [db.doc_freq(term) for term in by_use] == [8, 8, 6, 4]  # (the category too)
        assert db.common_terms(3) == by_use[:3] == ["knowledge", "redi", "timeout"]
        assert db.common_terms(100) == by_use and db.common_terms(0) == []
        assert "queu" not in packed  # (held by fewer than PACK_FROM: no pack, never common)


def test_a_pack_comes_with_the_slots_changed_since(tmp_path: Path) -> None:
    db = _packed(tmp_path)
    other = _new_db(tmp_path)  # another process
    with other.writing():
        other.upsert(_entry("k1", ["redis", "cache"], [], {}), analyse)
        other.fold_access(other.conn.execute("SELECT id FROM docs LIMIT 1").fetchone()[0],
                          "2026-07-14")  # an access changes no posting  # fmt: skip
    with db.reading():
        slot = db.conn.execute("SELECT slot FROM docs WHERE key = 'k1'").fetchone()[0]
        found = db.packed(_head(db))
        assert found is not None and found[1] == [slot]


def test_the_changed_slots_follow_every_write_read_again_or_not(tmp_path: Path) -> None:
    """The slots changed since a pack, kept between reads, are those of the log as it is:
    after another process's write, and after a write of this connection rolled back and
    followed by another (the log's last number the same, its row another)."""
    db = _packed(tmp_path)
    other = _new_db(tmp_path)
    slot_of = dict(db.conn.execute("SELECT key, slot FROM docs"))
    with db.reading():
        assert db.packed(_head(db)) == db.packed(_head(db)) is not None
        assert db.packed(_head(db))[1] == []  # type: ignore[index]
    with other.writing():
        other.upsert(_entry("k1", ["redis", "cache"], [], {}), analyse)
    with db.reading():
        assert db.packed(_head(db))[1] == [slot_of["k1"]]  # type: ignore[index]
    with pytest.raises(RuntimeError), db.writing():
        db.upsert(_entry("k2", ["redis", "cache"], [], {}), analyse)
        assert db.packed(_head(db))[1] == [slot_of["k1"], slot_of["k2"]]  # type: ignore[index]
        raise RuntimeError("rolled back")
    with db.writing():
        db.upsert(_entry("k4", ["redis", "cache"], [], {}), analyse)
    with db.reading():
        assert db.packed(_head(db))[1] == [slot_of["k1"], slot_of["k4"]]  # type: ignore[index]


def test_a_long_run_of_recalls_keeps_the_packs_and_the_log_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Access folds (every recall's) fill the change log: cut, they go without raising
    its floor, so the packs stay offered with their changed slots; entry changes as many
    raise it (a reader that far behind reads everything again)."""
    monkeypatch.setattr(index_db, "CHANGES_KEPT", 40)
    db = _packed(tmp_path)
    ids = [i for (i,) in db.conn.execute("SELECT id FROM docs")]
    with db.writing():
        db.upsert(_entry("k1", ["redis", "cache"], [], {}), analyse)
    slot = db.conn.execute("SELECT slot FROM docs WHERE key = 'k1'").fetchone()[0]
    for _ in range(30):  # 180 access rows: cut four times
        with db.writing():
            db.fold_accesses({i: (1, "2026-07-14") for i in ids})
    with db.reading():
        assert db.packed(_head(db)) is not None and db.packed(_head(db))[1] == [slot]  # type: ignore[index]
        assert db.conn.execute("SELECT count(*) FROM doc_changes").fetchone()[0] <= 40
        assert db.row_changes((db._meta("rows_epoch"), 0))[1] is not None  # floor still 0
    for n in range(30):  # entry changes: as many cut, the floor rises past the packs
        with db.writing():
            db.upsert(_entry("k1", ["redis", f"word{n}"], [], {}), analyse)
    with db.reading():
        assert db.packed(_head(db)) is None
        assert db.row_changes((db._meta("rows_epoch"), 0))[1] is None


def test_no_pack_is_offered_across_a_rebuild_or_too_far_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _filled(tmp_path)
    monkeypatch.setattr(index_packs, "REPACK_AFTER", 1000)
    db.keep_packs_fresh(pack_postings)
    monkeypatch.setattr(index_packs, "STALE_SLOTS", 1)
    with db.writing():
        db.upsert(_entry("k1", ["redis", "cache"], [], {}), analyse)
    with db.reading():
        assert db.packed(_head(db)) is not None  # one slot behind
    with db.writing():
        db.upsert(_entry("k3", ["redis", "cache"], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)  # 2 changed entries < REPACK_AFTER: kept as they are
    with db.reading():
        assert db.packed(_head(db)) is None  # two slots behind
    with db.writing():
        entries = [_entry(f"k{i}", ["redis"], [], {}) for i in range(4)]
        db.clear()
        db.load_entries(entries, analyse, {})
    with db.reading():
        assert db.packed(_head(db)) is None and _terms(db) == set()


def test_packs_are_made_again_after_enough_changed_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_packs, "REPACK_AFTER", 2)
    db = _packed(tmp_path)
    with db.writing():
        db.upsert(_entry("k1", ["redis", "cache"], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)
    with db.reading():
        found = db.packed(_head(db))
        assert found is not None and len(found[1]) == 1  # one entry changed: kept
    with db.writing():
        db.upsert(_entry("k3", ["redis", "cache"], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)
    with db.reading():
        found = db.packed(_head(db))
        assert found is not None and found[1] == []  # two: made again
        assert found[0] == TermData(db.postings(_head(db)), None).packed()


def test_a_busy_index_is_not_waited_for(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    holder = _new_db(tmp_path)
    holder.conn.execute("BEGIN IMMEDIATE")  # another process writes
    done = threading.Event()
    worker = threading.Thread(target=lambda: (db.keep_packs_fresh(pack_postings), done.set()))
    worker.start()
    worker.join(timeout=10)  # the connection's own timeout is 30 s
    assert done.is_set(), "waited for the other writer"
    holder.conn.execute("ROLLBACK")
    with db.reading():
        assert _terms(db) == set()
    db.keep_packs_fresh(pack_postings)  # the writer gone: made now, waits restored
    with db.reading():
        assert _head(db) in _terms(db)
    assert db.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000


def test_a_read_only_index_is_left_as_it_is(tmp_path: Path) -> None:
    db = _filled(tmp_path)
    db.conn.execute("PRAGMA query_only = ON")
    db.keep_packs_fresh(pack_postings)
    with db.reading():
        assert _terms(db) == set()
        assert db.packed(_head(db)) is None


def test_a_big_pack_is_kept_compressed_and_a_damaged_one_is_not_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_packs, "ZIP_FROM", 0)
    db = _packed(tmp_path)
    with db.reading():
        head = _head(db)
        assert {z for (z,) in db.conn.execute("SELECT zipped FROM packs")} == {1}
        found = db.packed(head)
        assert found is not None and found[0] == TermData(db.postings(head), None).packed()
    with db.writing():
        db.conn.execute("UPDATE packs SET data = x'00ff' WHERE term = ?", (head,))
    with db.reading():
        assert db.packed(head) is None


def test_the_packs_leave_no_write_ahead_log_behind(tmp_path: Path) -> None:
    """A cold process opens an index with a big WAL slowly: packing ends with a checkpoint."""
    db = _filled(tmp_path)
    db.checkpoint()
    db.keep_packs_fresh(pack_postings)
    with db.reading():
        assert _terms(db)
    assert (tmp_path / "index.sqlite-wal").stat().st_size == 0


def test_an_index_packed_in_an_older_rows_format_is_packed_again(tmp_path: Path) -> None:
    """The rows pack is kept under a name of its format: an index whose rows pack is of an
    older one (renamed here) gets a full repack at the next check, the old pack gone."""
    db = _packed(tmp_path)
    with db.writing():
        db.conn.execute("UPDATE packs SET term = ?, data = ? WHERE term = ?",
                        ("\x00rows", b"RP2\x00 an older format", ROWS))  # fmt: skip
    db.close()
    db = _new_db(tmp_path)  # another process: it has not seen this index's rows pack
    assert db.packed_rows() is None
    db.keep_packs_fresh(pack_postings)
    assert ROWS in _terms(db) and "\x00rows" not in _terms(db)
    rows = db.packed_rows()
    assert rows is not None and rows[0].rows_at(range(10)) == db.rows_at(range(10)) != []
