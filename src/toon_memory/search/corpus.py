"""The engine's data: entries, their BM25F index, link graph and per-entry caches.

Invariant: after ``upsert``/``remove``, the index, the graph (once built) and
every cache describe exactly the entries held, whatever their status. The
pickled form holds the entries, the packed index and the link graph, so a
cold process can apply a change incrementally instead of rebuilding the
graph (about 0.1 s at 10,000 entries).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from datetime import date
from typing import Any, Protocol

from toon_memory.model.entry import Entry, EntryMap
from toon_memory.search import rank, signals
from toon_memory.search.graph import LinkGraph, Neighbourhood, content_refs
from toon_memory.search.index import BM25Index, Scoring, weighted_terms
from toon_memory.search.term_data import bits_of
from toon_memory.search.tokenize import detect_language, document_terms, terms_of_words, words
from toon_memory.search.tokenize import script_family as family_of

#: Field weights of BM25F: the key and tags say what an entry is about.
FIELD_WEIGHTS: dict[str, float] = {
    "id": 1.0, "category": 0.5, "key": 3.0, "content": 1.0, "file": 1.5, "tags": 2.5,
}  # fmt: skip
#: One analysed entry as ``Corpus.documents`` gives it.
Document = tuple[int, Entry, int, float, list[str], list[tuple[str, str]], str]
#: Bump when the tokenizer, the weights or the pickled layout change (part of a cache key).
INDEX_VERSION = 6
_HEX_ID = re.compile(r"^[0-9a-f]{8}$")


def entry_fields(entry: Entry) -> dict[str, list[str]]:
    """The analysed fields of one entry, as the index stores them."""
    content, key = words(entry.content), words(entry.key)  # a space splits runs: both joined
    lang = detect_language(entry.content + " " + entry.key, content + key)
    return {
        "id": [entry.id.lower()] if entry.id else [],
        "category": [entry.category.lower()] if entry.category else [],
        "key": terms_of_words(key, lang),
        "content": terms_of_words(content, lang),
        "file": document_terms(entry.file, "en"),
        "tags": document_terms(" ".join(entry.tags), lang),
    }


def entry_links(entry: Entry) -> list[tuple[str, str]]:
    """Typed out-links of an entry: its ``links`` then its ``[[key]]`` mentions."""
    return entry.link_targets() + [("relates", ref) for ref in content_refs(entry.content)]


def entry_family(entry: Entry) -> str:
    """The script family ``Corpus.family`` holds for an entry (its text, else its key)."""
    return family_of(entry.content or entry.key)


def entry_static(entry: Entry) -> tuple[float, float]:
    """What ``Corpus.static`` holds for an entry: its static bonus and quality factor."""
    return signals.static_bonus(entry), signals.factor(entry, ())


def analyse(entry: Entry) -> tuple[dict[str, float], float, list[tuple[str, str]], str]:
    """What an on-disk index stores of an entry: BM25F weighted terms and length (as
    ``BM25Index.add`` computes them), the graph's typed links (as ``LinkGraph.add``
    keeps them: first of each, none to an empty key) and its script family (as
    ``Corpus.family`` holds it)."""
    terms, length = weighted_terms(entry_fields(entry), FIELD_WEIGHTS)
    links = [(kind, target) for kind, target in dict.fromkeys(entry_links(entry)) if target]
    return terms, length, links, entry_family(entry)


class RankCorpus(Protocol):
    """What the one ranking pipeline reads: ``Corpus`` (in memory) and
    ``search.source.SourceCorpus`` (an on-disk index) both provide it."""

    @property
    def entries(self) -> Mapping[str, Entry]: ...
    @property
    def index(self) -> Scoring: ...
    @property
    def graph(self) -> Neighbourhood: ...
    @property
    def static(self) -> Mapping[str, tuple[float, float]]: ...
    @property
    def family(self) -> Mapping[str, str]: ...
    @property
    def heads(self) -> Mapping[str, tuple[int, str]]:
        """(priority, key) of each entry: what the order reads besides the score."""
        ...

    @property
    def conditional(self) -> Collection[str]: ...
    def conditional_slots(self) -> Iterable[tuple[str, int]]:
        """(id, index slot) of each ``conditional`` entry."""
        ...

    @property
    def pinned(self) -> Collection[str]: ...
    def centralities(self, nodes: Iterable[str]) -> dict[str, float]:
        """Each node's degree over the largest degree in the memory (0..1)."""
        ...

    def ids_of(self, key: str) -> list[str]: ...
    def category_counts(self) -> dict[str, int]:
        """How many active entries each category has (nothing unpacked)."""
        ...

    def category_bits(self, category: str) -> int:
        """The bitmap (``term_data.bits_of``) of the index slots of the active entries of
        ``category``: what ``allowed_slots`` keeps with that ``category`` hint."""
        ...

    def allowed_slots(
        self, scores: dict[int, float], allowed: Callable[[str], bool], category: str = ""
    ) -> dict[int, float]:
        """The scores of the matches (by slot) that ``allowed`` lets through. ``category``:
        the caller knows ``allowed`` passes active entries of that category only, so the
        others are dropped from derived data first, without reading them."""
        ...

    def prefetch(self, nodes: Collection[str], whole: bool = False) -> None:
        """Candidates about to be fused (an on-disk corpus reads what ranking reads of them
        at once; ``whole``: their entries too, which the pass is about to read)."""
        ...

    def usage_top(
        self, today: date, allowed: Callable[[str], bool], limit: int
    ) -> dict[str, float]:
        """The no-query ranking's pool: the ``limit`` allowed entries of best
        ``signals.usage_score``, best first, ties in slot order (``rank.top``)."""
        ...


