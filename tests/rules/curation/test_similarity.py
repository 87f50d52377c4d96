"""Word-set similarity: the search tokenizer's terms, and pair finding equal to brute force."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.rules.curation.similarity import (
    id_sets,
    jaccard,
    overlap_coefficient,
    overlapping_pairs,
    overlapping_to,
    similar_pairs,
    similar_to,
    term_set,
)


def test_term_sets_use_the_search_tokenizer() -> None:
    assert term_set("Caching the sessions") == term_set("cache session")  # stems, stopword gone
    assert term_set("redis cache pool") <= term_set("RedisCache pool")  # camelCase split
    assert term_set("") == frozenset()


def test_jaccard_and_overlap() -> None:
    a, b = frozenset("abc"), frozenset("bcd")
    assert jaccard(a, b) == 0.5
    assert overlap_coefficient(a, b) == 2 / 3
    assert jaccard(a, a) == 1.0
    assert jaccard(frozenset(), frozenset()) == 0.0
    assert overlap_coefficient(frozenset(), a) == 0.0


sets_strategy = st.lists(
    st.frozensets(st.sampled_from("abcdefghij"), max_size=7), min_size=0, max_size=14
)


@settings(max_examples=300, deadline=None)
@given(sets_strategy, st.sampled_from([0.0, 0.2, 0.34, 0.5, 0.6, 0.75, 0.9]))
def test_similar_pairs_match_brute_force(sets: list[frozenset[str]], threshold: float) -> None:
    expected = [
        (i, j, jaccard(sets[i], sets[j]))
        for i, j in combinations(range(len(sets)), 2)
        if jaccard(sets[i], sets[j]) > threshold
    ]
    assert similar_pairs(sets, threshold) == expected


@settings(max_examples=300, deadline=None)
@given(sets_strategy, st.sampled_from([0.3, 0.5, 0.6, 0.8, 1.0]), st.integers(1, 3))
def test_overlapping_pairs_match_brute_force(
    sets: list[frozenset[str]], threshold: float, min_shared: int
) -> None:
    expected = [
        (i, j, overlap_coefficient(sets[i], sets[j]))
        for i, j in combinations(range(len(sets)), 2)
        if overlap_coefficient(sets[i], sets[j]) >= threshold
        and len(sets[i] & sets[j]) >= min_shared
    ]
    assert overlapping_pairs(sets, threshold, min_shared) == expected


@settings(max_examples=200, deadline=None)
@given(sets_strategy, sets_strategy, st.sampled_from([0.0, 0.34, 0.5, 0.75]))
def test_similar_to_matches_brute_force(
    queries: list[frozenset[str]], sets: list[frozenset[str]], threshold: float
) -> None:
    expected = [
        sorted(
            ((j, jaccard(q, s)) for j, s in enumerate(sets) if jaccard(q, s) > threshold),
            key=lambda p: -p[1],
        )
        for q in queries
    ]
    assert similar_to(queries, sets, threshold) == expected


@settings(max_examples=200, deadline=None)
@given(sets_strategy, sets_strategy, st.sampled_from([0.2, 0.35, 0.5, 1.0]))
def test_overlapping_to_matches_brute_force(
    queries: list[frozenset[str]], sets: list[frozenset[str]], threshold: float
) -> None:
    expected = [
        [
            (j, overlap_coefficient(q, s))
            for j, s in enumerate(sets)
            if overlap_coefficient(q, s) >= threshold
        ]
        for q in queries
    ]
    assert list(overlapping_to(queries, sets, threshold)) == expected


texts_strategy = st.lists(
    st.lists(st.sampled_from(["redis", "cache", "pool", "timeout", "retry", "the", "sessions",
                              "RedisCache", "auth", "token", "42"]), max_size=8).map(" ".join),
    max_size=12,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(texts_strategy, st.sampled_from([0.3, 0.5, 0.75]), st.integers(1, 3))
def test_id_sets_find_what_term_sets_find(texts: list[str], threshold: float, n: int) -> None:
    """``id_sets`` (sorted tuples of term ids) hold each text's word set one-to-one, and
    every finder answers over them exactly what it answers over the frozensets."""
    ids, sets = id_sets(texts), [term_set(text) for text in texts]
    assert [len(i) for i in ids] == [len(s) for s in sets]
    assert all(list(i) == sorted(set(i)) for i in ids)
    for a, b in combinations(range(len(texts)), 2):
        assert (sets[a] == sets[b]) == (ids[a] == ids[b])
    assert similar_pairs(ids, threshold) == similar_pairs(sets, threshold)
    assert overlapping_pairs(ids, threshold, n) == overlapping_pairs(sets, threshold, n)
    half = len(texts) // 2
    assert similar_to(ids[:half], ids, threshold) == similar_to(sets[:half], sets, threshold)
    assert list(overlapping_to(ids[:half], ids[half:], threshold)) == list(
        overlapping_to(sets[:half], sets[half:], threshold)
    )
    # queries picked from the sets keep their numbering: read as they are, the same answers
    odd = [n for n in range(len(texts)) if n % 2]
    picked, chosen = ids.pick(odd), [sets[n] for n in odd]
    assert similar_to(picked, ids, threshold) == similar_to(chosen, sets, threshold)
    assert list(overlapping_to(ids, picked, threshold)) == list(
        overlapping_to(sets, chosen, threshold)
    )
    # ranks: rarer terms first (the order that keeps the prefixes short)
    counts = Counter(t for i in ids for t in i)
    assert all(counts[a] <= counts[b] for a in counts for b in counts if a < b)


@given(texts_strategy, st.lists(st.integers(0, 11), max_size=6))
def test_ranked_sets_read_as_a_sequence_of_tuples(texts: list[str], picks: list[int]) -> None:
    """``id_sets`` keeps its sets in one flat array, and reads back as the sorted tuples
    it stands for: by index (negative too), by slice, in turn, and picked."""
    ids = id_sets(texts)
    every = list(ids)
    assert len(ids) == len(texts) == len(every)
    assert all(type(s) is tuple and list(s) == sorted(set(s)) for s in every)
    assert [ids[n] for n in range(len(ids))] == every
    assert [ids[n - len(ids)] for n in range(len(ids))] == every
    assert ids[1:3] == every[1:3] and ids[::-1] == every[::-1]
    assert [len(s) for s in every] == [len(term_set(t)) for t in texts]
    chosen = [n for n in picks if n < len(ids)]
    assert list(ids.pick(chosen)) == [every[n] for n in chosen]
    assert ids.pick(chosen).numbering is ids.numbering
    with pytest.raises(IndexError):
        ids[len(ids)]
