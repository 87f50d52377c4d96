"""``search.budget``: a cheap deterministic token estimate, and ``fit_budget`` keeping the
longest prefix of hits whose blocks fit, with only the edges among kept hits."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import entry

from toon_memory.search.blocks import hit_block
from toon_memory.search.budget import estimate_tokens, fit_budget
from toon_memory.search.options import RecallOptions
from toon_memory.search.result import Edge, Hit, RecallResult


def test_estimate_tokens() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a") == 1 and estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("日本") == 2 and estimate_tokens("日本語") == 2
    assert estimate_tokens("ab日") == math.ceil(2 / 4 + 1 / 1.5)


@given(st.text(), st.text())
def test_estimate_is_positive_for_text_and_subadditive(a: str, b: str) -> None:
    assert (estimate_tokens(a) == 0) == (a == "")
    assert estimate_tokens(a + b) <= estimate_tokens(a) + estimate_tokens(b)


def result(n: int, tokens: int) -> RecallResult:
    hits = tuple(Hit(entry(f"key-{i}", f"content number {i} " * (i + 1)), 1.0 - i / 100, 50)
                 for i in range(n))  # fmt: skip
    edges = tuple(Edge(i, j, "relates") for i in range(n) for j in range(n) if abs(i - j) == 1)
    opts = RecallOptions(budget_tokens=tokens).validated()
    return RecallResult(opts, hits, edges, total=n)


def test_no_budget_or_everything_fits_returns_the_result_itself() -> None:
    whole = result(3, 0)
    assert fit_budget(whole) is whole
    roomy = result(3, 10_000)
    assert fit_budget(roomy) is roomy and fit_budget(result(0, 50)).hits == ()


@given(st.integers(0, 8), st.integers(50, 400))
def test_the_kept_prefix_is_the_longest_that_fits(n: int, budget: int) -> None:
    full = result(n, budget)
    fitted = fit_budget(full)
    keep = len(fitted.hits)
    assert fitted.hits == full.hits[:keep] and fitted.dropped == n - keep
    cost = [estimate_tokens(hit_block(full, i)) + 1 for i in range(n)]
    assert sum(cost[:keep]) <= budget
    assert keep == n or sum(cost[: keep + 1]) > budget
    assert all(e.source < keep and e.target < keep for e in fitted.edges)
    assert len(fitted.edges) == sum(1 for e in full.edges if e.source < keep and e.target < keep)
