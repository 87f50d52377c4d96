"""Which entries move to ``archive.toon``.

Invariant: only active entries are chosen, and the choice is deterministic.
A manual archive takes entries whose TTL expired and entries neither dated,
changed (``updated``) nor recalled in the last 30 days; beyond the configured cap, the least useful
(lowest quality, then least recalled, then oldest) go too. Automatic
archiving (on remember) follows config.json only: expired TTL by default,
age and cap when set. Pinned entries are never archived. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from toon_memory.model.clock import is_expired
from toon_memory.model.entry import Entry
from toon_memory.model.settings import Config

STALE_DAYS = 30


@dataclass
class ArchiveResult:
    moved: list[Entry] = field(default_factory=list)
    remaining: int = 0


def _stale(entry: Entry, cutoff: str) -> bool:
    """Neither dated, changed nor recalled on or after ``cutoff`` (an ISO day)."""
    last_use = max(entry.last_accessed[:10], entry.date[:10], entry.updated[:10])
    return last_use < cutoff


def select_for_archive(
    entries: Iterable[Entry], config: Config, today: date, *, auto: bool
) -> list[Entry]:
    active = [e for e in entries if e.active and not e.priority]
    chosen: dict[str, Entry] = {}
    if not auto or config.archive_expired:
        chosen.update((e.id, e) for e in active if is_expired(e.ttl, today))
    days = config.archive_after_days or (0 if auto else STALE_DAYS)
    if days:
        cutoff = (today - timedelta(days=days)).isoformat()
        chosen.update((e.id, e) for e in active if _stale(e, cutoff))
    if config.archive_cap:
        left = [e for e in active if e.id not in chosen]
        if len(left) > config.archive_cap:
            ranked = sorted(left, key=lambda e: (e.quality, e.accessed, e.date))
            chosen.update((e.id, e) for e in ranked[: len(left) - config.archive_cap])
    return [e for e in active if e.id in chosen]
