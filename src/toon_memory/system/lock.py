"""An inter-process lock over one lock file.

Invariant: the lock file is created once and never deleted, so there is no
window where a second process locks a file that a first one is removing
(the race the TypeScript original hits as ``ENOENT … data.toon.lock``).
The OS releases the lock when its holder dies, even on SIGKILL.

``filelock`` would do this too, but it imports asyncio (50–70 ms) and every
CLI call and hook pays that; this is the same advisory-lock call
(``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows) in a few lines.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from types import TracebackType

from toon_memory.errors import LockTimeoutError

DEFAULT_TIMEOUT = 30.0


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - not tested here
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - not tested here
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """Exclusive, re-entrant within one object, blocking with a timeout."""

    def __init__(self, path: Path, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._depth = 0

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._depth > 0

    def acquire(self) -> None:
        if self._depth:
            self._depth += 1
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        delay = 0.001
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                os.close(fd)
                raise LockTimeoutError(
                    f"{self.path}: another toon-memory process held the lock for "
                    f"more than {self.timeout:.0f} s"
                )
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        self._fd = fd
        self._depth = 1

    def release(self) -> None:
        if not self._depth:
            return
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
