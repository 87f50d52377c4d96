"""Durable writes.

Invariant: ``write_atomic`` leaves either the old file or the complete new
one at ``path``, never a mix, and the new one is on disk (file and folder
fsync'd) when it returns, and it only ever replaces a regular file (never a
device, pipe or folder standing at ``path``: ``/dev/null`` stays a device).
``write_atomic_chunks`` is the same for data written a chunk at a time (a chunk
source that fails leaves the old file and no temp file); ``write_temp_chunks``
leaves no temp file either when its source fails.
``append_durable`` returns only after the bytes are fsync'd. ``durable=False`` keeps the
all-or-nothing replacement but skips the fsyncs: for a file nothing reads after a power
cut (a live session's heartbeat: the sessions died with the machine).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterable
from pathlib import Path


def fsync_dir(folder: Path) -> None:
    """Make a rename inside ``folder`` durable (no-op where unsupported)."""
    if sys.platform == "win32":  # pragma: no cover - not tested here
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy_mode(path: Path, fd: int) -> None:
    """Give the temp file the target's permissions (0644 for a new file), not mkstemp's 0600."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)


def _new_temp(path: Path) -> tuple[int, str]:
    """A new file ``.<name>.<random>.tmp`` beside ``path``, created exclusively (0600), and
    its descriptor: ``tempfile.mkstemp``'s contract without its import (hooks write too)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        name = str(path.parent / f".{path.name}.{os.urandom(5).hex()}.tmp")
        try:
            return os.open(name, flags | getattr(os, "O_BINARY", 0), 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(path.parent))


def write_temp(path: Path, data: bytes) -> Path:
    """Write ``data`` to a fsync'd temp file beside ``path``; return its path."""
    return write_temp_chunks(path, (data,))


def write_temp_chunks(path: Path, chunks: Iterable[bytes], durable: bool = True) -> Path:
    """``write_temp`` of the bytes ``chunks`` yields, one chunk in memory at a time (when
    ``chunks`` raises, the temp file is removed and the error goes on; ``durable=False``:
    not fsync'd)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = _new_temp(path)
    try:
        _copy_mode(path, fd)
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def replace_durable(temp: Path, path: Path) -> None:
    """Rename ``temp`` over ``path`` and fsync the folder."""
    os.replace(temp, path)
    fsync_dir(path.parent)


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file, fsync, rename, fsync folder (the fsyncs
    only when ``durable``)."""
    write_atomic_chunks(path, (data,), durable)


def write_atomic_chunks(path: Path, chunks: Iterable[bytes], durable: bool = True) -> None:
    """``write_atomic`` of the bytes ``chunks`` yields (a big file, never whole in memory);
    when ``chunks`` raises, ``path`` is left as it was and the temp file is removed."""
    import stat

    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file (a device, pipe or folder); not replaced",
                      str(path))  # fmt: skip
    temp = write_temp_chunks(path, chunks, durable)
    if durable:
        replace_durable(temp, path)
    else:
        os.replace(temp, path)


def append_durable(path: Path, data: bytes) -> int:
    """Append ``data`` and fsync; return the file's new length."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.fsync(fd)
        return os.fstat(fd).st_size
    finally:
        os.close(fd)
