"""Change detection for the live page: the memory files' stat, and a version clients wait on.

Invariant: watching costs one ``stat`` per file per poll (no reads, no
inotify dependency); a change is any difference in (inode, size, mtime_ns)
or in existence. ``Changes.version`` only grows; every waiter wakes on each
bump and on ``close``, after which waiting returns at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

Signature = tuple[tuple[int, int, int] | None, ...]


def signature(paths: Sequence[Path]) -> Signature:
    """(inode, size, mtime_ns) of each path, ``None`` where it does not exist."""
    out: list[tuple[int, int, int] | None] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            out.append(None)
        else:
            out.append((st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


class Changes:
    """A counter that threads can wait on (one per server; SSE handlers wait here)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0
        self.closed = False

    def bump(self) -> None:
        with self._cond:
            self.version += 1
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def wait_past(self, seen: int, timeout: float) -> int:
        """The version once it exceeds ``seen``, or the current one after ``timeout``/close."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > seen or self.closed, timeout)
            return self.version


class FileWatcher(threading.Thread):
    """Polls ``paths`` every ``interval`` seconds and calls ``on_change`` when they differ."""

    def __init__(
        self, paths: Sequence[Path], on_change: Callable[[], None], interval: float = 0.25
    ) -> None:
        super().__init__(name="toon-viewer-watch", daemon=True)
        self.paths = list(paths)
        self.on_change = on_change
        self.interval = interval
        self._halt = threading.Event()
        self._last = signature(self.paths)

    def poll(self) -> bool:
        """Check once; call ``on_change`` and return True if anything changed."""
        now = signature(self.paths)
        if now == self._last:
            return False
        self._last = now
        self.on_change()
        return True

    def run(self) -> None:
        while not self._halt.wait(self.interval):
            self.poll()

    def stop(self) -> None:
        self._halt.set()
