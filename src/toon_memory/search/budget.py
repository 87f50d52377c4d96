"""Token counting and the token budget of a recall.

Invariant: ``estimate_tokens`` is a pure, cheap, deterministic estimate (no
tokenizer model): ~4 ASCII characters per token, ~1.5 per other character,
rounded up, 0 only for ``""``. ``fit_budget`` keeps the longest prefix of the
hits whose blocks (``search.blocks.hit_block``, one separator token each)
fit ``budget_tokens``, and keeps only the edges among the kept hits; the
result's ``dropped`` says how many hits were cut.
"""

from __future__ import annotations

import math
from dataclasses import replace

from toon_memory.search.blocks import hit_block
from toon_memory.search.result import Edge, RecallResult


def estimate_tokens(text: str) -> int:
    """A cheap token estimate: ~4 ASCII characters per token, ~1.5 per other character."""
    other = sum(1 for char in text if ord(char) > 127)
    return math.ceil((len(text) - other) / 4 + other / 1.5)


def fit_budget(result: RecallResult) -> RecallResult:
    """Keep hits greedily, in rank order, while the estimate stays within ``budget_tokens``."""
    budget = result.options.budget_tokens
    if budget <= 0 or not result.hits:
        return result
    spent, keep = 0, 0
    for position in range(len(result.hits)):
        cost = estimate_tokens(hit_block(result, position)) + 1
        if spent + cost > budget:
            break
        spent += cost
        keep += 1
    if keep == len(result.hits):
        return result
    edges = tuple(Edge(e.source, e.target, e.kind) for e in result.edges
                  if e.source < keep and e.target < keep)  # fmt: skip
    return replace(result, hits=result.hits[:keep], edges=edges, dropped=len(result.hits) - keep)
