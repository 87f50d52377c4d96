"""Word-set similarity of texts, and the pairs of a collection that are similar.

Invariant: a text's word set is the search tokenizer's terms of it (stems,
stopwords dropped), so curation and recall agree on what a word is; the
pair finders return exactly the pairs a brute-force comparison of every
pair would, in ascending (i, j) order, only faster: terms are ranked rarest
first, sets are taken smallest first, and a pair is compared only when the
prefixes that any qualifying pair must share do meet (prefix, size and
position filtering, as in the AllPairs/PPJoin similarity joins). Pure.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from toon_memory.search.tokenize import document_terms

#: The seeds' near-duplicate threshold: Jaccard strictly above 0.5.
DUPLICATE_JACCARD = 0.5
_EPS = 1e-9


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


def _up(value: float) -> int:
    """ceil, forgiving float noise downwards (a shorter bound only means a longer prefix)."""
    return max(math.ceil(value - _EPS), 0)


def _ranked(sets: Sequence[frozenset[str]]) -> list[list[int]]:
    """Each set as term ranks, rarest term first (ties by the term itself)."""
    freq = Counter(term for terms in sets for term in terms)
    rank = {term: n for n, term in enumerate(sorted(freq, key=lambda t: (freq[t], t)))}
    return [sorted(rank[t] for t in terms) for terms in sets]


def _by_size(sets: Sequence[frozenset[str]]) -> list[int]:
    return sorted((i for i, s in enumerate(sets) if s), key=lambda i: (len(sets[i]), i))


def similar_pairs(
    sets: Sequence[frozenset[str]], threshold: float = DUPLICATE_JACCARD
) -> list[tuple[int, int, float]]:
    """Every (i, j, jaccard) with i < j and Jaccard strictly above ``threshold``.

    For a pair with |y| <= |x| and Jaccard >= t: |y| >= t|x| and the overlap
    is at least ceil(t/(1+t) (|x|+|y|)), which is >= ceil(t|x|) and >=
    ceil(2t/(1+t) |y|); so x's first |x| - ceil(t|x|) + 1 terms meet y's
    first |y| - ceil(2t/(1+t) |y|) + 1, the only ones indexed.
    """
    t, share = threshold, threshold / (1 + threshold)
    ranked = _ranked(sets)
    size = [len(r) for r in ranked]
    index: dict[int, list[tuple[int, int]]] = {}  # term -> (set, terms after it in that set)
    pairs: list[tuple[int, int, float]] = []
    for i in _by_size(sets):
        x, nx = ranked[i], size[i]
        counts: dict[int, int] = {}
        smallest = t * nx - _EPS
        for px in range(min(nx - _up(t * nx) + 1, nx)):
            rest_x = nx - px - 1
            for j, rest_y in index.get(x[px], ()):
                seen = counts.get(j, 0)
                if seen < 0 or size[j] < smallest:
                    continue
                bound = seen + 1 + (rest_x if rest_x < rest_y else rest_y)
                counts[j] = seen + 1 if bound >= share * (nx + size[j]) - _EPS else -1
        for j, seen in counts.items():
            score = jaccard(sets[i], sets[j]) if seen > 0 else 0.0
            if score > t:
                pairs.append((min(i, j), max(i, j), score))
        for px in range(min(nx - _up(2 * share * nx) + 1, nx)):
            index.setdefault(x[px], []).append((i, nx - px - 1))
    return sorted(pairs)


def overlapping_pairs(
    sets: Sequence[frozenset[str]], threshold: float, min_shared: int = 1
) -> list[tuple[int, int, float]]:
    """Every (i, j, overlap coefficient) with i < j, the coefficient at least ``threshold``
    and at least ``min_shared`` terms in common.

    The smaller set y of a qualifying pair shares at least ceil(t|y|) terms,
    so its first |y| - ceil(t|y|) + 1 terms (the ones indexed) meet x.
    """
    ranked = _ranked(sets)
    size = [len(r) for r in ranked]
    need = [max(_up(threshold * n), min_shared, 1) for n in size]
    index: dict[int, list[tuple[int, int]]] = {}  # term -> (set, terms after it in that set)
    pairs: list[tuple[int, int, float]] = []
    for i in _by_size(sets):
        x, nx = ranked[i], size[i]
        if nx < min_shared:
            continue
        counts: dict[int, int] = {}
        for px, term in enumerate(x):
            rest_x = nx - px - 1
            for j, rest_y in index.get(term, ()):
                seen = counts.get(j, 0)
                if seen >= 0:
                    bound = seen + 1 + (rest_x if rest_x < rest_y else rest_y)
                    counts[j] = seen + 1 if bound >= need[j] else -1
        for j, seen in counts.items():
            shared = len(sets[i] & sets[j]) if seen > 0 else 0
            if shared >= need[j]:
                pairs.append((min(i, j), max(i, j), shared / min(nx, size[j])))
        for px in range(min(nx - need[i] + 1, nx)):
            index.setdefault(x[px], []).append((i, nx - px - 1))
    return sorted(pairs)


def similar_to(
    queries: Sequence[frozenset[str]],
    sets: Sequence[frozenset[str]],
    threshold: float = DUPLICATE_JACCARD,
) -> list[list[tuple[int, float]]]:
    """For each query, every (index into ``sets``, jaccard) above ``threshold``, best first.

    Any pair above t shares at least ceil(t * max size) terms, so the first
    |s| - ceil(t|s|) + 1 terms of each side meet: only those are compared.
    """
    ranked = _ranked([*sets, *queries])
    index: dict[int, list[int]] = {}
    for j, terms in enumerate(ranked[: len(sets)]):
        for term in terms[: len(terms) - _up(threshold * len(terms)) + 1]:
            index.setdefault(term, []).append(j)
    answers: list[list[tuple[int, float]]] = []
    for q, query in enumerate(queries):
        terms = ranked[len(sets) + q]
        near = {j for term in terms[: len(terms) - _up(threshold * len(terms)) + 1]
                for j in index.get(term, ())}  # fmt: skip
        scored = [(j, jaccard(query, sets[j])) for j in sorted(near)]
        answers.append(sorted(((j, s) for j, s in scored if s > threshold), key=lambda p: -p[1]))
    return answers


def overlapping_to(
    queries: Sequence[frozenset[str]], sets: Sequence[frozenset[str]], threshold: float
) -> Iterator[list[tuple[int, float]]]:
    """For each query in turn, every (index into ``sets``, overlap coefficient >= ``threshold``).

    Lazy: a caller that needs only the first answers stops paying there.

    The smaller side s of a qualifying pair shares at least ceil(t|s|)
    terms, so its first |s| - ceil(t|s|) + 1 terms meet the other side:
    a query's prefix is looked up among whole sets, its whole set among
    the sets' prefixes.
    """
    ranked = _ranked([*sets, *queries])
    whole: dict[int, list[int]] = {}
    head: dict[int, list[int]] = {}
    for j, terms in enumerate(ranked[: len(sets)]):
        for n, term in enumerate(terms):
            whole.setdefault(term, []).append(j)
            if n <= len(terms) - _up(threshold * len(terms)):
                head.setdefault(term, []).append(j)
    for q, query in enumerate(queries):
        terms = ranked[len(sets) + q]
        cut = len(terms) - _up(threshold * len(terms)) + 1
        near = {j for term in terms[:cut] for j in whole.get(term, ())}
        near.update(j for term in terms for j in head.get(term, ()))
        scored = [(j, overlap_coefficient(query, sets[j])) for j in sorted(near)]
        yield [(j, score) for j, score in scored if score >= threshold - _EPS]
