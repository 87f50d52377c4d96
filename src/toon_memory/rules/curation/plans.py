"""The plans curation returns, and which of two entries to keep.

Invariant: a plan only describes; applying it is the caller's job, and every
removal in it is a soft one (``forget`` marks an entry obsolete,
``supersede`` marks it superseded by the kept entry's key), so history is
kept and ``restore`` brings an entry back. A plan never removes a pinned
entry (priority > 0), never removes an entry twice, and never keeps an entry
it also removes. Pure; no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from toon_memory.model.entry import IMPORTANCE_RANK, Entry, split_link

FORGET = "forget"
SUPERSEDE = "supersede"


@dataclass(frozen=True)
class Removal:
    """Soft-remove ``entry``: ``forget`` (obsolete) or ``supersede`` by ``keep``."""

    entry: Entry
    action: str
    reason: str
    keep: Entry | None = None
    similarity: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.entry.id, "key": self.entry.key, "category": self.entry.category,
            "action": self.action, "reason": self.reason,
            "keep": self.keep.key if self.keep else "", "similarity": round(self.similarity, 2),
        }  # fmt: skip


@dataclass(frozen=True)
class KeepUpdate:
    """The kept entry of a merge takes the union of the group's tags and links."""

    entry: Entry
    tags: tuple[str, ...]
    links: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.entry.id, "key": self.entry.key, "tags": list(self.tags),
                "links": list(self.links)}  # fmt: skip


@dataclass(frozen=True)
class ConsolidationPlan:
    """What ``memory_consolidate`` would do in one mode (a dry run shows it; a run applies it)."""

    mode: str
    removals: tuple[Removal, ...] = ()
    updates: tuple[KeepUpdate, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.removals or self.updates)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "removals": [r.to_dict() for r in self.removals],
            "updates": [u.to_dict() for u in self.updates],
        }


def last_change(entry: Entry) -> str:
    """The newest of the entry's dates, as ``YYYY-MM-DD`` ('' when it has none)."""
    return max(entry.date[:10], entry.updated[:10], entry.created[:10])


def pinned(entry: Entry) -> bool:
    return entry.priority > 0


def by_preference(entries: Iterable[Entry]) -> list[Entry]:
    """Best first: pinned, more important, higher quality, more confident, newer, more used.

    Ties are broken by id, so the order is a pure function of the entries.
    """
    return sorted(sorted(entries, key=lambda e: e.id), key=_merit, reverse=True)


def _merit(e: Entry) -> tuple[int, int, float, float, str, int]:
    importance = IMPORTANCE_RANK.get(e.importance, 0)
    return (e.priority, importance, e.quality, e.confidence, last_change(e), e.accessed)


def by_category(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    """Entries grouped by category, each group in the given order."""
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.category, []).append(entry)
    return groups


def merged_lists(keep: Entry, dropped: Sequence[Entry]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kept entry's tags and links joined with those of the entries merged into it.

    Links to the kept entry itself, or to an entry merged away, are left out.
    """
    gone = {e.key for e in dropped} | {keep.key}
    tags = list(keep.tags)
    links = list(keep.links)
    for entry in dropped:
        tags.extend(t for t in entry.tags if t not in tags)
        for link in entry.links:
            if link not in links and split_link(link)[1] not in gone:
                links.append(link)
    return tuple(tags), tuple(links)
