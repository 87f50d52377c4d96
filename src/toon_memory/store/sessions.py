"""Heartbeat files of parallel agent sessions: ``<memory folder>/sessions/<id>.json``.

Invariant: a beat rewrites only its own session's file, atomically, under the
folder's ``sessions/.lock`` (so two hook processes of one session never lose
each other's files); a reader never fails on a bad file (it is skipped);
a file is deleted only when its heartbeat is past the window AND its process
is gone (checked again under the lock just before the deletion). The files
touched and the notes of a session are bounded (newest kept). Time comes
from ``toon_memory.clock`` unless a caller passes ``now``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from toon_memory.clock import now_iso
from toon_memory.errors import InputError
from toon_memory.store.atomic import write_atomic

SESSIONS_DIR = "sessions"
DEFAULT_WINDOW_MINUTES = 10
MAX_FILES = 50
MAX_NOTES = 50
MAX_NOTE_CHARS = 500
LOCK_TIMEOUT = 5.0
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_STAMP = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True)
class Note:
    """One observation a session made about a file (what it learned, did or decided)."""

    file: str
    text: str
    at: str

    def to_dict(self) -> dict[str, str]:
        return {"file": self.file, "text": self.text, "at": self.at}


@dataclass(frozen=True)
class Session:
    """One agent session as its heartbeat file records it."""

    id: str
    agent: str = ""
    branch: str = ""
    files: tuple[str, ...] = ()
    pid: int = 0
    host: str = ""
    started: str = ""
    last_seen: str = ""
    ended: bool = False
    notes: tuple[Note, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The file's JSON form (also what --json and MCP answers show)."""
        return {
            "id": self.id, "agent": self.agent, "branch": self.branch, "files": list(self.files),
            "pid": self.pid, "host": self.host, "started": self.started,
            "lastSeen": self.last_seen, "ended": self.ended,
            "notes": [note.to_dict() for note in self.notes],
        }  # fmt: skip

    def seen_at(self) -> datetime | None:
        return parse_stamp(self.last_seen)

    def age(self, now: datetime) -> timedelta | None:
        """Time since the last heartbeat; None when the stamp does not parse."""
        seen = self.seen_at()
        return None if seen is None else as_utc(now) - seen


# -- time and names ---------------------------------------------------------------------------


def parse_stamp(value: str) -> datetime | None:
    """``2026-07-15T10:00:00Z`` (or any ISO form with an offset) -> an aware datetime."""
    text = str(value or "").strip()
    if not text:
        return None
    try:
        stamp = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)


