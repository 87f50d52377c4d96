"""The derived cache: the parsed state (and search engine) of one memory.

Invariant: the cache is only ever a shortcut. It is keyed on the identity of
``data.toon`` and the journal/access-log positions it covers; any mismatch
or damage makes it a miss. After a mark of its layout (``HEADER``) its version and
position come first, a pickle of their own, so a cache of another layout or of
another data.toon (a git pull, an import, a compaction made without the state) is a
miss read from its first bytes, never unpickled whole. It lives under the user's
home (``MemoryPaths.cache``), never in the project, so a pickle committed to a
cloned repository is never loaded. An encrypted memory's cache is sealed with its
key (a changed byte, another key or a plain cache is a miss), so no entry text lies
under the home folder in clear.
"""

from __future__ import annotations

import gc
import io
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from toon_memory.model.entry import ATTRIBUTES, FIELDS
from toon_memory.store import crypto
from toon_memory.store.crypto import Key

#: Bump only when the cache's own layout (the pickled tuple) changes; the
#: stored fields, the entry layout and the derived index format are part of
#: the key already, so adding a field or changing the index needs no bump here.
CACHE_LAYOUT = 7
#: What a cache file whose header is pickled apart starts with (inside the seal when
#: sealed); a file of the older layout starts with a pickle opcode: a miss, unread. (Not
#: a ``CACHE_LAYOUT`` bump: that is part of the on-disk index's version too.)
HEADER = b"toon-memory cache, header first\n"
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


def cache_version(derived: str = "") -> str:
    """The key a cache must carry to be used: layout, columns, entry layout, index format."""
    return f"{CACHE_LAYOUT}|{','.join(FIELDS)}|{','.join(ATTRIBUTES)}|{derived}"


def load_cache(
    path: Path, version: str, data: FileId | None, key: Key | None = None
) -> tuple[Position, Any] | None:
    """The cached (position, state), or None when absent, damaged, of another version or
    of another data.toon than ``data`` (its identity now).

    With ``key`` (an encrypted memory) only a cache sealed with that key is used.
    """
    try:
        handle = path.open("rb")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    with handle:
        if crypto.is_sealed(handle.read(len(crypto.MAGIC))) != (key is not None):
            return None
        handle.seek(0)
        source: IO[bytes] = handle
        if key is not None:
            payload = open_cache(handle.read(), key, path)
            if not payload:
                return None
            source = io.BytesIO(payload)
        return _unpickled(source, version, data)


def _unpickled(source: IO[bytes], version: str, data: FileId | None) -> tuple[Position, Any] | None:
    """The header, then (when it names ``version`` and ``data``) the state."""
    if source.read(len(HEADER)) != HEADER:
        return None
    unpickler = pickle.Unpickler(source)
    collecting = gc.isenabled()
    gc.disable()  # unpickling allocates ~10^5 objects; collections in between only cost time
    try:
        found, position = unpickler.load()
        if found != version or not isinstance(position, Position) or position.data != data:
            return None
        return position, unpickler.load()
    except Exception:
        return None
    finally:
        if collecting:
            gc.enable()


def open_cache(payload: bytes, key: Key, path: Path) -> bytes:
    """The plaintext of a sealed cache file; b"" when it does not open (a miss)."""
    from toon_memory.errors import EncryptionError

    try:
        return crypto.open_sealed(key, payload, "cache", str(path))
    except EncryptionError:
        return b""


def write_private(path: Path, payload: bytes) -> None:
    """Replace ``path`` (owner-only, 0o600) by ``payload``: temp file then rename, no fsync —
    derived files are shortcuts, so a failure (ignored) only costs recomputing them later."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(temp, path)
    except OSError:
        return


def save_cache(
    path: Path, version: str, position: Position, state: Any, key: Key | None = None
) -> None:
    """Write the cache, sealed with ``key`` when given (best effort: a failure only
    costs a re-parse later)."""
    try:
        payload = HEADER + pickle.dumps((version, position), protocol=pickle.HIGHEST_PROTOCOL)
        payload += pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        if key is not None:
            payload = crypto.seal(key, payload, "cache")
    except OSError:
        return
    write_private(path, payload)
