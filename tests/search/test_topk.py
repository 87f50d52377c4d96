"""The pruned top-k (search.topk) equals the exhaustive path: ids, order, scores, count."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toon_memory.search import rank, term_data, topk
from toon_memory.search.index import BM25Index

WEIGHTS = {"a": 1.0, "b": 2.5, "c": 3.0}
VOCAB = [f"w{i}" for i in range(12)]
words = st.lists(st.sampled_from(VOCAB), max_size=6)
doc = st.fixed_dictionaries({"a": words, "b": words, "c": words})
group = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=3).map(tuple)
weight = st.dictionaries(st.sampled_from(VOCAB), st.sampled_from([0.5, 0.8, 1.0]), max_size=2)


def _index(docs: list[dict[str, list[str]]], removed: list[int]) -> BM25Index:
    index = BM25Index(WEIGHTS)
    for i, fields in enumerate(docs):
        index.add(f"d{i}", fields)
    for i in removed:
        index.remove(f"d{i % max(len(docs), 1)}")
    return index


def _exhaustive(index: BM25Index, groups, weights, limit):  # type: ignore[no-untyped-def]
    total = rank.merge(index.score_slots(groups, weights))
    return rank.top(total, limit), total


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    docs=st.lists(doc, min_size=1, max_size=120),
    removed=st.lists(st.integers(0, 200), max_size=20),
    groups=st.lists(group, min_size=1, max_size=9),  # many: most are bound by counting
    weighting=st.lists(weight, max_size=4),
    limit=st.sampled_from([1, 2, 5, 20, 400]),
    small=st.sampled_from([0, 3, 4096]),
    tiered=st.sampled_from([1, 256]),
    cells=st.sampled_from([1, 6, 4096]),
    batch=st.sampled_from([1, 2, 3, 128]),
    few=st.sampled_from([0, 2, 64]),
)
@example(  # the walk stops on a leaf below the k-th score with leaves put off to score
    docs=[{"a": [], "b": [], "c": ["w0"]}, {"a": [], "b": [], "c": ["w0", "w0", "w1"]},
          {"a": ["w0"], "b": [], "c": ["w2"]}],
    removed=[], groups=[("w0", "w2"), ("w1",)], weighting=[], limit=1, small=3, tiered=1,
    cells=1, batch=2, few=0,
)  # fmt: skip
@example(  # a walk split at one group: the rest is bound by the best of what a level lacks
    docs=[{"a": [], "b": [], "c": ["w0"]}, {"a": [], "b": [], "c": ["w0"]},
          {"a": [], "b": [], "c": ["w1"]}],
    removed=[], groups=[("w0",), ("w0", "w1"), ("w0", "w1")], weighting=[], limit=1, small=0,
    tiered=1, cells=1, batch=1, few=0,
)  # fmt: skip
def test_the_pruned_top_equals_the_exhaustive_top(  # type: ignore[no-untyped-def]
    monkeypatch, docs, removed, groups, weighting, limit, small, tiered, cells, batch, few
) -> None:
    monkeypatch.setattr(term_data, "SMALL", small)  # both halves of the walk, on small corpora
    monkeypatch.setattr(term_data, "_TIERED", tiered)
    monkeypatch.setattr(topk, "CELLS", cells)  # a walk cut short: later groups bound every leaf
    monkeypatch.setattr(topk, "BATCH", batch)  # leaves scored one by one, or a few together
    monkeypatch.setattr(topk, "FEW", few)  # 0: every cell split (a small corpus's cells are few)
    index = _index(docs, removed)
    weights = (weighting + [{}] * len(groups))[: len(groups)]
    best, total = _exhaustive(index, groups, weights, limit)
    plan = index.plan(groups, weights)
    if plan is None:
        assert best == []
        return
    assert plan.count == len(total)
    found, scores = plan.top(limit)
    assert found == best  # same slots, same order (ties in the exhaustive order)
    assert [scores[s] for s in found] == [total[s] for s in best]  # same floats
    parts = [p for p in index.score_slots(groups, weights) if p]
    lazy = plan.parts()
    for slot in total:
        assert [p[slot] for p in parts if slot in p] == [p[slot] for p in lazy if slot in p]


@settings(max_examples=60, deadline=None)
@given(
    docs=st.lists(doc, min_size=5, max_size=80),
    excluded=st.lists(st.integers(0, 79), max_size=10),
    groups=st.lists(group, min_size=1, max_size=3),
)
def test_excluded_slots_leave_the_top_and_the_count(docs, excluded, groups) -> None:  # type: ignore[no-untyped-def]
    index = _index(docs, [])
    total = rank.merge(index.score_slots(groups))
    plan = index.plan(groups)
    assert plan is not None
    for i in excluded:
        slot = index.slot(f"d{i % len(docs)}")
        assert slot is not None
        if plan.holds(slot):
            total.pop(slot, None)
        plan.exclude(slot)
    assert plan.count == len(total)
    assert plan.top(10)[0] == rank.top(total, 10)


def test_a_cached_term_follows_adds_and_removes() -> None:
    index = BM25Index(WEIGHTS)
    for i in range(50):
        index.add(f"d{i}", {"a": ["x"] * (1 + i % 3), "b": ["y"] if i % 2 else []})
    plan = index.plan([("x",), ("y",)])
    assert plan is not None and plan.count == 50
    index.remove("d0")
    index.add("d99", {"a": ["x", "x", "x", "x"], "c": ["y"]})
    best, total = _exhaustive(index, [("x",), ("y",)], [], 5)
    plan = index.plan([("x",), ("y",)])
    assert plan is not None
    assert plan.count == len(total) == 50
    assert plan.top(5)[0] == best
    assert index.slot("d99") in plan.top(50)[0]  # the new document's postings were read again


def test_a_plan_holds_excludes_and_counts_the_matching_slots() -> None:
    index = _index([{"a": ["w1", "w2"]}, {"b": ["w2"]}, {"c": ["w3"]}], [])
    plan = index.plan([["w2"]])
    assert isinstance(plan, topk.Plan)
    assert [plan.holds(s) for s in range(3)] == [True, True, False] and plan.count == 2
    plan.exclude(0)
    assert plan.count == 1 and plan.top(5)[0] == [1]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    docs=st.lists(doc, min_size=1, max_size=120),
    removed=st.lists(st.integers(0, 200), max_size=20),
    groups=st.lists(group, min_size=1, max_size=4),
    inside=st.sets(st.integers(0, 130)),
    excluded=st.lists(st.integers(0, 130), max_size=10),
    limit=st.sampled_from([1, 2, 5, 20, 400]),
    small=st.sampled_from([0, 3, 4096]),
)
def test_a_restricted_plan_equals_the_exhaustive_filtered_top(  # type: ignore[no-untyped-def]
    monkeypatch, docs, removed, groups, inside, excluded, limit, small
) -> None:
    """``restrict`` (a filter known by slots) and then ``exclude`` (the ones checked one
    by one) answer as dropping those slots from the exhaustive matches before the top."""
    monkeypatch.setattr(term_data, "SMALL", small)
    monkeypatch.setattr(topk, "FEW", 0)  # the walk split as on a large index
    index = _index(docs, removed)
    total = rank.merge(index.score_slots(groups))
    plan = index.plan(groups)
    if plan is None:
        assert total == {}
        return
    plan.restrict(term_data.bits_of(inside))
    kept = {slot: value for slot, value in total.items() if slot in inside}
    for slot in excluded:
        if plan.holds(slot):
            kept.pop(slot, None)
        plan.exclude(slot)
    assert plan.count == len(kept)
    found, scores = plan.top(limit)
    best = rank.top(kept, limit)
    assert found == best
    assert [scores[s] for s in found] == [kept[s] for s in best]
    parts = [p for p in index.score_slots(groups) if p]  # the parts stay unfiltered
    lazy = plan.parts()
    for slot in total:
        assert [p[slot] for p in parts if slot in p] == [p[slot] for p in lazy if slot in p]
