"""The engine's data: entries, their BM25F index, link graph and per-entry caches.

Invariant: after ``upsert``/``remove``, the index, the graph (once built) and
every cache describe exactly the entries held, whatever their status. The
pickled form holds the entries, the packed index and the node degrees; the
link graph itself is rebuilt from the entries on first need (a graph query,
or any change), so a cold process that only runs flat recall never pays
for it.
"""

from __future__ import annotations

import re
from typing import Any

from toon_memory.model import Entry
from toon_memory.search import signals
from toon_memory.search.graph import LinkGraph, content_refs
from toon_memory.search.index import BM25Index
from toon_memory.search.tokenize import detect_language, document_terms
from toon_memory.search.tokenize import script_family as family_of

#: Field weights of BM25F: the key and tags say what an entry is about.
FIELD_WEIGHTS: dict[str, float] = {
    "id": 1.0, "category": 0.5, "key": 3.0, "content": 1.0, "file": 1.5, "tags": 2.5,
}  # fmt: skip
#: Bump when the tokenizer, the weights or the pickled layout change (part of a cache key).
INDEX_VERSION = 2
_HEX_ID = re.compile(r"^[0-9a-f]{8}$")


def entry_fields(entry: Entry) -> dict[str, list[str]]:
    """The analysed fields of one entry, as the index stores them."""
    lang = detect_language(entry.content + " " + entry.key)
    return {
        "id": [entry.id.lower()] if entry.id else [],
        "category": [entry.category.lower()] if entry.category else [],
        "key": document_terms(entry.key, lang),
        "content": document_terms(entry.content, lang),
        "file": document_terms(entry.file, "en"),
        "tags": document_terms(" ".join(entry.tags), lang),
    }


def entry_links(entry: Entry) -> list[tuple[str, str]]:
    """Typed out-links of an entry: its ``links`` then its ``[[key]]`` mentions."""
    return entry.link_targets() + [("relates", ref) for ref in content_refs(entry.content)]


class Corpus:
    """Entries by id with everything derived from them."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}
        self.family: dict[str, str] = {}
        self.static: dict[str, tuple[float, float]] = {}
        self.conditional: set[str] = set()
        self.pinned: set[str] = set()
        self.index = BM25Index(FIELD_WEIGHTS)
        self._graph: LinkGraph | None = LinkGraph()
        self._degrees: dict[str, int] = {}
        self._max_degree = 0

    @property
    def graph(self) -> LinkGraph:
        """The link graph, rebuilt from the entries when it was not pickled."""
        if self._graph is None:
            graph = LinkGraph()
            for entry in self.entries.values():
                graph.add(entry.id, entry.key, entry_links(entry))
            self._graph = graph
        return self._graph

    def centrality(self, node: str) -> float:
        if self._graph is not None:
            return self._graph.centrality(node)
        return self._degrees.get(node, 0) / self._max_degree if self._max_degree else 0.0

    def upsert(self, entry: Entry) -> None:
        graph = self.graph
        if entry.id in self.entries:
            self.remove(entry.id)
        self.entries[entry.id] = entry
        self.family[entry.id] = family_of(entry.content or entry.key)
        self.static[entry.id] = (signals.static_bonus(entry), signals.factor(entry, ()))
        if entry.ttl or entry.status != "active":
            self.conditional.add(entry.id)
        if entry.priority > 0:
            self.pinned.add(entry.id)
        self.index.add(entry.id, entry_fields(entry))
        graph.add(entry.id, entry.key, entry_links(entry))

    def remove(self, entry_id: str) -> None:
        graph = self.graph
        if self.entries.pop(entry_id, None) is None:
            return
        for cache in (self.family, self.static):
            cache.pop(entry_id, None)
        self.conditional.discard(entry_id)
        self.pinned.discard(entry_id)
        self.index.remove(entry_id)
        graph.remove(entry_id)

    def ids_of(self, key: str) -> list[str]:
        """Ids of the entries that have this key (every version)."""
        if self._graph is not None:
            return sorted(self._graph.ids_of(key))
        return sorted(i for i, e in self.entries.items() if e.key == key)

    def __getstate__(self) -> dict[str, Any]:
        graph = self._graph
        degrees = {n: graph.degree(n) for n in self.entries} if graph else self._degrees
        return {
            "version": INDEX_VERSION,
            "entries": self.entries,
            "family": self.family,
            "static": self.static,
            "conditional": self.conditional,
            "pinned": self.pinned,
            "index": self.index,
            "degrees": {n: d for n, d in degrees.items() if d},
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state.get("version") != INDEX_VERSION:
            raise ValueError(f"search cache version {state.get('version')} != {INDEX_VERSION}")
        self.entries = state["entries"]
        self.family = state["family"]
        self.static = state["static"]
        self.conditional = state["conditional"]
        self.pinned = state["pinned"]
        self.index = state["index"]
        self._degrees = state["degrees"]
        self._max_degree = max(self._degrees.values(), default=0)
        self._graph = None
