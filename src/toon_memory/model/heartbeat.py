"""One agent session as its heartbeat records it, and the rules that read heartbeats.

Invariant: pure (no I/O; "now" is an argument, ``clock_now`` reads
``toon_memory.model.clock``). A session id is a safe file stem (letters, digits,
``.``, ``_``, ``-``; never a path); a session is active while it is not ended
and its last heartbeat lies within the window; a soft conflict is a file
touched by two or more sessions that have not ended. The files touched and
the notes of a session are bounded (newest kept).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from toon_memory.errors import InputError, quote
from toon_memory.model.clock import now_iso

DEFAULT_WINDOW_MINUTES = 10
MAX_FILES = 50
MAX_NOTES = 50
MAX_NOTE_CHARS = 500
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
    """Now, as ``toon_memory.model.clock`` tells it (honours ``TOON_MEMORY_TODAY``)."""
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
            f"got {quote(session_id)}",
        )
    return value


def check_window(minutes: object, field_name: str = "window_minutes") -> int:
    """A session window in whole minutes, 1..1440 (config's ``sessionWindowMinutes``)."""
    from toon_memory.model.checks import check_whole

    return check_whole(minutes, field_name, 1, 1440)


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
        raise ValueError(f"pid: expected a whole number, got {quote(pid)}")
    return Session(
        id=check_session_id(str(data.get("id", ""))),
        agent=str(data.get("agent", "") or ""), branch=str(data.get("branch", "") or ""),
        files=_text_list(data.get("files"), MAX_FILES), pid=pid,
        host=str(data.get("host", "") or ""), started=str(data.get("started", "") or ""),
        last_seen=str(data.get("lastSeen", "") or ""), ended=data.get("ended") is True,
        notes=_notes(data.get("notes")),
    )  # fmt: skip


def add_files(old: Sequence[str], new: Iterable[str], root: Path | None) -> tuple[str, ...]:
    """``old`` with ``new`` appended (a file touched again moves last), newest ``MAX_FILES``."""
    files = list(old)
    for raw in new:
        path = normalize_path(raw, root)
        if path:
            if path in files:
                files.remove(path)
            files.append(path)
    return tuple(files[-MAX_FILES:])


def add_notes(
    old: Sequence[Note], new: Iterable[tuple[str, str]], stamp: str, root: Path | None
) -> tuple[Note, ...]:
    """``old`` with the (file, text) notes appended, whitespace folded, newest ``MAX_NOTES``."""
    notes = list(old)
    for file, text in new:
        body = " ".join(str(text).split())[:MAX_NOTE_CHARS]
        if body:
            notes.append(Note(normalize_path(file, root), body, stamp))
    return tuple(notes[-MAX_NOTES:])


def is_active(session: Session, window_minutes: int, now: datetime) -> bool:
    """Not ended, and the last heartbeat lies within the window."""
    age = session.age(now)
    return not session.ended and age is not None and age <= timedelta(minutes=window_minutes)


def is_stale(session: Session, window_minutes: int, now: datetime) -> bool:
    """The heartbeat is past the window (or unreadable)."""
    age = session.age(now)
    return age is None or age > timedelta(minutes=window_minutes)


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
