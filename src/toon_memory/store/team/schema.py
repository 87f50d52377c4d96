"""The team database's schema, created and migrated by ``toon-memory team init``.

Invariant: ``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1`` and is never
edited once released; ``migrate`` runs the missing steps in one transaction under an
advisory lock, so two concurrent ``team init`` runs apply each step once, and a rerun on
a current database changes nothing. A database newer than this code is refused, never
written.

Tables (every row of a project carries its name; deleting the project deletes them):
- ``projects``: one row per project; ``rev`` counts its entry writes, ``arev`` its
  recorded accesses, ``next_pos`` orders its entries as data.toon would (file order).
  Writers lock this row (``SELECT … FOR UPDATE``): one writer per project at a time.
- ``entries``: the entry rows (``Entry.to_row`` as jsonb), superseded versions included;
  a deleted entry keeps its row with ``row`` NULL (a tombstone) so a server catching up
  since ``rev`` sees the deletion. ``key`` and ``category`` are generated columns.
- ``summaries``: file summaries; ``accesses``: the access log (``seq`` per project);
  ``archive``: archived entries, in order.
- ``tokens``: bearer tokens, stored as SHA-256 digests only, with a role and an optional
  project they are limited to.
- ``sessions`` (version 2): the heartbeats of a project's agent sessions, one row per
  (project, session id): the record (``Session.to_dict`` as jsonb) and its last beat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toon_memory.errors import DatabaseError

if TYPE_CHECKING:
    import psycopg

#: An arbitrary constant: the advisory lock ``migrate`` holds while it runs.
MIGRATION_LOCK = 0x746F6F6E

_V1 = """
CREATE TABLE IF NOT EXISTS toon_schema (version integer NOT NULL);
CREATE TABLE projects (
  name text PRIMARY KEY,
  rev bigint NOT NULL DEFAULT 0,
  arev bigint NOT NULL DEFAULT 0,
  next_pos bigint NOT NULL DEFAULT 0,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE entries (
  project text NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
  id text NOT NULL,
  pos bigint NOT NULL,
  rev bigint NOT NULL,
  row jsonb,
  key text GENERATED ALWAYS AS (row->>'key') STORED,
  category text GENERATED ALWAYS AS (row->>'category') STORED,
  PRIMARY KEY (project, id)
);
CREATE INDEX entries_by_rev ON entries (project, rev);
CREATE INDEX entries_by_key ON entries (project, key);
CREATE TABLE summaries (
  project text NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
  file text NOT NULL,
  summary text NOT NULL,
  date text NOT NULL,
  rev bigint NOT NULL,
  PRIMARY KEY (project, file)
);
CREATE INDEX summaries_by_rev ON summaries (project, rev);
CREATE TABLE accesses (
  project text NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
  seq bigint NOT NULL,
  id text NOT NULL,
  day text NOT NULL,
  PRIMARY KEY (project, seq)
);
CREATE TABLE archive (
  project text NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
  pos bigint NOT NULL,
  row jsonb NOT NULL,
  PRIMARY KEY (project, pos)
);
CREATE TABLE tokens (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  digest text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('read', 'write', 'admin')),
  project text,
  created timestamptz NOT NULL DEFAULT now(),
  revoked timestamptz
);
CREATE UNIQUE INDEX tokens_live_name ON tokens (name) WHERE revoked IS NULL;
"""

_V2 = """
CREATE TABLE sessions (
  project text NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
  id text NOT NULL,
  record jsonb NOT NULL,
  last_beat timestamptz NOT NULL,
  PRIMARY KEY (project, id)
);
CREATE INDEX sessions_by_beat ON sessions (project, last_beat);
"""

#: Step n takes version n to n + 1.
MIGRATIONS: tuple[str, ...] = (_V1, _V2)
SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: psycopg.Connection[tuple[Any, ...]]) -> int:
    """The database's schema version (0: never initialised)."""
    found = conn.execute("SELECT to_regclass('toon_schema') IS NOT NULL").fetchone()
    if not found or not found[0]:
        return 0
    row = conn.execute("SELECT max(version) FROM toon_schema").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(conn: psycopg.Connection[tuple[Any, ...]]) -> tuple[int, int]:
    """Bring the schema to ``SCHEMA_VERSION``: (version before, version after)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        before = current_version(conn)
        if before > SCHEMA_VERSION:
            raise DatabaseError(
                f"the team database is at schema version {before}, newer than this "
                f"toon-memory knows (up to {SCHEMA_VERSION}); upgrade toon-memory "
                "(the database was left untouched)"
            )
        for step in range(before, SCHEMA_VERSION):
            conn.execute(MIGRATIONS[step].encode())
            conn.execute("INSERT INTO toon_schema (version) VALUES (%s)", (step + 1,))
    return before, SCHEMA_VERSION


def require_current(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Refuse a database that ``team init`` has not brought to this code's version."""
    have = current_version(conn)
    if have == SCHEMA_VERSION:
        return
    if have > SCHEMA_VERSION:
        raise DatabaseError(
            f"the team database is at schema version {have}, newer than this toon-memory "
            f"knows (up to {SCHEMA_VERSION}); upgrade toon-memory"
        )
    raise DatabaseError(
        f"the team database is at schema version {have}, this toon-memory needs "
        f"{SCHEMA_VERSION}: run `toon-memory team init --database URL` first"
    )
