"""What changed in a memory since a date: the entries created and updated.

Invariant: a pure function of the entries and a start day; an entry is in
``created`` when it was created on or after the day, else in ``updated``
when it was changed on or after it; never in both. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from toon_memory.model.checks import check_choice
from toon_memory.model.entry import DIFF_TYPES, Entry


@dataclass
class Diff:
    """Entries created and updated since ``since`` (YYYY-MM-DD)."""

    since: str
    created: list[Entry] = field(default_factory=list)
    updated: list[Entry] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "since": self.since,
            "created": [e.to_dict() for e in self.created],
            "updated": [e.to_dict() for e in self.updated],
        }


def diff_entries(entries: Iterable[Entry], since: str, kind: str = "all") -> Diff:
    """The changes among ``entries`` since the day ``since``; ``kind``: all, created, updated."""
    kind = check_choice(kind, "type", DIFF_TYPES)
    result = Diff(since)
    for entry in entries:
        if entry.created[:10] >= since:
            result.created.append(entry.copy())
        elif entry.updated[:10] >= since:
            result.updated.append(entry.copy())
    if kind == "created":
        result.updated = []
    elif kind == "updated":
        result.created = []
    return result
