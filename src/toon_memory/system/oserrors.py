"""Operating-system errors told as one line: the path at fault and what to do.

Invariant: ``explain`` never raises and returns a ``FileAccessError`` whose
message names a path (the one the OS reported, or for "not a directory" the
file that stands where a folder is expected) and an action the user can
take. ``is_read_only`` says whether an error means the place cannot be
written (read-only file system, permission denied, immutable file);
``folder_writable`` finds out for sure by creating (and removing) a probe
file. Besides that probe, the only file access is ``exists``/``is_dir``
checks on the reported path's parents.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from toon_memory.errors import FileAccessError, ReadOnlyMemoryError

READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})

_ADVICE: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("the disk is full", "free some space and try again (nothing unsaved was kept)"),
    errno.EDQUOT: ("the disk quota is used up", "free some space and try again"),
    errno.EROFS: ("the file system is read-only", "reads work; changes need a writable place"),
    errno.EACCES: ("permission denied", "check the owner and permissions of this path"),
    errno.EPERM: ("operation not permitted", "check the permissions and attributes of this path"),
    errno.EISDIR: ("is a folder where a file is expected", "move the folder aside"),
    errno.ENOTDIR: ("is a file where a folder is expected", "move the file aside"),
    errno.ENOENT: ("does not exist", "check the path"),
    errno.ENAMETOOLONG: ("the name is too long", "use a shorter path"),
    errno.ELOOP: ("has too many symbolic links", "check the links on this path"),
    errno.EMFILE: ("too many open files", "close other programs and try again"),
    errno.EIO: ("input/output error", "check the disk"),
}


def is_read_only(exc: OSError) -> bool:
    """True when ``exc`` means the place cannot be written."""
    return exc.errno in READ_ONLY_ERRNOS


def _culprit(path: Path) -> Path:
    """For "not a directory": the nearest existing parent that is a file."""
    for parent in path.parents:
        try:
            if parent.exists() and not parent.is_dir():
                return parent
        except OSError:
            continue
    return path


def explain(exc: OSError, path: Path | str | None = None) -> FileAccessError:
    """``exc`` as a one-line ``FileAccessError`` naming the path and what to do."""
    named = exc.filename2 if exc.filename2 is not None else exc.filename  # a rename's target
    where = Path(str(named if named is not None else path or "?"))
    if exc.errno == errno.ENOTDIR:
        where = _culprit(where)
    problem, advice = _ADVICE.get(
        exc.errno or 0, (exc.strerror or type(exc).__name__, "check this path")
    )
    return FileAccessError(where, problem, advice)


def read_only(folder: Path, exc: OSError) -> ReadOnlyMemoryError:
    """The error a change gets when the memory folder cannot be written."""
    problem = _ADVICE.get(exc.errno or 0, ("cannot be written", ""))[0]
    return ReadOnlyMemoryError(
        folder,
        f"the memory is read-only ({problem})",
        "reads work, but remember and other changes need write access to this folder",
    )


def folder_writable(folder: Path) -> bool:
    """Can a file be created in ``folder`` (or, when missing, in its nearest existing parent)?

    ``os.access`` alone misses root on an immutable folder, so a probe file is
    created and removed: the only sure test on every file system.
    """
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        return False
    probe = folder / f".write-probe-{os.getpid()}.tmp"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return True
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return True
