"""The ranker's view of a corpus kept outside the process (the SQLite index of ``store``).

Invariant: ``SourceCorpus`` offers the ranking pipeline exactly what the in-memory
``Corpus`` offers (``entries``, ``index``, ``graph``, ``static``, ``family``,
``heads``, ``usage``, ``conditional``, ``pinned``, ``centralities``, ``ids_of``), computed
from a ``CorpusSource`` (``search.corpus_source``) with the same functions
(``index.term_scores``, ``signals``, ``graph.edge_kind``), so one ranker answers over both
engines and, for equal entries added in equal order, gives equal results. It reads lazily:
a query touches the postings of its terms, the rows of its candidates (what ranking reads
of an entry: key, priority, degree, family and the fields of its static signals, never its
body), the entries the answer shows or the options need (by slot when their rows were
read), and the links of the nodes it expands; nothing is read twice in one view, nothing
is written.
A ``SourceCorpus`` is one query's snapshot: make a new one per query. A long-lived
process keeps, per source, the terms' postings (``Versioned``) and the candidates' rows
with a few counts (``Tracked``) between queries, each only while the source says it has
not changed since: what a query reads equals what a fresh process would read.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import date
from typing import TypeVar, cast

from toon_memory.model.entry import Entry
from toon_memory.search import signals
from toon_memory.search.corpus import entry_family, entry_static
from toon_memory.search.corpus_source import CorpusSource, LinkRow, UsageFields
from toon_memory.search.graph import INVERSE, edge_kind, expand_over
from toon_memory.search.index import Scoring
from toon_memory.search.term_data import Lengths, TermData, bits_of
from toon_memory.search.warm import UNREAD, Known, Prepared, Warm, prepared, warm_of

#: Matches a filter reads at once (``SourceCorpus.allowed_slots``).
_CHUNK = 500


#: Where ``_Index.doc_ids`` hands the rows it read (``_RowKeeper``).
RowSink = Callable[[list[Prepared]], None]


class _Index(Scoring):
    def __init__(self, source: CorpusSource, warm: Warm, sink: RowSink) -> None:
        self._source = source
        self._rows_sink = sink
        self.warm = warm
        self.fact = warm.fact
        self._n = self.fact("count", source.count)
        self._avg = source.avg_len()
        #: (document frequency, version or None: not held) of the terms read at once.
        self._known: dict[str, tuple[int, object | None]] = {}

    def know_terms(self, terms: Iterable[str]) -> None:
        """The facts of the terms not known yet, read at once (``search.warm.Known``;
        exact: one query reads one snapshot)."""
        read = getattr(self._source, "term_facts", None)
        new = [term for term in dict.fromkeys(terms) if term not in self._known]
        if new and callable(read):
            found = cast(Known, self._source).term_facts(new)
            self._known.update((term, found.get(term, (0, None))) for term in new)

    def term_data(self, term: str, only: str = "") -> TermData:
        known = self._known.get(term)
        version = UNREAD if known is None else known[1]
        return self.warm.term_data(self._source, term, only, version)

    def lengths(self) -> Lengths:
        return self.warm.lengths

    def count(self) -> int:
        return self._n

    def avg_len(self) -> float:
        return self._avg

    def doc_freq(self, term: str) -> int:
        known = self._known.get(term)
        return self._source.doc_freq(term) if known is None else known[0]

    def postings(self, term: str) -> Iterable[tuple[int, float, float]]:
        return self._source.postings(term)

    def slot(self, doc_id: str) -> int | None:
        return self._source.slot(doc_id)

    def doc_id(self, slot: int) -> str:
        return self._source.doc_id(slot)

    def doc_ids(self, slots: Sequence[int]) -> list[str]:
        """The rows of these slots are read too (the pipeline asks for the ids of its
        candidates, which it ranks next) and handed to the sink."""
        rows = self.warm.rows_at(self._source, slots)
        if rows is None:
            rows = [prepared(row) for row in self._source.rows_at(slots)]
        self._rows_sink(rows)
        found = {row[0]: row[1] for row in rows}
        return [found.get(slot, "") for slot in slots]


class _Graph:
    def __init__(self, source: CorpusSource) -> None:
        self._source = source
        self._adj: dict[str, dict[str, str]] = {}

    def neighbours(self, node: str) -> dict[str, str]:
        """Neighbour id -> edge type as seen from ``node`` (``LinkGraph.neighbours``)."""
        found = self._adj.get(node)
        if found is None:
            found = self._adj[node] = _resolve(
                node, self._source.seq(node), self._source.links(node)
            )
        return found

    def prefetch(self, nodes: Iterable[str]) -> None:
        """Read the links of many nodes at once (a frontier about to be expanded)."""
        wanted = [node for node in nodes if node not in self._adj]
        if len(wanted) > 1:
            for node, (seq, rows) in self._source.links_of(wanted).items():
                self._adj[node] = _resolve(node, seq, rows)

    def expand(
        self, seeds: Iterable[str], hops: int, allowed: Callable[[str], bool]
    ) -> dict[str, int]:
        return expand_over(self.neighbours, seeds, hops, allowed, self.prefetch)

    def ids_of(self, key: str) -> set[str]:
        return set(self._source.ids_with_key(key))


def _resolve(node: str, mine: int, rows: Iterable[LinkRow]) -> dict[str, str]:
    own: dict[str, list[str]] = {}
    theirs: dict[str, list[str]] = {}
    seqs: dict[str, int] = {}
    for other, seq, outgoing, kind in rows:
        if other != node:
            seqs[other] = seq
            (own if outgoing else theirs).setdefault(other, []).append(kind)
    adj: dict[str, str] = {}
    for other, seq in seqs.items():
        mine_out, their_out = own.get(other, []), theirs.get(other, [])
        if seq < mine:
            adj[other] = edge_kind(mine_out, their_out)
        else:
            adj[other] = _flip(edge_kind(their_out, mine_out))
    return adj


def _flip(kind: str) -> str:
    return INVERSE.get(kind, kind)


class _Entries(Mapping[str, Entry]):
    """Entries read on first use (or a batch at once: ``fetch``) and kept for the query."""

    def __init__(self, source: CorpusSource) -> None:
        self._source = source
        self.seen: dict[str, Entry] = {}
        #: The slot of each node whose row was read (``_RowKeeper``): its entry is read
        #: by slot.
        self.slots: dict[str, int] = {}

    def __getitem__(self, entry_id: str) -> Entry:
        entry = self.seen.get(entry_id)
        if entry is None:
            entry = self._source.entry(entry_id)
            if entry is None:
                raise KeyError(entry_id)
            self.seen[entry_id] = entry
        return entry

    def fetch(self, ids: Iterable[str]) -> None:
        """Read the entries of many ids at once (those not read yet): by slot where the
        node's row was read, by id for the rest (and for a slot that holds another now)."""
        wanted = [node for node in ids if node not in self.seen]
        if not wanted:
            return
        slots = self.slots
        placed = [slots[node] for node in wanted if node in slots]
        found = self._source.entries_at(placed) if placed else {}
        self.seen.update(found)
        rest = [node for node in wanted if node not in found]
        if rest:
            self.seen.update(self._source.entries_of(rest))

    def __iter__(self) -> Iterator[str]:
        raise TypeError("a source corpus is not iterated whole")

    def __len__(self) -> int:
        return self._source.count()


