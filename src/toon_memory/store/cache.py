"""The derived cache: the parsed state (and search engine) of one memory.

Invariant: the cache is only ever a shortcut. It is keyed on the identity of
``data.toon`` and the journal/access-log positions it covers, any mismatch
or damage makes it a miss, and it is signed with a per-user key (kept under
the home store, never in the project) so a cache file planted in a cloned
repository is rejected instead of unpickled.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.store.paths import STORE_DIR, home_dir

CACHE_VERSION = 3
FileId = tuple[int, int, int]


def file_id(path: Path) -> FileId | None:
    """(inode, mtime ns, size) of ``path``, or None when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


@dataclass(frozen=True)
class Position:
    """How far a state has read: the snapshot it came from and log offsets."""

    data: FileId | None
    journal_ino: int | None
    journal_offset: int
    access_ino: int | None
    access_offset: int


def _signing_key() -> bytes:
    path = home_dir() / STORE_DIR / "cache.key"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes()
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


def _digest(payload: bytes) -> bytes:
    return hashlib.blake2b(payload, key=_signing_key(), digest_size=32).digest()


def load_cache(path: Path) -> tuple[Position, Any] | None:
    """The cached (position, state), or None when absent, stale in format or unsigned."""
    try:
        blob = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    digest, payload = blob[:32], blob[32:]
    if len(digest) < 32 or not secrets.compare_digest(digest, _digest(payload)):
        return None
    collecting = gc.isenabled()
    gc.disable()  # unpickling allocates ~10^5 objects; collections in between only cost time
    try:
        version, position, state = pickle.loads(payload)
    except Exception:
        return None
    finally:
        if collecting:
            gc.enable()
    if version != CACHE_VERSION or not isinstance(position, Position):
        return None
    return position, state


def save_cache(path: Path, position: Position, state: Any) -> None:
    """Write the cache (best effort: a failure only costs a re-parse later)."""
    try:
        payload = pickle.dumps((CACHE_VERSION, position, state), protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temp.write_bytes(_digest(payload) + payload)
        os.replace(temp, path)
    except OSError:
        return
