"""``search.rank``: dense shared ranks, RRF normalised to 0..1, the linear fallback, and the
graph spread (0.5^d per hop; the same word twice never counts double). All deterministic."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.search.graph import LinkGraph
from toon_memory.search.rank import (
    HOP_DECAY,
    linear,
    merge,
    reach,
    rrf,
    rrf_k,
    shared_ranks,
    spread,
    top,
    top_seeds,
)

SCORES = st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5]))


@given(SCORES)
def test_shared_ranks_are_dense(scores: dict[str, float]) -> None:
    ranks = shared_ranks(scores)
    assert set(ranks) == set(scores)
    assert sorted(set(ranks.values())) == list(range(1, len(set(scores.values())) + 1))
    for a in scores:
        for b in scores:
            assert (ranks[a] < ranks[b]) == (scores[a] > scores[b])


def _ranks_one_by_one(scores: dict[str, float]) -> dict[str, int]:
    """The definition, a node at a time: best first, a new rank past 1e-12 of the last one."""
    ranks: dict[str, int] = {}
    previous: float | None = None
    current = 0
    for node, value in sorted(scores.items(), key=lambda item: -item[1]):
        if value != previous and (
            previous is None or not math.isclose(value, previous, rel_tol=1e-12, abs_tol=1e-12)
        ):
            current += 1
            previous = value
        ranks[node] = current
    return ranks


#: Values near each other: a base plus a few 1e-13 steps (runs within 1e-12 and past it).
_NEAR_VALUE = st.builds(
    lambda base, tiny: base + tiny * 1e-13,
    st.sampled_from([0.0, 1e-13, 0.25, 1.0, 3.0]),
    st.integers(-20, 20),
)
NEAR = st.dictionaries(st.text("abcdefghij", min_size=1, max_size=3), _NEAR_VALUE)


@given(NEAR)
def test_shared_ranks_walk_values_as_nodes_one_by_one(scores: dict[str, float]) -> None:
    """Near-equal values (within 1e-12 of the value that opened a rank) share it exactly as
    walking the nodes one by one shares it."""
    assert shared_ranks(scores) == _ranks_one_by_one(scores)


def test_rrf_k_is_clamped() -> None:
    assert [rrf_k(n) for n in (0, 9, 16, 100, 3600, 10**6)] == [3, 3, 4, 10, 60, 60]


@given(SCORES, SCORES)
def test_rrf_is_within_0_and_1_and_the_best_of_both_scores_1(rel: dict[str, float],
                                                            cen: dict[str, float]) -> None:  # fmt: skip
    fused = rrf(rel, cen)
    assert set(fused) == set(rel)
    assert all(0.0 < v <= 1.0 + 1e-12 for v in fused.values())
    rel_rank = shared_ranks(rel)
    cen_rank = shared_ranks({n: cen.get(n, 0.0) for n in rel})
    for node in rel:
        if rel_rank[node] == 1 and cen_rank[node] == 1:
            assert math.isclose(fused[node], 1.0)


def test_linear() -> None:
    out = linear({"a": 2.0, "b": 1.0}, {"a": 1.0}, {"b": 1.0}, {"a": 0, "b": 1})
    assert math.isclose(out["a"], (1.0 + 0.4 + 0.1) / 1.75)
    assert math.isclose(out["b"], (0.5 + 0.25) / 1.75)
    assert linear({"a": 0.0}, {}, {}, {}) == {"a": 0.0}


def test_merge_and_top() -> None:
    assert merge([{"a": 1.0}, {"a": 2.0, "b": 1.0}]) == {"a": 3.0, "b": 1.0}
    assert merge([{"a": 1.0}]) == {"a": 1.0} and merge([]) == {}
    scores = {"a": 1.0, "b": 3.0, "c": 2.0, "d": 3.0}
    assert top(scores, 10)[:2] in (["b", "d"], ["d", "b"]) and len(top(scores, 2)) == 2
    assert top_seeds(scores, 3) == ["b", "d", "c"]


def chain() -> LinkGraph:
    graph = LinkGraph()
    graph.add("1", "a", [("relates", "b")])
    graph.add("2", "b", [("relates", "c")])
    graph.add("3", "c", [])
    graph.add("4", "x", [])
    return graph


def test_reach_records_distance_and_seed() -> None:
    hop, via = reach(chain(), ["1"], 2, lambda n: True)
    assert hop == {"1": 0, "2": 1, "3": 2} and via == {"2": "1", "3": "1"}
    assert reach(chain(), ["1"], 2, lambda n: n != "2") == ({"1": 0}, {})


def test_spread_decays_per_hop_and_never_double_counts_a_word() -> None:
    graph = chain()
    hop, _ = reach(graph, ["1"], 2, lambda n: True)
    one_word = spread(graph, [{"1": 1.0}], ["1"], hop, lambda n: True)
    assert one_word == {"1": 1.0, "2": HOP_DECAY, "3": HOP_DECAY**2}
    same_word = spread(graph, [{"1": 1.0, "2": 0.8}], ["1", "2"], hop, lambda n: True)
    assert same_word["2"] == 0.8 and same_word["3"] == 0.4  # best carried, not a sum
    two_words = spread(graph, [{"1": 1.0}, {"2": 0.8}], ["1", "2"], hop, lambda n: True)
    assert math.isclose(two_words["2"], HOP_DECAY + 0.8)