_V = TypeVar("_V")


class _FromRow(dict[str, _V]):
    """What ranking reads of a node, by id: set from its row when one is read
    (``_RowKeeper``), else computed from its entry on first use, as ``Corpus`` computes
    it (a dict: the 400 candidates' lookups stay in C)."""

    def __init__(self, entries: _Entries, of_entry: Callable[[Entry], _V]) -> None:
        super().__init__()
        self._entries, self._of_entry = entries, of_entry

    def __missing__(self, node: str) -> _V:
        value = self[node] = self._of_entry(self._entries[node])
        return value


def _head_of(entry: Entry) -> tuple[int, str]:
    return entry.priority, entry.key


class _RowKeeper:
    """The ``RowSink`` of a ``SourceCorpus``: each row read kept by id (the first one
    read of a node), with what ranking reads of it. It holds the corpus's maps, not the
    corpus: no reference cycle, so a query's corpus is freed as soon as it is dropped."""

    def __init__(
        self, degrees: dict[str, int], static: _FromRow[tuple[float, float]],
        family: _FromRow[str], heads: _FromRow[tuple[int, str]], slots: dict[str, int],
    ) -> None:  # fmt: skip
        self._degrees, self._static, self._family, self._heads = degrees, static, family, heads
        self._slots = slots

    def __call__(self, rows: list[Prepared]) -> None:
        degrees, static, family, heads = self._degrees, self._static, self._family, self._heads
        slots = self._slots
        for slot, node, degree, family_of_row, head, static_of_row in rows:
            if node not in degrees:
                degrees[node], static[node] = degree, static_of_row
                family[node], heads[node], slots[node] = family_of_row, head, slot


