"""Where an on-disk index stands: its position's encoding, and moving it over a compaction.

Invariant: an index's position names exactly the files it describes (data.toon's
identity, the journal's and the access log's inode and offset). ``reanchor`` moves
an index to the files a compaction just wrote only when the index described exactly
what that compaction folded in (the same entries: then only the file names and the
pending access counts change), so the next reader catches up instead of rebuilding;
in every other case it leaves the index alone (the next reader rebuilds it). It
never creates an index and never raises.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from toon_memory.store.cache import Position
from toon_memory.store.index_db import IndexDb, index_path
from toon_memory.store.index_lag import tally, whole_lines
from toon_memory.store.paths import MemoryPaths


def encode_position(position: Position | None) -> str:
    if position is None:
        return ""
    return json.dumps([position.data, position.journal_ino, position.journal_offset,
                       position.access_ino, position.access_offset])  # fmt: skip


def decode_position(text: str) -> Position | None:
    if not text:
        return None
    data, j_ino, j_off, a_ino, a_off = json.loads(text)
    return Position(tuple(data) if data else None, j_ino, j_off, a_ino, a_off)


def catch_up_accesses(paths: MemoryPaths, version: str, folded: Position) -> None:
    """Before a compaction folds the files at ``folded``: an index that lags behind them
    by access-log lines only (every recall leaves it so) takes those lines in now."""

    def run(db: IndexDb) -> None:
        have = decode_position(db.position())
        if have is None or have == folded:
            return
        same_files = (have.data, have.journal_ino, have.journal_offset, have.access_ino) == (
            folded.data,
            folded.journal_ino,
            folded.journal_offset,
            folded.access_ino,
        )
        if not same_files or not have.access_offset <= folded.access_offset:
            return
        fold_accesses(db, paths.access_log, have.access_offset, folded.access_offset)
        db.set_position(encode_position(folded))

    _with_index(paths, version, run)


def fold_accesses(db: IndexDb, path: Path, start: int, stop: int | None = None) -> int:
    """Fold the whole access-log lines of ``path`` from ``start`` (to ``stop``) into the
    index; return the offset after the last whole line read."""
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            raw = handle.read() if stop is None else handle.read(stop - start)
    except FileNotFoundError:
        return start
    lines, size = whole_lines(raw)
    db.fold_accesses(tally(lines))
    return start + size


def reanchor(paths: MemoryPaths, version: str, folded: Position, now: Position) -> None:
    """After a compaction that folded the files at ``folded`` into the files at ``now``."""

    def run(db: IndexDb) -> None:
        if decode_position(db.position()) == folded:
            db.conn.execute("UPDATE docs SET pending = 0 WHERE pending")  # now in data.toon
            db.set_position(encode_position(now))

    _with_index(paths, version, run)


def _with_index(paths: MemoryPaths, version: str, run: Callable[[IndexDb], None]) -> None:
    """``run`` in one write transaction of the memory's index, if it has one; errors are
    swallowed (the next reader rebuilds an index it cannot trust)."""
    path = index_path(paths)
    if not Path(path).exists():
        return
    db = IndexDb.open(path, version)
    if db is None:
        return
    try:
        with db.writing():
            run(db)
    except (sqlite3.Error, OSError, ValueError, TypeError):
        pass
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()
