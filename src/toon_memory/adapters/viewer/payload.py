"""The data the page draws: active entries, their edges, the stats, as JSON-ready values.

Invariant: built from ``Memory``'s public API only (``entries``, ``stats``,
``graph_path``). The edges are exactly the adjacency the recall engine's link
graph gives between active entries (``links``, typed links and ``[[key]]``
mentions, through ``search.graph``), each pair once, so a shortest path the
page finds over them is the path ``Memory.graph_path`` returns. A
``superseded_by`` edge is emitted as ``supersedes`` from the other end.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from toon_memory.search.graph import LinkGraph, content_refs

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory
    from toon_memory.model.entry import Entry

#: Bumped when the payload's shape changes (the page checks it).
PAYLOAD_VERSION = 1

Edge = tuple[int, int, str]


def entry_links(entry: Entry) -> list[tuple[str, str]]:
    """Typed out-links of an entry, as the engine reads them: ``links`` then ``[[key]]``."""
    return entry.link_targets() + [("relates", ref) for ref in content_refs(entry.content)]


def edges_between(entries: list[Entry]) -> list[Edge]:
    """``(source index, target index, type)`` for each linked pair of ``entries``, once."""
    graph = LinkGraph()
    for entry in entries:
        graph.add(entry.id, entry.key, entry_links(entry))
    index = {entry.id: i for i, entry in enumerate(entries)}
    edges: list[Edge] = []
    for entry in entries:
        for other, kind in sorted(graph.neighbours(entry.id).items()):
            if other <= entry.id:
                continue
            a, b = index[entry.id], index[other]
            edges.append((b, a, "supersedes") if kind == "superseded_by" else (a, b, kind))
    return edges


def graph_payload(memory: Memory) -> dict[str, Any]:
    """Everything the page needs, for ``memory`` as it is now."""
    entries = memory.entries()
    return {
        "version": PAYLOAD_VERSION,
        "project": memory.root.name,
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "entries": [entry.to_dict() for entry in entries],
        "edges": [list(edge) for edge in edges_between(entries)],
        "stats": memory.stats().to_dict(),
    }


def path_ids(memory: Memory, from_key: str, to_key: str) -> list[str]:
    """Ids on ``Memory.graph_path`` between two ids or keys (empty when none)."""
    return [entry.id for entry in memory.graph_path(from_key, to_key)]
