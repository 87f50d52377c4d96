"""The recall engine: entries, their BM25F index and link graph, kept in step.

Invariant: after ``build``/``upsert``/``remove``, the index, the graph and the
per-entry caches describe exactly the entries held (every status, so
``as_of`` can bring superseded ones back); ``recall`` never mutates anything
and is deterministic for equal inputs (``today`` is passed in). An Engine
pickles to a self-contained state and loads back to an equal engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from toon_memory.errors import NotFoundError
from toon_memory.model import Entry
from toon_memory.search import rank, signals
from toon_memory.search.graph import LinkGraph, content_refs
from toon_memory.search.index import BM25Index
from toon_memory.search.options import RecallOptions
from toon_memory.search.result import Edge, Hit, RecallResult
from toon_memory.search.tokenize import detect_language, document_terms, query_groups
from toon_memory.search.tokenize import script_family as family_of

#: Field weights of BM25F: the key and tags say what an entry is about.
FIELD_WEIGHTS: dict[str, float] = {
    "id": 1.0, "category": 0.5, "key": 3.0, "content": 1.0, "file": 1.5, "tags": 2.5,
}  # fmt: skip
#: Bump when the tokenizer or the pickled layout changes (part of a cache key).
INDEX_VERSION = 1
_HEX_ID = re.compile(r"^[0-9a-f]{8}$")
_POOL = 400


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


def query_terms(query: str) -> list[tuple[str, ...]]:
    """Query word groups, plus any 8-hex-digit id written in the query."""
    groups = query_groups(query)
    for word in query.lower().split():
        if _HEX_ID.match(word) and (word,) not in groups:
            groups.append((word,))
    return groups


@dataclass(frozen=True, slots=True)
class _Context:
    """What one ranking pass needs besides the entries."""

    opts: RecallOptions
    today: date
    session_files: Collection[str]
    query_family: str


class Engine:
    """Holds entries and answers recall, search, suggest, smart recall and graph paths."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._family: dict[str, str] = {}
        self._conditional: set[str] = set()
        self._pinned: set[str] = set()
        self._index = BM25Index(FIELD_WEIGHTS)
        self._graph = LinkGraph()

    @classmethod
    def build(cls, entries: Iterable[Entry]) -> Engine:
        engine = cls()
        for entry in entries:
            engine.upsert(entry)
        return engine

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._entries

    def upsert(self, entry: Entry) -> None:
        """Add or replace one entry (matched by id) in the index and the graph."""
        if entry.id in self._entries:
            self.remove(entry.id)
        self._entries[entry.id] = entry
        self._family[entry.id] = family_of(entry.content or entry.key)
        if entry.ttl or entry.status != "active":
            self._conditional.add(entry.id)
        if entry.priority > 0:
            self._pinned.add(entry.id)
        self._index.add(entry.id, entry_fields(entry))
        links = entry.link_targets() + [("relates", ref) for ref in content_refs(entry.content)]
        self._graph.add(entry.id, entry.key, links)

    def remove(self, entry_id: str) -> None:
        """Forget one entry; unknown ids are ignored."""
        if self._entries.pop(entry_id, None) is None:
            return
        self._family.pop(entry_id, None)
        self._conditional.discard(entry_id)
        self._pinned.discard(entry_id)
        self._index.remove(entry_id)
        self._graph.remove(entry_id)

    def get(self, id_or_key: str) -> Entry | None:
        """The entry with this id, else the best entry with this key (active, newest)."""
        found = self._entries.get(id_or_key)
        if found is not None:
            return found
        versions = [self._entries[i] for i in self._graph.ids_of(id_or_key)]
        if not versions:
            return None
        return max(versions, key=lambda e: (e.status == "active", e.updated, e.created, e.id))

    @property
    def entries(self) -> list[Entry]:
        return list(self._entries.values())

    # -- public queries ---------------------------------------------------------------

    def recall(
        self,
        opts: RecallOptions,
        *,
        today: date,
        session_files: Collection[str] = frozenset(),
    ) -> RecallResult:
        """Rank entries for ``opts`` (validated here); see ``RecallOptions``."""
        o = opts.validated()
        result = self._fetch(o) if o.ids else self._ranked(o, today, session_files)
        if o.budget_tokens > 0:
            from toon_memory.render.recall import fit_budget

            result = fit_budget(result)
        return result

    def search(
        self,
        query: str = "",
        *,
        today: date,
        category: str = "",
        tags: Iterable[str] = (),
        from_date: str = "",
        to_date: str = "",
        path_scope: str = "",
        budget: str = "normal",
        session_bias: bool = False,
        limit: int | None = None,
        session_files: Collection[str] = frozenset(),
    ) -> RecallResult:
        """Flat recall with filters: category, tags (all must match), dates, path scope."""
        opts = RecallOptions(
            query=query, category=category, tags=tuple(tags), from_date=from_date,
            to_date=to_date, path_scope=path_scope, budget=budget, session_bias=session_bias,
            limit=limit,
        )  # fmt: skip
        return self.recall(opts, today=today, session_files=session_files)

    def suggest(self, context: str, limit: int = 5, *, today: date) -> list[Entry]:
        """Entries related to a free-text context (flat ranking over its words), best first."""
        return self.recall(RecallOptions(query=context, limit=limit), today=today).entries

    def smart_recall(
        self,
        intent: str,
        *,
        today: date,
        hops: int = 2,
        explain: bool = False,
        budget_tokens: int = 0,
        session_bias: bool = True,
        session_files: Collection[str] = frozenset(),
        limit: int | None = None,
    ) -> RecallResult:
        """Graph recall that also weighs freshness and decay (recency + use)."""
        opts = RecallOptions(
            query=intent, mode="graph", hops=hops, explain=explain, budget_tokens=budget_tokens,
            session_bias=session_bias, smart=True, limit=limit,
        )  # fmt: skip
        return self.recall(opts, today=today, session_files=session_files)

    def graph_path(self, from_key: str, to_key: str) -> list[Entry]:
        """Entries on a BFS shortest path between two ids/keys (both included); [] if none."""
        start, goal = self.get(from_key), self.get(to_key)
        if start is None:
            raise NotFoundError("from_key", from_key)
        if goal is None:
            raise NotFoundError("to_key", to_key)
        path = self._graph.shortest_path(
            start.id, goal.id, lambda node: self._entries[node].status == "active"
        )
        return [self._entries[node] for node in path]

    # -- ranking ----------------------------------------------------------------------

    def _fetch(self, o: RecallOptions) -> RecallResult:
        hits: list[Hit] = []
        missing: list[str] = []
        seen: set[str] = set()
        for wanted in o.ids or ():
            entry = self.get(wanted)
            if entry is None:
                missing.append(wanted)
            elif entry.id not in seen:
                seen.add(entry.id)
                hits.append(Hit(entry, 1.0, 100, -1, "", ()))
        return RecallResult(o, tuple(hits), self._edges(hits), len(hits), tuple(missing))

    def _allowed(self, o: RecallOptions, today: date) -> Callable[[str], bool]:
        """A fast eligibility test: without filters only TTL/status entries are checked."""
        entries, conditional = self._entries, self._conditional
        filtered = bool(o.as_of or o.from_date or o.to_date or o.category or o.tags)
        if filtered or o.path_scope:
            return lambda node: signals.eligible(entries[node], o, today)
        return lambda node: node not in conditional or signals.eligible(entries[node], o, today)

    def _ranked(
        self, o: RecallOptions, today: date, session_files: Collection[str]
    ) -> RecallResult:
        allowed = self._allowed(o, today)
        groups = query_terms(o.query)
        if groups:
            parts = [
                {n: v for n, v in part.items() if allowed(n)}
                for part in self._index.score_groups(groups)
            ]
            base = rank.merge(parts)
            hop = dict.fromkeys(base, 0)
            via: dict[str, str] = {}
            if o.mode == "graph" and base:
                base, hop, via = rank.spread(self._graph, parts, o.hops, allowed)
        else:
            base = {n: signals.auto_importance(e, today) for n, e in self._entries.items()}
            base = {n: s for n, s in base.items() if allowed(n)}
            hop, via = dict.fromkeys(base, -1), {}
        total = len(base)
        ctx = _Context(o, today, session_files if o.session_bias else (), family_of(o.query))
        scores = self._fuse(self._pool(base), hop, ctx)
        for node in sorted(self._pinned):
            if node not in scores and allowed(node):
                scores[node] = self._adjust(node, 0.0, ctx)
                hop[node] = -1
        order = sorted(scores, key=lambda n: self._sort_key(n, scores[n]))[: o.limit]
        hits = self._hits(order, scores, hop, via, today)
        return RecallResult(o, tuple(hits), self._edges(hits), total)

    def _pool(self, base: dict[str, float]) -> dict[str, float]:
        if len(base) <= _POOL:
            return base
        import heapq

        return dict(heapq.nlargest(_POOL, base.items(), key=lambda item: item[1]))

    def _fuse(self, pool: dict[str, float], hop: dict[str, int], ctx: _Context) -> dict[str, float]:
        centrality = {node: self._graph.centrality(node) for node in pool}
        if ctx.opts.rrf:
            fused = rank.rrf(pool, centrality)
        else:
            importance = {n: signals.auto_importance(self._entries[n], ctx.today) for n in pool}
            fused = rank.linear(pool, centrality, importance, hop)
        return {n: self._adjust(n, value, ctx) for n, value in fused.items()}

    def _adjust(self, node: str, value: float, ctx: _Context) -> float:
        entry = self._entries[node]
        family = self._family.get(node, "")
        value += signals.bonus(entry, family, ctx.query_family, ctx.opts.path_scope)
        value *= signals.factor(entry, ctx.session_files)
        if ctx.opts.smart:
            value *= signals.freshness(entry, ctx.today)
            value += 0.1 * signals.auto_importance(entry, ctx.today)
        return value

    def _sort_key(self, node: str, score: float) -> tuple[int, float, str, str]:
        entry = self._entries[node]
        return (-entry.priority, -score, entry.key, node)

    def _hits(
        self,
        order: list[str],
        scores: dict[str, float],
        hop: dict[str, int],
        via: dict[str, str],
        today: date,
    ) -> list[Hit]:
        top = max((scores[n] for n in order), default=0.0)
        hits: list[Hit] = []
        for node in order:
            entry = self._entries[node]
            pct = max(0, min(100, round(100 * scores[node] / top))) if top > 0 else 0
            seed_key = self._entries[via[node]].key if node in via else ""
            why = signals.reasons(entry, pct, today, hop.get(node, 0), seed_key)
            hits.append(Hit(entry, scores[node], pct, hop.get(node, 0), seed_key, why))
        return hits

    def _edges(self, hits: list[Hit]) -> tuple[Edge, ...]:
        position = {hit.entry.id: i for i, hit in enumerate(hits)}
        edges: list[Edge] = []
        for i, hit in enumerate(hits):
            for other, kind in sorted(self._graph.neighbours(hit.entry.id).items()):
                j = position.get(other)
                if j is not None:
                    edges.append(Edge(i, j, kind))
        return tuple(sorted(edges, key=lambda e: (e.source, e.target)))

    # -- pickling ---------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        return {
            "version": INDEX_VERSION,
            "entries": self._entries,
            "family": self._family,
            "conditional": self._conditional,
            "pinned": self._pinned,
            "index": self._index,
            "graph": self._graph,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state.get("version") != INDEX_VERSION:
            raise ValueError(f"engine cache version {state.get('version')} != {INDEX_VERSION}")
        self._entries = state["entries"]
        self._family = state["family"]
        self._conditional = state["conditional"]
        self._pinned = state["pinned"]
        self._index = state["index"]
        self._graph = state["graph"]
