"""``search.signals``: pure and total per-entry signals (a malformed date never raises), the
seeds' weights, eligibility by status, as_of, history, dates, category, tags and scope."""

from __future__ import annotations

import math
from datetime import date
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry

from toon_memory.model.entry import CATEGORIES, STATUSES
from toon_memory.search.options import RecallOptions
from toon_memory.search.signals import (
    FAMILY_BONUS,
    PATH_BONUS,
    SESSION_FACTOR,
    WARNING_BONUS,
    auto_importance,
    context_bonus,
    created_day,
    eligible,
    factor,
    freshness,
    in_scope,
    in_session,
    reasons,
    static_bonus,
    usage_of,
    usage_score,
)


def opts(**options: Any) -> RecallOptions:
    return RecallOptions(**options).validated()


def test_created_day_prefers_created_then_date() -> None:
    assert created_day(entry("k", "c", created="2026-01-02T00:00:00Z")) == date(2026, 1, 2)
    assert created_day(entry("k", "c", date="2026-03-04")) == date(2026, 3, 4)
    assert created_day(entry("k", "c", date="garbage")) is None


@pytest.mark.parametrize(("fields", "ok"),
                         [({}, True), ({"status": "obsolete"}, False),
                          ({"status": "superseded"}, False), ({"ttl": "2026-07-14"}, False),
                          ({"ttl": "2026-07-15"}, True)])  # fmt: skip
def test_eligible_by_status_and_ttl(fields: dict[str, Any], ok: bool) -> None:
    assert eligible(entry("k", "c", **fields), opts(), TODAY) is ok


def test_as_of_and_history() -> None:
    later = entry("k", "c", created="2026-07-10T00:00:00Z")
    old = entry("k", "c", status="superseded", created="2026-05-01T00:00:00Z",
                superseded_on="2026-07-01")  # fmt: skip
    assert not eligible(later, opts(as_of="2026-06-01"), TODAY)
    assert eligible(old, opts(as_of="2026-06-01"), TODAY)
    assert not eligible(old, opts(as_of="2026-07-02"), TODAY)
    assert eligible(old, opts(), TODAY, history="all")
    assert eligible(old, opts(), TODAY, history="2026-06-15")
    assert not eligible(old, opts(), TODAY, history="2026-07-05")
    assert not eligible(entry("k", "c", status="obsolete"), opts(), TODAY, history="all")
    expired_now = entry("k", "c", ttl="2026-07-01", date="2026-05-01")
    assert eligible(expired_now, opts(as_of="2026-06-01"), TODAY)  # the TTL is read at as_of
    assert not eligible(expired_now, opts(), TODAY)


def test_filters() -> None:
    e = entry("k", "c", category="bug", tags=["API", "db"], date="2026-07-01", file="src/a.py")
    assert eligible(e, opts(category="bug", tags=("api",)), TODAY)
    assert not eligible(e, opts(category="warning"), TODAY)
    assert not eligible(e, opts(tags=("api", "ui")), TODAY)
    assert eligible(e, opts(from_date="2026-07-01", to_date="2026-07-01"), TODAY)
    assert not eligible(e, opts(from_date="2026-07-02"), TODAY)
    assert not eligible(e, opts(to_date="2026-06-30"), TODAY)
    assert not eligible(entry("k", "c", date=""), opts(from_date="2026-01-01"), TODAY)
    assert eligible(e, opts(path_scope="src"), TODAY)
    assert not eligible(e, opts(path_scope="docs"), TODAY)


def test_in_scope_by_file_or_the_entrys_own_scope() -> None:
    assert in_scope(entry("k", "c", file="src/a.py:10-20"), "src")
    assert in_scope(entry("k", "c", path_scope="src"), "src/a.py")
    assert in_scope(entry("k", "c", path_scope="src/a.py"), "src")
    assert not in_scope(entry("k", "c", path_scope="lib"), "src")
    assert not in_scope(entry("k", "c"), "src")


