"""Word-set similarity of texts, and the pairs of a collection that are similar.

Invariant: a text's word set is the search tokenizer's terms of it (stems,
stopwords dropped), so curation and recall agree on what a word is; the
pair finders return exactly the pairs a brute-force comparison of every
pair would, in ascending (i, j) order, only faster (prefix filtering over
the rarest terms). Pure; no I/O.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from toon_memory.search.tokenize import document_terms

#: The seeds' near-duplicate threshold: Jaccard strictly above 0.5.
DUPLICATE_JACCARD = 0.5


@lru_cache(maxsize=65536)
def term_set(text: str) -> frozenset[str]:
    """The distinct index terms of ``text`` (cached: curation asks for the same texts often)."""
    return frozenset(document_terms(text))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b|; 0.0 when either set is empty (no words, no likeness)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def overlap_coefficient(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / min(|a|, |b|): how much of the smaller set the larger one covers."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _ordered(sets: Sequence[frozenset[str]]) -> list[list[str]]:
    """Each set's terms, rarest first (ties by the term), the order prefixes are cut in."""
    freq = Counter(term for terms in sets for term in terms)
    return [sorted(terms, key=lambda t: (freq[t], t)) for terms in sets]


def _candidates(sets: Sequence[frozenset[str]], least_share: float) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, that may share at least ``least_share`` of the smaller set.

    With x the smaller set of a pair (ties: the lower index) and o their
    overlap, o >= ceil(least_share * |x|) implies that x's rarest
    |x| - ceil(least_share * |x|) + 1 terms meet y: so probing only that
    prefix of x against every set at least as large misses no pair.
    """
    ordered = _ordered(sets)
    postings: dict[str, list[int]] = {}
    for index, terms in enumerate(ordered):
        for term in terms:
            postings.setdefault(term, []).append(index)
    rank = sorted(range(len(sets)), key=lambda i: (len(sets[i]), i))
    position = {index: place for place, index in enumerate(rank)}
    found: set[tuple[int, int]] = set()
    for i in rank:
        size = len(sets[i])
        if size == 0:
            continue
        prefix = size - math.ceil(least_share * size - 1e-9) + 1
        for term in ordered[i][: max(prefix, 1)]:
            for j in postings[term]:
                if position[j] > position[i]:
                    found.add((min(i, j), max(i, j)))
    return sorted(found)


def similar_pairs(
    sets: Sequence[frozenset[str]], threshold: float = DUPLICATE_JACCARD
) -> list[tuple[int, int, float]]:
    """Every (i, j, jaccard) with i < j and Jaccard strictly above ``threshold``."""
    pairs: list[tuple[int, int, float]] = []
    for i, j in _candidates(sets, threshold):
        score = jaccard(sets[i], sets[j])
        if score > threshold:
            pairs.append((i, j, score))
    return pairs


def overlapping_pairs(
    sets: Sequence[frozenset[str]], threshold: float, min_shared: int = 1
) -> list[tuple[int, int, float]]:
    """Every (i, j, overlap coefficient) with i < j, the coefficient at least ``threshold``
    and at least ``min_shared`` terms in common."""
    pairs: list[tuple[int, int, float]] = []
    for i, j in _candidates(sets, threshold):
        shared = len(sets[i] & sets[j])
        score = overlap_coefficient(sets[i], sets[j])
        if shared >= min_shared and score >= threshold:
            pairs.append((i, j, score))
    return pairs
