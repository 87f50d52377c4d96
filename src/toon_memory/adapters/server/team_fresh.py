"""``Refresher``: the team server's pushed freshness, one daemon thread warming projects up.

Invariant: each project a write notice names (``Team.listen``) is refreshed once per
backlog, one project at a time, in this thread and never in the listener's (a call that
holds a project's lock delays that project's refresh, not the notices of the others);
``stop()`` ends the thread within about ``POLL`` seconds, and a refresh that fails is
logged as one line and forgotten (the next call reads the project's head anyway).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("toon_memory.adapters.server")
#: Seconds between two looks at the stop event while waiting for a project's lock.
POLL = 0.2


class Refresher:
    """Runs ``refresh(project)`` for each project ``heard`` names, coalescing repeats."""

    def __init__(self, refresh: Callable[[str], None]) -> None:
        self._refresh = refresh
        self._pending: dict[str, None] = {}  # an ordered set: first heard, first refreshed
        self._wake = threading.Condition()
        #: Set by ``stop``: a refresh waiting for a lock gives up when it sees it.
        self.stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="toon-memory-refresh", daemon=True)
        self._thread.start()

    def heard(self, project: str) -> None:
        """A notice for ``project``: refresh it soon (once, however often it is heard)."""
        with self._wake:
            self._pending[project] = None
            self._wake.notify()

    def wait_lock(self, lock: threading.Lock) -> bool:
        """Take ``lock``, looking at the stop event between tries; False once stopped."""
        while not lock.acquire(timeout=POLL):
            if self.stopped.is_set():
                return False
        if self.stopped.is_set():
            lock.release()
            return False
        return True

    def stop(self, timeout: float = 5.0) -> bool:
        """End the thread (waiting at most ``timeout`` s); True when it is gone."""
        with self._wake:
            self.stopped.set()
            self._wake.notify_all()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _next(self) -> str | None:
        with self._wake:
            while not self._pending and not self.stopped.is_set():
                self._wake.wait()
            if self.stopped.is_set():
                return None
            project = next(iter(self._pending))
            del self._pending[project]
            return project

    def _run(self) -> None:
        while (project := self._next()) is not None:
            try:
                self._refresh(project)
            except Exception as exc:  # nothing escapes the thread
                log.warning("refreshing project %r after a notice: %s", project, exc)