def test_weights_are_the_seeds() -> None:
    assert static_bonus(entry("k", "c", importance="critical", evidence="conflict",
                              category="warning")) == pytest.approx(0.3 + 0.15 + WARNING_BONUS)  # fmt: skip
    assert static_bonus(entry("k", "c", importance="low", evidence="unverified")) == pytest.approx(
        -0.12
    )
    assert static_bonus(entry("k", "c", importance="odd")) == 0.0
    scoped = entry("k", "c", path_scope="src")
    assert context_bonus(scoped, "latin", "latin", "src/a.py") == pytest.approx(
        FAMILY_BONUS + PATH_BONUS
    )
    assert context_bonus(scoped, "latin", "", "") == 0.0
    assert context_bonus(scoped, "cjk", "latin", "docs/x.md") == 0.0


def test_factor_and_session() -> None:
    assert factor(entry("k", "c", quality=1.0), ()) == pytest.approx(1.1)
    assert factor(entry("k", "c", quality=-3.0), ()) == pytest.approx(0.9)
    in_it = entry("k", "c", file="./src/a.py", quality=0.5)
    assert in_session(in_it, {"src/a.py"}) and not in_session(in_it, set())
    assert factor(in_it, {"src/a.py"}) == pytest.approx(1.0 * SESSION_FACTOR)


def test_usage_and_freshness() -> None:
    fresh = entry("k", "c", date="2026-07-15", accessed=50)
    assert usage_of(fresh) == (TODAY, 1.0) and auto_importance(fresh, TODAY) == 1.0
    assert usage_score((None, 0.0), TODAY) == 0.0
    month = entry("k", "c", last_accessed="2026-06-15", date="2020-01-01")
    assert math.isclose(auto_importance(month, TODAY), 0.25)
    assert freshness(fresh, TODAY) == 1.0
    assert freshness(entry("k", "c", date="bad"), TODAY) == 0.8


def test_reasons() -> None:
    e = entry("k", "c", accessed=14, last_accessed="2026-07-14", importance="high", priority=2)
    parts = reasons(e, 92, TODAY, hop=2, via="seed-key")
    assert parts[:3] == ("92% relevance", "used 14×", "used yesterday")
    assert parts[-3:] == ("explicit high", "pinned P2", "2 hops from seed-key")
    assert reasons(entry("k", "c", date="2020-01-01"), 10, TODAY, 0, "")[-1] == "importance LOW"
    assert "used 5d ago" in reasons(entry("k", "c", last_accessed="2026-07-10"), 1, TODAY, 1, "")


DATES = st.sampled_from(["", "garbage", "2026-02-30", "2026-07-15", "2020-01-01",
                         "2026-07-15T10:00:00Z", "9999-12-31"])  # fmt: skip


@given(DATES, DATES, DATES, DATES, DATES, st.sampled_from(STATUSES),
       st.sampled_from(CATEGORIES), st.integers(-5, 100), st.floats(-2, 2))  # fmt: skip
def test_total_over_malformed_dates_and_in_range(d: str, created: str, last: str, ttl: str,
                                                 gone: str, status: str, category: str,
                                                 accessed: int, quality: float) -> None:  # fmt: skip
    e = entry("k", "c", date=d, created=created, last_accessed=last, ttl=ttl,
              superseded_on=gone, status=status, category=category, accessed=accessed,
              quality=quality)  # fmt: skip
    before = e.copy()
    assert 0.0 <= auto_importance(e, TODAY) <= 1.0
    assert 0.8 <= freshness(e, TODAY) <= 1.0
    assert 0.9 <= factor(e, ()) <= 1.1 + 1e-12
    for history in ("", "all", "2026-01-01"):
        eligible(e, opts(), TODAY, history)
        eligible(e, opts(as_of="2026-06-01"), TODAY, history)
    reasons(e, 50, TODAY, 1, "x")
    assert e == before  # never mutated
