"""Statistics of a memory.

Invariant: a pure function of the entries and the day; shares are 0..1
rounded to 2 places; ``hit_rate`` is the share of active entries recalled at
least once, ``duplicate_rate`` the share whose exact content another active
entry has, ``obsolete_rate`` the share of all entries that are obsolete or
superseded. No I/O.

``compute_stats`` reads entries one at a time; ``grouped_stats`` reads groups of
entries that count alike, each with its size (an on-disk index's ``GROUP BY``:
``store.index_reads.IndexReads.stat_groups``), and gives exactly the same ``Stats``
for the same entries: both feed the one ``_Tally``, which adds a group of ``n`` as
``n`` entries (the qualities' ``fsum`` over the same multiset of values; the
counters' keys first seen in the same order when the groups come in the order of
their first entry).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any, NamedTuple, Protocol

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


class Counted(Protocol):
    """The fields of an entry the tally reads (an ``Entry``, or an ``Alike`` group)."""

    @property
    def status(self) -> str: ...
    @property
    def active(self) -> bool: ...
    @property
    def category(self) -> str: ...
    @property
    def origin(self) -> str: ...
    @property
    def quality(self) -> float: ...
    @property
    def priority(self) -> int: ...
    @property
    def last_accessed(self) -> str: ...
    @property
    def date(self) -> str: ...
    @property
    def accessed(self) -> int: ...
    @property
    def ttl(self) -> str: ...


class Alike(NamedTuple):
    """What a group of entries that count alike share: the fields of ``Counted``
    (``priority`` and ``accessed`` may be given as 0 or 1, all the tally asks of them
    being whether they are 0; ``category`` is not read when ``active`` is False)."""

    status: str
    active: bool
    category: str
    origin: str
    quality: float
    priority: int
    last_accessed: str
    date: str
    accessed: int
    ttl: str


def content_digest(content: str) -> bytes:
    """What the duplicate rate compares: equal contents, equal digests (16 bytes)."""
    return hashlib.blake2b(content.encode(), digest_size=16).digest()


def _is_cold(entry: Counted, cutoff: str) -> bool:
    recent = entry.last_accessed >= cutoff if entry.last_accessed else False
    return entry.quality < COLD_QUALITY or (not recent and entry.date < cutoff)


def compute_stats(entries: Iterable[Entry], today: date, archived: int = 0) -> Stats:
    """One pass over ``entries`` (an iterator will do: no entry is kept)."""
    tally = _Tally(today)
    for entry in entries:
        tally.add(entry)
        if entry.active:
            tally.add_content(content_digest(entry.content))
    return tally.stats(archived)


def grouped_stats(
    groups: Iterable[tuple[Counted, int]],
    contents: Iterable[tuple[bytes, int]],
    today: date,
    archived: int = 0,
) -> Stats:
    """``compute_stats`` of the entries these groups stand for: ``groups`` (each group's
    fields and size, in the file order of each group's first entry, for the counters'
    key order) and ``contents`` (the ``content_digest`` of the active entries, each with
    how many have it; a digest no two have may be left out: it counts nothing)."""
    tally = _Tally(today)
    for group, n in groups:
        tally.add(group, n)
    for digest, n in contents:
        tally.add_content(digest, n)
    return tally.stats(archived)


class _Tally:
    """What ``compute_stats`` counts, entry by entry or group by group (contents kept as
    digests only)."""

    def __init__(self, today: date) -> None:
        self.today = today
        self.soon = (today + timedelta(days=7)).isoformat()
        self.cutoff = (today - timedelta(days=COLD_DAYS)).isoformat()
        self.total = 0
        self.active = 0
        self.status: Counter[str] = Counter()
        self.category: Counter[str] = Counter()
        self.origin: Counter[str] = Counter()
        self.band: Counter[str] = Counter()
        self.contents: Counter[bytes] = Counter()
        #: (quality, how many active entries have it), in the order added: ``fsum`` of
        #: them expanded is the ``fsum`` of the entries' qualities (the same multiset,
        #: and ``fsum`` is exactly rounded, so the order of the values does not matter).
        self.qualities: list[tuple[float, int]] = []
        #: pinned, ttl, expired, soon, cold, hit: counted as plain ints (a Counter.update
        #: per entry was most of the time at 100,000 entries).
        self.flags = dict.fromkeys(_FLAGS, 0)

    def add(self, e: Counted, n: int = 1) -> None:
        """Count ``n`` entries with the fields of ``e`` (all but their content)."""
        self.total += n
        self.status[e.status] += n
        if not e.active:
            return
        self.active += n
        self.category[e.category] += n
        self.origin[e.origin] += n
        self.band[_quality_band(e.quality)] += n
        self.qualities.append((e.quality, n))
        flags = self.flags
        flags["pinned"] += n if e.priority != 0 else 0
        flags["cold"] += n if _is_cold(e, self.cutoff) else 0
        flags["hit"] += n if e.accessed > 0 else 0
        if e.ttl:
            expired = is_expired(e.ttl, self.today)
            flags["ttl"] += n
            flags["expired"] += n if expired else 0
            flags["soon"] += n if not expired and e.ttl <= self.soon else 0

    def add_content(self, digest: bytes, n: int = 1) -> None:
        """``n`` active entries have content of this ``content_digest``."""
        self.contents[digest] += n

    def average_quality(self) -> float:
        if not self.active:
            return 0.0
        values = itertools.chain.from_iterable(itertools.repeat(q, n) for q, n in self.qualities)
        return round(math.fsum(values) / self.active, 2)

    def stats(self, archived: int) -> Stats:
        active, flags = self.active, self.flags
        duplicates = sum(n for n in self.contents.values() if n > 1)
        return Stats(
            total=self.total, active=active, archived=archived,
            by_category=dict(self.category), by_origin=dict(self.origin),
            by_status=dict(self.status), pinned=flags["pinned"], with_ttl=flags["ttl"],
            expired=flags["expired"], expiring_7d=flags["soon"], quality=dict(self.band),
            average_quality=self.average_quality(),
            cold=flags["cold"], hit_rate=_share(flags["hit"], active),
            duplicate_rate=_share(duplicates, active),
            obsolete_rate=_share(self.total - active, self.total),
        )  # fmt: skip
