"""Statistics of a memory.

Invariant: a pure function of the entries and the day; shares are 0..1
rounded to 2 places; ``hit_rate`` is the share of active entries recalled at
least once, ``duplicate_rate`` the share whose exact content another active
entry has, ``obsolete_rate`` the share of all entries that are obsolete or
superseded. No I/O.
"""

from __future__ import annotations

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
    everything = list(entries)
    active = [e for e in everything if e.active]
    soon = (today + timedelta(days=7)).isoformat()
    cutoff = (today - timedelta(days=COLD_DAYS)).isoformat()
    contents = Counter(e.content for e in active)
    stats = Stats(
        total=len(everything), active=len(active), archived=archived,
        by_category=dict(Counter(e.category for e in active)),
        by_origin=dict(Counter(e.origin for e in active)),
        by_status=dict(Counter(e.status for e in everything)),
        pinned=sum(1 for e in active if e.priority),
        with_ttl=sum(1 for e in active if e.ttl),
        expired=sum(1 for e in active if is_expired(e.ttl, today)),
        expiring_7d=sum(1 for e in active if e.ttl and not is_expired(e.ttl, today) and e.ttl <= soon),
        quality=dict(Counter(_quality_band(e.quality) for e in active)),
        average_quality=round(math.fsum(e.quality for e in active) / len(active), 2) if active else 0.0,
        cold=sum(1 for e in active if _is_cold(e, cutoff)),
        hit_rate=_share(sum(1 for e in active if e.accessed > 0), len(active)),
        duplicate_rate=_share(sum(1 for e in active if contents[e.content] > 1), len(active)),
        obsolete_rate=_share(len(everything) - len(active), len(everything)),
    )  # fmt: skip
    return stats
