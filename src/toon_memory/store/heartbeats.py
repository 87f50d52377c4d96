"""Where the heartbeats of parallel agent sessions live: ``Heartbeats``, and its files.

Invariant: ``Heartbeats`` is the one interface the memory reads and writes sessions
through (``Store.sessions()`` picks the implementation: ``FileHeartbeats`` here, the
team database's ``store.team.sessions``). Every implementation keeps the same rules: a
beat rewrites only its own session's record (``refreshed``) without losing a concurrent
beat, a reader never fails on a bad record (it is skipped), and sessions are listed
newest heartbeat first. The files are ``<memory folder>/sessions/<id>.json``: a beat
rewrites its file whole (atomically; not fsync'd: no session outlives a power cut)
under the folder's ``sessions/.lock`` (so two hook processes of one session never
lose each other's files); a file is deleted only when
its heartbeat is past the window AND its process is gone (checked again under the lock
just before the deletion). Time comes from ``toon_memory.model.clock`` unless a caller
passes ``now``. The record and the rules that read it are in
``toon_memory.model.heartbeat``.
"""

from __future__ import annotations

import json
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from toon_memory.errors import InputError
from toon_memory.model.heartbeat import (
    DEFAULT_WINDOW_MINUTES,
    Session,
    add_files,
    add_notes,
    check_session_id,
    clock_now,
    format_stamp,
    is_active,
    is_stale,
    session_from_dict,
)
from toon_memory.system.atomic import write_atomic

SESSIONS_DIR = "sessions"
LOCK_TIMEOUT = 5.0
UNCHECKED_AFTER = timedelta(days=1)


def host_name() -> str:
    return os.uname().nodename if hasattr(os, "uname") else ""


# -- the files ------------------------------------------------------------------------------


def sessions_dir(folder: Path) -> Path:
    return Path(folder) / SESSIONS_DIR


def session_path(folder: Path, session_id: str) -> Path:
    return sessions_dir(folder) / f"{check_session_id(session_id)}.json"


def _lock(folder: Path) -> Any:
    from toon_memory.system.lock import FileLock

    return FileLock(sessions_dir(folder) / ".lock", timeout=LOCK_TIMEOUT)


def read_session_file(path: Path) -> Session | None:
    """The session in ``path``; None when it is missing, unreadable or not a session."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return record_session(path.stem, data)


def record_session(session_id: str, record: object) -> Session | None:
    """The session a stored record holds; None when it is not a session, or another's."""
    if not isinstance(record, dict):
        return None
    try:
        session = session_from_dict(record)
    except (ValueError, InputError):
        return None
    return session if session.id == session_id else None


def newest_first(sessions: Iterable[Session]) -> list[Session]:
    """Sessions in the order every reader lists them: newest heartbeat first (then id)."""
    return sorted(sessions, key=lambda s: (s.last_seen, s.id), reverse=True)


def read_sessions(folder: Path) -> list[Session]:
    """Every readable session file (active or not), newest heartbeat first; bad files skipped."""
    found: list[Session] = []
    try:
        paths = sorted(sessions_dir(folder).glob("*.json"))
    except OSError:
        return []
    for path in paths:
        session = read_session_file(path)
        if session is not None:
            found.append(session)
    return newest_first(found)


def _write(folder: Path, session: Session) -> None:
    """Replace the session's file, whole, without fsync: a heartbeat matters only while its
    session lives, and none outlives a power cut (a torn file is a bad record: skipped)."""
    data = json.dumps(session.to_dict(), indent=2, ensure_ascii=False) + "\n"
    write_atomic(session_path(folder, session.id), data.encode("utf-8"), durable=False)


def refreshed(
    old: Session,
    stamp: str,
    *,
    agent: str | None,
    branch: str | None,
    files: Iterable[str],
    notes: Iterable[tuple[str, str]],
    pid: int | None,
    root: Path | None,
) -> Session:
    """``old`` after a beat at ``stamp`` (``beat`` says what each argument does)."""
    return replace(
        old,
        agent=old.agent if agent is None else str(agent),
        branch=old.branch if branch is None else str(branch),
        files=add_files(old.files, files, root),
        notes=add_notes(old.notes, notes, stamp, root),
        pid=os.getpid() if pid is None else int(pid),
        host=host_name(),
        started=old.started or stamp,
        last_seen=stamp,
        ended=False,
    )


def released(old: Session, stamp: str) -> Session:
    """``old`` ended at ``stamp``: its files released, its notes kept for merging."""
    return replace(old, files=(), ended=True, last_seen=stamp)


def beat(
    folder: Path,
    session_id: str,
    *,
    agent: str | None = None,
    branch: str | None = None,
    files: Iterable[str] = (),
    notes: Iterable[tuple[str, str]] = (),
    pid: int | None = None,
    root: Path | None = None,
    now: datetime | None = None,
) -> Session:
    """Create or refresh this session's heartbeat; return what was written.

    ``files`` are added to the files touched (newest last, at most
    ``MAX_FILES``); ``notes`` are (file, text) observations (at most
    ``MAX_NOTES``). ``agent``/``branch`` left as None keep the recorded
    values. ``pid`` defaults to this process; a hook should pass the agent's
    process (its parent) so the session lives as long as the agent does.
    A beat revives an ended session.
    """
    sid = check_session_id(session_id)
    stamp = format_stamp(now or clock_now())
    with _lock(folder):
        old = read_session_file(session_path(folder, sid)) or Session(id=sid, started=stamp)
        session = refreshed(
            old, stamp, agent=agent, branch=branch, files=files, notes=notes, pid=pid, root=root
        )
        _write(folder, session)
    return session


