"""Which entries move to ``archive.toon``.

Invariant: only active entries are chosen, and the choice is deterministic.
A manual archive takes entries whose TTL expired and entries neither dated,
changed (``updated``) nor recalled in the last 30 days; beyond
``autoArchive.maxEntries`` active entries (default 100, pins counted), the
least recalled, then oldest, then lowest-quality go too. Automatic archiving
(on remember) follows config.json: expired TTL by default, the entry cap by
default, age when set. Pinned entries are never archived. No I/O.
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


def _use_order(entry: Entry) -> tuple[int, str, float, str]:
    """Least recalled first, then the oldest last use (date, change or recall), then the
    lowest quality; ties by id."""
    last_use = max(entry.last_accessed[:10], entry.date[:10], entry.updated[:10])
    return (entry.accessed, last_use, entry.quality, entry.id)


def select_for_archive(
    entries: Iterable[Entry], config: Config, today: date, *, auto: bool
) -> list[Entry]:
    everything = [e for e in entries if e.active]
    active = [e for e in everything if not e.priority]
    pinned = [e for e in everything if e.priority]
    chosen: dict[str, Entry] = {}
    if not auto or config.archive_expired:
        chosen.update((e.id, e) for e in active if is_expired(e.ttl, today))
    days = config.archive_after_days or (0 if auto else STALE_DAYS)
    if days:
        cutoff = (today - timedelta(days=days)).isoformat()
        chosen.update((e.id, e) for e in active if _stale(e, cutoff))
    cap = config.archive_max_entries
    if cap:
        left = [e for e in active if e.id not in chosen]
        if len(left) + len(pinned) > cap:
            ranked = sorted(left, key=_use_order)
            chosen.update((e.id, e) for e in ranked[: max(0, len(left) + len(pinned) - cap)])
    return [e for e in active if e.id in chosen]
