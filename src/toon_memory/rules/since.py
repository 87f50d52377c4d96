"""``context_diff``: from when, and what changed in the memory since then.

Invariant: a moment is a day (``YYYY-MM-DD``, from ``24h``/``7d``/a date) or a
UTC stamp (``YYYY-MM-DDTHH:MM:SSZ``, a session's last heartbeat); ISO
strings of either kind compare correctly with the entries' ``created`` and
``updated`` stamps. An entry is in at most one of new, updated, forgotten.
Pure except ``resolve_since`` reading "today".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from toon_memory.model.clock import resolve_since
from toon_memory.model.entry import Entry
from toon_memory.model.heartbeat import Session, format_stamp
from toon_memory.rules.changes import diff_entries

#: The window a diff falls back to when no earlier session is known.
FALLBACK = "24h"


@dataclass(frozen=True)
class Moment:
    """Where a diff starts: ``stamp`` for the entries, ``git`` for ``git log --since``."""

    stamp: str
    basis: str
    git: date | datetime


def from_argument(since: str) -> Moment:
    """``24h``, ``7d`` or ``YYYY-MM-DD`` -> the first day included (InputError on ``since``)."""
    text = str(since).strip()
    day = resolve_since(text)
    return Moment(day.isoformat(), text, day)


def from_session(session: Session | None) -> Moment:
    """The last heartbeat of ``session``; the last ``FALLBACK`` when there is none."""
    seen = session.seen_at() if session is not None else None
    if session is None or seen is None:
        moment = from_argument(FALLBACK)
        return Moment(moment.stamp, f"{FALLBACK} (no earlier session on record)", moment.git)
    stamp = format_stamp(seen)
    who = f"{session.id}" + (f", {session.agent}" if session.agent else "")
    verb = "ended" if session.ended else "last seen"
    return Moment(stamp, f"the last session ({who}; {verb} {stamp})", seen)


@dataclass(frozen=True)
class MemoryChanges:
    created: tuple[Entry, ...]
    updated: tuple[Entry, ...]
    forgotten: tuple[Entry, ...]


def memory_changes(entries: Iterable[Entry], stamp: str) -> MemoryChanges:
    """Active entries created or updated at/after ``stamp``, and entries forgotten since.

    Each list newest first. Forgotten: soft-forgotten or superseded (history
    kept) with no active entry of the same key (an older version of a live
    key is its history); a hard delete leaves nothing to show.
    """
    everything = list(entries)
    day = stamp[:10]
    by_day = diff_entries((e for e in everything if e.active), day)
    created = [e for e in by_day.created if e.created >= stamp]
    later = [e for e in by_day.created if e.created < stamp] + by_day.updated
    updated = [e for e in later if e.updated >= stamp]
    live = {e.key for e in everything if e.active}
    forgotten = [
        e.copy()
        for e in everything
        if not e.active
        and e.key not in live  # a live key's older version is history, not a forgotten entry
        and (e.updated >= stamp if e.updated else e.superseded_on >= day)
    ]

    def newest(items: list[Entry]) -> tuple[Entry, ...]:
        return tuple(sorted(items, key=lambda e: (e.updated, e.created, e.key), reverse=True))

    return MemoryChanges(newest(created), newest(updated), newest(forgotten))
