"""``toon-memory watch``: a backup every few minutes, when the memory changed.

Invariant: a check writes a backup only when the memory's document differs
from the newest watch backup (a restarted watcher does not repeat one),
then prunes to the newest ``max_backups`` (0 keeps all); a failing check is
logged and counted, never fatal. ``run`` returns only when ``stop`` is set
or ``gone`` names a reason (parent process gone, stdin closed), with a
summary of what it did. Process concerns (signals, stdin, the parent) are
the caller's: this module only waits, checks and writes through ``store``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toon_memory.errors import ToonMemoryError
from toon_memory.model.checks import check_number, check_whole
from toon_memory.model.clock import now_iso
from toon_memory.store import watch_backups
from toon_memory.store.documents import document_text
from toon_memory.store.store import Store

DEFAULT_INTERVAL = 5.0
DEFAULT_KEEP = 10
#: Seconds between looks at ``stop`` and ``gone`` while waiting for the next check.
POLL = 0.5


class StopSignal:
    """Set once, with the first reason given (a signal name, "stdin closed"…)."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.reason = ""

    def set(self, reason: str) -> None:
        if not self.reason:
            self.reason = reason
        self.event.set()


@dataclass
class WatchSummary:
    """What one watch run did."""

    folder: Path
    interval_minutes: float
    checks: int = 0
    written: list[Path] = field(default_factory=list)
    pruned: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reason: str = ""
    log: Path | None = None
    started: str = ""
    stopped: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder), "interval_minutes": self.interval_minutes,
            "checks": self.checks, "backups": [str(p) for p in self.written],
            "pruned": [str(p) for p in self.pruned], "errors": list(self.errors),
            "reason": self.reason, "log": str(self.log) if self.log else None,
            "started": self.started, "stopped": self.stopped,
        }  # fmt: skip


class Watcher:
    """Backs one memory up when it changed; prunes; logs when asked."""

    def __init__(
        self, store: Store, *, interval_minutes: float = DEFAULT_INTERVAL, compress: bool = False,
        max_backups: int = DEFAULT_KEEP, log: Path | None = None,
    ) -> None:  # fmt: skip
        self.store = store
        self.paths = store.paths
        self.interval = check_number(interval_minutes, "interval", 0.001, 24 * 60)
        self.keep = check_whole(max_backups, "max_backups", 0, 1_000_000)
        self.compress = compress
        self.log_path = log
        self.summary = WatchSummary(self.paths.folder, self.interval, log=log)
        self._last = watch_backups.newest_digest(self.paths)

    def log(self, message: str) -> None:
        if self.log_path is not None:
            try:
                watch_backups.append_log(self.log_path, f"{now_iso()} {message}")
            except OSError as exc:
                self.summary.errors.append(f"log {self.log_path}: {exc}")
                self.log_path = None

    def check(self) -> Path | None:
        """Back up now if the memory changed since the newest watch backup."""
        self.summary.checks += 1
        if not self.paths.data.exists() and not self.paths.journal.exists():
            self.log("no memory written yet")
            return None
        try:
            state = self.store.state()
            entries, summaries = list(state.entries.values()), list(state.summaries.values())
            digest = watch_backups.content_digest(entries, summaries)
            if digest == self._last:
                self.log("no change")
                return None
            text = document_text(entries, summaries)
            path = watch_backups.write_watch_backup(self.paths, text, self.compress)
            self._last = digest
            pruned = watch_backups.prune_watch_backups(self.paths, self.keep)
        except (ToonMemoryError, OSError) as exc:
            self.summary.errors.append(str(exc))
            self.log(f"error: {exc}")
            return None
        self.summary.written.append(path)
        self.summary.pruned.extend(pruned)
        self.log(f"backup {path.name} ({len(state.entries)} entries)")
        for old in pruned:
            self.log(f"pruned {old.name}")
        return path

    def run(self, stop: StopSignal, gone: Callable[[], str] = lambda: "") -> WatchSummary:
        """Check now and every interval until ``stop`` is set or ``gone()`` names a reason."""
        self.summary.started = now_iso()
        every = "" if self.keep == 0 else f", keeping {self.keep}"
        self.log(f"started: every {self.interval:g} min{every} ({self.paths.folder})")
        self.check()
        while not self._wait(stop, gone):
            self.check()
        self.summary.reason = stop.reason
        self.summary.stopped = now_iso()
        s = self.summary
        self.log(f"stopped ({s.reason}): {s.checks} checks, {len(s.written)} backups, "
                 f"{len(s.pruned)} pruned, {len(s.errors)} errors")  # fmt: skip
        return s

    def _wait(self, stop: StopSignal, gone: Callable[[], str]) -> bool:
        """Wait one interval; True when the watch must end."""
        deadline = time.monotonic() + self.interval * 60
        while (left := deadline - time.monotonic()) > 0:
            if stop.event.wait(min(left, POLL)):
                return True
            reason = gone()
            if reason:
                stop.set(reason)
                return True
        return stop.event.is_set()
