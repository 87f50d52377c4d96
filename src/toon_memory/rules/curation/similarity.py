"""Word-set similarity of texts, and the pairs of a collection that are similar.

Invariant: a text's word set is the search tokenizer's terms of it (stems,
stopwords dropped), so curation and recall agree on what a word is; the
pair finders return exactly the pairs a brute-force comparison of every
pair would, in ascending (i, j) order, only faster: terms are ranked rarest
first, sets are taken smallest first, and a pair is compared only when the
prefixes that any qualifying pair must share do meet (prefix, size and
position filtering, as in the AllPairs/PPJoin similarity joins). A set may be a
frozenset of terms or, for many texts, ``id_sets``' sorted tuple of term ids (a
tenth of the memory): the finders read sizes and overlaps only, equal either way.
Pure.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TypeVar

from toon_memory.search.tokenize import document_terms

#: The seeds' near-duplicate threshold: Jaccard strictly above 0.5.
DUPLICATE_JACCARD = 0.5
_EPS = 1e-9
T = TypeVar("T", bound=Hashable)
#: A word set as the pair finders read it: distinct terms (strings or ``id_sets``' ids).
Terms = Collection[Hashable]


@lru_cache(maxsize=65536)
def term_set(text: str) -> frozenset[str]:
    """The distinct index terms of ``text`` (cached: curation asks for the same texts often)."""
    return frozenset(document_terms(text))


class RankedSets(list[tuple[int, ...]]):
    """``id_sets``' answer: each text's word set as a sorted tuple of term ranks (rarest
    term first over all the texts), which the pair finders read as they are; ``pick``
    keeps the numbering for some of them (queries compared with the sets they are of)."""

    def __init__(self, sets: Iterable[tuple[int, ...]], numbering: object) -> None:
        super().__init__(sets)
        self.numbering = numbering

    def pick(self, positions: Iterable[int]) -> RankedSets:
        return RankedSets((self[i] for i in positions), self.numbering)


def id_sets(
    texts: Iterable[str], terms: Callable[[str], Iterable[str]] = document_terms
) -> RankedSets:
    """The word set of each text (``terms`` of it, distinct) as a sorted tuple of term ranks
    (rarest first, ties by first seen): 100,000 texts in a tenth of their frozensets'
    memory, read by the pair finders with the same sizes and overlaps and without a
    second ranking (one numbering per call, so sets to compare are made together)."""
    ids: dict[str, int] = {}
    number = ids.setdefault
    found = [tuple({number(t, len(ids)) for t in terms(text)}) for text in texts]
    freq = Counter(itertools.chain.from_iterable(found))
    rank = [0] * len(ids)
    for n, term in enumerate(sorted(range(len(ids)), key=freq.__getitem__)):
        rank[term] = n
    for n, held in enumerate(found):
        found[n] = tuple(sorted(map(rank.__getitem__, held)))
    return RankedSets(found, object())


def jaccard(a: frozenset[T], b: frozenset[T]) -> float:
    """|a ∩ b| / |a ∪ b|; 0.0 when either set is empty (no words, no likeness)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def overlap_coefficient(a: frozenset[T], b: frozenset[T]) -> float:
    """|a ∩ b| / min(|a|, |b|): how much of the smaller set the larger one covers."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _shared(x: set[int], y: Sequence[int]) -> int:
    """|x ∩ y| of two ranked sets (``_ranked``: the same overlap as the sets they rank)."""
    return len(x.intersection(y))


def _up(value: float) -> int:
    """ceil, forgiving float noise downwards (a shorter bound only means a longer prefix)."""
    return max(math.ceil(value - _EPS), 0)


def _ranked(sets: Sequence[Terms], queries: Sequence[Terms] = ()) -> list[Sequence[int]]:
    """The sets, then the queries, as sorted term ranks, rarest term first (ties by first
    seen: any fixed order of the terms finds the same pairs); ``RankedSets`` of one
    numbering are so already."""
    if isinstance(sets, RankedSets) and (
        not queries or (isinstance(queries, RankedSets) and queries.numbering is sets.numbering)
    ):
        return [*sets, *queries]
    every = [*sets, *queries]
    freq = Counter(term for terms in every for term in terms)
    rank = {term: n for n, term in enumerate(sorted(freq, key=freq.__getitem__))}
    return [sorted(rank[t] for t in terms) for terms in every]


class _Postings:
    """term -> the (set, terms after it in that set) pairs indexed so far, kept as two
    lists of ints per term (a pair a tuple would take four times the memory)."""

    def __init__(self) -> None:
        self._sets: dict[int, list[int]] = {}
        self._rests: dict[int, list[int]] = {}

    def add(self, term: int, at: int, rest: int) -> None:
        found = self._sets.get(term)
        if found is None:
            self._sets[term], self._rests[term] = [at], [rest]
        else:
            found.append(at)
            self._rests[term].append(rest)

    def get(self, term: int) -> Iterator[tuple[int, int]]:
        found = self._sets.get(term)
        return zip(found, self._rests[term], strict=True) if found else iter(())


def _by_size(sets: Sequence[Terms]) -> list[int]:
    return sorted((i for i, s in enumerate(sets) if s), key=lambda i: (len(sets[i]), i))


def similar_pairs(
    sets: Sequence[Terms], threshold: float = DUPLICATE_JACCARD
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
    index = _Postings()
    pairs: list[tuple[int, int, float]] = []
    for i in _by_size(sets):
        x, nx = ranked[i], size[i]
        counts: dict[int, int] = {}
        held = set(x)
        smallest = t * nx - _EPS
        for px in range(min(nx - _up(t * nx) + 1, nx)):
            rest_x = nx - px - 1
            for j, rest_y in index.get(x[px]):
                seen = counts.get(j, 0)
                if seen < 0 or size[j] < smallest:
                    continue
                bound = seen + 1 + (rest_x if rest_x < rest_y else rest_y)
                counts[j] = seen + 1 if bound >= share * (nx + size[j]) - _EPS else -1
        for j, seen in counts.items():
            if seen <= 0:
                continue
            score = _jaccard(held, ranked[j])
            if score > t:
                pairs.append((min(i, j), max(i, j), score))
        for px in range(min(nx - _up(2 * share * nx) + 1, nx)):
            index.add(x[px], i, nx - px - 1)
    return sorted(pairs)


def overlapping_pairs(
    sets: Sequence[Terms], threshold: float, min_shared: int = 1
) -> list[tuple[int, int, float]]:
    """Every (i, j, overlap coefficient) with i < j, the coefficient at least ``threshold``
    and at least ``min_shared`` terms in common.

    The smaller set y of a qualifying pair shares at least ceil(t|y|) terms,
    so its first |y| - ceil(t|y|) + 1 terms (the ones indexed) meet x.
    """
    ranked = _ranked(sets)
    size = [len(r) for r in ranked]
    need = [max(_up(threshold * n), min_shared, 1) for n in size]
    index = _Postings()
    pairs: list[tuple[int, int, float]] = []
    for i in _by_size(sets):
        x, nx = ranked[i], size[i]
        if nx < min_shared:
            continue
        counts: dict[int, int] = {}
        held = set(x)
        for px, term in enumerate(x):
            rest_x = nx - px - 1
            for j, rest_y in index.get(term):
                seen = counts.get(j, 0)
                if seen >= 0:
                    bound = seen + 1 + (rest_x if rest_x < rest_y else rest_y)
                    counts[j] = seen + 1 if bound >= need[j] else -1
        for j, seen in counts.items():
            shared = _shared(held, ranked[j]) if seen > 0 else 0
            if shared >= need[j]:
                pairs.append((min(i, j), max(i, j), shared / min(nx, size[j])))
        for px in range(min(nx - need[i] + 1, nx)):
            index.add(x[px], i, nx - px - 1)
    return sorted(pairs)


def similar_to(
    queries: Sequence[Terms],
    sets: Sequence[Terms],
    threshold: float = DUPLICATE_JACCARD,
) -> list[list[tuple[int, float]]]:
    """For each query, every (index into ``sets``, jaccard) above ``threshold``, best first.

    Any pair above t shares at least ceil(t * max size) terms, so the first
    |s| - ceil(t|s|) + 1 terms of each side meet: only those are compared.
    """
    ranked = _ranked(sets, queries)
    index: dict[int, list[int]] = {}
    for j, terms in enumerate(ranked[: len(sets)]):
        for term in terms[: len(terms) - _up(threshold * len(terms)) + 1]:
            index.setdefault(term, []).append(j)
    answers: list[list[tuple[int, float]]] = []
    for q in range(len(queries)):
        terms = ranked[len(sets) + q]
        near = {j for term in terms[: len(terms) - _up(threshold * len(terms)) + 1]
                for j in index.get(term, ())}  # fmt: skip
        held = set(terms)
        scored = [(j, _jaccard(held, ranked[j])) for j in sorted(near)]
        answers.append(sorted(((j, s) for j, s in scored if s > threshold), key=lambda p: -p[1]))
    return answers


def overlapping_to(
    queries: Sequence[Terms], sets: Sequence[Terms], threshold: float
) -> Iterator[list[tuple[int, float]]]:
    """For each query in turn, every (index into ``sets``, overlap coefficient >= ``threshold``).

    Lazy: a caller that needs only the first answers stops paying there.

    The smaller side s of a qualifying pair shares at least ceil(t|s|)
    terms, so its first |s| - ceil(t|s|) + 1 terms meet the other side:
    a query's prefix is looked up among whole sets, its whole set among
    the sets' prefixes.
    """
    ranked = _ranked(sets, queries)
    whole: dict[int, list[int]] = {}
    head: dict[int, list[int]] = {}
    for j, terms in enumerate(ranked[: len(sets)]):
        for n, term in enumerate(terms):
            whole.setdefault(term, []).append(j)
            if n <= len(terms) - _up(threshold * len(terms)):
                head.setdefault(term, []).append(j)
    for q in range(len(queries)):
        terms = ranked[len(sets) + q]
        cut = len(terms) - _up(threshold * len(terms)) + 1
        near = {j for term in terms[:cut] for j in whole.get(term, ())}
        near.update(j for term in terms for j in head.get(term, ()))
        held = set(terms)
        scored = [(j, _overlap(held, ranked[j])) for j in sorted(near)]
        yield [(j, score) for j, score in scored if score >= threshold - _EPS]


def _jaccard(x: set[int], y: Sequence[int]) -> float:
    """``jaccard`` of two ranked sets (the same value as of the sets they rank)."""
    if not x or not y:
        return 0.0
    common = _shared(x, y)
    return common / (len(x) + len(y) - common)


def _overlap(x: set[int], y: Sequence[int]) -> float:
    """``overlap_coefficient`` of two ranked sets."""
    if not x or not y:
        return 0.0
    return _shared(x, y) / min(len(x), len(y))
