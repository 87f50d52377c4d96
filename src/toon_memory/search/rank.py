"""Score fusion: ranks with shared ties, RRF, the linear fallback, graph spreading.

Invariant: every function is pure and deterministic (iteration follows
sorted ids where order could matter), and fused scores are normalised to
0..1 before the additive adjustments of ``signals`` are applied, so a
+0.2 warning bonus means the same thing whatever the memory size.

RRF: score(d) = 3/(k + rank_bm25(d)) + 1/(k + rank_centrality(d)), divided by
its maximum 4/(k + 1); k = clamp(3..60, round(sqrt(n))) over the n candidates;
tied scores share the best rank of their group (1, 2, 2, 4).
Linear: bm25/max + 0.4·centrality + 0.25·importance + 0.1 for a seed, / 1.75.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from toon_memory.search.graph import LinkGraph

BM25_WEIGHT = 3.0
CENTRALITY_WEIGHT = 1.0
HOP_DECAY = 0.5
SEED_LIMIT = 64


def shared_ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """1-based ranks by descending score; equal scores share the best rank."""
    ordered = sorted(scores.items(), key=lambda item: -item[1])
    ranks: dict[str, int] = {}
    previous: float | None = None
    current = 0
    for position, (node, value) in enumerate(ordered, start=1):
        if previous is None or not math.isclose(value, previous, rel_tol=1e-12, abs_tol=1e-12):
            current = position
            previous = value
        ranks[node] = current
    return ranks


def rrf_k(n: int) -> int:
    return min(60, max(3, round(math.sqrt(n))))


def rrf(relevance: Mapping[str, float], centrality: Mapping[str, float]) -> dict[str, float]:
    """Reciprocal rank fusion of relevance (x3) and centrality (x1), normalised to 0..1."""
    k = rrf_k(len(relevance))
    rel_rank = shared_ranks(relevance)
    cen_rank = shared_ranks({node: centrality.get(node, 0.0) for node in relevance})
    top = (BM25_WEIGHT + CENTRALITY_WEIGHT) / (k + 1)
    return {
        node: (BM25_WEIGHT / (k + rel_rank[node]) + CENTRALITY_WEIGHT / (k + cen_rank[node])) / top
        for node in relevance
    }


def linear(
    relevance: Mapping[str, float],
    centrality: Mapping[str, float],
    importance: Mapping[str, float],
    seeds: Mapping[str, int],
) -> dict[str, float]:
    """The legacy weighted score, normalised to 0..1."""
    top = max(relevance.values(), default=0.0) or 1.0
    out: dict[str, float] = {}
    for node, value in relevance.items():
        raw = value / top + 0.4 * centrality.get(node, 0.0) + 0.25 * importance.get(node, 0.0)
        out[node] = (raw + (0.1 if seeds.get(node) == 0 else 0.0)) / 1.75
    return out


def top_seeds(base: Mapping[str, float], limit: int = SEED_LIMIT) -> list[str]:
    """The best-scoring matches, ties broken by id, at most ``limit``."""
    return [node for node, _ in sorted(base.items(), key=lambda it: (-it[1], it[0]))[:limit]]


def spread(
    graph: LinkGraph,
    base: Mapping[str, float],
    hops: int,
    allowed: Callable[[str], bool],
) -> tuple[dict[str, float], dict[str, int], dict[str, str]]:
    """Propagate relevance from the seeds along the graph with 0.5^d decay.

    A node's graph relevance is its own score plus, for each hop d, the
    decayed best score reaching it at that distance. Returns (relevance,
    hop distance, the seed it was reached from) over seeds and reached nodes.
    """
    seeds = top_seeds(base)
    relevance = {node: base[node] for node in seeds}
    hop = dict.fromkeys(seeds, 0)
    via: dict[str, str] = {}
    frontier = {node: base[node] for node in seeds}
    origin = {node: node for node in seeds}
    for distance in range(1, hops + 1):
        reached: dict[str, float] = {}
        for node in sorted(frontier):
            carried = frontier[node] * HOP_DECAY
            for other in sorted(graph.neighbours(node)):
                if allowed(other) and carried > reached.get(other, 0.0):
                    reached[other] = carried
                    origin.setdefault(other, origin[node])
        for other, value in reached.items():
            relevance[other] = relevance.get(other, base.get(other, 0.0)) + value
            if other not in hop:
                hop[other] = distance
                via[other] = origin[other]
        frontier = reached
    return relevance, hop, via
