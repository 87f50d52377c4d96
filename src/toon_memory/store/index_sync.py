"""Keeping a memory's SQLite index (``store.index_db``) in step with its files.

Invariant: ``synced_index`` hands out an index that describes exactly the memory's
current files (``data.toon`` identity, journal and access-log positions), or None
(then the caller ranks over the store's state, as before). It never writes the
memory folder, so a read-only memory still recalls; it never holds the store's
lock. Catching up is incremental when only the logs grew (the journal's new
operations and access-log lines are applied in one index transaction, re-checked
against the files afterwards); any other change (a compaction, a git pull, a hand
edit, a journal set aside) rebuilds the index: from the state when this process has
it loaded, else from data.toon read a row at a time (``store.data_rows``) and then
the logs caught up as above, so a rebuild holds one row and the postings in memory,
not the memory's state (a file it cannot stream is read whole). Encrypted memories
get None: their entry text stays sealed, in the sealed pickle cache only.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from toon_memory.errors import ToonMemoryError
from toon_memory.model.entry import entry_from_row
from toon_memory.store import journal
from toon_memory.store.cache import FileId, Position, file_id
from toon_memory.store.compaction import inode_size
from toon_memory.store.data_rows import DataRows
from toon_memory.store.index_anchor import decode_position, encode_position, fold_accesses
from toon_memory.store.index_bulk import Analyse
from toon_memory.store.index_db import IndexDb, drop_index, index_path
from toon_memory.store.index_lag import LAG_BYTES, AccessTail
from toon_memory.store.index_reads import Unsettled
from toon_memory.store.index_view import IndexView
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.toon_rows import NotOurs

if TYPE_CHECKING:
    from toon_memory.store.state import State


#: From this data.toon size on, single-entry reads and writes go through the on-disk index
#: instead of loading the state (``TOON_MEMORY_LEAN_BYTES`` overrides it); below it a
#: long-lived process loads the state, and a rebuild builds the state's engine and cache,
#: which its next write loads. 0 (always the index): measured in a long-lived MCP server at
#: 10,000 entries, remember p50 18.6 -> 13.9 ms and RSS 196 -> 101 MB, recall the same; at
#: 1,000 entries recall 4.3 -> 3.8 ms, remember 5.5 -> 6.0 ms, RSS 91 -> 78 MB.
LEAN_BYTES = 0


def lean_from() -> int:
    """``LEAN_BYTES``, or ``TOON_MEMORY_LEAN_BYTES`` when it is a whole number."""
    raw = os.environ.get("TOON_MEMORY_LEAN_BYTES", "").strip()
    return int(raw) if raw.isdigit() else LEAN_BYTES


def serves_writes(store: Store) -> bool:
    """Does the index serve the store's single-entry reads and writes (``lean_from()``)?"""
    return store.prefers_index(lean_from())


class Store(Protocol):
    """What keeping the index needs of a file store (``store.store.Store``, which calls
    this module: a protocol, so the two modules do not import each other)."""

    paths: MemoryPaths

    @property
    def derived_key(self) -> str: ...
    def encrypted(self) -> bool: ...
    def loaded(self) -> State | None: ...
    def release(self) -> None: ...
    def bare_state(self) -> State: ...
    def state(self) -> State: ...
    def prefers_index(self, lean_bytes: int) -> bool: ...
    def position(self) -> Position | None: ...


class _Moved(Exception):
    """The files changed while the index caught up: the transaction is dropped."""


def synced_index(
    store: Store, analyse: Analyse, held: IndexDb | None = None, lagging: bool = False
) -> IndexDb | None:
    """The store's index, up to date (``held``: one opened earlier, reused when valid);
    ``lagging``: left behind the access log when only it grew, by at most ``LAG_BYTES``
    (the caller reads it through ``ranking``)."""
    if store.encrypted():
        if held is not None:
            held.close()
        drop_index(store.paths)  # one made while the memory was plain holds its text
        return None
    db = held or IndexDb.open(index_path(store.paths), store.derived_key)
    if db is None:
        return None
    try:
        now = _files_now(store.paths)
        have = decode_position(db.position())
        if _current(have, now, LAG_BYTES if lagging else 0):
            return db
        loaded, rebuilt = store.loaded() is not None, False
        with db.writing():
            have = decode_position(db.position())
            if not _current(have, now) and not _catch_up(db, store.paths, have, now, analyse):
                _rebuild(db, store, analyse)
                rebuilt = True
        if rebuilt:
            db.checkpoint()
            if not loaded:  # loaded for the rebuild only: this process goes on over the index
                store.release()
        return db
    except (sqlite3.Error, OSError, ToonMemoryError, _Moved, ValueError, KeyError, TypeError):
        with contextlib.suppress(sqlite3.Error):
            db.close()
        return None


