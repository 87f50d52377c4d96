"""The captured activity log: ``<memory folder>/captured.jsonl``, one JSON event a line.

Invariant: the log never grows past ``max_bytes`` plus one event before it is
rotated to ``captured.1.jsonl`` (one rotated file is kept; the older one is
dropped); an event is appended with one ``write`` on an ``O_APPEND`` file,
so concurrent writers never interleave lines; rotation happens under
``captured.jsonl.lock`` and re-checks the size there, so two writers never
rotate twice. Readers skip lines that do not parse (a torn last line). Only
hooks decide whether to capture (``capture`` in config.json); this module
writes whenever it is called.

An event is a flat JSON object; the fields hooks write are ``ts``,
``session``, ``agent``, ``branch``, ``tool``, ``file`` and ``summary``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from toon_memory.model.clock import now_iso

LOG_NAME = "captured.jsonl"
ROTATED_NAME = "captured.1.jsonl"
MAX_BYTES = 1_000_000
MAX_VALUE_CHARS = 2_000
LOCK_TIMEOUT = 5.0


def log_path(folder: Path) -> Path:
    return Path(folder) / LOG_NAME


def rotated_path(folder: Path) -> Path:
    return Path(folder) / ROTATED_NAME


def _bounded(value: Any) -> Any:
    """Scalars as they are (long strings cut); anything else as bounded text."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def encode_event(event: dict[str, Any]) -> bytes:
    """One log line: ``ts`` first (now when missing), every value bounded."""
    body = {str(k): _bounded(v) for k, v in event.items()}
    line = {"ts": str(body.pop("ts", "") or now_iso()), **body}
    return (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _full(folder: Path, incoming: int, max_bytes: int) -> bool:
    size = _size(log_path(folder))
    return size > 0 and size + incoming > max_bytes


def _rotate(folder: Path, incoming: int, max_bytes: int) -> None:
    from toon_memory.errors import LockTimeoutError
    from toon_memory.system.lock import FileLock

    try:
        with FileLock(Path(folder) / f"{LOG_NAME}.lock", timeout=LOCK_TIMEOUT):
            if _full(folder, incoming, max_bytes):  # another writer may have rotated already
                os.replace(log_path(folder), rotated_path(folder))
    except (LockTimeoutError, FileNotFoundError):
        return  # the next event tries again; capture never fails a hook


def capture(folder: Path, event: dict[str, Any], *, max_bytes: int = MAX_BYTES) -> None:
    """Append ``event`` to the log, rotating it first when it is full."""
    data = encode_event(event)
    path = log_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    if _full(folder, len(data), max_bytes):
        _rotate(folder, len(data), max_bytes)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _events(path: Path) -> list[dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    events: list[dict[str, Any]] = []
    for line in raw.splitlines():
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


def read_captured(
    folder: Path, limit: int | None = 50, *, session: str = "", file: str = ""
) -> list[dict[str, Any]]:
    """The newest ``limit`` events (None: all), oldest first; optionally of one session/file.

    ``file`` matches the event's ``file`` exactly or as a path suffix
    (``src/a.py`` matches ``/repo/src/a.py``).
    """
    events = _events(rotated_path(folder)) + _events(log_path(folder))
    if session:
        events = [e for e in events if str(e.get("session", "")) == session]
    if file:
        events = [e for e in events if same_file(str(e.get("file", "")), file)]
    if limit is None:
        return events
    return events[-limit:] if limit > 0 else []


def clear_captured(folder: Path) -> int:
    """Delete the log and its rotated file; return how many events they held."""
    removed = 0
    for path in (rotated_path(folder), log_path(folder)):
        removed += len(_events(path))
        try:
            path.unlink()
        except FileNotFoundError:
            continue
    return removed


def same_file(recorded: str, wanted: str) -> bool:
    """Whether two spellings of a path name the same file (``/`` vs ``\\``, ``./``, suffix)."""
    a = _plain(recorded)
    b = _plain(wanted)
    if not a or not b:
        return False
    if a == b:
        return True
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer.endswith("/" + shorter)


def _plain(path: str) -> str:
    text = path.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text.rstrip("/")
