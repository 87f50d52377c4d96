"""The on-disk derived index of one memory: a SQLite file a query reads lazily.

Invariant: the index is only ever a shortcut derived from ``data.toon`` (plus journal
and access log), like ``store.cache``: it lives under the user's home next to the
derived cache (never in the project, so a committed index is never read); it
carries its schema and the caller's version (analysis + ranking format) and a file
that is damaged, foreign or of another version is deleted and built again, never
trusted and never an error. It describes exactly the entries of the position it
records (``position``): rows, postings of the analysed terms (the caller's
``analyse``: this layer knows no tokenizer), per-entry BM25F lengths, typed links
as an edge table with each node's degree, the use counts folded from the
access log, and the fields ``rules.stats`` counts (status, origin, quality, priority,
TTL, a digest of the content: ``index_bulk.stat_columns``), what ranking reads of an
entry besides its terms (key, priority, degree, family, quality, importance, evidence,
category: ``IndexReads.rows_at``, so a candidate is ranked without its body), with a
covering index each
for the statistics' two ``GROUP BY`` scans (``docs_stats``, ``docs_digest``: measured,
the two scans take ~45 ms at 100,000 entries over them, ~400 ms over the table).
Writes happen in one transaction each, so a reader sees a whole state.

Why SQLite (measured, benchmarks/retrieval/README.md): a cold process opens the file
in well under a millisecond and a query reads only the B-tree pages of its terms'
postings and its candidates' rows, where the pickled cache must be read and
unpickled whole (~0.9 s and ~460 MB at 100,000 entries). It is in the standard
library, WAL lets readers run beside the one writer, and the next engine (a
PostgreSQL team store) can take the same tables and queries. Memory-mapped arrays
would read faster still but need a format, a compactor and a crash story of our
own. Encrypted memories do not use the index (their entry text stays sealed in the
sealed pickle cache; ``store.index_sync``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from toon_memory.model.entry import Entry
from toon_memory.store.index_bulk import (
    INSERT_DOC,
    TERM_SEP,
    Analyse,
    Bulk,
    doc_row,
    fill,
    fill_analysing,
)
from toon_memory.store.index_changes import Change, TermChanges
from toon_memory.store.index_packs import BUSY_SECONDS, IndexPacks
from toon_memory.store.index_schema import SCHEMA, create_tables, table_names, track, untrack
from toon_memory.store.paths import MemoryPaths

#: Row changes kept at most; past it the older half goes (``_trim_changes``: a reader
#: that far behind reads its rows again).
CHANGES_KEPT = 50_000


def index_path(paths: MemoryPaths) -> Path:
    """``<cache stem>.index.sqlite`` beside the memory's derived cache (under the home)."""
    return paths.cache.with_name(f"{paths.cache.stem}.index.sqlite")


def drop_index(paths: MemoryPaths) -> None:
    """Delete the index files of a memory (best effort)."""
    path = index_path(paths)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


