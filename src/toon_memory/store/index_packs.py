"""Packs of the on-disk index (``store.index_db``): its common terms' postings, every
slot's weighted length and every slot's ranking row (``store.row_pack``), each kept whole
in one blob.

Invariant: a pack only shortens a read; it never says more than the postings do. It is
written inside one write transaction from that transaction's rows, with the change-log
position it describes (``doc_changes``: epoch and sequence). It is offered to a reader
with the slots whose row was added, removed or re-written since (their postings and
length may differ: the reader reads those again, ``postings_at``, ``lengths_at``), and
never once that position is gone (another epoch: a rebuild; or past the kept log) or
too far behind (more than ``STALE_SLOTS`` such slots, or one in 32 entries): then the
postings are read as without it. What a pack holds is opaque here: the caller makes it (``Pack``) and reads
it (``search.term_data.TermData.unpacked``); the lengths pack, under the term ``""``
(no term is empty), is an ``array('d')`` by slot. A pack of ``ZIP_FROM`` bytes or more (a
memory past ~150,000 entries: its bitmaps are as long as the index has slots) is kept
zlib-compressed (level 1: a quarter of the size, read back at ~350 MB/s); one that does not
decompress is not offered.

Why: a head word of a 100,000-entry memory has ~80,000 postings; reading their rows took
~14 ms and building the term's bitmaps from them ~16 ms, where its pack reads in well
under a millisecond. Packs are made after a rebuild, and again when ``REPACK_AFTER``
entries (or one in ``SHARE``) changed since (``keep_packs_fresh``), by whichever process
ranks next: about 1.4 s at 100,000 entries, within the 17 s of the rebuild itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from toon_memory.store.index_reads import IndexReads, chunks
from toon_memory.store.row_pack import RowColumns, pack_rows

#: Terms with at least this many postings, and one in ``SHARE`` of the entries, are packed:
#: a pack holds bitmaps as long as the index has slots, worth it for a common term only.
PACK_FROM = 1024
SHARE = 128
#: A pack behind by more changed slots than this (or one in 32 entries) is not offered.
STALE_SLOTS = 4096
#: The change log is looked at again after this many changes (any row, accesses included)...
CHECK_AFTER = 2048
#: ...and the packs made again when this many entries (or one in ``SHARE``) were added,
#: removed or re-written since.
REPACK_AFTER = 256
#: Makes a term's pack from its postings (slot, tf, length), in slot order.
Pack = Callable[[Iterable[tuple[int, float, float]]], bytes]
#: Packs this large or larger are kept compressed.
ZIP_FROM = 256 * 1024
#: The term the lengths pack is kept under.
LENGTHS = ""
#: The term the rows pack (``store.row_pack``) is kept under (no term starts with NUL;
#: named for its format: an index packed with another has none, so it is packed again)...
ROWS = "\x00rows3"
#: ...made for an index of at most this many slots (past it a process reads the rows of its
#: candidates one by one: ~4.5 MB held per 100,000 rows).
ROWS_UPTO = 262_144
#: How long a write waits for another writer (the connection's timeout, ``IndexDb.open``).
BUSY_SECONDS = 30.0


class IndexPacks(IndexReads):
    """The packs of one open index (read inside a snapshot; written by ``keep_packs_fresh``)."""

    _turn: threading.RLock
    #: The index was seen with its rows pack (or too large for one): ``_rows_packed``.
    _rows_seen = False
    #: It serves a long-lived process (set by its user; ``search.warm`` reads the rows
    #: pack at once then).
    lasting = False
    #: ``_changed_since``'s last answer: the packs' (epoch, seq), the log's last number
    #: then, the slots. The packs of one repack share their position, and the change log,
    #: scanned from it for every term read, grows by every recall's accesses (~0.6 ms a
    #: term after a few thousand recalls): the next ask reads only the rows logged since
    #: (the log only grows, but for a write rolled back: ``forget_changed``).
    _changed: tuple[tuple[int, int], int, list[int]] | None = None
    #: Inside a read snapshot (``IndexDb.reading``), ``_log``'s answer once read: the log
    #: cannot move there (a query reads two or three packs, each asking).
    _snapshot = False
    _held_log: tuple[int, int, int] | None = None

    if TYPE_CHECKING:

        def writing(self) -> contextlib.AbstractContextManager[object]: ...
        def checkpoint(self) -> None: ...

    def packed(self, term: str) -> tuple[bytes, list[int]] | None:
        """The pack of ``term`` (``LENGTHS``: of every slot's length) and the slots changed
        since it was made, or None when there is no pack it may still be read from."""
        sql = "SELECT epoch, seq, zipped, data FROM packs WHERE term = ?"
        found = self.conn.execute(sql, (term,)).fetchone()
        if found is None:
            return None
        changed = self._changed_since(found[0], found[1], max(STALE_SLOTS, self.count() // 32))
        if changed is None:
            return None
        try:
            return (zlib.decompress(found[3]) if found[2] else bytes(found[3])), changed
        except (zlib.error, TypeError):
            return None

    def common_terms(self, count: int) -> list[str]:
        """The ``count`` packed terms held by the most entries, most first (``search.warm``:
        a long-lived process reads their packs at once)."""
        sql = ("SELECT p.term FROM packs p JOIN terms t ON t.term = p.term"
               " ORDER BY t.df DESC, p.term LIMIT ?")  # fmt: skip
        return [term for (term,) in self.conn.execute(sql, (max(0, count),))]

    def packed_rows(self) -> tuple[RowColumns, list[int]] | None:
        """The rows pack (``store.row_pack``) and the slots changed since it was made, or
        None when there is none to read (or it does not unpack)."""
        found = self.packed(ROWS)
        if found is None:
            return None
        try:
            return RowColumns.unpacked(found[0]), found[1]
        except ValueError:
            return None

    def postings_at(self, term: str, slots: Sequence[int]) -> list[tuple[int, float, float]]:
        """The postings (slot, tf, length) of ``term`` at these slots (absent ones left out)."""
        rows: list[tuple[int, float, float]] = []
        for part in chunks(slots):
            sql = ("SELECT slot, tf, len FROM postings WHERE tid = (SELECT tid FROM terms WHERE"
                   f" term = ?) AND slot IN ({','.join('?' * len(part))})")  # fmt: skip
            rows.extend(self.conn.execute(sql, (term, *part)).fetchall())
        return rows

    def lengths_at(self, slots: Sequence[int]) -> list[tuple[int, float]]:
        """(slot, weighted length) of the documents at these slots (absent ones left out)."""
        rows: list[tuple[int, float]] = []
        for part in chunks(slots):
            sql = f"SELECT slot, len FROM docs WHERE slot IN ({','.join('?' * len(part))})"
            rows.extend(self.conn.execute(sql, part).fetchall())
        return rows

    def keep_packs_fresh(self, pack: Pack) -> None:
        """Make the packs when none describes this epoch, or when ``REPACK_AFTER`` entries
        changed since they were made; best effort (a read-only or busy index is left as it
        is). One read of two numbers when nothing is due."""
        with self._turn:
            try:
                if not self._due():
                    return
            except sqlite3.Error:
                return
            try:
                self.conn.execute("PRAGMA busy_timeout = 0")  # never wait for another writer
                with self.writing():
                    if self._due():
                        self._repack(pack)
                self.checkpoint()  # the packs out of the write-ahead log (a small WAL opens fast)
            except sqlite3.Error:
                pass
            finally:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")

    # -- inside a snapshot or transaction ---------------------------------------------
    def _position(self) -> tuple[int, int]:
        """(epoch, last change) of the change log now."""
        epoch, _floor, last = self._log()
        return epoch, last

    def _log(self) -> tuple[int, int, int]:
        """(epoch, floor, last change) of the change log now."""
        if self._held_log is not None:
            return self._held_log
        floor = int(self._meta("rows_floor") or 0)
        sql = "SELECT coalesce(max(seq), ?) FROM doc_changes"
        last = self.conn.execute(sql, (floor,)).fetchone()[0]
        found = int(self._meta("rows_epoch") or 0), floor, int(last)
        if self._snapshot:
            self._held_log = found
        return found

    def _changed_since(self, epoch: object, seq: object, most: int) -> list[int] | None:
        """The slots added, removed or re-written since (epoch, seq) (a pack's, as stored);
        None when unknown or more than ``most``."""
        if not isinstance(epoch, int) or not isinstance(seq, int):
            return None
        now_epoch, floor, last = self._log()
        if epoch != now_epoch or seq < floor:
            return None
        kept = self._changed
        if kept is not None and kept[0] == (epoch, seq) and kept[1] <= last:
            slots, since = dict.fromkeys(kept[2]), kept[1]  # only the rows logged since
        else:
            slots, since = {}, seq
        if since < last:
            sql = "SELECT DISTINCT slot FROM doc_changes WHERE seq > ? AND facts LIMIT ?"
            slots.update(dict.fromkeys(s for (s,) in self.conn.execute(sql, (since, most + 1))))
        if len(slots) > most:
            return None
        self._changed = (epoch, seq), last, list(slots)
        return list(slots)

    def forget_changed(self) -> None:
        """Drop ``_changed_since``'s kept answer (a write transaction rolled back: it may
        have been read inside it, and the numbers it took are given again)."""
        self._changed = None

    def _due(self) -> bool:
        checked = (self._meta("packs_checked") or "-1 0").split()
        epoch, seq = self._position()
        due = int(checked[0]) != epoch or seq - int(checked[1]) >= CHECK_AFTER
        return due or not self._rows_packed()

    def _rows_packed(self) -> bool:
        """False for an index that should have a rows pack and has none (one packed before
        there were rows packs: packed again). Asked once per connection until true: every
        repack writes the rows pack with the others, so it stays (a rebuild drops every
        pack, and its new epoch makes the packs due anyway)."""
        if not self._rows_seen:
            sql = "SELECT 1 FROM packs WHERE term = ?"
            found = self.conn.execute(sql, (ROWS,)).fetchone() is not None
            self._rows_seen = found or self._top() >= ROWS_UPTO
        return self._rows_seen

    def _repack(self, pack: Pack) -> None:
        epoch, seq = self._position()
        sql = "SELECT epoch, seq FROM packs WHERE term = ?"
        made = self.conn.execute(sql, (LENGTHS,)).fetchone() if self._rows_packed() else None
        most = max(REPACK_AFTER, self.count() // SHARE) - 1
        behind = None if made is None else self._changed_since(made[0], made[1], most)
        if behind is None:
            self.conn.execute("DELETE FROM packs")
            rows = ((term, epoch, seq, *_stored(data)) for term, data in self._packs(pack))
            self.conn.executemany("INSERT INTO packs VALUES (?, ?, ?, ?, ?)", rows)
        self._set_meta("packs_checked", f"{epoch} {seq}")

    def _packs(self, pack: Pack) -> Iterator[tuple[str, bytes]]:
        yield LENGTHS, self._all_lengths()
        if self._top() < ROWS_UPTO:  # (b"": rows that cannot be packed, read one by one)
            yield ROWS, pack_rows(self.every_row()) or b""
        sql = "SELECT term FROM terms WHERE df >= ? ORDER BY tid"
        for (term,) in self.conn.execute(sql, (max(PACK_FROM, self.count() // SHARE),)).fetchall():
            yield term, pack(self.postings(term))

    def _top(self) -> int:
        """The largest slot (-1: none)."""
        return int(self.conn.execute("SELECT coalesce(max(slot), -1) FROM docs").fetchone()[0])

    def _all_lengths(self) -> bytes:
        lengths = [0.0] * (self._top() + 1)
        for slot, length in self.conn.execute("SELECT slot, len FROM docs"):
            lengths[slot] = length
        return array("d", lengths).tobytes()


def _stored(data: bytes) -> tuple[int, bytes]:
    """(zipped, bytes) of a pack as kept (``ZIP_FROM``)."""
    return (1, zlib.compress(data, 1)) if len(data) >= ZIP_FROM else (0, data)
