"""Word-set similarity of texts, and the pairs of a collection that are similar.

Invariant: a text's word set is the search tokenizer's terms of it (stems,
stopwords dropped), so curation and recall agree on what a word is; the
pair finders return exactly the pairs a brute-force comparison of every
pair would, in ascending (i, j) order, only faster: terms are ranked rarest
first, sets are taken smallest first, and a pair is compared only when the
prefixes that any qualifying pair must share do meet (prefix, size and
position filtering, as in the AllPairs/PPJoin similarity joins). A set may be a
frozenset of terms or, for many texts, ``id_sets``' sorted tuple of term ranks (kept in
one flat array: a twentieth of the memory): the finders read sizes and overlaps only,
equal either way. Pure but for emptying the tokenizer's word caches after many texts.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TypeVar, cast, overload

from toon_memory.search.tokenize import WORD_CACHE, document_terms, forget_words

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


class RankedSets(Sequence[tuple[int, ...]]):
    """``id_sets``' answer: each text's word set as a sorted tuple of term ranks (rarest
    term first over all the texts, ``terms`` of them), kept in one flat array of 4-byte
    ints (a tuple of 17 ranks takes 2.5 times the memory) and made a tuple when read;
    the pair finders read them as they are; ``pick`` keeps the numbering for some of
    them (queries compared with the sets they are of)."""

    __slots__ = ("_ends", "_flat", "numbering", "terms")

    def __init__(self, flat: array[int], ends: array[int], terms: int, numbering: object) -> None:
        self._flat, self._ends, self.terms, self.numbering = flat, ends, terms, numbering

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, at: int) -> tuple[int, ...]: ...
    @overload
    def __getitem__(self, at: slice) -> list[tuple[int, ...]]: ...
    def __getitem__(self, at: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(at, slice):
            return [self[n] for n in range(*at.indices(len(self)))]
        ends = self._ends
        if at < 0:
            at += len(ends)
        end = ends[at]  # IndexError past the end, as a sequence must
        return tuple(self._flat[ends[at - 1] if at else 0 : end])

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        flat, start = self._flat, 0
        for end in self._ends:
            yield tuple(flat[start:end])
            start = end

    def kept(self) -> list[tuple[int, ...]]:
        """The sets as tuples to hold on to: one int object per rank among all of them
        (a boxed int per rank of each tuple would take ten times the memory)."""
        rank = list(range(self.terms)).__getitem__
        return [tuple(map(rank, terms)) for terms in self]

    def pick(self, positions: Iterable[int]) -> RankedSets:
        flat, ends = array("i"), array("q")
        for n in positions:
            flat.extend(self[n])
            ends.append(len(flat))
        return RankedSets(flat, ends, self.terms, self.numbering)


#: Past this many texts ``id_sets`` empties the tokenizer's word caches when done.
_FORGET_AFTER = WORD_CACHE // 4


def id_sets(
    texts: Iterable[str], terms: Callable[[str], Iterable[str]] = document_terms
) -> RankedSets:
    """The word set of each text (``terms`` of it, distinct) as a sorted run of term ranks
    (rarest first, ties by first seen): 100,000 texts in a twentieth of their frozensets'
    memory, read by the pair finders with the same sizes and overlaps and without a
    second ranking (one numbering per call, so sets to compare are made together).
    After many texts the tokenizer's word caches are emptied: they hold rare words no
    later call asks for (~20 MB at 100,000 texts), memory the pair finders then use."""
    ids: dict[str, int] = {}
    number = ids.setdefault
    flat, ends = array("i"), array("q")
    for text in texts:
        flat.extend({number(t, len(ids)) for t in terms(text)})
        ends.append(len(flat))
    if len(ends) > _FORGET_AFTER:
        forget_words()
    freq = Counter(flat)
    rank = [0] * len(ids)
    for n, term in enumerate(sorted(range(len(ids)), key=freq.__getitem__)):
        rank[term] = n
    start = 0
    for end in ends:
        flat[start:end] = array("i", sorted(map(rank.__getitem__, flat[start:end])))
        start = end
    return RankedSets(flat, ends, len(ids), object())


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


def _ranked(
    indexed: Sequence[Terms], streamed: Sequence[Terms] = ()
) -> tuple[Sequence[Sequence[int]], Iterable[Sequence[int]]]:
    """Both sides as sorted term ranks, rarest term first (ties by first seen: any fixed
    order of the terms finds the same pairs): the side a finder indexes and reads back as
    a list, the side it reads once in turn as it comes (``RankedSets`` of one numbering
    are ranked already: the streamed side stays in its flat array)."""
    if isinstance(indexed, RankedSets) and (
        not streamed
        or (isinstance(streamed, RankedSets) and streamed.numbering is indexed.numbering)
    ):
        return indexed.kept(), cast("Iterable[Sequence[int]]", streamed)
    every = [*indexed, *streamed]
    freq = Counter(term for terms in every for term in terms)
    rank = {term: n for n, term in enumerate(sorted(freq, key=freq.__getitem__))}
    ranked: list[Sequence[int]] = [sorted(rank[t] for t in terms) for terms in every]
    return ranked[: len(indexed)], ranked[len(indexed) :]


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
    ranked = _ranked(sets)[0]
    size = [len(r) for r in ranked]
    index = _Postings()
    pairs: list[tuple[int, int, float]] = []
    for i in _by_size(ranked):
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
    ranked = _ranked(sets)[0]
    size = [len(r) for r in ranked]
    need = [max(_up(threshold * n), min_shared, 1) for n in size]
    index = _Postings()
    pairs: list[tuple[int, int, float]] = []
    for i in _by_size(ranked):
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
    |s| - ceil(t|s|) + 1 terms of each side meet: only those are compared. The
    queries are indexed, the sets read once in turn (many sets, few queries).
    """
    if not queries:
        return []
    asked, ranked = _ranked(queries, sets)
    index: dict[int, list[int]] = {}
    for q, terms in enumerate(asked):
        for term in terms[: len(terms) - _up(threshold * len(terms)) + 1]:
            index.setdefault(term, []).append(q)
    answers: list[list[tuple[int, float]]] = [[] for _ in asked]
    for j, terms in enumerate(ranked):
        near = {q for term in terms[: len(terms) - _up(threshold * len(terms)) + 1]
                for q in index.get(term, ())}  # fmt: skip
        held = set(terms) if near else set()
        for q in sorted(near):
            score = _jaccard(held, asked[q])
            if score > threshold:
                answers[q].append((j, score))
    for found in answers:
        found.sort(key=lambda p: -p[1])
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
    ranked, asked = _ranked(sets, queries)
    whole: dict[int, list[int]] = {}
    head: dict[int, list[int]] = {}
    for j, terms in enumerate(ranked):
        cut = len(terms) - _up(threshold * len(terms))
        for n, term in enumerate(terms):
            whole.setdefault(term, []).append(j)
            if n <= cut:
                head.setdefault(term, []).append(j)
    for terms in asked:
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
