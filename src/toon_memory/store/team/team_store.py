"""``TeamStore``: a ``Store`` whose entries live in the team database, not in data.toon.

Invariants:
- The state this process holds is the database's as of ``rev``: every ``state()`` asks
  for the project's revision (one indexed row) and applies only the writes after it,
  so a write through another server is seen by the next call here.
- ``mutate`` runs the change inside one transaction that holds the project's row lock:
  it catches the state up under the lock, runs the same change function the file store
  runs, writes its operations and the new revision, and commits. Only then does the
  state take the operations: a failed or rolled-back write leaves no trace anywhere,
  and two servers never lose each other's writes.
- Accesses are appended to the project's access log under the same lock (statistics:
  a database error there is swallowed, as a read-only file store does).
- Recall and single-entry changes go through a local derived index (``team_index``: the
  file memory's SQLite index, caught up from the rows), so a server that only recalls,
  remembers and looks entries up never loads every entry; what needs them all loads the
  state, as a file memory does.
- Freshness is read, and pushed on top. Read: each read asks for the project's row (one
  indexed row, ~0.3 ms on loopback), so a write through any server is seen by the very
  next call anywhere, and a server that lost its connection cannot miss one. Pushed:
  every write sends ``pg_notify('toon_memory', <project>)`` in its transaction (heard at
  commit); a team server listens (``store.team.listener``) and catches the projects it
  has opened up at once (``Memory.refresh``), so the next call finds nothing to apply.
  A lost notice only delays that warm-up: the revision read stays the truth.
- Sessions (heartbeats) are rows of the database too (``store.team.sessions``), so every
  server sees every agent; the other side files (captured notes, settings, the local
  index) stay under ``paths``, a local folder of the process that serves the project.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from toon_memory.errors import DatabaseError, InputError, StoreError
from toon_memory.model.clock import today
from toon_memory.model.entry import Entry, EntryMap
from toon_memory.store import journal
from toon_memory.store.state import Derived, Lookup, State, StateNeeded
from toon_memory.store.store import Store
from toon_memory.store.team import rows, team_index
from toon_memory.store.team.database import describe, run
from toon_memory.store.team.schema import require_current

if TYPE_CHECKING:
    import psycopg

    from toon_memory.store.crypto import Key
    from toon_memory.store.heartbeats import Heartbeats
    from toon_memory.store.index_bulk import Analyse
    from toon_memory.store.index_db import IndexDb
    from toon_memory.store.index_view import IndexView
    from toon_memory.store.paths import MemoryPaths

T = TypeVar("T")
PROJECT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_project(name: str) -> str:
    """A team project's name: 1-64 letters, digits, ``.``, ``_`` or ``-``."""
    if not isinstance(name, str) or not PROJECT_NAME.fullmatch(name):
        raise InputError("project", "a name of 1-64 letters, digits, '.', '_' or '-' (not first)")
    return name


