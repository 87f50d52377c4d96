"""``rules.stats.compute_stats`` (and ``grouped_stats``, which counts groups of entries alike
exactly as their entries): a pure function of the entries and the day; shares are 0..1
rounded to 2 places, with hit, duplicate and obsolete rates as the module defines them."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import STATUSES, Entry
from toon_memory.rules.stats import (
    COLD_DAYS,
    COLD_QUALITY,
    Alike,
    Stats,
    compute_stats,
    content_digest,
    grouped_stats,
)

DAY = date(2026, 7, 15)


def entry(n: int, **fields: object) -> Entry:
    base: dict[str, object] = {"category": "knowledge", "content": f"text {n}",
                               "date": "2026-07-10", "quality": 0.8}  # fmt: skip
    base.update(fields)
    return Entry(id=f"{n:08x}", key=f"k{n}", **base)  # type: ignore[arg-type]


def test_an_empty_memory_is_all_zero() -> None:
    assert compute_stats([], DAY) == Stats()
    assert compute_stats([], DAY, archived=4).archived == 4


def test_counts_and_rates() -> None:
    entries = [
        entry(1, category="bug", accessed=3, priority=1, ttl="2026-07-14"),  # expired
        entry(2, category="bug", ttl="2026-07-20", content="same"),  # expiring within 7 days
        entry(3, origin="human", ttl="2026-09-01", content="same", quality=0.5),
        entry(4, quality=0.2, accessed=1),  # low quality: cold
        entry(5, date="2026-05-01"),  # never recalled, old: cold
        entry(6, date="2026-05-01", last_accessed="2026-07-01"),  # recalled lately: warm
        entry(7, status="obsolete", content="same"),
        entry(8, status="superseded"),
    ]
    stats = compute_stats(entries, DAY, archived=2)
    assert (stats.total, stats.active, stats.archived) == (8, 6, 2)
    assert stats.by_category == {"bug": 2, "knowledge": 4}
    assert stats.by_origin == {"agent": 5, "human": 1}
    assert stats.by_status == {"active": 6, "obsolete": 1, "superseded": 1}
    assert (stats.pinned, stats.with_ttl, stats.expired, stats.expiring_7d) == (1, 3, 1, 1)
    assert stats.quality == {"high": 4, "medium": 1, "low": 1}
    assert stats.average_quality == round((0.8 * 4 + 0.5 + 0.2) / 6, 2)
    assert stats.cold == 2
    assert stats.hit_rate == round(2 / 6, 2)
    assert stats.duplicate_rate == round(2 / 6, 2)  # the obsolete "same" does not count
    assert stats.obsolete_rate == round(2 / 8, 2)
    assert stats.to_dict()["by_status"] == stats.by_status


def test_cold_edges() -> None:
    cutoff = date.fromordinal(DAY.toordinal() - COLD_DAYS).isoformat()
    assert compute_stats([entry(1, date=cutoff)], DAY).cold == 0
    assert compute_stats([entry(1, quality=COLD_QUALITY)], DAY).cold == 0
    assert compute_stats([entry(1, quality=COLD_QUALITY - 0.01)], DAY).cold == 1


ROWS = st.lists(
    st.fixed_dictionaries({
        "status": st.sampled_from(STATUSES), "accessed": st.integers(0, 3),
        "quality": st.integers(0, 100).map(lambda q: q / 100),
        "content": st.sampled_from(["a", "b", "c", "d"]),
        "date": st.sampled_from(["2026-01-01", "2026-07-14"]),
        "ttl": st.sampled_from(["", "2026-07-01", "2026-07-18", "2027-01-01"]),
    }),
    max_size=12,
)  # fmt: skip


@given(ROWS)
def test_shares_are_fractions_and_counts_add_up(rows: list[dict[str, object]]) -> None:
    entries = [entry(n, **row) for n, row in enumerate(rows)]
    stats = compute_stats(entries, DAY)
    active = [e for e in entries if e.active]
    for share in (stats.hit_rate, stats.duplicate_rate, stats.obsolete_rate,
                  stats.average_quality):  # fmt: skip
        assert 0.0 <= share <= 1.0 and round(share, 2) == share
    assert sum(stats.by_status.values()) == stats.total == len(entries)
    assert sum(stats.by_category.values()) == sum(stats.quality.values()) == stats.active
    assert stats.expired + stats.expiring_7d <= stats.with_ttl <= stats.active
    assert stats.cold <= stats.active == len(active)
    assert stats.obsolete_rate == (
        round((len(entries) - len(active)) / len(entries), 2) if entries else 0.0
    )
    assert compute_stats(list(reversed(entries)), DAY) == stats  # order does not matter


def test_average_quality_does_not_depend_on_entry_order() -> None:
    # 0.1 + 0.1 + 0.1 + 0.0 summed in two orders gives two floats either side of 0.075:
    # a plain sum rounded them to 0.08 one way and 0.07 the other (found by the property above).
    entries = [entry(n, quality=q) for n, q in enumerate([0.1, 0.1, 0.1, 0.0])]
    forward = compute_stats(entries, DAY).average_quality
    assert compute_stats(list(reversed(entries)), DAY).average_quality == forward


def _alike(e: Entry) -> Alike:
    return Alike(e.status, e.active, e.category, e.origin, e.quality, int(e.priority != 0),
                 e.last_accessed, e.date, int(e.accessed > 0), e.ttl)  # fmt: skip


@given(ROWS, st.lists(st.integers(1, 40), min_size=12, max_size=12), st.integers(0, 3))
def test_groups_count_as_their_entries(
    rows: list[dict[str, object]], sizes: list[int], archived: int
) -> None:
    """``grouped_stats`` over (fields, n) groups is ``compute_stats`` over the n entries of
    each group, to the float (``fsum`` of n equal qualities) and to the key order."""
    groups = [(entry(i, **row), n) for i, (row, n) in enumerate(zip(rows, sizes, strict=False))]
    expanded = [e.copy(id=f"{i:04x}{k:04x}") for i, (e, n) in enumerate(groups) for k in range(n)]
    contents = Counter(content_digest(e.content) for e in expanded if e.active)
    got = grouped_stats([(_alike(e), n) for e, n in groups], contents.items(), DAY, archived)
    assert repr(got) == repr(compute_stats(expanded, DAY, archived))


@pytest.mark.parametrize(("groups", "average"), [
    ([(0.7, 5), (0.93, 5)], 0.82),  # a running sum of the ten values rounds to 0.81
    ([(0.22, 40), (0.1, 24)], 0.17),  # fsum of the products q * n rounds to 0.18
])  # fmt: skip
def test_groups_of_equal_qualities_average_as_their_entries(
    groups: list[tuple[float, int]], average: float
) -> None:
    entries = [entry(n, quality=q) for n, (q, size) in enumerate(groups) for _ in range(size)]
    counted = [(_alike(entry(n, quality=q)), size) for n, (q, size) in enumerate(groups)]
    assert compute_stats(entries, DAY).average_quality == average
    assert grouped_stats(counted, [], DAY).average_quality == average
