"""A one-shot compaction's new data.toon, written from the on-disk index a chunk at a time.

Invariant: ``streamed_data`` writes, into a temp file beside data.toon, exactly the
bytes ``codec.encode_document`` writes for the state the files hold at the position
it returns (checked by property tests against the state's compaction), with one
chunk of entries in memory at a time: the entries from the index's rows in file
order (``IndexView.each``, one read snapshot), the summaries as
``export_json.summaries_at`` reads them (data.toon's table, the journal's ``sum``
lines). It serves only when, under the store's lock, the index's recorded position
is the files' position exactly (data.toon's identity, the journal's and the access
log's inode and size) and data.toon is in the shape ``store.toon_table`` writes;
otherwise (no index, another position, a row or a file it cannot read, a cell
``toon_table.encode_streamed`` cannot prove it writes alike) it answers None,
leaving no temp file, and the caller compacts over the state. It writes neither
the memory's files nor the index's rows (an index file of another version or
damaged is replaced by an empty one on opening, as every opener does); the swap
is the caller's (``compaction``).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from toon_memory.store.cache import Position, file_id
from toon_memory.store.codec import FORMAT_VERSION
from toon_memory.store.export_json import summaries_at
from toon_memory.store.index_anchor import decode_position
from toon_memory.store.index_db import IndexDb, index_path
from toon_memory.store.index_view import IndexView
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.toon_table import Unproven, encode_streamed
from toon_memory.system.atomic import write_temp_chunks
from toon_memory.system.lock import FileLock

#: Entries encoded and written together (one chunk in memory at a time).
CHUNK = 1_000
#: What reading the index can raise (marshal: a row it cannot read) and what the
#: encoder raises when it cannot prove its text: the state path answers then.
_CANNOT_SERVE = (sqlite3.Error, ValueError, TypeError, EOFError, Unproven)

#: A streamed compaction: the temp file holding the new data.toon (None: nothing to
#: fold) and the position of the files it folds.
Streamed = tuple[Path | None, Position]


def streamed_data(paths: MemoryPaths, version: str, lock: FileLock) -> Streamed | None:
    """The new data.toon of the memory at ``paths`` from its index (``version``: the
    index's), or None when the index cannot serve it (nothing written then)."""
    path = index_path(paths)
    if not path.exists():  # (``IndexDb.open`` would make an empty one)
        return None
    db = IndexDb.open(path, version)
    if db is None:
        return None
    try:
        return _stream(paths, db, lock)
    except _CANNOT_SERVE:
        return None
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()


def files_position(paths: MemoryPaths) -> Position:
    """Where the memory's files stand now: every byte of both logs read."""
    j_ino, j_size = _inode_size(paths.journal)
    a_ino, a_size = _inode_size(paths.access_log)
    return Position(file_id(paths.data), j_ino, j_size, a_ino, a_size)


def _inode_size(path: Path) -> tuple[int | None, int]:
    found = file_id(path)
    return (None, 0) if found is None else (found[0], found[2])


def _stream(paths: MemoryPaths, db: IndexDb, lock: FileLock) -> Streamed | None:
    """The read snapshot is taken under the lock, where the files cannot move, and
    held (outside it) while the rows are written out."""
    with contextlib.ExitStack() as snapshot:
        with lock:
            snapshot.enter_context(db.reading())
            pos = decode_position(db.position())
            if pos is None or pos != files_position(paths):
                return None
            if not pos.journal_offset and not pos.access_offset and pos.data is not None:
                return None, pos
            summaries = summaries_at(paths, pos)
            if summaries is None:  # (data.toon not in our shape)
                return None
            count = db.count()
        texts = encode_streamed(count, IndexView(db, pos).each(), summaries, CHUNK,
                                FORMAT_VERSION)  # fmt: skip
        return write_temp_chunks(paths.data, (text.encode() for text in texts)), pos
