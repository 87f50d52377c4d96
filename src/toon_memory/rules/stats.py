"""Statistics of a memory.

Invariant: a pure function of the entries and the day; shares are 0..1
rounded to 2 places; ``hit_rate`` is the share of active entries recalled at
least once, ``duplicate_rate`` the share whose exact content another active
entry has, ``obsolete_rate`` the share of all entries that are obsolete or
superseded. No I/O.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any

from toon_memory.model.clock import is_expired
from toon_memory.model.entry import Entry

COLD_QUALITY = 0.4
COLD_DAYS = 30
_FLAGS = ("pinned", "ttl", "expired", "soon", "cold", "hit")


@dataclass
class Stats:
    total: int = 0
    active: int = 0
    archived: int = 0
    by_category: dict[str, int] = field(default_factory=dict)
    by_origin: dict[str, int] = field(default_factory=dict)
    by_status: dict[str, int] = field(default_factory=dict)
    pinned: int = 0
    with_ttl: int = 0
    expired: int = 0
    expiring_7d: int = 0
    quality: dict[str, int] = field(default_factory=dict)
    average_quality: float = 0.0
    cold: int = 0
    hit_rate: float = 0.0
    duplicate_rate: float = 0.0
    obsolete_rate: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _share(part: int, whole: int) -> float:
    return round(part / whole, 2) if whole else 0.0


def _quality_band(score: float) -> str:
    return "high" if score >= 0.7 else "medium" if score >= 0.4 else "low"


def _is_cold(entry: Entry, cutoff: str) -> bool:
    recent = entry.last_accessed >= cutoff if entry.last_accessed else False
    return entry.quality < COLD_QUALITY or (not recent and entry.date < cutoff)


def compute_stats(entries: Iterable[Entry], today: date, archived: int = 0) -> Stats:
    """One pass over ``entries`` (an iterator will do: no entry is kept)."""
    tally = _Tally(today)
    for entry in entries:
        tally.add(entry)
    return tally.stats(archived)


class _Tally:
    """What ``compute_stats`` counts, entry by entry (contents kept as digests only)."""

    def __init__(self, today: date) -> None:
        self.today = today
        self.soon = (today + timedelta(days=7)).isoformat()
        self.cutoff = (today - timedelta(days=COLD_DAYS)).isoformat()
        self.total = 0
        self.status: Counter[str] = Counter()
        self.category: Counter[str] = Counter()
        self.origin: Counter[str] = Counter()
        self.band: Counter[str] = Counter()
        self.contents: Counter[bytes] = Counter()
        self.qualities: list[float] = []
        #: pinned, ttl, expired, soon, cold, hit: counted as plain ints (a Counter.update
        #: per entry was most of the time at 100,000 entries).
        self.flags = dict.fromkeys(_FLAGS, 0)

    def add(self, e: Entry) -> None:
        self.total += 1
        self.status[e.status] += 1
        if not e.active:
            return
        self.category[e.category] += 1
        self.origin[e.origin] += 1
        self.band[_quality_band(e.quality)] += 1
        self.contents[hashlib.blake2b(e.content.encode(), digest_size=16).digest()] += 1
        self.qualities.append(e.quality)
        flags = self.flags
        flags["pinned"] += e.priority != 0
        flags["cold"] += _is_cold(e, self.cutoff)
        flags["hit"] += e.accessed > 0
        if e.ttl:
            expired = is_expired(e.ttl, self.today)
            flags["ttl"] += 1
            flags["expired"] += expired
            flags["soon"] += not expired and e.ttl <= self.soon

    def stats(self, archived: int) -> Stats:
        active, flags = len(self.qualities), self.flags
        duplicates = sum(n for n in self.contents.values() if n > 1)
        return Stats(
            total=self.total, active=active, archived=archived,
            by_category=dict(self.category), by_origin=dict(self.origin),
            by_status=dict(self.status), pinned=flags["pinned"], with_ttl=flags["ttl"],
            expired=flags["expired"], expiring_7d=flags["soon"], quality=dict(self.band),
            average_quality=round(math.fsum(self.qualities) / active, 2) if active else 0.0,
            cold=flags["cold"], hit_rate=_share(flags["hit"], active),
            duplicate_rate=_share(duplicates, active),
            obsolete_rate=_share(self.total - active, self.total),
        )  # fmt: skip