class IndexDb(IndexPacks):
    """One open index file (``open``); a ``CorpusSource`` for ``search.source``."""

    def __init__(self, conn: sqlite3.Connection, version: str) -> None:
        self.conn = conn
        self.version = version
        #: One transaction at a time per connection (the MCP server answers from threads).
        self._turn = threading.RLock()
        self._total = float(self._meta("total") or 0.0)
        self._count = -1
        #: The postings this process changed (``term_changes``).
        self._changes = TermChanges()

    # -- opening -----------------------------------------------------------
    @classmethod
    def open(cls, path: Path, version: str) -> IndexDb | None:
        """The index at ``path`` for ``version``: an empty one when the file is absent,
        damaged, foreign or of another version; None when no file can be made there."""
        for _attempt in range(2):
            db = cls._connect(path, version)
            if db is not None:
                return db
            with contextlib.suppress(OSError):
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
        return None

    @classmethod
    def _connect(cls, path: Path, version: str) -> IndexDb | None:
        conn: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=OFF")  # derived: a crash costs a rebuild
            if not table_names(conn):
                _create(conn, version)
            found = dict(conn.execute("SELECT k, v FROM meta WHERE k IN ('schema', 'version')"))
            if found == {"schema": str(SCHEMA), "version": version}:
                return cls(conn, version)
        except (sqlite3.Error, OSError):
            pass
        if conn is not None:
            conn.close()
        return None

    def close(self) -> None:
        self.conn.close()

    # -- the position it describes ----------------------------------------------
    def position(self) -> str:
        """What the index describes (the caller's encoding); '' when it was never built."""
        with self._turn:
            return self._meta("position") or ""

    @contextlib.contextmanager
    def writing(self) -> Iterator[IndexDb]:
        """One write transaction (others wait): re-read ``position`` inside it."""
        with self._turn, _transaction(self.conn, "BEGIN IMMEDIATE", self._undone):
            self._read_sums()
            sums = self._total, self._count
            yield self
            if (self._total, self._count) != sums or self._count < 0:  # (a fold: the same)
                self._set_meta("total", repr(self._total))
                self._set_meta("count", str(self.count()))
            self._trim_changes()

    def _undone(self) -> None:
        """A write transaction is rolled back: what was kept from inside it goes."""
        self._changes.forget()
        self.forget_changed()

    @contextlib.contextmanager
    def reading(self) -> Iterator[IndexDb]:
        """One read snapshot (WAL: writers go on meanwhile; the reader sees one state)."""
        with self._turn, _transaction(self.conn, "BEGIN"):
            self._read_sums()
            self._snapshot, self._held_log = True, None
            try:
                yield self
            finally:
                self._snapshot, self._held_log = False, None

    def _read_sums(self) -> None:
        """Σ|d| and the number of documents as the last write left them (``meta``: a
        ``count(*)`` reads a whole index of the table, ~0.3 ms at 100,000 entries)."""
        self._total = float(self._meta("total") or 0.0)
        self._count = int(self._meta("count") or -1)

    def term_changes(self, term: str, have: object, now: object) -> list[Change] | None:
        """The posting changes of ``term`` between two of its versions, when this process
        made them all (``search.warm.Patching``; ``store.index_changes``)."""
        if not isinstance(have, int) or not isinstance(now, int):
            return None
        with self._turn:
            return self._changes.since(term, have, now)

    def set_position(self, position: str) -> None:
        self._set_meta("position", position)

    def builds(self) -> int:
        """How many times this file was filled from scratch (``load``): a diagnostic."""
        return int(self._meta("builds") or 0)

    # -- writing (inside ``writing``) --------------------------------------------
    def clear(self) -> None:
        with self._untracked():
            for table in ("docs", "terms", "postings", "links", "packs"):
                self.conn.execute(f"DELETE FROM {table}")
        self._total, self._count = 0.0, 0
        self._changes.forget()

    def load(self, bulk: Bulk, order: Iterable[str], pending: Mapping[str, int]) -> None:
        """Fill an empty index from an engine's analysed corpus (``order``: the ids in file
        order)."""
        self._filled(lambda ver: fill(self.conn, bulk, order, pending, ver))

    def load_entries(
        self, entries: Iterable[Entry], analyse: Analyse, pending: Mapping[str, int]
    ) -> None:
        """Fill an empty index from ``entries`` (file order, read once) analysed here;
        ``sqlite3.IntegrityError`` when an id comes twice."""
        self._filled(lambda ver: fill_analysing(self.conn, entries, analyse, pending, ver))

    def _filled(self, filling: Callable[[int], tuple[int, float]]) -> None:
        self._changes.forget()
        with self._untracked():
            seq, self._total = filling(self._next_ver())
        self._count = -1  # counted once, when the transaction ends
        self._set_meta("seq", str(seq))
        self._set_meta("builds", str(self.builds() + 1))

    @contextlib.contextmanager
    def _untracked(self) -> Iterator[None]:
        """Change many rows without logging each (``index_schema.TRACKING``): every reader's
        kept rows go, by a new epoch."""
        untrack(self.conn)
        yield
        self.conn.execute("DELETE FROM doc_changes")
        self._set_meta("rows_epoch", str(int(self._meta("rows_epoch") or 0) + 1))
        track(self.conn)

    def _trim_changes(self) -> None:
        """Once the log grew by ``CHANGES_KEPT`` since the last cut, cut its older half: the
        access folds' rows there (``facts`` 0: no reader asks for them, ``row_changes`` and
        the packs' changed slots list facts only), and the rest too when it is as many
        (then the floor rises: a reader behind it reads its rows again). Access folds,
        ~10 rows a recall, no longer raise the floor past the packs every few thousand
        recalls (each time a full repack, ~2 s at 100,000 entries, and the rows read again)."""
        high = self.conn.execute("SELECT max(seq) FROM doc_changes").fetchone()[0]
        last = int(self._meta("changes_cut") or self._meta("rows_floor") or 0)
        if high is None or high - last < CHANGES_KEPT:
            return
        cut = high - CHANGES_KEPT // 2
        self.conn.execute("DELETE FROM doc_changes WHERE seq <= ? AND NOT facts", (cut,))
        sql = "SELECT count(*) FROM doc_changes WHERE seq <= ?"
        if self.conn.execute(sql, (cut,)).fetchone()[0] >= CHANGES_KEPT // 2:
            self.conn.execute("DELETE FROM doc_changes WHERE seq <= ?", (cut,))
            self._set_meta("rows_floor", str(cut))
        self._set_meta("changes_cut", str(cut))

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the file (after a rebuild: a small WAL opens fast)."""
        with contextlib.suppress(sqlite3.Error):
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def upsert(self, entry: Entry, analyse: Analyse) -> None:
        """Add or replace one entry (its slot kept), its postings, links and degrees."""
        row = self.conn.execute("SELECT slot, pending, pos FROM docs WHERE id = ?", (entry.id,))
        found = row.fetchone() or self._new_place()
        slot, pending, pos = found
        if slot is not None:
            self._drop(entry.id, slot)
        seq = int(self._meta("seq") or 0) + 1
        self._set_meta("seq", str(seq))
        terms, length, out, family = analyse(entry)
        entry = entry.copy(accessed=entry.accessed + pending)
        doc = doc_row(slot, entry, seq, (length, terms, family), pending, pos)
        cur = self.conn.execute(INSERT_DOC, doc)
        if self._count >= 0:  # a new row, or the one ``_drop`` took out put back
            self._count += 1
        slot = int(cur.lastrowid or 0) if slot is None else slot
        self._total += length
        tids = self._term_ids(list(terms), create=True)
        self.conn.executemany("INSERT INTO postings VALUES (?, ?, ?, ?)",
                              [(tids[t][0], slot, tf, length) for t, tf in terms.items()])  # fmt: skip
        self._count_terms(tids, 1, (slot, terms, length))
        self.conn.executemany("INSERT INTO links VALUES (?, ?, ?, ?)",
                              [(slot, pos, k, t) for pos, (k, t) in enumerate(out)])  # fmt: skip
        others = self._neighbour_slots(slot, entry.key)
        self.conn.execute("UPDATE docs SET degree = ? WHERE slot = ?", (len(others), slot))
        self._bump(others, 1)

    def _new_place(self) -> tuple[None, int, int]:
        """A new entry's (slot, pending, file position): last in the file, as in ``State``."""
        last = self.conn.execute("SELECT max(pos) FROM docs").fetchone()[0]
        return None, 0, (-1 if last is None else int(last)) + 1

    def _term_ids(self, terms: list[str], create: bool = False) -> dict[str, tuple[int, int]]:
        """term -> (tid, version) of these terms (``create``: new ones made first)."""
        if create:
            self.conn.executemany("INSERT OR IGNORE INTO terms (term, df) VALUES (?, 0)",
                                  [(t,) for t in terms])  # fmt: skip
        found: dict[str, tuple[int, int]] = {}
        for i in range(0, len(terms), 500):
            part = terms[i : i + 500]
            sql = f"SELECT term, tid, ver FROM terms WHERE term IN ({','.join('?' * len(part))})"
            found.update((t, (tid, ver)) for t, tid, ver in self.conn.execute(sql, part))
        return found

    def _count_terms(
        self,
        tids: Mapping[str, tuple[int, int]],
        delta: int,
        posting: tuple[int, Mapping[str, float] | None, float],
    ) -> None:
        """Count a document in (or out of) these terms; their postings changed (``ver``):
        ``posting`` is the document's (slot, tf by term or None when removed, length)."""
        ver = self._next_ver()
        self.conn.executemany("UPDATE terms SET df = df + ?, ver = ? WHERE tid = ?",
                              [(delta, ver, tid) for tid, _ver in tids.values()])  # fmt: skip
        slot, tfs, length = posting
        for term, (_tid, before) in tids.items():
            self._changes.record(term, before, ver, (slot, None if tfs is None else tfs[term],
                                                     length))  # fmt: skip

    def _next_ver(self) -> int:
        """A number no term of this file had before (``term_version``)."""
        ver = int(self._meta("ver") or 0) + 1
        self._set_meta("ver", str(ver))
        return ver

    def remove(self, entry_id: str) -> None:
        """Forget one entry; unknown ids are ignored."""
        found = self.conn.execute("SELECT slot FROM docs WHERE id = ?", (entry_id,)).fetchone()
        if found:
            self._drop(entry_id, found[0])

    def fold_access(self, entry_id: str, day: str) -> None:
        """One access-log line: the entry was recalled on ``day`` (``State.fold_accesses``)."""
        self.fold_accesses({entry_id: (1, day)})

    def fold_accesses(self, uses: Mapping[str, tuple[int, str]]) -> None:
        """Many lines, as ``store.index_lag.tally`` counts them: each entry's row updated
        once (its uses added, the later day kept), in one statement."""
        self.conn.executemany(
            "UPDATE docs SET accessed = accessed + ?2, pending = pending + ?2, last_accessed ="
            " CASE WHEN ?3 > last_accessed THEN ?3 ELSE last_accessed END WHERE id = ?1",
            ((entry_id, count, day) for entry_id, (count, day) in uses.items()),
        )

    def _drop(self, entry_id: str, slot: int) -> None:
        key, length, terms = self.conn.execute(
            "SELECT key, len, terms FROM docs WHERE slot = ?", (slot,)
        ).fetchone()
        self._bump(self._neighbour_slots(slot, key), -1)
        self._total -= length
        tids = self._term_ids([t for t in terms.split(TERM_SEP) if t])
        self.conn.executemany("DELETE FROM postings WHERE tid = ? AND slot = ?",
                              [(tid, slot) for tid, _ver in tids.values()])  # fmt: skip
        self._count_terms(tids, -1, (slot, None, length))
        self.conn.execute("DELETE FROM links WHERE src = ?", (slot,))
        self.conn.execute("DELETE FROM docs WHERE slot = ?", (slot,))
        if self._count > 0:
            self._count -= 1

    def _neighbour_slots(self, slot: int, key: str) -> set[int]:
        rows = self.conn.execute(
            "SELECT d.slot FROM links l JOIN docs d ON d.key = l.target WHERE l.src = ? "
            "UNION SELECT l.src FROM links l WHERE l.target = ?",
            (slot, key),
        )
        return {other for (other,) in rows if other != slot}

    def _bump(self, slots: Iterable[int], delta: int) -> None:
        self.conn.executemany(
            "UPDATE docs SET degree = degree + ? WHERE slot = ?", [(delta, s) for s in slots]
        )


def _create(conn: sqlite3.Connection, version: str) -> None:
    """The tables and meta of a new index (a racing process may have made them: kept)."""
    with _transaction(conn, "BEGIN IMMEDIATE"):
        if not table_names(conn):
            create_tables(conn, version)


@contextlib.contextmanager
def _transaction(
    conn: sqlite3.Connection, begin: str = "BEGIN", undone: Callable[[], None] = lambda: None
) -> Iterator[None]:
    """One transaction; ``undone`` runs when it is rolled back."""
    conn.execute(begin)
    try:
        yield
    except BaseException:
        undone()
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
