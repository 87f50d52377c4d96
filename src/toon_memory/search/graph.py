"""The memory link graph: typed, undirected adjacency between entry ids.

Invariant: the adjacency always equals what a fresh build from the current
nodes would give. An edge joins entry A and entry B when A links to B's key
(``links``, typed ``relates``/``supersedes``/``superseded_by``) or mentions
``[[B's key]]`` in its content, whichever of the two was added first; a key
shared by several entries (versions) joins all of them. Self-links are
ignored. Pure data structure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Protocol

_REF_RE = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")


def content_refs(content: str) -> list[str]:
    """Keys mentioned as ``[[key]]`` in ``content``, in order, without duplicates."""
    return list(dict.fromkeys(match.strip() for match in _REF_RE.findall(content)))


class Neighbourhood(Protocol):
    """The link graph as ranking reads it (``LinkGraph``, or an index's edge lookups)."""

    def neighbours(self, node: str) -> Mapping[str, str]: ...
    def expand(
        self, seeds: Iterable[str], hops: int, allowed: Callable[[str], bool]
    ) -> dict[str, int]: ...
    def ids_of(self, key: str) -> set[str]: ...
    def prefetch(self, nodes: Iterable[str]) -> None:
        """Nodes about to be expanded (an on-disk graph reads their links at once)."""
        ...


INVERSE = {"supersedes": "superseded_by", "superseded_by": "supersedes"}


def expand_over(
    neighbours: Callable[[str], Mapping[str, str]],
    seeds: Iterable[str],
    hops: int,
    allowed: Callable[[str], bool],
    prefetch: Callable[[list[str]], None] | None = None,
) -> dict[str, int]:
    """Every node within ``hops`` of a seed (through allowed nodes) -> its hop distance.

    ``prefetch`` is told each frontier before it is expanded (an index reads it at once)."""
    dist = {seed: 0 for seed in seeds}
    frontier = list(dist)
    for hop in range(1, hops + 1):
        if prefetch is not None:
            prefetch(frontier)
        nxt: list[str] = []
        for node in frontier:
            for other in neighbours(node):
                if other not in dist and allowed(other):
                    dist[other] = hop
                    nxt.append(other)
        frontier = nxt
    return dist


def shortest_path_over(
    graph: Neighbourhood, start: str, goal: str, allowed: Callable[[str], bool] | None = None
) -> list[str]:
    """A BFS shortest path of ids from ``start`` to ``goal`` (both included); [] if none.

    Intermediate nodes must be ``allowed`` (the goal always is). Neighbours are visited
    in sorted order, so the answer is deterministic; each level is prefetched before it
    is expanded (an index reads its links at once)."""
    parent: dict[str, str] = {start: start}
    level = [start]
    while level:
        graph.prefetch(level)
        following: list[str] = []
        for node in level:
            if node == goal:
                path = [node]
                while node != start:
                    node = parent[node]
                    path.append(node)
                return path[::-1]
            for other in sorted(graph.neighbours(node)):
                if other not in parent and (allowed is None or allowed(other) or other == goal):
                    parent[other] = node
                    following.append(other)
        level = following
    return []


def edge_kind(newer_out: Sequence[str], older_out: Sequence[str]) -> str:
    """The type of an edge as seen from its newer end (the node added to the graph last).

    ``newer_out``: the types of the newer node's links to the older one's key, in
    link order; ``older_out``: those of the older node's links to the newer one's key.
    ``LinkGraph.add`` joins the newer node's own links first (the first one wins),
    then the older node's link (the last one it recorded), seen backwards.
    """
    if newer_out:
        return newer_out[0]
    kind = older_out[-1]
    return INVERSE.get(kind, kind)


class LinkGraph:
    """Nodes are entry ids; each node has one key and out-links to keys."""

    def __init__(self) -> None:
        self._key: dict[str, str] = {}
        self._ids_by_key: dict[str, set[str]] = {}
        self._out: dict[str, list[tuple[str, str]]] = {}
        self._incoming: dict[str, dict[str, str]] = {}
        self._adj: dict[str, dict[str, str]] = {}
        self._max_degree = -1

    def __len__(self) -> int:
        return len(self._key)

    def add(self, node: str, key: str, links: Iterable[tuple[str, str]]) -> None:
        """Insert or replace ``node`` with its ``key`` and typed out-links ``(type, key)``."""
        if node in self._key:
            self.remove(node)
        out = [(kind, target) for kind, target in dict.fromkeys(links) if target]
        self._key[node] = key
        self._ids_by_key.setdefault(key, set()).add(node)
        self._out[node] = out
        self._adj.setdefault(node, {})
        for kind, target in out:
            self._incoming.setdefault(target, {})[node] = kind
            for other in self._ids_by_key.get(target, ()):
                self._join(node, other, kind)
        for source, kind in self._incoming.get(key, {}).items():
            self._join(source, node, kind)

    def remove(self, node: str) -> None:
        """Drop ``node`` and its edges; unknown nodes are ignored."""
        key = self._key.pop(node, None)
        if key is None:
            return
        ids = self._ids_by_key[key]
        ids.discard(node)
        if not ids:
            del self._ids_by_key[key]
        for _kind, target in self._out.pop(node, []):
            sources = self._incoming.get(target)
            if sources is not None:
                sources.pop(node, None)
                if not sources:
                    del self._incoming[target]
        neighbours = self._adj.pop(node, {})
        top = self._max_degree
        if top >= 0 and (
            len(neighbours) == top or any(len(self._adj[o]) == top for o in neighbours)
        ):
            self._max_degree = -1  # the largest degree may have shrunk: recount on next use
        for other in neighbours:
            self._adj[other].pop(node, None)

    def _join(self, a: str, b: str, kind: str) -> None:
        if a == b:
            return
        self._adj[a].setdefault(b, kind)
        back = INVERSE.get(kind, kind)
        self._adj[b].setdefault(a, back)
        if self._max_degree >= 0:  # degrees only grow here: keep the maximum current
            self._max_degree = max(self._max_degree, len(self._adj[a]), len(self._adj[b]))

    def nodes(self) -> Iterator[tuple[str, list[tuple[str, str]]]]:
        """Every node with its typed out-links, in the order the nodes joined the graph."""
        for node in self._key:
            yield node, self._out[node]

    def prefetch(self, nodes: Iterable[str]) -> None:
        """Nothing to do: the adjacency is in memory."""

    def neighbours(self, node: str) -> dict[str, str]:
        """Neighbour id -> edge type as seen from ``node``."""
        return self._adj.get(node, {})

    def ids_of(self, key: str) -> set[str]:
        return self._ids_by_key.get(key, set())

    def degree(self, node: str) -> int:
        return len(self._adj.get(node, ()))

    def centrality(self, node: str) -> float:
        """Degree centrality normalised to 0..1 by the largest degree in the graph."""
        if self._max_degree < 0:
            self._max_degree = max(map(len, self._adj.values()), default=0)
        return self.degree(node) / self._max_degree if self._max_degree else 0.0

    def expand(
        self, seeds: Iterable[str], hops: int, allowed: Callable[[str], bool]
    ) -> dict[str, int]:
        """Every node within ``hops`` of a seed (through allowed nodes) -> its hop distance."""
        return expand_over(self.neighbours, seeds, hops, allowed)

    def shortest_path(
        self, start: str, goal: str, allowed: Callable[[str], bool] | None = None
    ) -> list[str]:
        """A BFS shortest path of ids from ``start`` to ``goal`` (both included); [] if none
        (``shortest_path_over``)."""
        if start not in self._adj or goal not in self._adj:
            return []
        return shortest_path_over(self, start, goal, allowed)