def end_session(folder: Path, session_id: str, *, now: datetime | None = None) -> Session | None:
    """Mark a session ended and release its files (its notes stay for merging).

    The file stays until cleanup removes it; returns None when there is no
    such session.
    """
    sid = check_session_id(session_id)
    stamp = format_stamp(now or clock_now())
    with _lock(folder):
        old = read_session_file(session_path(folder, sid))
        if old is None:
            return None
        session = released(old, stamp)
        _write(folder, session)
    return session


# -- liveness -------------------------------------------------------------------------------


def pid_alive(pid: int) -> bool:
    """True when a process with this id exists (also when it belongs to another user).

    On Windows ``os.kill`` would terminate the process, so there any positive
    pid counts as alive and ``is_dead`` falls back to the heartbeat's age.
    """
    if pid <= 0:
        return False
    if sys.platform == "win32":  # pragma: no cover - not tested here
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def is_dead(session: Session, window_minutes: int, now: datetime) -> bool:
    """Past the window and its process is gone. Where the PID cannot be checked (a
    session of another host, or Windows) it counts as gone once the heartbeat is
    ``UNCHECKED_AFTER`` old."""
    if not is_stale(session, window_minutes, now):
        return False
    if sys.platform == "win32" or (session.host and session.host != host_name()):
        age = session.age(now)
        return age is None or age > UNCHECKED_AFTER
    return not pid_alive(session.pid)


def prune_sessions(
    folder: Path, window_minutes: int = DEFAULT_WINDOW_MINUTES, now: datetime | None = None
) -> list[str]:
    """Delete the files of dead sessions; return their ids."""
    moment = now or clock_now()
    candidates = [s for s in read_sessions(folder) if is_dead(s, window_minutes, moment)]
    if not candidates:
        return []
    removed: list[str] = []
    with _lock(folder):
        for candidate in candidates:
            path = session_path(folder, candidate.id)
            current = read_session_file(path)  # a beat may have revived it since
            if current is None or not is_dead(current, window_minutes, moment):
                continue
            try:
                path.unlink()
            except FileNotFoundError:
                continue
            removed.append(candidate.id)
    return removed


def active_sessions(
    folder: Path,
    window_minutes: int = DEFAULT_WINDOW_MINUTES,
    now: datetime | None = None,
    *,
    prune: bool = True,
) -> list[Session]:
    """Sessions whose heartbeat is within the window, newest first.

    Dead sessions are removed on the way (``prune=False`` only reads).
    """
    return FileHeartbeats(folder).active(window_minutes, now, prune=prune)


# -- the interface ------------------------------------------------------------------------


class Heartbeats(ABC):
    """Where a memory's sessions live (``Store.sessions()``); the same rules everywhere."""

    @abstractmethod
    def get(self, session_id: str) -> Session | None:
        """The session as recorded (active or not); None when missing or unreadable."""

    @abstractmethod
    def read(self) -> list[Session]:
        """Every readable session (active or not), newest heartbeat first."""

    @abstractmethod
    def beat(
        self, session_id: str, *, agent: str | None = None, branch: str | None = None,
        files: Iterable[str] = (), notes: Iterable[tuple[str, str]] = (),
        pid: int | None = None, root: Path | None = None, now: datetime | None = None,
    ) -> Session:  # fmt: skip
        """Create or refresh this session's heartbeat (``beat``); return what was written."""

    @abstractmethod
    def end(self, session_id: str, *, now: datetime | None = None) -> Session | None:
        """Mark the session ended (``end_session``); None when there is no such session."""

    @abstractmethod
    def prune(
        self, window_minutes: int = DEFAULT_WINDOW_MINUTES, now: datetime | None = None
    ) -> list[str]:
        """Delete the dead sessions (what "dead" means is the implementation's); their ids."""

    def active(
        self,
        window_minutes: int = DEFAULT_WINDOW_MINUTES,
        now: datetime | None = None,
        *,
        prune: bool = True,
    ) -> list[Session]:
        """Sessions whose heartbeat is within the window, newest first (dead ones pruned
        first unless ``prune=False``)."""
        moment = now or clock_now()
        if prune:
            self.prune(window_minutes, moment)
        return [s for s in self.read() if is_active(s, window_minutes, moment)]


class FileHeartbeats(Heartbeats):
    """The heartbeat files of one memory folder (the functions above)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def get(self, session_id: str) -> Session | None:
        return read_session_file(session_path(self.folder, session_id))

    def read(self) -> list[Session]:
        return read_sessions(self.folder)

    def beat(
        self, session_id: str, *, agent: str | None = None, branch: str | None = None,
        files: Iterable[str] = (), notes: Iterable[tuple[str, str]] = (),
        pid: int | None = None, root: Path | None = None, now: datetime | None = None,
    ) -> Session:  # fmt: skip
        return beat(
            self.folder, session_id, agent=agent, branch=branch, files=files, notes=notes,
            pid=pid, root=root, now=now,
        )  # fmt: skip

    def end(self, session_id: str, *, now: datetime | None = None) -> Session | None:
        return end_session(self.folder, session_id, now=now)

    def prune(
        self, window_minutes: int = DEFAULT_WINDOW_MINUTES, now: datetime | None = None
    ) -> list[str]:
        """Files past the window whose process is gone (``is_dead``)."""
        return prune_sessions(self.folder, window_minutes, now)
