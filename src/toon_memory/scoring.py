"""Quality, confidence and evidence of an entry.

Invariant: quality is in 0..1 and a pure function of the entry, the day and
its origin (weights: tags 0.3, links 0.2, detail 0.2, recency 0.15,
specificity 0.15; human +0.1, inferred -0.05). Evidence is ``verified`` when
the referenced file exists, ``unverified`` when not, ``conflict`` when the
content overlaps a warning or a critical/high decision. No I/O except the
``file_exists`` callback the caller passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date

from toon_memory.model import Entry
from toon_memory.tagging import words_of

CONFLICT_OVERLAP = 0.35
_SPECIFIC = re.compile(r"[\w-]+\.\w{1,5}\b|\w+\(\)|[a-z]+[A-Z]\w+|\w+_\w+|`[^`]+`|\d+")
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "is",
        "are",
        "be",
        "use",
        "not",
        "no",
        "do",
        "this",
        "that",
        "it",
    ]
)


def quality_score(entry: Entry, today: date) -> float:
    """A 0..1 quality score from tags, links, detail, recency, specificity and origin."""
    tags = min(len(entry.tags) / 3, 1.0)
    links = min(len(entry.links) / 2, 1.0)
    detail = min(len(entry.content) / 200, 1.0)
    recency = _recency(entry.date, today)
    specific = (0.5 if entry.file else 0.0) + min(len(_SPECIFIC.findall(entry.content)) / 4, 0.5)
    score = 0.3 * tags + 0.2 * links + 0.2 * detail + 0.15 * recency + 0.15 * specific
    if entry.origin == "human":
        score += 0.1
    elif entry.origin == "inferred":
        score -= 0.05
    return round(max(0.0, min(1.0, score)), 2)


def _recency(day: str, today: date) -> float:
    try:
        age = (today - date.fromisoformat(day[:10])).days
    except ValueError:
        return 0.0
    return max(0.0, 1.0 - max(age, 0) / 90)


def default_confidence(origin: str) -> float:
    """Asserted memories 1.0; inferred ones 0.7 (the seeds' 0.65–0.75 band)."""
    return 0.7 if origin == "inferred" else 1.0


def content_terms(text: str) -> set[str]:
    return {word for word in words_of(text) if len(word) > 2 and word not in _STOP}


def overlap(a: set[str], b: set[str]) -> float:
    """Share of the smaller term set found in the other (0..1)."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def find_conflicts(entry: Entry, others: Iterable[Entry]) -> list[Entry]:
    """Active warnings and critical/high decisions whose content overlaps ``entry``."""
    terms = content_terms(entry.content)
    hits: list[Entry] = []
    for other in others:
        if other.key == entry.key or not other.active:
            continue
        guarded = other.category == "warning" or (
            other.category == "decision" and other.importance in ("critical", "high")
        )
        if guarded and overlap(terms, content_terms(other.content)) >= CONFLICT_OVERLAP:
            hits.append(other)
    return hits


def evidence_level(entry: Entry, conflicts: list[Entry], file_exists: Callable[[str], bool]) -> str:
    if conflicts:
        return "conflict"
    path = re.sub(r":\d+(-\d+)?$", "", entry.file.strip())
    return "verified" if path and file_exists(path) else "unverified"
