"""The SQL of one project's rows: read them into a ``State``, write ``journal.Op``s back.

Invariant: ``write_ops`` applies a write's operations exactly as ``State.apply`` does
(a put replaces the row and keeps its place in file order, or takes the next place; a
delete leaves a tombstone; a summary replaces the file's summary), all stamped with the
write's ``rev``, so ``changes_since`` returns, in order, what a server that last read
``rev`` must apply to be current.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from toon_memory.model.entry import Entry, Summary, entry_from_row
from toon_memory.store import journal

if TYPE_CHECKING:
    import psycopg


def project_row(conn: psycopg.Connection[tuple[Any, ...]], name: str) -> tuple[int, int] | None:
    """(rev, arev) of a project, or None when it has no row yet."""
    row = conn.execute("SELECT rev, arev FROM projects WHERE name = %s", (name,)).fetchone()
    return (int(row[0]), int(row[1])) if row else None


def lock_project(conn: psycopg.Connection[tuple[Any, ...]], name: str) -> tuple[int, int, int]:
    """Create the project row if needed and lock it: (rev, arev, next_pos)."""
    conn.execute("INSERT INTO projects (name) VALUES (%s) ON CONFLICT DO NOTHING", (name,))
    row = conn.execute(
        "SELECT rev, arev, next_pos FROM projects WHERE name = %s FOR UPDATE", (name,)
    ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


def all_entries(conn: psycopg.Connection[tuple[Any, ...]], name: str) -> list[Entry]:
    rows = conn.execute(
        "SELECT row FROM entries WHERE project = %s AND row IS NOT NULL ORDER BY pos", (name,)
    )
    return [entry_from_row(row[0]) for row in rows]


def all_summaries(conn: psycopg.Connection[tuple[Any, ...]], name: str) -> list[Summary]:
    rows = conn.execute(
        "SELECT file, summary, date FROM summaries WHERE project = %s ORDER BY file", (name,)
    )
    return [Summary(str(f), str(s), str(d)) for f, s, d in rows]


def changes_since(
    conn: psycopg.Connection[tuple[Any, ...]], name: str, rev: int
) -> list[journal.Op]:
    """The rows written after ``rev`` as operations, in file order (``pos``): applied in
    that order, new entries take their places as a fresh load would give them."""
    ops: list[journal.Op] = []
    rows = conn.execute(
        "SELECT id, row FROM entries WHERE project = %s AND rev > %s ORDER BY pos",
        (name, rev),
    )
    for entry_id, row in rows:
        ops.append(journal.delete(str(entry_id)) if row is None else journal.put(row))
    sums = conn.execute(
        "SELECT file, summary, date FROM summaries WHERE project = %s AND rev > %s ORDER BY rev",
        (name, rev),
    )
    ops.extend(journal.put_summary(str(f), str(s), str(d)) for f, s, d in sums)
    return ops


def access_lines(
    conn: psycopg.Connection[tuple[Any, ...]], name: str, after: int, upto: int
) -> list[str]:
    """The access-log lines (``<id> <day>``) recorded after ``after``, up to ``upto``."""
    rows = conn.execute(
        "SELECT id, day FROM accesses WHERE project = %s AND seq > %s AND seq <= %s ORDER BY seq",
        (name, after, upto),
    )
    return [f"{entry_id} {day}" for entry_id, day in rows]


_PUT = (
    "INSERT INTO entries (project, id, pos, rev, row) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (project, id) DO UPDATE SET row = EXCLUDED.row, rev = EXCLUDED.rev, "
    "pos = CASE WHEN entries.row IS NULL THEN EXCLUDED.pos ELSE entries.pos END"
)
_DELETE = "UPDATE entries SET row = NULL, rev = %s WHERE project = %s AND id = %s"
_SUMMARY = (
    "INSERT INTO summaries (project, file, summary, date, rev) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (project, file) DO UPDATE SET summary = EXCLUDED.summary, "
    "date = EXCLUDED.date, rev = EXCLUDED.rev"
)


def write_ops(
    conn: psycopg.Connection[tuple[Any, ...]],
    name: str,
    ops: Iterable[journal.Op],
    rev: int,
    next_pos: int,
) -> int:
    """Apply ``ops`` as write ``rev`` (runs of one kind sent as one batch, in order);
    returns the next free position."""
    from psycopg.types.json import Jsonb

    batches: list[tuple[str, list[tuple[Any, ...]]]] = []
    for op in ops:
        if op.kind == "put":
            row = op.data["entry"]
            args: tuple[Any, ...] = (name, str(row["id"]), next_pos, rev, Jsonb(row))
            sql, next_pos = _PUT, next_pos + 1
        elif op.kind == "del":
            sql, args = _DELETE, (rev, name, str(op.data["id"]))
        else:
            data = op.data
            sql = _SUMMARY
            args = (name, str(data["file"]), str(data["summary"]), str(data.get("date", "")), rev)
        if batches and batches[-1][0] == sql:
            batches[-1][1].append(args)
        else:
            batches.append((sql, [args]))
    with conn.cursor() as cur:
        for sql, many in batches:
            cur.executemany(sql, many)
    return next_pos


def record_accesses(
    conn: psycopg.Connection[tuple[Any, ...]], name: str, ids: list[str], day: str
) -> None:
    """Append access lines under the project's lock (one sequence per project)."""
    row = conn.execute("SELECT arev FROM projects WHERE name = %s FOR UPDATE", (name,)).fetchone()
    if row is None:
        return
    start = int(row[0])
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO accesses (project, seq, id, day) VALUES (%s, %s, %s, %s)",
            [(name, start + i + 1, entry_id, day) for i, entry_id in enumerate(ids)],
        )
    conn.execute("UPDATE projects SET arev = %s WHERE name = %s", (start + len(ids), name))


def read_archive(conn: psycopg.Connection[tuple[Any, ...]], name: str) -> list[Entry]:
    rows = conn.execute("SELECT row FROM archive WHERE project = %s ORDER BY pos", (name,))
    return [entry_from_row(row[0]) for row in rows]


def write_archive(
    conn: psycopg.Connection[tuple[Any, ...]], name: str, entries: list[Entry]
) -> None:
    from psycopg.types.json import Jsonb

    conn.execute("DELETE FROM archive WHERE project = %s", (name,))
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO archive (project, pos, row) VALUES (%s, %s, %s)",
            [(name, i, Jsonb(entry.to_row())) for i, entry in enumerate(entries)],
        )


def add_to_archive(
    conn: psycopg.Connection[tuple[Any, ...]], name: str, entries: list[Entry]
) -> None:
    from psycopg.types.json import Jsonb

    row = conn.execute(
        "SELECT coalesce(max(pos), -1) FROM archive WHERE project = %s", (name,)
    ).fetchone()
    start = int(row[0]) + 1 if row else 0
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO archive (project, pos, row) VALUES (%s, %s, %s)",
            [(name, start + i, Jsonb(entry.to_row())) for i, entry in enumerate(entries)],
        )


def take_from_archive(conn: psycopg.Connection[tuple[Any, ...]], name: str, entry_id: str) -> None:
    conn.execute("DELETE FROM archive WHERE project = %s AND row->>'id' = %s", (name, entry_id))


def archived_count(conn: psycopg.Connection[tuple[Any, ...]], name: str) -> int:
    row = conn.execute("SELECT count(*) FROM archive WHERE project = %s", (name,)).fetchone()
    return int(row[0]) if row else 0