class Corpus:
    """Entries by id with everything derived from them."""

    def __init__(self) -> None:
        self.entries = EntryMap()
        self.family: dict[str, str] = {}
        self.static: dict[str, tuple[float, float]] = {}
        #: Per entry, what the no-query ranking needs (no entry is unpacked for it).
        self.usage: dict[str, signals.Usage] = {}
        #: Category of each active entry (counts without unpacking entries).
        self.active_category: dict[str, str] = {}
        self.conditional: set[str] = set()
        self.pinned: set[str] = set()
        self.index = BM25Index(FIELD_WEIGHTS)
        self.graph = LinkGraph()
        #: ``category_bits`` kept until an entry is indexed or unindexed.
        self._bits: dict[str, int] = {}

    def centralities(self, nodes: Iterable[str]) -> dict[str, float]:
        centrality = self.graph.centrality
        return {node: centrality(node) for node in nodes}

    def conditional_slots(self) -> list[tuple[str, int]]:
        slot = self.index.slot
        return [(node, s) for node in self.conditional if (s := slot(node)) is not None]

    @property
    def heads(self) -> Mapping[str, tuple[int, str]]:
        return _Heads(self.entries)

    def prefetch(self, nodes: Collection[str], whole: bool = False) -> None:
        """Nothing to do: every entry is in memory."""

    def usage_top(
        self, today: date, allowed: Callable[[str], bool], limit: int
    ) -> dict[str, float]:
        scores = {n: signals.usage_score(u, today) for n, u in self.usage.items() if allowed(n)}
        return {n: scores[n] for n in rank.top(scores, limit)}

    def allowed_slots(
        self, scores: dict[int, float], allowed: Callable[[str], bool], category: str = ""
    ) -> dict[int, float]:
        doc_id, active = self.index.doc_id, self.active_category
        return {slot: value for slot, value in scores.items()
                if (not category or active.get(doc_id(slot)) == category)
                and allowed(doc_id(slot))}  # fmt: skip

    def category_bits(self, category: str) -> int:
        found = self._bits.get(category)
        if found is None:
            slot = self.index.slot
            found = self._bits[category] = bits_of(
                s for node, c in self.active_category.items()
                if c == category and (s := slot(node)) is not None
            )  # fmt: skip
        return found

    def category_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for category in self.active_category.values():
            counts[category] = counts.get(category, 0) + 1
        return counts

    def upsert(self, entry: Entry) -> None:
        self.entries[entry.id] = entry  # no-op when the map is shared and already holds it
        self.index_entry(entry)

    def index_entry(self, entry: Entry) -> None:
        """(Re)derive everything for an entry the map holds. The index says what was indexed."""
        if entry.id in self.index:
            self._unindex(entry.id)
        self._bits.clear()
        graph = self.graph
        self.family[entry.id] = entry_family(entry)
        self.static[entry.id] = entry_static(entry)
        self.usage[entry.id] = signals.usage_of(entry)
        if entry.status == "active":
            self.active_category[entry.id] = entry.category
        if entry.ttl or entry.status != "active":
            self.conditional.add(entry.id)
        if entry.priority > 0:
            self.pinned.add(entry.id)
        self.index.add(entry.id, entry_fields(entry))
        graph.add(entry.id, entry.key, entry_links(entry))

    def used(self, entry: Entry) -> None:
        if entry.id in self.usage:
            self.usage[entry.id] = signals.usage_of(entry)

    def remove(self, entry_id: str) -> None:
        self.entries.pop(entry_id, None)  # already gone when the map is shared
        if entry_id in self.index:
            self._unindex(entry_id)

    def _unindex(self, entry_id: str) -> None:
        self._bits.clear()
        graph = self.graph
        for cache in (self.family, self.static, self.usage, self.active_category):
            cache.pop(entry_id, None)
        self.conditional.discard(entry_id)
        self.pinned.discard(entry_id)
        self.index.remove(entry_id)
        graph.remove(entry_id)

    def ids_of(self, key: str) -> list[str]:
        """Ids of the entries that have this key (every version)."""
        return sorted(self.graph.ids_of(key))

    def documents(self) -> Iterator[Document]:
        """What an on-disk index stores of each entry, already analysed: (slot, entry,
        graph order, weighted length, terms, typed links, script family), in graph order."""
        index, entries = self.index, self.entries
        for seq, (node, links) in enumerate(self.graph.nodes(), start=1):
            found = index.document(node)
            if found is not None:
                slot, length, terms = found
                yield slot, entries[node], seq, length, terms, links, self.family.get(node, "")

    def postings(self) -> Iterator[tuple[str, Iterable[tuple[int, float]]]]:
        """Every term with its ``(slot, tf)`` postings (``BM25Index.all_postings``)."""
        return self.index.all_postings()

    def total_length(self) -> float:
        """The index's Σ|d|, exactly as it keeps it (so lengths average identically)."""
        return self.index.total_length()

    def __getstate__(self) -> dict[str, Any]:
        return {
            "version": INDEX_VERSION,
            "entries": self.entries,
            "family": self.family,
            "static": self.static,
            "usage": self.usage,
            "active_category": self.active_category,
            "conditional": self.conditional,
            "pinned": self.pinned,
            "index": self.index,
            "graph": self.graph,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state.get("version") != INDEX_VERSION:
            raise ValueError(f"search cache version {state.get('version')} != {INDEX_VERSION}")
        self.entries = state["entries"]
        self.family = state["family"]
        self.static = state["static"]
        self.usage = state["usage"]
        self.active_category = state["active_category"]
        self.conditional = state["conditional"]
        self.pinned = state["pinned"]
        self.index = state["index"]
        self.graph = state["graph"]
        self._bits = {}


class _Heads(Mapping[str, tuple[int, str]]):
    """``Corpus.heads``: read off the entries."""

    def __init__(self, entries: Mapping[str, Entry]) -> None:
        self._entries = entries

    def __getitem__(self, node: str) -> tuple[int, str]:
        entry = self._entries[node]
        return entry.priority, entry.key

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
