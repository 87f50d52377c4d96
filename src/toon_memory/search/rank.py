"""Score fusion: ranks with shared ties, RRF, the linear fallback, graph spreading.

Invariant: every function is pure and deterministic (iteration follows
sorted ids where order could matter), and fused scores are normalised to
0..1 before the additive adjustments of ``signals`` are applied, so a
+0.2 warning bonus means the same thing whatever the memory size.

RRF: score(d) = 3/(k + rank_bm25(d)) + 1/(k + rank_centrality(d)), divided by
its maximum 4/(k + 1); k = clamp(3..60, round(sqrt(n))) over the n candidates;
tied scores share a rank, dense (1, 2, 2, 3): see ``shared_ranks``.
Linear: bm25/max + 0.4·centrality + 0.25·importance + 0.1 for a seed, / 1.75.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from toon_memory.search.graph import LinkGraph

BM25_WEIGHT = 3.0
CENTRALITY_WEIGHT = 1.0
HOP_DECAY = 0.5
SEED_LIMIT = 64


def shared_ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """Dense 1-based ranks by descending score: equal scores share a rank (1, 2, 2, 3).

    Dense rather than competition ranking (1, 2, 2, 4): a signal with few
    distinct values (degrees in a chain of turns are 1 or 2) must not place
    two nearly equal nodes hundreds of ranks apart.
    """
    ordered = sorted(scores.items(), key=lambda item: -item[1])
    ranks: dict[str, int] = {}
    previous: float | None = None
    current = 0
    for node, value in ordered:
        if previous is None or not math.isclose(value, previous, rel_tol=1e-12, abs_tol=1e-12):
            current += 1
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


def merge(parts: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Sum per-word scores into one score per node."""
    total: dict[str, float] = {}
    for part in parts:
        for node, value in part.items():
            total[node] = total.get(node, 0.0) + value
    return total


def top_seeds(base: Mapping[str, float], limit: int = SEED_LIMIT) -> list[str]:
    """The best-scoring matches, ties broken by id, at most ``limit``."""
    return [node for node, _ in sorted(base.items(), key=lambda it: (-it[1], it[0]))[:limit]]


def spread(
    graph: LinkGraph,
    parts: Sequence[Mapping[str, float]],
    hops: int,
    allowed: Callable[[str], bool],
) -> tuple[dict[str, float], dict[str, int], dict[str, str]]:
    """Propagate per-word relevance from the seeds along the graph with 0.5^d decay.

    ``parts`` holds one ``{id: score}`` per query word. For every word, a
    node keeps the best of its own score and the decayed scores of the seeds
    within ``hops`` of it; its graph relevance is the sum over words. So a
    neighbour that holds *another* word of the query (the answer after the
    question) lifts a node, while the same word twice does not count double.
    Returns (relevance, hop distance, the seed it was reached from).
    """
    seeds = top_seeds(merge(parts))
    hop, via = _reach(graph, seeds, hops, allowed)
    relevance: dict[str, float] = {}
    for part in parts:
        best = {node: part.get(node, 0.0) for node in hop}
        for seed in seeds:
            value = part.get(seed, 0.0)
            if value <= 0.0:
                continue
            for other, distance in _ball(graph, seed, hops, allowed).items():
                carried = value * HOP_DECAY**distance
                if carried > best[other]:
                    best[other] = carried
        for node, value in best.items():
            relevance[node] = relevance.get(node, 0.0) + value
    return relevance, hop, via


def _ball(
    graph: LinkGraph, start: str, hops: int, allowed: Callable[[str], bool]
) -> dict[str, int]:
    """Allowed nodes within ``hops`` of ``start`` (excluded) -> distance."""
    return {n: d for n, d in graph.expand([start], hops, allowed).items() if d > 0}


def _reach(
    graph: LinkGraph, seeds: Sequence[str], hops: int, allowed: Callable[[str], bool]
) -> tuple[dict[str, int], dict[str, str]]:
    """Hop distance of every node within reach of the seeds, and the seed reaching it first."""
    hop = dict.fromkeys(seeds, 0)
    via: dict[str, str] = {}
    frontier = list(seeds)
    origin = {node: node for node in seeds}
    for distance in range(1, hops + 1):
        nxt: list[str] = []
        for node in frontier:
            for other in sorted(graph.neighbours(node)):
                if other not in hop and allowed(other):
                    hop[other] = distance
                    via[other] = origin[other] = origin[node]
                    nxt.append(other)
        frontier = nxt
    return hop, via
