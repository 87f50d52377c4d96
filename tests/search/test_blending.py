"""``search.blending.blend``: only hits the query reached, best total first (ties by key then
id), and ``total == relevance + importance + recency`` for every one."""

from __future__ import annotations

import math
from datetime import date

from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry

from toon_memory.search.blending import RECENCY_WEIGHT, blend
from toon_memory.search.options import RecallOptions
from toon_memory.search.result import Hit, RecallResult


def result(*hits: Hit) -> RecallResult:
    return RecallResult(RecallOptions().validated(), hits)


def test_pinned_and_listed_hits_are_left_out_and_parts_add_up() -> None:
    seed = Hit(entry("a", "x", date="2026-07-15"), 1.0, 80, hop=0)
    near = Hit(entry("b", "y", date="2026-06-15"), 1.0, 60, hop=1)
    pinned = Hit(entry("c", "z"), 1.0, 100, hop=-1)
    blended = blend(result(pinned, near, seed), today=TODAY, importance=lambda e: 0.1)
    assert [b.entry.key for b in blended] == ["a", "b"]
    a, b = blended
    assert (a.relevance, a.importance, a.recency) == (0.8, 0.1, RECENCY_WEIGHT)
    assert math.isclose(b.recency, RECENCY_WEIGHT * 0.5)  # 30 days: one half-life
    assert math.isclose(a.total, 0.8 + 0.1 + RECENCY_WEIGHT)


def test_unreadable_day_gets_no_recency_and_the_day_source_is_the_callers() -> None:
    hit = Hit(entry("a", "x", date="someday", updated="2026-07-15T00:00:00Z"), 1.0, 50)
    assert blend(result(hit), today=TODAY, importance=lambda e: 0.0)[0].recency == 0.0
    by_update = blend(result(hit), today=TODAY, importance=lambda e: 0.0,
                      day=lambda e: e.updated, recency_weight=1.0)  # fmt: skip
    assert by_update[0].recency == 1.0


def test_ties_go_by_key_then_id() -> None:
    same = [Hit(entry(k, "x", date="2026-07-01"), 1.0, 50) for k in ("b", "a", "c")]
    keys = [b.entry.key for b in blend(result(*same), today=TODAY, importance=lambda e: 0.0)]
    assert keys == ["a", "b", "c"]


@given(st.lists(st.tuples(st.integers(0, 100), st.integers(-1, 2), st.integers(0, 400),
                          st.integers(0, 10)), max_size=8))  # fmt: skip
def test_blend_properties(rows: list[tuple[int, int, int, int]]) -> None:
    hits = [Hit(entry(f"k{i}", "x", date=date.fromordinal(TODAY.toordinal() - age).isoformat(),
                      priority=imp), 1.0, rel, hop=hop)
            for i, (rel, hop, age, imp) in enumerate(rows)]  # fmt: skip
    blended = blend(result(*hits), today=TODAY, importance=lambda e: e.priority / 10)
    assert len(blended) == sum(1 for h in hits if h.hop >= 0)
    totals = [b.total for b in blended]
    assert totals == sorted(totals, reverse=True)
    for b in blended:
        assert math.isclose(b.total, b.relevance + b.importance + b.recency)
        assert 0.0 <= b.relevance <= 1.0 and 0.0 < b.recency <= RECENCY_WEIGHT