class SourceCorpus:
    """One query's corpus over a ``CorpusSource`` (see the module docstring)."""

    def __init__(self, source: CorpusSource) -> None:
        self.source = source
        warm = warm_of(source)
        self.entries = _Entries(source)
        #: The degree of each node whose row was read (and so its static, family, head).
        self._degrees: dict[str, int] = {}
        self.static = _FromRow(self.entries, entry_static)
        self.family = _FromRow(self.entries, entry_family)
        self.heads = _FromRow(self.entries, _head_of)
        self._keep = _RowKeeper(
            self._degrees, self.static, self.family, self.heads, self.entries.slots
        )
        self.index = _Index(source, warm, self._keep)
        self.graph = _Graph(source)
        self.conditional = self.index.fact("conditional", source.conditional_ids)
        self.pinned = self.index.fact("pinned", source.pinned_ids)
        self._max_degree = -1

    def conditional_slots(self) -> Iterable[tuple[str, int]]:
        return self.conditional.items()

    def prefetch(self, nodes: Collection[str], whole: bool = False) -> None:
        """Read the rows of many candidates at once (before fusing them); ``whole``: their
        entries too."""
        wanted = [node for node in nodes if node not in self._degrees]
        if wanted:
            self._keep([prepared(row) for row in self.source.rows_of(wanted)])
        if whole:
            self.entries.fetch(nodes)

    def usage_top(
        self, today: date, allowed: Callable[[str], bool], limit: int
    ) -> dict[str, float]:
        """``Corpus.usage_top`` read by groups of equal usage fields: the score is computed
        once per group, and only the best groups' ids are read."""
        scores: dict[float, list[UsageFields]] = {}
        for fields in self.source.usage_groups():
            value = signals.usage_score(signals.usage_from(*fields), today)
            scores.setdefault(value, []).append(fields)
        top: dict[str, float] = {}
        for value in sorted(scores, reverse=True):
            groups = [self._group_ids(fields, max(limit, 64)) for fields in scores[value]]
            for _slot, node in heapq.merge(*groups):  # equal scores: slot order
                if allowed(node):
                    top[node] = value
                    if len(top) >= limit:
                        return top
        return top

    def _group_ids(self, fields: UsageFields, page: int) -> Iterator[tuple[int, str]]:
        """Every (slot, id) with these usage fields, in slot order, read a page at a time."""
        after = -1
        while True:
            rows = self.source.ids_in_group(fields, after, page)
            yield from rows
            if len(rows) < page:
                return
            after = rows[-1][0]

    def centralities(self, nodes: Iterable[str]) -> dict[str, float]:
        if self._max_degree < 0:
            self._max_degree = self.index.fact("max_degree", self.source.max_degree)
        top, degrees, read = self._max_degree, self._degrees, self.source.degree
        if not top:
            return dict.fromkeys(nodes, 0.0)
        return {node: (degrees[node] if node in degrees else read(node)) / top for node in nodes}

    def ids_of(self, key: str) -> list[str]:
        return sorted(self.source.ids_with_key(key))

    def allowed_slots(
        self, scores: dict[int, float], allowed: Callable[[str], bool], category: str = ""
    ) -> dict[int, float]:
        """``Corpus.allowed_slots`` read in chunks: a filter over many matches holds the
        rows of one chunk at a time (the candidates' rows are read again by ``prefetch``);
        a ``category`` is checked in the index's rows, so other entries are never read."""
        kept: dict[int, float] = {}
        slots = list(scores)
        seen = self.entries.seen
        for start in range(0, len(slots), _CHUNK):
            chunk = slots[start : start + _CHUNK]
            ids = (self.source.active_ids(chunk, category) if category
                   else self.source.doc_ids(chunk))  # fmt: skip
            rows = self.source.entries_of([i for i in ids if i and i not in seen])
            seen.update(rows)
            for slot, node in zip(chunk, ids, strict=True):
                if node and allowed(node):
                    kept[slot] = scores[slot]
            for node in rows:
                del seen[node]
        return kept

    def category_counts(self) -> dict[str, int]:
        return self.source.category_counts()

    def category_bits(self, category: str) -> int:
        """The slots of the category's active entries, kept across queries as a fact of
        the source (``search.warm``: a document added, replaced or removed drops it)."""
        return self.index.fact(
            f"category {category}", lambda: bits_of(self.source.category_slots(category))
        )
