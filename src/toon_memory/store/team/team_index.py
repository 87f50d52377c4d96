"""A team project's local index: the file memory's SQLite index, fed from the database.

Invariants:
- A team server ranks over the same on-disk index (``store.index_db``) a file memory's
  cold command ranks over, so recall is the same code over the same tables, and a
  server never holds a project's every entry in memory to answer a query.
- The index is derived: it lives under the server's home (never in a project), one file
  per database and project, and is rebuilt from the rows whenever it cannot be trusted
  (absent, damaged, of another version, foreign, or ahead of the database).
- Its position names the database (the oids of the database and of its ``projects``
  table, so a re-created database or schema is never taken for the old one) and the
  project's ``(rev, arev)``. It is caught up from the rows written after ``rev`` and the
  access lines after ``arev``, read in one snapshot (or under the caller's project lock)
  and applied in one index transaction, so it always describes one committed state.
- New entries are applied in file order (``pos``), so a caught-up index orders its
  entries exactly as one built from scratch.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.model.entry import entry_from_row
from toon_memory.store.index_bulk import Analyse
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_lag import tally
from toon_memory.store.state import State
from toon_memory.store.team import rows
from toon_memory.store.team.database import describe

if TYPE_CHECKING:
    import psycopg

    from toon_memory.store.paths import MemoryPaths

#: (database identity, rev, arev): what a team index describes.
Head = tuple[str, int, int]

_HEAD = (
    "SELECT d.oid::bigint, 'projects'::regclass::oid::bigint, p.rev, p.arev FROM pg_database d"
    " LEFT JOIN projects p ON p.name = %s WHERE d.datname = current_database()"
)


def index_file(paths: MemoryPaths, url: str, project: str) -> Path:
    """``<cache stem>.team-<digest>.index.sqlite`` under the home: apart from the index a
    file memory of the same folder has, and from other databases' and projects'."""
    digest = hashlib.sha256(f"{describe(url)}\x00{project}".encode()).hexdigest()[:16]
    return paths.cache.with_name(f"{paths.cache.stem}.team-{digest}.index.sqlite")


def head(conn: psycopg.Connection[tuple[Any, ...]], project: str) -> Head:
    """Where the project stands now: (database identity, rev, arev)."""
    found = conn.execute(_HEAD, (project,)).fetchone()
    assert found is not None  # current_database() always has its row
    db_oid, table_oid, rev, arev = found
    return f"{db_oid}.{table_oid}", int(rev or 0), int(arev or 0)


def encode(position: Head) -> str:
    return json.dumps(["team", *position])


def decode(text: str) -> Head | None:
    """The position an index records, or None (never built, or a file memory's)."""
    with contextlib.suppress(ValueError, TypeError):
        kind, ident, rev, arev = json.loads(text)
        if kind == "team" and isinstance(ident, str):
            return ident, int(rev), int(arev)
    return None


def synced(
    conn: psycopg.Connection[tuple[Any, ...]],
    project: str,
    db: IndexDb,
    analyse: Analyse,
    locked: bool,
) -> Head:
    """Bring ``db`` to the project's head and return it. ``locked``: the caller's
    transaction holds the project's row lock (nothing can commit meanwhile); else the
    rows are read in one read-only snapshot. SQLite errors propagate (the caller drops
    the index); database errors propagate as the caller's connection translates them."""
    now = head(conn, project)
    if decode(db.position()) == now:
        return now
    if locked:
        return _apply(conn, project, db, analyse, now)
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _apply(conn, project, db, analyse, head(conn, project))


def _apply(
    conn: psycopg.Connection[tuple[Any, ...]], project: str, db: IndexDb, analyse: Analyse,
    now: Head,
) -> Head:  # fmt: skip
    rebuilt = False
    with db.writing():
        have = decode(db.position())
        if have != now:
            if have is None or have[0] != now[0] or have[1] > now[1] or have[2] > now[2]:
                _rebuild(conn, project, db, analyse, now)
                rebuilt = True
            else:
                _catch_up(conn, project, db, analyse, have, now)
            db.set_position(encode(now))
    if rebuilt:
        db.checkpoint()
    return now


def _catch_up(
    conn: psycopg.Connection[tuple[Any, ...]], project: str, db: IndexDb, analyse: Analyse,
    have: Head, now: Head,
) -> None:  # fmt: skip
    if now[1] > have[1]:
        for op in rows.changes_since(conn, project, have[1]):
            if op.kind == "put":
                db.upsert(entry_from_row(op.data["entry"]), analyse)
            elif op.kind == "del":
                db.remove(str(op.data["id"]))
    if now[2] > have[2]:
        db.fold_accesses(tally(rows.access_lines(conn, project, have[2], now[2])))


def _rebuild(
    conn: psycopg.Connection[tuple[Any, ...]], project: str, db: IndexDb, analyse: Analyse,
    now: Head,
) -> None:  # fmt: skip
    """Fill the index from every row (the state is built for this and dropped after)."""
    state = State()
    state.load(rows.all_entries(conn, project))
    state.fold_accesses(rows.access_lines(conn, project, 0, now[2]))
    db.clear()
    db.load_entries(state.entries.values(), analyse, state.pending)
