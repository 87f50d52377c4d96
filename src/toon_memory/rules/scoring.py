"""Quality, confidence and evidence of an entry.

Invariant: quality is in 0..1 and a pure function of the entry, the day and
its origin (weights: tags 0.3, links 0.2, detail 0.2, recency 0.15,
specificity 0.15; human +0.1, inferred -0.05). Evidence is ``verified`` when
the referenced file exists, ``unverified`` when not, ``conflict`` when the
content overlaps a warning or a critical/high decision. No I/O except the
``file_exists`` callback the caller passes.

Nothing here is a second copy of a ranking concept: recency is
``search.decay.recency``, the file is ``search.paths.normalise_path``'d
(``src/a.py:10-20`` is checked as ``src/a.py``), and the terms compared for a
conflict are the search index's (``search.tokenize``: same words, stems and
stopwords as recall).

Every text pass here is linear in the text's length: specificity reads the
text once as tokens and classifies each token with fixed-width patterns (no
pattern that can backtrack over a long run of word characters).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date

from toon_memory.model.entry import Entry
from toon_memory.search import decay
from toon_memory.search.paths import normalise_path
from toon_memory.search.tokenize import document_terms

CONFLICT_OVERLAP = 0.35
#: Quality's recency: 1.0 for an entry dated today, 0.5 at 45 days (``search.decay``).
RECENCY_HALF_LIFE_DAYS = 45.0
#: A backtick span, or a run of word characters, dots and dashes (with a call's ``()``).
_TOKEN = re.compile(r"`[^`]+`|[\w.\-]+(?:\(\))?")
#: Inside one token, each a fixed-width look: file extension, camelCase, snake_case, digit.
_SPECIFIC_MARKS = (
    re.compile(r"(?<=[\w-])\.\w{1,5}\b"),
    re.compile(r"[a-z][A-Z]\w"),
    re.compile(r"\w_\w"),
    re.compile(r"\d"),
)
#: Specific tokens past this count add nothing to the score.
SPECIFIC_CAP = 2


def specific_count(text: str, cap: int = SPECIFIC_CAP) -> int:
    """How many tokens of ``text`` name something specific (a file, a call, an identifier,
    code in backticks, a number), counted up to ``cap``; one linear pass."""
    count = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if (
            token[0] == "`"
            or (
                token.endswith("()")
                and len(token) > 2
                and (token[-3].isalnum() or token[-3] == "_")
            )
            or any(mark.search(token) for mark in _SPECIFIC_MARKS)
        ):
            count += 1
            if count >= cap:
                break
    return count


def quality_score(entry: Entry, today: date) -> float:
    """A 0..1 quality score from tags, links, detail, recency, specificity and origin."""
    tags = min(len(entry.tags) / 3, 1.0)
    links = min(len(entry.links) / 2, 1.0)
    detail = min(len(entry.content) / 200, 1.0)
    recency = decay.recency(decay.day_of(entry.date), today, RECENCY_HALF_LIFE_DAYS)
    specific = (0.5 if entry.file else 0.0) + min(specific_count(entry.content) / 4, 0.5)
    score = 0.3 * tags + 0.2 * links + 0.2 * detail + 0.15 * recency + 0.15 * specific
    if entry.origin == "human":
        score += 0.1
    elif entry.origin == "inferred":
        score -= 0.05
    return round(max(0.0, min(1.0, score)), 2)


def content_terms(text: str) -> set[str]:
    """The search index's terms of ``text`` (stemmed, stopwords of its language dropped)."""
    return set(document_terms(text))


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
    path = normalise_path(entry.file)
    return "verified" if path and file_exists(path) else "unverified"
