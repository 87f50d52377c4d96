"""``memory_consolidate``: plans for identical, similar, low-quality and versioned entries.

Invariant: only active entries are considered; each plan obeys the rules of
``plans`` (soft removals only, pinned entries never removed, no entry both
kept and removed). In a merge every removed entry is directly similar to the
entry kept in its place (no chains: A~B, B~C never drops C for A). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from hashlib import blake2b

from toon_memory.errors import InputError, quote
from toon_memory.model.checks import check_fraction
from toon_memory.model.entry import CONSOLIDATE_MODES, Entry
from toon_memory.rules.curation.plans import (
    FORGET,
    SUPERSEDE,
    ConsolidationPlan,
    KeepUpdate,
    Removal,
    by_category,
    by_preference,
    merged_lists,
    pinned,
)
from toon_memory.rules.curation.similarity import (
    DUPLICATE_JACCARD,
    RankedSets,
    id_sets,
    similar_pairs,
)

MODES = CONSOLIDATE_MODES
DEFAULT_MIN_QUALITY = 0.3
#: Entries this important are never batch-removed for low quality.
PROTECTED_IMPORTANCE = ("critical", "high")


def normalized_content(text: str) -> str:
    """Content as identical-mode compares it: case-folded, whitespace collapsed."""
    return " ".join(text.casefold().split())


def _active(entries: Iterable[Entry]) -> list[Entry]:
    return [e for e in entries if e.active]


def _merge_plan(
    mode: str, groups: Sequence[tuple[Entry, list[tuple[Entry, float]]]]
) -> ConsolidationPlan:
    removals: list[Removal] = []
    updates: list[KeepUpdate] = []
    for keep, dropped in groups:
        reason = "identical content" if mode == "identical" else "near-duplicate"
        for entry, score in dropped:
            removals.append(Removal(entry, SUPERSEDE, f"{reason} of {keep.key}", keep, score))
        tags, links = merged_lists(keep, [e for e, _ in dropped])
        if tags != tuple(keep.tags) or links != tuple(keep.links):
            updates.append(KeepUpdate(keep, tags, links))
    return ConsolidationPlan(mode, tuple(removals), tuple(updates))


def identical_groups(entries: Iterable[Entry]) -> list[tuple[Entry, list[Entry]]]:
    """(kept, duplicates) for each content shared by two or more active entries.

    Contents meet by a 16-byte digest of their normalized text, then are compared
    whole: 100,000 contents are not held a second time to find a few duplicates.
    """
    first: dict[bytes, Entry] = {}
    more: dict[bytes, list[Entry]] = {}
    for entry in by_preference(_active(entries)):
        text = normalized_content(entry.content)
        if text:
            digest = blake2b(text.encode(), digest_size=16).digest()
            if first.setdefault(digest, entry) is not entry:
                more.setdefault(digest, [first[digest]]).append(entry)
    groups: list[tuple[Entry, list[Entry]]] = []
    for candidates in (more[d] for d in first if d in more):  # in order of first sight
        by_text: dict[str, list[Entry]] = {}
        for entry in candidates:
            by_text.setdefault(normalized_content(entry.content), []).append(entry)
        for members in by_text.values():
            keep, rest = members[0], [e for e in members[1:] if not pinned(e)]
            if rest:
                groups.append((keep, rest))
    return groups


def plan_identical(entries: Iterable[Entry]) -> ConsolidationPlan:
    """Entries with the same content (any category): the best one stays."""
    groups = [(keep, [(e, 1.0) for e in rest]) for keep, rest in identical_groups(entries)]
    return _merge_plan("identical", groups)


#: The active entries of one category, best first, and their word sets (``id_sets``).
Group = tuple[list[Entry], RankedSets]


def category_sets(entries: Iterable[Entry]) -> list[Group]:
    """The active entries by category, each group best first with its word sets (made
    once for every finder that compares entries within a category)."""
    groups = by_category(by_preference(_active(entries))).values()
    return [(members, id_sets(e.content for e in members)) for members in groups]


def near_duplicate_pairs(
    entries: Iterable[Entry], threshold: float = DUPLICATE_JACCARD
) -> list[tuple[Entry, Entry, float]]:
    """Active entries of one category whose word sets have Jaccard > ``threshold``.

    Each pair is (better, worse, score) in preference order; pairs sorted by
    score, highest first.
    """
    return near_duplicates_in(category_sets(entries), threshold)


def near_duplicates_in(
    groups: Iterable[Group], threshold: float = DUPLICATE_JACCARD
) -> list[tuple[Entry, Entry, float]]:
    """``near_duplicate_pairs`` of groups made by ``category_sets``."""
    pairs = [(members[i], members[j], s) for members, sets in groups
             for i, j, s in similar_pairs(sets, threshold)]  # fmt: skip
    return sorted(pairs, key=lambda p: (-p[2], p[0].key, p[1].key))


def plan_similar(
    entries: Iterable[Entry], threshold: float = DUPLICATE_JACCARD
) -> ConsolidationPlan:
    """Near duplicates (same category, Jaccard > ``threshold``) merged into the best of them."""
    pairs = near_duplicate_pairs(entries, threshold)
    neighbours: dict[str, list[tuple[Entry, float]]] = {}
    for better, worse, score in pairs:
        neighbours.setdefault(better.id, []).append((worse, score))
        neighbours.setdefault(worse.id, []).append((better, score))
    candidates = by_preference({e.id: e for p in pairs for e in p[:2]}.values())
    taken: set[str] = set()
    groups: list[tuple[Entry, list[tuple[Entry, float]]]] = []
    for keep in candidates:
        if keep.id in taken:
            continue
        taken.add(keep.id)
        dropped = [
            (other, score)
            for other, score in neighbours.get(keep.id, [])
            if other.id not in taken and not pinned(other)
        ]
        taken.update(other.id for other, _ in dropped)
        if dropped:
            groups.append((keep, dropped))
    return _merge_plan("similar", groups)


def check_min_quality(value: object) -> float:
    """The quality floor of ``low-quality``: a number from 0 to 1."""
    return check_fraction(value, "min_quality")


def plan_low_quality(
    entries: Iterable[Entry], min_quality: float = DEFAULT_MIN_QUALITY
) -> ConsolidationPlan:
    """Active entries with quality below ``min_quality`` are soft-forgotten.

    Pinned entries and critical/high ones are left alone.
    """
    floor = check_min_quality(min_quality)
    removals = [
        Removal(e, FORGET, f"quality {e.quality:.2f} < {floor:.2f}")
        for e in sorted(_active(entries), key=lambda e: (e.quality, e.key))
        if e.quality < floor and not pinned(e) and e.importance not in PROTECTED_IMPORTANCE
    ]
    return ConsolidationPlan("low-quality", tuple(removals))


def plan_consolidation(
    entries: Sequence[Entry], mode: str = "identical", min_quality: float | None = None
) -> ConsolidationPlan:
    """The plan of one ``memory_consolidate`` mode."""
    if mode == "identical":
        return plan_identical(entries)
    if mode == "similar":
        return plan_similar(entries)
    if mode == "low-quality":
        return plan_low_quality(
            entries, DEFAULT_MIN_QUALITY if min_quality is None else min_quality
        )
    if mode == "versions":
        from toon_memory.rules.curation.versions import plan_versions

        return plan_versions(entries)
    raise InputError("mode", f"must be one of {', '.join(MODES)}; got {quote(mode)}")