class TeamStore(Store):
    """One project of a team database, read and written through ``Store``'s interface."""

    #: Its uses are rows of the database, read with the index's (no access log to lag).
    lags_accesses = False

    def __init__(
        self,
        paths: MemoryPaths,
        url: str,
        project: str,
        make_derived: Callable[[EntryMap], Derived] | None = None,
        derived_version: str = "",
    ) -> None:
        super().__init__(paths, make_derived, derived_version)
        self.url = url
        self.project = check_project(project)
        self._rev = 0
        self._arev = 0
        #: The newest revision this process has seen, through the state or the index.
        self._head = 0
        self._mutex = threading.RLock()
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._checked = False

    # -- reading ---------------------------------------------------------
    def key(self) -> Key | None:
        return None

    def encrypted(self) -> bool:
        return False

    def release(self) -> None:
        with self._mutex:
            super().release()
            self._rev = self._arev = 0

    def state(self, engine: bool = True) -> State:
        with self._mutex:
            run(self.url, self._current)
            return self._with_engine(engine)

    def _current(self, conn: psycopg.Connection[tuple[Any, ...]]) -> State:
        """One indexed row when nothing changed; else the changes up to that head, read in
        one snapshot (a write committed meanwhile is read by the next call)."""
        self._check(conn)
        head = rows.project_row(conn, self.project) or (0, 0)
        if self._state is not None and head == (self._rev, self._arev):
            return self._state
        with conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            head = rows.project_row(conn, self.project) or (0, 0)
            return self._sync(conn, *head)

    def _check(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        if not self._checked:
            with conn.transaction():  # its own: a read's SET TRANSACTION must come first
                require_current(conn)
            self._checked = True

    def _sync(self, conn: psycopg.Connection[tuple[Any, ...]], rev: int, arev: int) -> State:
        """The state at (rev, arev): caught up when loaded and not ahead, else read whole."""
        state = self._state
        if state is None or rev < self._rev or arev < self._arev:
            state = self._load(conn, rev, arev)
        else:
            if rev > self._rev:
                state.apply(rows.changes_since(conn, self.project, self._rev))
            if arev > self._arev:
                state.fold_accesses(rows.access_lines(conn, self.project, self._arev, arev))
        self._state, self._rev, self._arev = state, rev, arev
        self._head = rev
        return state

    def _load(self, conn: psycopg.Connection[tuple[Any, ...]], rev: int, arev: int) -> State:
        state = State()
        state.load(rows.all_entries(conn, self.project))
        for summary in rows.all_summaries(conn, self.project):
            state.summaries[summary.file] = summary
        state.fold_accesses(rows.access_lines(conn, self.project, 0, arev))
        return state  # its engine: ``_with_engine``, when the caller wants one

    # -- writing ---------------------------------------------------------
    def mutate(self, change: Callable[[State], tuple[list[journal.Op], T]]) -> T:
        with self._mutex:
            return run(self.url, lambda conn: self._write(conn, change))

    def mutate_lean(
        self,
        change: Callable[[Lookup], tuple[list[journal.Op], T]],
        lean: Callable[[], IndexView | None],
    ) -> T:
        """``mutate`` over a view of the local index (``lean``, called under the project's
        lock, catches it up to the locked revision) when the state is not loaded."""
        with self._mutex:
            return run(self.url, lambda conn: self._write(conn, change, lean))

    def _write(
        self,
        conn: psycopg.Connection[tuple[Any, ...]],
        change: Callable[[Any], tuple[list[journal.Op], T]],
        lean: Callable[[], IndexView | None] | None = None,
    ) -> T:
        self._check(conn)
        self.ensure_folder()
        with conn.transaction():
            rev, arev, next_pos = rows.lock_project(conn, self.project)
            self._conn = conn
            try:
                state, (ops, result) = self._run_change(conn, change, lean, (rev, arev))
            finally:
                self._conn = None
            if ops:
                end = rows.write_ops(conn, self.project, ops, rev + 1, next_pos)
                conn.execute(
                    "UPDATE projects SET rev = %s, next_pos = %s WHERE name = %s",
                    (rev + 1, end, self.project),
                )
                conn.execute("SELECT pg_notify('toon_memory', %s)", (self.project,))
        self._head = rev + 1 if ops else rev
        if ops and state is not None:
            state.apply(ops)
            self._rev = rev + 1
        return result

    def _run_change(
        self,
        conn: psycopg.Connection[tuple[Any, ...]],
        change: Callable[[Any], tuple[list[journal.Op], T]],
        lean: Callable[[], IndexView | None] | None,
        at: tuple[int, int],
    ) -> tuple[State | None, tuple[list[journal.Op], T]]:
        """``change`` over the index's view when ``lean`` gives one and the state is not
        loaded (a change that needs every entry raises ``StateNeeded``: its savepoint is
        rolled back and it runs again over the state), else over the state."""
        view = lean() if lean is not None and self._state is None else None
        if view is not None and self._state is None:
            try:
                with conn.transaction(), view.db.reading():
                    return None, change(view)
            except StateNeeded:
                pass
        state = self._sync(conn, *at)
        return state, change(state)

    def record_access(self, ids: Iterable[str]) -> None:
        wanted = list(ids)
        if not wanted:
            return
        day = today().isoformat()

        def log(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
            with conn.transaction():
                rows.record_accesses(conn, self.project, wanted, day)

        try:
            run(self.url, log)
        except DatabaseError:  # statistics only: never fails a recall
            return

    def writable(self) -> bool:
        return True

    # -- the local index (``team_index``) -------------------------------------
    def prefers_index(self, lean_bytes: int) -> bool:
        """Always: a server keeps only the index's pages of a project, at any size."""
        return True

    def index(
        self, analyse: Analyse, held: IndexDb | None, lagging: bool = False
    ) -> IndexDb | None:
        """The project's local index at the database's head (inside a change: at the
        locked revision), or None when no index file can be used here (never lagging)."""
        with self._mutex:
            if self._conn is not None:
                return self._synced(self._conn, analyse, held, locked=True)
            return run(self.url, lambda conn: self._synced(conn, analyse, held, locked=False))

    def _synced(
        self,
        conn: psycopg.Connection[tuple[Any, ...]],
        analyse: Analyse,
        held: IndexDb | None,
        locked: bool,
    ) -> IndexDb | None:
        from toon_memory.store.index_db import IndexDb

        self._check(conn)
        path = team_index.index_file(self.paths, self.url, self.project)
        db = held or IndexDb.open(path, self.derived_key)
        if db is None:
            return None
        try:
            self._head = team_index.synced(conn, self.project, db, analyse, locked)[1]
        except (sqlite3.Error, OSError, ValueError, KeyError, TypeError):
            with contextlib.suppress(sqlite3.Error):
                db.close()
            return None
        return db

    def lean_view(
        self, analyse: Analyse, held: IndexDb | None
    ) -> tuple[IndexDb | None, IndexView | None]:
        from toon_memory.store.index_view import IndexView

        db = self.index(analyse, held)
        return db, None if db is None else IndexView(db, team_index.decode(db.position()))

    def sessions(self) -> Heartbeats:
        """The project's sessions are rows of the database (``store.team.sessions``)."""
        from toon_memory.store.team.sessions import TeamHeartbeats

        return TeamHeartbeats(self.url, self.project)

    def identity(self) -> tuple[object, ...]:
        """The project's revision as last seen (accesses do not count)."""
        return ("team", describe(self.url), self.project, self._head)

    def local(self) -> str:
        return f"the team database {describe(self.url)} (project {self.project})"

    # -- what a database has no use for ---------------------------------
    def journal_size(self) -> int:
        return 0

    def _maybe_compact(self, sync: Callable[[], object] | None = None) -> None:
        return None

    def compact(self, sync: Callable[[], object] | None = None) -> bool:
        """Nothing to fold: the database is always compact."""
        return True

    def save_cache(self) -> None:
        return None

    def set_aside_damage(self) -> bool:
        return False

    def rewrite_snapshot(self, key: Key | None) -> None:
        raise StoreError(
            "a team memory lives in PostgreSQL: encrypt the database's disk or connection "
            "(TLS) instead; encrypt/decrypt work on local memories only"
        )

    # -- archive ---------------------------------------------------------
    def read_archive(self) -> list[Entry]:
        return run(self.url, lambda conn: rows.read_archive(conn, self.project))

    def archived_count(self) -> int:
        return run(self.url, lambda conn: rows.archived_count(conn, self.project))

    def _in_change(self, what: str) -> psycopg.Connection[tuple[Any, ...]]:
        if self._conn is None:
            raise StoreError(f"{what} must run inside a change (mutate)")
        return self._conn

    def write_archive(self, entries: list[Entry]) -> None:
        """Replace the archive, inside ``mutate``'s transaction."""
        rows.write_archive(self._in_change("write_archive"), self.project, entries)

    def add_to_archive(self, entries: list[Entry]) -> None:
        rows.add_to_archive(self._in_change("add_to_archive"), self.project, entries)

    def take_from_archive(self, entry_id: str) -> None:
        rows.take_from_archive(self._in_change("take_from_archive"), self.project, entry_id)
