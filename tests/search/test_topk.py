"""The pruned top-k (search.topk) equals the exhaustive path: ids, order, scores, count."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toon_memory.search import rank, topk
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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    docs=st.lists(doc, min_size=1, max_size=120),
    removed=st.lists(st.integers(0, 200), max_size=20),
    groups=st.lists(group, min_size=1, max_size=4),
    weighting=st.lists(weight, max_size=4),
    limit=st.sampled_from([1, 2, 5, 20, 400]),
    small=st.sampled_from([0, 3, 4096]),
    tiered=st.sampled_from([1, 256]),
)
def test_the_pruned_top_equals_the_exhaustive_top(  # type: ignore[no-untyped-def]
    monkeypatch, docs, removed, groups, weighting, limit, small, tiered
) -> None:
    monkeypatch.setattr(topk, "SMALL", small)  # both halves of the walk, on small corpora
    monkeypatch.setattr(topk, "_TIERED", tiered)
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


@given(st.sets(st.integers(0, 5000), max_size=200))
def test_bitmaps_round_trip(slots: set[int]) -> None:
    assert topk.slots_of(topk.bits_of(slots)) == sorted(slots)


_postings = st.dictionaries(st.integers(0, 300), st.tuples(st.sampled_from([1.0, 2.5, 3.0, 4.5]),
                                                            st.sampled_from([3.0, 7.5, 12.0])),
                            max_size=60)  # fmt: skip
_changes = st.lists(st.tuples(st.integers(0, 320), st.sampled_from([None, 1.0, 2.5, 5.5, 6.0]),
                              st.sampled_from([2.0, 7.5, 20.0])), max_size=30)  # fmt: skip


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(postings=_postings, changes=_changes, small=st.sampled_from([0, 4096]),
       tiered=st.sampled_from([1, 256]))  # fmt: skip
def test_patched_term_data_holds_what_the_changed_postings_hold(  # type: ignore[no-untyped-def]
    monkeypatch, postings, changes, small, tiered
) -> None:
    """A kept term patched with its postings' changes has the slots, tfs and df of one
    built from the changed postings, and every tier bound still bounds its slots."""
    monkeypatch.setattr(topk, "SMALL", small)  # both tf layouts (dict, one byte per slot)
    monkeypatch.setattr(topk, "_TIERED", tiered)
    rows = {slot: (tf, length) for slot, (tf, length) in postings.items()}
    lengths: list[float] = []
    data = topk.TermData([(s, tf, n) for s, (tf, n) in sorted(rows.items())], lengths)
    for slot, tf, length in changes:
        rows.pop(slot, None)
        if tf is not None:
            rows[slot] = (tf, length)
    patched = data.patched(changes, lengths)
    assert patched is not None
    fresh = topk.TermData([(s, tf, n) for s, (tf, n) in sorted(rows.items())], None)
    assert (patched.bits, patched.df) == (fresh.bits, fresh.df) == (topk.bits_of(rows), len(rows))
    assert sorted(patched.slots()) == sorted(rows)
    assert all(patched.tf(s) == rows[s][0] for s in rows)
    assert all(patched.tf(s) is None for s in range(330) if s not in rows)
    assert all(lengths[s] == rows[s][1] for s in rows)
    covered = 0
    for bits, pairs in patched.tiers:
        covered |= bits
        for slot in topk.slots_of(bits):  # some (tf, length) of the tier is at least as good
            tf, length = rows[slot]
            assert any(t == tf and n <= length for t, n in pairs)
    assert covered == patched.bits