def lean_view(
    store: Store, analyse: Analyse, held: IndexDb | None
) -> tuple[IndexDb | None, IndexView | None]:
    """The index (as ``synced_index``) and, when it is usable, a view of it for a writer
    holding the store's lock; (index, None) when only the full state can answer."""
    db = synced_index(store, analyse, held)
    position = None if db is None else decode_position(db.position())
    if db is None or position is None:
        return db, None
    return db, IndexView(db, position)


@contextlib.contextmanager
def ranking(db: IndexDb, paths: MemoryPaths) -> Iterator[IndexDb]:
    """One read snapshot of ``db`` (from ``synced_index`` with ``lagging``) with the access
    log's lines past its position held as its ``uses`` (``store.index_lag``); ``Unsettled``
    when it lags the files by more than those lines (or they cannot be read as its own)."""
    with db.reading():
        have = decode_position(db.position())
        now = _files_now(paths)
        uses = None
        if have is not None and _current(have, now, LAG_BYTES):
            uses = _TAILS.setdefault(db, AccessTail()).read(paths.access_log, have)
        if uses is None or _files_now(paths)[:2] != now[:2]:
            raise Unsettled
        db.uses = uses
        try:
            yield db
        finally:
            del db.uses  # (back to the class's: none)


#: Each open index's reader of its access log's tail (``ranking``).
_TAILS: weakref.WeakKeyDictionary[IndexDb, AccessTail] = weakref.WeakKeyDictionary()
Files = tuple[FileId | None, int | None, int, int | None, int]


def _files_now(paths: MemoryPaths) -> Files:
    j_ino, j_size = inode_size(paths.journal)
    a_ino, a_size = inode_size(paths.access_log)
    return file_id(paths.data), j_ino, j_size, a_ino, a_size


def _current(have: Position | None, now: Files, lag: int = 0) -> bool:
    """The index at ``have`` describes the files ``now``, but for up to ``lag`` more bytes
    of the same access log."""
    data, j_ino, j_size, a_ino, a_size = now
    return (
        have is not None
        and have.data == data
        and have.journal_offset == j_size
        and (not j_size or have.journal_ino == j_ino)
        and (not have.access_offset or have.access_ino == a_ino)
        and have.access_offset <= a_size <= have.access_offset + lag
    )


def _catch_up(
    db: IndexDb, paths: MemoryPaths, have: Position | None, now: Files, analyse: Analyse
) -> bool:
    """Apply the logs' new tails; False when only a rebuild can bring the index up."""
    data, j_ino, j_size, a_ino, a_size = now
    if have is None or have.data != data:
        return False
    if (have.journal_offset and have.journal_ino != j_ino) or j_size < have.journal_offset:
        return False
    if (have.access_offset and have.access_ino != a_ino) or a_size < have.access_offset:
        return False
    if j_size == have.journal_offset:  # (only accesses since: every recall leaves it so)
        read = journal.JournalRead(offset=have.journal_offset)
    else:
        read = journal.read_ops(paths.journal, have.journal_offset)
    if read.damaged:
        return False
    for op in read.ops:
        if op.kind == "put":
            db.upsert(entry_from_row(op.data["entry"]), analyse)
        elif op.kind == "del":
            db.remove(str(op.data["id"]))
    a_offset = fold_accesses(db, paths.access_log, have.access_offset)
    if _files_now(paths)[:2] != (data, j_ino) or inode_size(paths.access_log)[0] != a_ino:
        raise _Moved
    db.set_position(encode_position(Position(data, j_ino, read.offset, a_ino, a_offset)))
    return True


def _rebuild(db: IndexDb, store: Store, analyse: Analyse) -> None:
    """Fill the index from data.toon and the logs (``_streamed``) when no state is loaded
    and the index serves this memory's writes; else from the state: analysed already by
    its engine when this process or the cache has one, else analysed here. A memory
    the index serves writes for is read bare (no engine, no cache: only whole-memory
    commands need them); a smaller one is loaded whole, engine and cache, since its
    next write loads that state anyway."""
    lean = serves_writes(store)
    if lean and store.loaded() is None and _streamed(db, store.paths, analyse):
        return
    state = store.bare_state() if lean else store.state()
    position = store.position()
    export = getattr(state.derived, "export", None)
    db.clear()
    if export is not None:
        db.load(export(), state.entries, state.pending)
    else:
        db.load_entries(state.entries.values(), analyse, state.pending)
    db.set_position(encode_position(position))


def _streamed(db: IndexDb, paths: MemoryPaths, analyse: Analyse) -> bool:
    """Fill the index from data.toon a row at a time, then catch up with the logs;
    False when data.toon cannot be streamed (``DataRows``: not our shape, an id twice,
    which the ``docs`` table refuses) or the logs cannot be caught up."""
    rows = DataRows(paths.data)
    db.clear()
    try:
        db.load_entries(rows, analyse, {})
    except (NotOurs, sqlite3.IntegrityError):
        return False
    have = Position(rows.identity, None, 0, None, 0)
    return _catch_up(db, paths, have, _files_now(paths), analyse)
