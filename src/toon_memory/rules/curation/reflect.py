"""``memory_reflect`` and ``memory_promote``: what needs attention, and which drafts can graduate.

Invariant: deterministic functions of the entries and the day. Attention is
0.45 x staleness (days since the entry last changed or was recalled, over
180, capped at 1) + 0.35 x (1 - quality) + 0.2 x over-connection (degree of
HUB_DEGREE or more, scaled up to 2 x HUB_DEGREE); only entries with a
reason are listed. Contradictions are the pairs ``scoring.find_conflicts``
would report (an active entry whose content overlaps an active warning or
critical/high decision), found through an index instead of pair by pair.
A draft (active, confidence <= 0.65) is promoted unless its content has
Jaccard > 0.5 with an entry that stays or was promoted before it. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations
from typing import Any

from toon_memory.model.entry import Entry, split_link
from toon_memory.rules.curation.plans import by_preference, last_change
from toon_memory.rules.curation.similarity import (
    DUPLICATE_JACCARD,
    id_sets,
    overlapping_to,
    similar_to,
)
from toon_memory.rules.scoring import CONFLICT_OVERLAP, content_terms

STALE_DAYS = 180
HUB_DEGREE = 8
LOW_QUALITY = 0.4
DRAFT_CONFIDENCE = 0.65
PROMOTED_CONFIDENCE = 0.75


@dataclass(frozen=True)
class Attention:
    """One entry that needs a look, and why."""

    entry: Entry
    score: float
    reasons: tuple[str, ...]
    days_idle: int
    degree: int

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.entry.key, "id": self.entry.id, "category": self.entry.category,
                "score": round(self.score, 3), "reasons": list(self.reasons),
                "days_idle": self.days_idle, "degree": self.degree}  # fmt: skip


@dataclass(frozen=True)
class Reflection:
    attention: tuple[Attention, ...]
    tag_pairs: tuple[tuple[str, str, int], ...]
    contradictions: tuple[tuple[Entry, Entry], ...]


def _days_since(day: str, today: date) -> int | None:
    try:
        return max((today - date.fromisoformat(day[:10])).days, 0)
    except ValueError:
        return None


def days_idle(entry: Entry, today: date) -> int:
    """Days since the entry last changed or was recalled (0 when it has no date)."""
    newest = max(last_change(entry), entry.last_accessed[:10])
    return _days_since(newest, today) or 0


def link_degrees(entries: Sequence[Entry]) -> dict[str, int]:
    """Entry id -> links out to existing keys plus links in from other entries."""
    by_key = {e.key: e.id for e in entries}
    degree = dict.fromkeys((e.id for e in entries), 0)
    for entry in entries:
        for target in {split_link(link)[1] for link in entry.links}:
            other = by_key.get(target)
            if other is not None and other != entry.id:
                degree[entry.id] += 1
                degree[other] += 1
    return degree


def _attention(entry: Entry, today: date, degree: int) -> Attention | None:
    idle = days_idle(entry, today)
    stale = min(idle / STALE_DAYS, 1.0)
    hub = min(degree / (2 * HUB_DEGREE), 1.0) if degree >= HUB_DEGREE else 0.0
    reasons: list[str] = []
    if idle >= STALE_DAYS // 2:
        reasons.append(f"stale: {idle} days untouched")
    if entry.quality < LOW_QUALITY:
        reasons.append(f"low quality {entry.quality:.2f}")
    if hub:
        reasons.append(f"hub: {degree} links")
    if not reasons:
        return None
    score = 0.45 * stale + 0.35 * (1.0 - max(0.0, min(entry.quality, 1.0))) + 0.2 * hub
    return Attention(entry, score, tuple(reasons), idle, degree)


def needs_attention(entries: Sequence[Entry], today: date, limit: int = 20) -> list[Attention]:
    """Active entries ranked by staleness, low quality and over-connection, highest first."""
    active = [e for e in entries if e.active]
    degrees = link_degrees(active)
    found = [a for e in active if (a := _attention(e, today, degrees[e.id])) is not None]
    found.sort(key=lambda a: (-a.score, a.entry.key))
    return found[: max(limit, 0)]


def tag_cooccurrence(
    entries: Sequence[Entry], min_count: int = 2, limit: int = 20
) -> list[tuple[str, str, int]]:
    """Tag pairs that appear together on at least ``min_count`` active entries, most first."""
    counts: Counter[tuple[str, str]] = Counter()
    for entry in entries:
        if entry.active:
            counts.update(combinations(sorted(set(entry.tags)), 2))
    pairs = [(a, b, n) for (a, b), n in counts.items() if n >= min_count]
    return sorted(pairs, key=lambda p: (-p[2], p[0], p[1]))[: max(limit, 0)]


def _guarded(entry: Entry) -> bool:
    return entry.category == "warning" or (
        entry.category == "decision" and entry.importance in ("critical", "high")
    )


def contradictions(entries: Sequence[Entry], limit: int = 50) -> list[tuple[Entry, Entry]]:
    """(entry, warning or critical/high decision it overlaps), as ``find_conflicts`` decides.

    Pairs of two guards of the same category agree rather than clash and are
    left out; so are pairs already linked to each other (a rejected option
    linked to the chosen one, a supersession): someone reconciled them.
    """
    active = by_preference(e for e in entries if e.active)
    at = [i for i, e in enumerate(active) if _guarded(e)]
    guards = [active[i] for i in at]
    sets = id_sets((e.content for e in active), content_terms)
    hits = overlapping_to(sets, sets.pick(at), CONFLICT_OVERLAP)
    found: list[tuple[Entry, Entry]] = []
    for entry, near in zip(active, hits, strict=True):
        for index, _ in near:
            guard = guards[index]
            if guard.key == entry.key or (_guarded(entry) and entry.category == guard.category):
                continue
            if not _linked(entry, guard):
                found.append((entry, guard))
        if len(found) >= limit:
            break
    return found[: max(limit, 0)]


def _linked(a: Entry, b: Entry) -> bool:
    return bool({split_link(link)[1] for link in a.links + b.links} & {a.key, b.key})


def reflect(entries: Sequence[Entry], today: date, limit: int = 20) -> Reflection:
    """Everything ``memory_reflect`` shows."""
    return Reflection(
        tuple(needs_attention(entries, today, limit)),
        tuple(tag_cooccurrence(entries)),
        tuple(contradictions(entries, limit)),
    )


@dataclass(frozen=True)
class PromotePlan:
    """Drafts to promote (to ``PROMOTED_CONFIDENCE``) and drafts held back as duplicates."""

    promote: tuple[Entry, ...]
    duplicates: tuple[tuple[Entry, Entry, float], ...]  # (draft, entry it duplicates, jaccard)
    confidence: float = PROMOTED_CONFIDENCE

    def to_dict(self) -> dict[str, Any]:
        return {
            "promote": [{"key": e.key, "id": e.id, "confidence": e.confidence} for e in self.promote],
            "duplicates": [{"key": d.key, "duplicate_of": o.key, "similarity": round(s, 2)}
                           for d, o, s in self.duplicates],
            "confidence": self.confidence,
        }  # fmt: skip


def is_draft(entry: Entry) -> bool:
    return entry.active and entry.confidence <= DRAFT_CONFIDENCE


def plan_promotion(entries: Sequence[Entry]) -> PromotePlan:
    """Which drafts become full entries, best drafts first."""
    active = [e for e in entries if e.active]
    drafts = by_preference(e for e in active if is_draft(e))
    sets = id_sets(e.content for e in active)
    position = {e.id: i for i, e in enumerate(active) if is_draft(e)}
    hits = similar_to(sets.pick(position[d.id] for d in drafts), sets, DUPLICATE_JACCARD)
    staying = {i for i, e in enumerate(active) if not is_draft(e)}
    promote: list[Entry] = []
    duplicates: list[tuple[Entry, Entry, float]] = []
    for draft, near in zip(drafts, hits, strict=True):
        match = [(j, score) for j, score in near if j in staying]
        if match:
            duplicates.append((draft, active[match[0][0]], match[0][1]))
            continue
        promote.append(draft)
        staying.add(position[draft.id])
    return PromotePlan(tuple(promote), tuple(duplicates))
