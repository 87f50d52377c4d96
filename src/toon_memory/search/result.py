"""What a recall returns: ranked hits, their reasons, and the edges among them.

Invariant: ``hits`` are in rank order (pinned first, then by score, ties by
key then id), ``relevance`` is 0..100, ``edges`` only name hits of this
result by position, and ``to_dict()`` is JSON-ready and keeps that order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toon_memory.model.entry import Entry
from toon_memory.search.options import RecallOptions


@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked entry.

    ``hop`` is 0 for an entry that matched the query itself (a seed), 1 or 2
    for one reached through the graph, and -1 for a pinned entry or an entry
    listed without any query. ``via`` is the key of the seed it was reached
    from. ``reasons`` are the pieces of the explain line, in order.
    """

    entry: Entry
    score: float
    relevance: int
    hop: int = 0
    via: str = ""
    reasons: tuple[str, ...] = ()

    @property
    def seed(self) -> bool:
        return self.hop == 0

    @property
    def pinned(self) -> bool:
        return self.entry.priority > 0

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {
            "key": e.key,
            "id": e.id,
            "category": e.category,
            "content": e.content,
            "file": e.file,
            "tags": list(e.tags),
            "date": e.date,
            "links": list(e.links),
            "score": round(self.score, 6),
            "relevance": self.relevance,
            "hop": self.hop,
            "via": self.via,
            "pinned": self.pinned,
            "priority": e.priority,
            "importance": e.importance,
            "status": e.status,
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True, slots=True)
class Edge:
    """An edge between two hits, by their positions in ``RecallResult.hits``."""

    source: int
    target: int
    kind: str


@dataclass(frozen=True, slots=True)
class RecallResult:
    """The answer of ``Engine.recall`` (and search, suggest, smart recall)."""

    options: RecallOptions
    hits: tuple[Hit, ...] = ()
    edges: tuple[Edge, ...] = ()
    total: int = 0
    missing: tuple[str, ...] = field(default=())
    dropped: int = 0

    def __len__(self) -> int:
        return len(self.hits)

    @property
    def entries(self) -> list[Entry]:
        return [hit.entry for hit in self.hits]

    @property
    def keys(self) -> list[str]:
        return [hit.entry.key for hit in self.hits]

    def edges_of(self, position: int) -> list[Edge]:
        """Edges leaving hit ``position`` (both directions are stored)."""
        return [edge for edge in self.edges if edge.source == position]

    def to_dict(self) -> dict[str, Any]:
        """``{"results": [...], ...}`` in rank order, ready for ``json.dumps``."""
        return {
            "query": self.options.query,
            "mode": "ids" if self.options.ids else self.options.mode,
            "total": self.total,
            "dropped": self.dropped,
            "missing": list(self.missing),
            "results": [hit.to_dict() for hit in self.hits],
            "edges": [
                {"from": self.hits[e.source].entry.key, "to": self.hits[e.target].entry.key,
                 "type": e.kind}
                for e in self.edges
            ],
        }  # fmt: skip
