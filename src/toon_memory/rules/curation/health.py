"""``context_health``: what is wrong with a memory, and a 0-100 score.

Invariant: findings are a deterministic function of the entries, the day,
the ``file_exists`` answers and the stale-session count; only active entries
are judged (a link to an inactive entry is not an orphan: its target is
still there). The score is 100 minus each kind's weight x count, every kind
capped at ``KIND_CAP``, floored at 0; no findings is 100. No I/O except
through ``file_exists``, which must accept a plain path and a glob (true
when any file matches).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from toon_memory.model.clock import is_expired
from toon_memory.model.entry import Entry, split_link
from toon_memory.rules.curation.consolidate import (
    Group,
    category_sets,
    near_duplicates_in,
    plan_identical,
)
from toon_memory.rules.curation.plans import last_change
from toon_memory.rules.curation.similarity import DUPLICATE_JACCARD, jaccard, overlapping_pairs

#: Penalty per finding of each kind.
WEIGHTS: dict[str, int] = {
    "orphan_link": 3, "duplicate": 3, "broken_file": 4, "expired_ttl": 2,
    "missing_evidence": 2, "stale_claim": 2, "stale_session": 1,
}  # fmt: skip
KIND_CAP = 25
#: Two claims overlap when this share of the smaller one's words is in the other.
CLAIM_OVERLAP = 0.6
CLAIM_MIN_SHARED = 3
_LINE_SUFFIX = re.compile(r":\d+(-\d+)?$")


@dataclass(frozen=True)
class Finding:
    """One problem: its kind (a key of ``WEIGHTS``), the entry it is about, and what is wrong."""

    kind: str
    key: str
    detail: str
    related: str = ""
    count: int = 1

    @property
    def penalty(self) -> int:
        return WEIGHTS.get(self.kind, 1) * self.count

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "detail": self.detail,
                "related": self.related, "count": self.count}  # fmt: skip


def orphan_links(entries: Sequence[Entry]) -> list[Finding]:
    """Links of active entries to keys (or ids) no entry has."""
    known = {e.key for e in entries}
    known.update(e.id for e in entries)
    found: list[Finding] = []
    for entry in entries:
        if not entry.active:
            continue
        for link in entry.links:
            target = split_link(link)[1]
            if target and target not in known:
                found.append(
                    Finding(
                        "orphan_link", entry.key, f"{entry.key} -> {target} (key not found)", target
                    )
                )
    return found


def duplicates(entries: Sequence[Entry], groups: Sequence[Group]) -> list[Finding]:
    """Active entries with identical content, or near-duplicates within one category
    (``groups``: ``category_sets`` of the entries)."""
    found: list[Finding] = []
    seen: set[str] = set()
    for removal in plan_identical(entries).removals:
        keep = removal.keep.key if removal.keep else ""
        found.append(Finding("duplicate", removal.entry.key,
                             f"[{removal.entry.category}] {removal.entry.key} has identical content",
                             keep))  # fmt: skip
        seen.add(removal.entry.id)
    for better, worse, score in near_duplicates_in(groups):
        if worse.id in seen or better.id in seen:
            continue
        seen.add(worse.id)
        found.append(Finding("duplicate", worse.key,
                             f"[{worse.category}] {worse.key} near-duplicates {better.key} "
                             f"({score:.0%} same words)", better.key))  # fmt: skip
    return found


def file_problems(entries: Sequence[Entry], file_exists: Callable[[str], bool]) -> list[Finding]:
    """Broken file references, and path scopes that no file backs (missing evidence)."""
    found: list[Finding] = []
    for entry in entries:
        if not entry.active:
            continue
        path = _LINE_SUFFIX.sub("", entry.file.strip())
        if path and not file_exists(path):
            found.append(
                Finding("broken_file", entry.key, f"{entry.key} refers to {path} (missing)", path)
            )
        scope = entry.path_scope.strip()
        if scope and not file_exists(scope):
            found.append(Finding("missing_evidence", entry.key,
                                 f"{entry.key} is scoped to {scope} but no such file exists", scope))  # fmt: skip
    return found


def expired(entries: Sequence[Entry], today: date) -> list[Finding]:
    return [
        Finding("expired_ttl", e.key, f"[{e.category}] {e.key} (expired {e.ttl})", e.ttl)
        for e in entries
        if e.active and is_expired(e.ttl, today)
    ]


def stale_claims(groups: Sequence[Group]) -> list[Finding]:
    """Older active claims that a newer one of the same category largely restates
    (``groups``: ``category_sets`` of the entries).

    Overlap: at least ``CLAIM_OVERLAP`` of the smaller word set and
    ``CLAIM_MIN_SHARED`` words; pairs similar enough to be duplicates
    (Jaccard > 0.5), pairs of one day and pairs linked to each other are left out.
    """
    found: list[Finding] = []
    for members, sets in groups:
        for i, j, _ in overlapping_pairs(sets, CLAIM_OVERLAP, CLAIM_MIN_SHARED):
            a, b = members[i], members[j]
            alike = jaccard(frozenset(sets[i]), frozenset(sets[j])) > DUPLICATE_JACCARD
            if alike or last_change(a) == last_change(b):
                continue
            if not _linked(a, b):
                found.append(_claim(*((a, b) if last_change(a) < last_change(b) else (b, a))))
    once = {f.key: f for f in sorted(found, key=lambda f: (f.key, f.related), reverse=True)}
    return sorted(once.values(), key=lambda f: f.key)


def _claim(older: Entry, newer: Entry) -> Finding:
    detail = (
        f"[{older.category}] {older.key} ({last_change(older)}) overlaps newer "
        f"{newer.key} ({last_change(newer)})"
    )
    return Finding("stale_claim", older.key, detail, newer.key)


def _linked(a: Entry, b: Entry) -> bool:
    return b.key in {split_link(x)[1] for x in a.links} or a.key in {
        split_link(x)[1] for x in b.links
    }


def health_findings(
    entries: Sequence[Entry],
    today: date,
    file_exists: Callable[[str], bool],
    stale_sessions: int = 0,
) -> list[Finding]:
    """Every finding, grouped by kind in a fixed order."""
    groups = category_sets(entries)
    found = [
        *orphan_links(entries),
        *duplicates(entries, groups),
        *file_problems(entries, file_exists),
        *expired(entries, today),
        *stale_claims(groups),
    ]
    if stale_sessions > 0:
        found.append(
            Finding("stale_session", "", f"{stale_sessions} stale session(s)", count=stale_sessions)
        )
    return found


def health_score(findings: Sequence[Finding]) -> int:
    """100 minus the capped penalties of the findings, never below 0."""
    per_kind: dict[str, int] = {}
    for finding in findings:
        per_kind[finding.kind] = per_kind.get(finding.kind, 0) + finding.penalty
    return max(0, 100 - sum(min(total, KIND_CAP) for total in per_kind.values()))
