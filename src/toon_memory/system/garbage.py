"""A long-lived server's garbage collection: what a call leaves alive is frozen, cycles are
collected when the server is idle (after its idle work, if it has any).

Invariant: when the last running call ends, every object alive is frozen (``gc.freeze``, O(1)),
so the automatic collections of the next call look only at what that call makes, never at the
warm state of a big memory (a full collection over a 100,000-entry server's terms, rows and
entries took 50-80 ms, and it landed inside calls). Frozen objects that later become cyclic
garbage are still freed, by a full pass (``gc.unfreeze``, ``gc.collect``, ``gc.freeze``) run
from a daemon thread once no call has run for ``idle`` seconds (the thread then ends), or at the end of the
``EVERY``-th call since the last full pass (a server that is never idle keeps the garbage of
at most that many calls). Only when to collect changes; never what. (``gc.get_freeze_count``
walks the frozen list: never called per call.)
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: Seconds without a call before the daemon thread collects frozen cycles.
IDLE = 2.0
#: Calls after which a server that was never idle collects in full (~50-80 ms at 100,000).
EVERY = 512


class Collector:
    """Freezes the survivors of each call; collects in full when idle (see the invariant)."""

    def __init__(self, idle: float = IDLE, idle_work: Callable[[], None] = lambda: None) -> None:
        """``idle_work``: what the server does once ``idle`` seconds pass with no call, before
        the full pass (the idle thread runs it; it must let a call that starts go first)."""
        self._idle = idle
        self._idle_work = idle_work
        self._guard = threading.Lock()
        self._running = 0
        self._last_end = time.monotonic()
        self._uncollected = 0  # calls settled since the last full pass
        self._thread: threading.Thread | None = None

    @contextmanager
    def call(self) -> Iterator[None]:
        """Around one call: when the last running call ends, its survivors are frozen."""
        with self._guard:
            self._running += 1
        try:
            yield
        finally:
            with self._guard:
                self._running -= 1
                self._last_end = time.monotonic()
                last = self._running == 0
            if last:
                self._settle()

    def _settle(self) -> None:
        gc.freeze()
        self._uncollected += 1
        if self._uncollected >= EVERY:
            self.collect()
            return
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="idle-gc", daemon=True)
                self._thread.start()

    def collect(self) -> None:
        """A full pass over every object, frozen ones included; survivors frozen again."""
        self._uncollected = 0
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def _watch(self) -> None:
        """The daemon thread: the idle work and one full pass once ``idle`` seconds pass with
        no call, then it ends (the next call that settles starts another)."""
        while True:
            time.sleep(self._idle / 2)
            with self._guard:
                if self._running or time.monotonic() - self._last_end < self._idle:
                    continue
                self._thread = None
            with contextlib.suppress(Exception):  # (upkeep: a failure waits for the next idle)
                self._idle_work()
            self.collect()
            return
