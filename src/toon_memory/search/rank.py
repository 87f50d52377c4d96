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

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from toon_memory.search.graph import Neighbourhood

BM25_WEIGHT = 3.0
CENTRALITY_WEIGHT = 1.0
HOP_DECAY = 0.5
SEED_LIMIT = 64
T = TypeVar("T")


def shared_ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """Dense 1-based ranks by descending score: equal scores share a rank (1, 2, 2, 3).

    Dense rather than competition ranking (1, 2, 2, 4): a signal with few
    distinct values (degrees in a chain of turns are 1 or 2) must not place
    two nearly equal nodes hundreds of ranks apart. A value within 1e-12 of the value
    that opened the current rank shares it.
    """
    rank_of: dict[float, int] = {}  # each distinct value's rank, walked once, best first
    previous: float | None = None
    current = 0
    isclose = math.isclose
    for value in sorted(set(scores.values()), reverse=True):
        if previous is None or not isclose(value, previous, rel_tol=1e-12, abs_tol=1e-12):
            current += 1
            previous = value
        rank_of[value] = current
    return {node: rank_of[value] for node, value in scores.items()}


def rrf_k(n: int) -> int:
    return min(60, max(3, round(math.sqrt(n))))


def rrf(
    relevance: Mapping[str, float], centrality: Mapping[str, float], n: int = 0
) -> dict[str, float]:
    """Reciprocal rank fusion of relevance (x3) and centrality (x1), normalised to 0..1.

    ``n`` is the number of candidates k is computed from (default: all of ``relevance``).
    """
    k = rrf_k(n or len(relevance))
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


def merge(parts: Sequence[Mapping[T, float]]) -> dict[T, float]:
    """Sum per-word scores into one score per node."""
    if len(parts) == 1:
        return dict(parts[0])
    total: dict[T, float] = {}
    for part in parts:
        for node, value in part.items():
            total[node] = total.get(node, 0.0) + value
    return total


def top(scores: Mapping[T, float], limit: int) -> list[T]:
    """The ``limit`` best-scoring nodes, best first (ties in no particular order)."""
    if len(scores) <= limit:
        return sorted(scores, key=scores.__getitem__, reverse=True)
    return heapq.nlargest(limit, scores, key=scores.__getitem__)


def top_seeds(base: Mapping[str, float], limit: int = SEED_LIMIT) -> list[str]:
    """The best-scoring matches, best first, ties broken by id, at most ``limit``."""
    return sorted(top(base, limit), key=lambda node: (-base[node], node))


def reach(
    graph: Neighbourhood, seeds: Sequence[str], hops: int, allowed: Callable[[str], bool]
) -> tuple[dict[str, int], dict[str, str]]:
    """Hop distance of every node within reach of the seeds, and the seed reaching it first."""
    hop = dict.fromkeys(seeds, 0)
    via: dict[str, str] = {}
    frontier = list(seeds)
    origin = {node: node for node in seeds}
    for distance in range(1, hops + 1):
        graph.prefetch(frontier)
        nxt: list[str] = []
        for node in frontier:
            for other in graph.neighbours(node):
                if other not in hop and allowed(other):
                    hop[other] = distance
                    via[other] = origin[other] = origin[node]
                    nxt.append(other)
        frontier = sorted(nxt)
    return hop, via


def spread(
    graph: Neighbourhood,
    parts: Sequence[Mapping[str, float]],
    seeds: Sequence[str],
    hop: Mapping[str, int],
    allowed: Callable[[str], bool],
) -> dict[str, float]:
    """Per-word relevance spread from the seeds along the graph, 0.5^d decay per hop.

    ``parts`` holds one ``{id: score}`` per query word (every node of ``hop``
    that matched it). For every word, a node keeps the best of its own score
    and the decayed scores of the seeds within reach; its graph relevance is
    the sum over words. So a neighbour that holds *another* word of the query
    (the answer after the question) lifts a node, while the same word twice
    does not count double. Returns the relevance of every node of ``hop``.
    """
    hops = max(hop.values(), default=0)
    balls = {seed: _ball(graph, seed, hops, allowed) for seed in seeds}
    relevance = dict.fromkeys(hop, 0.0)
    for part in parts:
        best = dict(part)
        for seed in seeds:
            value = part.get(seed, 0.0)
            if value <= 0.0:
                continue
            for other, distance in balls[seed].items():
                carried = value * HOP_DECAY**distance
                if carried > best.get(other, 0.0):
                    best[other] = carried
        for node, value in best.items():
            if node in relevance:
                relevance[node] += value
    return relevance


def _ball(
    graph: Neighbourhood, start: str, hops: int, allowed: Callable[[str], bool]
) -> dict[str, int]:
    """Allowed nodes within ``hops`` of ``start`` (excluded) -> distance."""
    return {n: d for n, d in graph.expand([start], hops, allowed).items() if d > 0}
