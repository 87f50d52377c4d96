"""``TeamHeartbeats``: the sessions of one team project, in the database's ``sessions`` table.

Invariants (``store.heartbeats.Heartbeats``' rules, over rows instead of files):
- A beat changes only its own row, in one transaction that holds that row's lock (the row
  is created first when missing, ``INSERT … ON CONFLICT DO NOTHING``, then read ``FOR
  UPDATE``), so two servers beating one session at once never lose each other's files
  or notes; the record and ``last_beat`` are written together, from the same stamp.
- A reader skips a record that is not a session, or not the session of its row.
- Pruning: a team session may be an agent's on another host, whose process cannot be
  checked from here, so a team session is deleted only when its last beat is past the
  window (ended or not). That is one ``DELETE … WHERE last_beat < cutoff``, whose
  condition PostgreSQL checks again on a row a concurrent beat just refreshed, so a
  revived session is never deleted.
- Time is the caller's clock (``model.clock``, as for the files), not the database's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from toon_memory.model.heartbeat import (
    DEFAULT_WINDOW_MINUTES,
    Session,
    as_utc,
    check_session_id,
    clock_now,
    format_stamp,
    parse_stamp,
)
from toon_memory.store.heartbeats import (
    Heartbeats,
    newest_first,
    record_session,
    refreshed,
    released,
)
from toon_memory.store.team.database import run
from toon_memory.store.team.schema import require_current

if TYPE_CHECKING:
    import psycopg

    Connection = psycopg.Connection[tuple[Any, ...]]

T = TypeVar("T")
_LOCK = "SELECT record FROM sessions WHERE project = %s AND id = %s FOR UPDATE"
_CREATE = (
    "INSERT INTO sessions (project, id, record, last_beat) VALUES (%s, %s, %s, %s) "
    "ON CONFLICT DO NOTHING"
)
_SAVE = "UPDATE sessions SET record = %s, last_beat = %s WHERE project = %s AND id = %s"


def _beat_time(stamp: str) -> datetime:
    moment = parse_stamp(stamp)
    assert moment is not None  # format_stamp always writes a stamp that parses
    return moment


class TeamHeartbeats(Heartbeats):
    """The sessions of project ``project`` in the team database at ``url``."""

    def __init__(self, url: str, project: str) -> None:
        self.url = url
        self.project = project
        self._checked = False

    def _run(self, work: Callable[[Connection], T]) -> T:
        """``work`` on a pooled connection, once the schema is known to have the table."""

        def checked(conn: Connection) -> T:
            if not self._checked:
                with conn.transaction():
                    require_current(conn)
                self._checked = True
            return work(conn)

        return run(self.url, checked)

    # -- reading ---------------------------------------------------------------------------
    def get(self, session_id: str) -> Session | None:
        sid = check_session_id(session_id)
        row = self._run(
            lambda conn: conn.execute(
                "SELECT record FROM sessions WHERE project = %s AND id = %s", (self.project, sid)
            ).fetchone()
        )
        return None if row is None else record_session(sid, row[0])

    def read(self) -> list[Session]:
        rows = self._run(
            lambda conn: conn.execute(
                "SELECT id, record FROM sessions WHERE project = %s", (self.project,)
            ).fetchall()
        )
        found = (record_session(str(sid), record) for sid, record in rows)
        return newest_first(s for s in found if s is not None)

    # -- writing ---------------------------------------------------------------------------
    def beat(
        self, session_id: str, *, agent: str | None = None, branch: str | None = None,
        files: Iterable[str] = (), notes: Iterable[tuple[str, str]] = (),
        pid: int | None = None, root: Path | None = None, now: datetime | None = None,
    ) -> Session:  # fmt: skip
        """One transaction: the session's row locked (created when missing), then rewritten."""
        sid = check_session_id(session_id)
        stamp = format_stamp(now or clock_now())
        touched, noted = list(files), list(notes)  # read once, whatever a retry would need

        def write(conn: Connection) -> Session:
            with conn.transaction():
                old = self._locked(conn, sid, stamp) or Session(id=sid, started=stamp)
                session = refreshed(
                    old, stamp, agent=agent, branch=branch, files=touched, notes=noted,
                    pid=pid, root=root,
                )  # fmt: skip
                self._save(conn, session)
            return session

        return self._run(write)

    def end(self, session_id: str, *, now: datetime | None = None) -> Session | None:
        sid = check_session_id(session_id)
        stamp = format_stamp(now or clock_now())

        def write(conn: Connection) -> Session | None:
            with conn.transaction():
                row = conn.execute(_LOCK, (self.project, sid)).fetchone()
                old = None if row is None else record_session(sid, row[0])
                if old is None:
                    return None
                session = released(old, stamp)
                self._save(conn, session)
            return session

        return self._run(write)

    def prune(
        self, window_minutes: int = DEFAULT_WINDOW_MINUTES, now: datetime | None = None
    ) -> list[str]:
        """Delete the sessions whose last beat is past the window; their ids, sorted."""
        cutoff = as_utc(now or clock_now()) - timedelta(minutes=window_minutes)
        rows = self._run(
            lambda conn: conn.execute(
                "DELETE FROM sessions WHERE project = %s AND last_beat < %s RETURNING id",
                (self.project, cutoff),
            ).fetchall()
        )
        return sorted(str(row[0]) for row in rows)

    def _locked(self, conn: Connection, sid: str, stamp: str) -> Session | None:
        """Lock the session's row, creating it (and the project's row) when missing; the
        session it held (None: new, or a record that is not a session)."""
        row = conn.execute(_LOCK, (self.project, sid)).fetchone()
        if row is None:
            from psycopg.types.json import Jsonb

            conn.execute(
                "INSERT INTO projects (name) VALUES (%s) ON CONFLICT DO NOTHING", (self.project,)
            )
            fresh = Session(id=sid, started=stamp, last_seen=stamp)
            conn.execute(_CREATE, (self.project, sid, Jsonb(fresh.to_dict()), _beat_time(stamp)))
            row = conn.execute(_LOCK, (self.project, sid)).fetchone()
            assert row is not None  # inserted here, or by a beat that committed meanwhile
        return record_session(sid, row[0])

    def _save(self, conn: Connection, session: Session) -> None:
        from psycopg.types.json import Jsonb

        moment = _beat_time(session.last_seen)
        conn.execute(_SAVE, (Jsonb(session.to_dict()), moment, self.project, session.id))
