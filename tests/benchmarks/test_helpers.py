"""The retrieval benchmarks' own helpers: metrics, the bootstrap interval, dev-only misses."""

from __future__ import annotations

import pytest
from benchmarks.retrieval import gold_eval
from benchmarks.retrieval.common import bootstrap_ci, mrr_at, ndcg_at, recall_at
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry


def test_metrics_on_a_known_ranking() -> None:
    ranked = ["a", "b", "c"]
    assert recall_at(ranked, ["b", "z"], 5) == 0.5
    assert mrr_at(ranked, ["b"], 5) == 0.5 and mrr_at(ranked, ["z"], 5) == 0.0
    assert ndcg_at(ranked, ["a"], 5) == 1.0 and 0 < ndcg_at(ranked, ["c"], 5) < 1


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=60))
def test_the_bootstrap_interval_holds_the_mean_and_repeats(values: list[float]) -> None:
    low, high = bootstrap_ci(values, rounds=400)
    mean = sum(values) / len(values)
    assert low <= mean + 1e-9 and mean - 1e-9 <= high
    assert (low, high) == bootstrap_ci(values, rounds=400)
    assert bootstrap_ci([0.7] * len(values), rounds=50) == pytest.approx((0.7, 0.7))


def test_misses_list_dev_queries_only(capsys: pytest.CaptureFixture[str]) -> None:
    entries = [Entry(id="0000000a", category="knowledge", key="pool", content="Pool size is 30.",
                     date="2026-07-01")]  # fmt: skip
    spec = {"today": "2026-08-01", "queries": [
        {"id": "d1", "split": "dev", "q": "pool size", "gold": ["nowhere"]},
        {"id": "t1", "split": "test", "q": "pool size", "gold": ["nowhere"]},
        {"id": "d2", "split": "dev", "q": "pool size", "gold": ["pool"]},
    ]}  # fmt: skip
    gold_eval.print_misses(entries, spec)
    out = capsys.readouterr().out
    assert "d1:" in out and "t1" not in out and "d2" not in out
