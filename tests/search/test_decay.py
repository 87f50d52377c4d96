"""One recency curve (``search.decay``) behind every "how recent" signal, and ``blend``."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from tests.search.builders import TODAY, entry

from toon_memory.model.entry import Entry
from toon_memory.rules.scoring import RECENCY_HALF_LIFE_DAYS, quality_score
from toon_memory.search import Blended, Engine, RecallOptions, blend
from toon_memory.search.decay import day_of, recency
from toon_memory.search.signals import auto_importance, freshness


def _ago(days: int) -> str:
    return (TODAY - timedelta(days=days)).isoformat()


def test_day_of_reads_dates_and_timestamps_and_never_raises() -> None:
    assert day_of("2026-07-15") == date(2026, 7, 15)
    assert day_of("2026-07-15T23:59:59Z") == date(2026, 7, 15)
    for bad in ("", "yesterday", "2026-13-01", "15/07/2026"):
        assert day_of(bad) is None


@pytest.mark.parametrize(
    ("day", "half_life", "value"),
    [
        (TODAY, 30, 1.0),
        (TODAY + timedelta(days=5), 30, 1.0),  # a future day counts as today
        (TODAY - timedelta(days=30), 30, 0.5),
        (TODAY - timedelta(days=90), 30, 0.125),
        (TODAY - timedelta(days=90), 90, 0.5),
        (TODAY - timedelta(days=45), 45, 0.5),
        (day_of("2026-06-15T08:00:00Z"), 30, 0.5),
        (None, 30, 0.0),
        (day_of("not a date"), 30, 0.0),
    ],
)
def test_recency_halves_every_half_life(day: date | None, half_life: float, value: float) -> None:
    assert recency(day, TODAY, half_life) == pytest.approx(value)


def test_every_recency_signal_uses_the_one_curve() -> None:
    old = entry("old", "x", date=_ago(90))
    assert auto_importance(old, TODAY) == pytest.approx(0.5 * 0.5**3)
    assert freshness(old, TODAY) == pytest.approx(0.8 + 0.2 * 0.5)
    undated = entry("undated", "x", date="")
    assert auto_importance(undated, TODAY) == 0.0 and freshness(undated, TODAY) == 0.8
    fresh, aged = entry("a", "x", date=TODAY.isoformat()), entry("b", "x", date=_ago(45))
    drop = quality_score(fresh, TODAY) - quality_score(aged, TODAY)
    assert RECENCY_HALF_LIFE_DAYS == 45
    assert drop == pytest.approx(0.15 * 0.5, abs=0.011)  # quality is rounded to 2 places


def _deploys() -> Engine:
    return Engine.build([
        entry("fly", "deploy target is fly.io", date=_ago(365), meta={"w": 0.5}),
        entry("render", "deploy target is render.com", date=_ago(1), meta={"w": 0.5}),
        entry("heavy", "deploy target was heroku", date=_ago(365), meta={"w": 1.0}),
        entry("pinned-other", "unrelated pinned note", priority=2, meta={"w": 1.0}),
    ])  # fmt: skip


def _weight(e: Entry) -> float:
    return float(e.meta["w"])


def test_blend_ranks_by_relevance_importance_and_recency() -> None:
    result = _deploys().recall(RecallOptions(query="deploy target"), today=TODAY)
    assert "pinned-other" in result.keys  # pinned entries ride along in a recall...
    found = blend(result, today=TODAY, importance=_weight)
    assert all(isinstance(b, Blended) for b in found)
    keys = [b.entry.key for b in found]
    assert "pinned-other" not in keys  # ...but only what the query reached is blended
    assert keys[0] == "heavy" and keys.index("render") < keys.index("fly")
    for b in found:
        assert b.total == pytest.approx(b.relevance + b.importance + b.recency)
        assert 0 < b.relevance <= 1 and b.importance == _weight(b.entry)
    by_key = {b.entry.key: b for b in found}
    assert by_key["render"].recency == pytest.approx(0.5 * 0.5 ** (1 / 30))
    assert by_key["fly"].recency == pytest.approx(0.5 * 0.5 ** (365 / 30))
    assert [b.total for b in found] == sorted((b.total for b in found), reverse=True)


def test_blend_reads_the_day_the_caller_names() -> None:
    result = _deploys().recall(RecallOptions(query="deploy"), today=TODAY)
    stamp = TODAY.isoformat() + "T10:00:00Z"
    found = blend(result, today=TODAY, importance=_weight, day=lambda e: stamp,
                  recency_weight=1.0, half_life_days=10)  # fmt: skip
    assert {b.recency for b in found} == {1.0}
    assert blend(result, today=TODAY, importance=_weight, day=lambda e: "??")[0].recency == 0.0