def as_utc(moment: datetime) -> datetime:
    """An aware datetime; a naive one is taken as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def format_stamp(moment: datetime) -> str:
    return as_utc(moment).astimezone(timezone.utc).strftime(_STAMP)


def clock_now() -> datetime:
    """Now, as ``toon_memory.clock`` tells it (honours ``TOON_MEMORY_TODAY``)."""
    stamp = parse_stamp(now_iso())
    assert stamp is not None  # now_iso always formats a valid stamp
    return stamp


def check_session_id(session_id: str) -> str:
    """A safe file stem: letters, digits, ``.``, ``_``, ``-``; no path separators."""
    value = str(session_id or "").strip()
    if not _ID_RE.fullmatch(value):
        raise InputError(
            "session_id",
            "expected 1-128 letters, digits, '.', '_' or '-' starting with a letter or digit, "
            f"got {session_id!r}",
        )
    return value


def check_window(minutes: object, field_name: str = "window_minutes") -> int:
    """A session window in whole minutes, 1..1440 (config's ``sessionWindowMinutes``)."""
    try:
        value = int(str(minutes).strip())
    except (TypeError, ValueError):
        raise InputError(field_name, f"expected whole minutes, got {minutes!r}") from None
    if not 1 <= value <= 1440:
        raise InputError(field_name, f"must be between 1 and 1440 minutes, got {value}")
    return value


def new_session_id(agent: str = "") -> str:
    """A fresh id such as ``claude-4f2a9c1b`` (agent name sanitised, 8 random hex digits)."""
    import secrets

    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", str(agent or "")).strip("-._")[:40] or "session"
    return f"{stem}-{secrets.token_hex(4)}"


def normalize_path(path: str, root: Path | None = None) -> str:
    """A file path as sessions compare it: ``/`` separators, no ``./``, relative to ``root``."""
    text = str(path or "").strip().replace("\\", "/")
    if root is not None and text.startswith("/"):
        base = str(root).replace("\\", "/").rstrip("/") + "/"
        if text.startswith(base):
            text = text[len(base) :]
    while text.startswith("./"):
        text = text[2:]
    return re.sub(r"/{2,}", "/", text)


def host_name() -> str:
    return os.uname().nodename if hasattr(os, "uname") else ""


# -- the files ------------------------------------------------------------------------------


def sessions_dir(folder: Path) -> Path:
    return Path(folder) / SESSIONS_DIR


def session_path(folder: Path, session_id: str) -> Path:
    return sessions_dir(folder) / f"{check_session_id(session_id)}.json"


def _lock(folder: Path) -> Any:
    from toon_memory.store.lock import FileLock

    return FileLock(sessions_dir(folder) / ".lock", timeout=LOCK_TIMEOUT)


def _text_list(value: Any, limit: int) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(str(item) for item in value if isinstance(item, str) and item)[-limit:]


def _notes(value: Any) -> tuple[Note, ...]:
    if not isinstance(value, list):
        return ()
    notes = [
        Note(str(item.get("file", "")), str(item.get("text", "")), str(item.get("at", "")))
        for item in value
        if isinstance(item, dict) and item.get("text")
    ]
    return tuple(notes[-MAX_NOTES:])


def session_from_dict(data: dict[str, Any]) -> Session:
    """A session from its JSON form; ValueError/InputError when the id or pid is bad."""
    pid = data.get("pid", 0)
    if isinstance(pid, bool) or not isinstance(pid, int):
        raise ValueError(f"pid: expected a whole number, got {pid!r}")
    return Session(
        id=check_session_id(str(data.get("id", ""))),
        agent=str(data.get("agent", "") or ""), branch=str(data.get("branch", "") or ""),
        files=_text_list(data.get("files"), MAX_FILES), pid=pid,
        host=str(data.get("host", "") or ""), started=str(data.get("started", "") or ""),
        last_seen=str(data.get("lastSeen", "") or ""), ended=data.get("ended") is True,
        notes=_notes(data.get("notes")),
    )  # fmt: skip


def read_session_file(path: Path) -> Session | None:
    """The session in ``path``; None when it is missing, unreadable or not a session."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    try:
        session = session_from_dict(data)
    except (ValueError, InputError):
        return None
    return session if path.stem == session.id else None


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
    return sorted(found, key=lambda s: (s.last_seen, s.id), reverse=True)


def _write(folder: Path, session: Session) -> None:
    data = json.dumps(session.to_dict(), indent=2, ensure_ascii=False) + "\n"
    write_atomic(session_path(folder, session.id), data.encode("utf-8"))


def _merged_files(old: Sequence[str], new: Iterable[str], root: Path | None) -> tuple[str, ...]:
    files = list(old)
    for raw in new:
        path = normalize_path(raw, root)
        if path:
            if path in files:
                files.remove(path)
            files.append(path)
    return tuple(files[-MAX_FILES:])


def _merged_notes(
    old: Sequence[Note], new: Iterable[tuple[str, str]], stamp: str, root: Path | None
) -> tuple[Note, ...]:
    notes = list(old)
    for file, text in new:
        body = " ".join(str(text).split())[:MAX_NOTE_CHARS]
        if body:
            notes.append(Note(normalize_path(file, root), body, stamp))
    return tuple(notes[-MAX_NOTES:])


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
        session = replace(
            old,
            agent=old.agent if agent is None else str(agent),
            branch=old.branch if branch is None else str(branch),
            files=_merged_files(old.files, files, root),
            notes=_merged_notes(old.notes, notes, stamp, root),
            pid=os.getpid() if pid is None else int(pid),
            host=host_name(),
            started=old.started or stamp,
            last_seen=stamp,
            ended=False,
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
        session = replace(old, files=(), ended=True, last_seen=stamp)
        _write(folder, session)
    return session


# -- liveness -------------------------------------------------------------------------------


def pid_alive(pid: int) -> bool:
    """True when a process with this id exists (also when it belongs to another user)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def is_active(session: Session, window_minutes: int, now: datetime) -> bool:
    """Not ended, and the last heartbeat lies within the window."""
    age = session.age(now)
    return not session.ended and age is not None and age <= timedelta(minutes=window_minutes)


def is_stale(session: Session, window_minutes: int, now: datetime) -> bool:
    """The heartbeat is past the window (or unreadable)."""
    age = session.age(now)
    return age is None or age > timedelta(minutes=window_minutes)


def is_dead(session: Session, window_minutes: int, now: datetime) -> bool:
    """Past the window and its process is gone (a process on another host counts as gone
    only once the heartbeat is a day old: its PID cannot be checked from here)."""
    if not is_stale(session, window_minutes, now):
        return False
    if session.host and session.host != host_name():
        age = session.age(now)
        return age is None or age > timedelta(days=1)
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
    moment = now or clock_now()
    if prune:
        prune_sessions(folder, window_minutes, moment)
    return [s for s in read_sessions(folder) if is_active(s, window_minutes, moment)]


def stale_sessions(
    sessions: Iterable[Session], window_minutes: int, now: datetime
) -> list[Session]:
    """Sessions past the window that were never ended (crashed or abandoned)."""
    return [s for s in sessions if not s.ended and is_stale(s, window_minutes, now)]


def soft_conflicts(sessions: Iterable[Session]) -> dict[str, list[str]]:
    """Files touched by two or more (not ended) sessions -> their sorted ids, by file name."""
    owners: dict[str, list[str]] = {}
    for session in sessions:
        if session.ended:
            continue
        for file in session.files:
            ids = owners.setdefault(file, [])
            if session.id not in ids:
                ids.append(session.id)
    return {file: sorted(ids) for file, ids in sorted(owners.items()) if len(ids) >= 2}
