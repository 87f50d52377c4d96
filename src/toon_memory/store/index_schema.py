"""The tables of the on-disk index (``store.index_db``) and how a new file gets them.

Invariant: ``SCHEMA`` names these tables; an index file whose meta says another schema is
deleted and built again (``IndexDb.open``), so a change here bumps it. Every change of a
``docs`` row is logged in ``doc_changes`` by a trigger (``TRACKING``) unless the writer
turned the triggers off for a bulk change (``untrack``, then ``track``) and started a new
epoch. Nothing here opens a file or a transaction: the caller holds one.
"""

from __future__ import annotations

import sqlite3

#: Bump when the tables change.
SCHEMA = 12
#: The tables and their indexes (one statement a ``;`` line end).
TABLES = """
CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE docs (
    slot INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, key TEXT NOT NULL, seq INTEGER NOT NULL,
    len REAL NOT NULL, degree INTEGER NOT NULL DEFAULT 0, conditional INTEGER NOT NULL,
    pinned INTEGER NOT NULL, active_category TEXT, last_accessed TEXT NOT NULL,
    date TEXT NOT NULL, created TEXT NOT NULL, accessed INTEGER NOT NULL,
    pending INTEGER NOT NULL DEFAULT 0, terms TEXT NOT NULL, body BLOB NOT NULL,
    pos INTEGER NOT NULL, family TEXT NOT NULL, status TEXT NOT NULL, origin TEXT NOT NULL,
    quality REAL NOT NULL, priority INTEGER NOT NULL, ttl TEXT NOT NULL, digest BLOB NOT NULL,
    importance TEXT NOT NULL, evidence TEXT NOT NULL, category TEXT NOT NULL);
CREATE INDEX docs_key ON docs (key);
CREATE INDEX docs_pos ON docs (pos);
CREATE INDEX docs_degree ON docs (degree);
CREATE INDEX docs_usage ON docs (last_accessed, date, created, accessed, slot, id);
CREATE INDEX docs_conditional ON docs (conditional) WHERE conditional;
CREATE INDEX docs_pinned ON docs (pinned) WHERE pinned;
CREATE INDEX docs_category ON docs (active_category, slot) WHERE active_category IS NOT NULL;
CREATE INDEX docs_stats ON docs (status, active_category, origin, quality, priority != 0,
    last_accessed, date, accessed > 0, ttl, pos);
CREATE INDEX docs_digest ON docs (digest) WHERE active_category IS NOT NULL;
CREATE TABLE terms (tid INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, df INTEGER NOT NULL,
    ver INTEGER NOT NULL DEFAULT 0);
CREATE TABLE postings (tid INTEGER NOT NULL, slot INTEGER NOT NULL, tf REAL NOT NULL,
    len REAL NOT NULL, PRIMARY KEY (tid, slot)) WITHOUT ROWID;
CREATE TABLE links (src INTEGER NOT NULL, pos INTEGER NOT NULL, kind TEXT NOT NULL,
    target TEXT NOT NULL, PRIMARY KEY (src, pos)) WITHOUT ROWID;
CREATE INDEX links_target ON links (target);
CREATE TABLE packs (term TEXT PRIMARY KEY, epoch INTEGER NOT NULL, seq INTEGER NOT NULL,
    zipped INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE doc_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, slot INTEGER NOT NULL,
    facts INTEGER NOT NULL)
"""
#: Every change of a ``docs`` row logs its slot (``IndexReads.row_changes``), whoever makes
#: it; ``facts`` is 1 when what ``row_changes`` calls the facts may have changed (a row
#: added or removed, its degree, conditional or pinned flag), 0 for an access fold. A
#: bulk fill or a clear runs without them (``IndexDb._untracked``) and starts a new epoch.
TRACKING = """
CREATE TRIGGER docs_added AFTER INSERT ON docs
BEGIN INSERT INTO doc_changes (slot, facts) VALUES (NEW.slot, 1); END;
CREATE TRIGGER docs_changed AFTER UPDATE ON docs
BEGIN INSERT INTO doc_changes (slot, facts) VALUES (NEW.slot, NOT (NEW.degree IS OLD.degree
    AND NEW.conditional IS OLD.conditional AND NEW.pinned IS OLD.pinned)); END;
CREATE TRIGGER docs_removed AFTER DELETE ON docs
BEGIN INSERT INTO doc_changes (slot, facts) VALUES (OLD.slot, 1); END
"""
UNTRACK = ("DROP TRIGGER IF EXISTS docs_added", "DROP TRIGGER IF EXISTS docs_changed",
            "DROP TRIGGER IF EXISTS docs_removed")  # fmt: skip


def create_tables(conn: sqlite3.Connection, version: str) -> None:
    """The tables, their triggers and the meta of a new index (inside the caller's
    transaction), for the caller's ``version`` (its analysis and ranking format)."""
    for statement in filter(str.strip, TABLES.split(";\n")):
        conn.execute(statement)
    track(conn)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("schema", str(SCHEMA)), ("version", version), ("position", ""),
        ("total", "0.0"), ("seq", "0"), ("rows_epoch", "0"), ("rows_floor", "0"),
    ])  # fmt: skip


def track(conn: sqlite3.Connection) -> None:
    """Log every change of a ``docs`` row from now on (``TRACKING``)."""
    for statement in filter(str.strip, TRACKING.split(";\n")):
        conn.execute(statement)


def untrack(conn: sqlite3.Connection) -> None:
    """Stop logging changes of ``docs`` rows (a bulk change: the caller starts a new epoch)."""
    for statement in UNTRACK:
        conn.execute(statement)


def table_names(conn: sqlite3.Connection) -> list[str]:
    """The names of the tables, indexes and triggers the file holds (none: a new file)."""
    return [name for (name,) in conn.execute("SELECT name FROM sqlite_master")]
