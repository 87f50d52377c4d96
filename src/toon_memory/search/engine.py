"""The recall engine: the public face of ``search`` (see the package docstring).

Invariant: ``Engine`` holds every entry it was given, whatever its status (so
``as_of`` can bring superseded ones back), keeps its index and graph in step
through ``upsert``/``remove``, never mutates anything while answering, and
answers deterministically for equal inputs (``today`` is passed in). It
pickles to a self-contained state and loads back to an engine that answers
identically.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import date
from typing import Any

from toon_memory.errors import NotFoundError
from toon_memory.model.entry import Entry, EntryMap
from toon_memory.search.budget import fit_budget
from toon_memory.search.corpus import Corpus, RankCorpus
from toon_memory.search.graph import shortest_path_over
from toon_memory.search.options import RecallOptions
from toon_memory.search.pipeline import hit_edges, rank_entries
from toon_memory.search.result import Hit, RecallResult

#: Words of a free-text context that ask (``suggest``): its most distinctive ones. A
#: remember's near search is a suggest of the entry's text; every word asking made a
#: remember of 60 words at 100,000 entries cost 0.5 s.
SUGGEST_WORDS = 10
#: A suggest fuses its best ``SUGGEST_POOL`` matches (a recall its best ``POOL``): the
#: few entries it shows are among them, and a remember of an entry of common words at
#: 100,000 entries ranked 400 in ~5 ms, 100 in ~1 ms.
SUGGEST_POOL = 100


class Ranker:
    """Answers recall, search, suggest and smart recall over any ``RankCorpus``: the one
    ranking path of both engines (``Engine`` in memory, ``search.source`` on disk)."""

    def __init__(self, corpus: RankCorpus) -> None:
        self._view = corpus

    def get(self, id_or_key: str) -> Entry | None:
        """The entry with this id, else the best entry with this key (active, newest)."""
        return get_over(self._view, id_or_key)

    def graph_path(self, from_key: str, to_key: str) -> list[Entry]:
        """Entries on a BFS shortest path between two ids/keys (both included); [] if none.

        Intermediate entries must be active. Raises ``NotFoundError`` for an unknown end.
        """
        start, goal = self.get(from_key), self.get(to_key)
        if start is None:
            raise NotFoundError("from_key", from_key)
        if goal is None:
            raise NotFoundError("to_key", to_key)
        entries = self._view.entries
        path = shortest_path_over(self._view.graph, start.id, goal.id,
                                  lambda node: entries[node].status == "active")  # fmt: skip
        return [entries[node] for node in path]

    def category_counts(self) -> dict[str, int]:
        """How many active entries each category has (read from the index, nothing unpacked)."""
        return self._view.category_counts()

    def recall(
        self,
        opts: RecallOptions,
        *,
        today: date,
        session_files: Collection[str] = frozenset(),
    ) -> RecallResult:
        """Rank entries for ``opts`` (validated here; bad values raise ``InputError``)."""
        return recall_over(self._view, opts, today=today, session_files=session_files)

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
        """Entries related to a free-text context (flat ranking over its ``SUGGEST_WORDS``
        most distinctive words: ``pipeline.rarest``), best first.

        A context is not a question: no temporal intent is read from it.
        """
        opts = RecallOptions(query=context, limit=limit, intent=False, pins=False,
                             words=SUGGEST_WORDS, pool=SUGGEST_POOL)  # fmt: skip
        return self.recall(opts, today=today).entries

    def smart_recall(
        self,
        intent: str,
        *,
        today: date,
        hops: int | None = None,
        explain: bool = False,
        budget_tokens: int = 0,
        session_bias: bool = True,
        session_files: Collection[str] = frozenset(),
        limit: int | None = None,
    ) -> RecallResult:
        """Graph recall that also weighs freshness and decay (recency + use); 2 hops by default."""
        opts = RecallOptions(
            query=intent, mode="graph", hops=hops, explain=explain, budget_tokens=budget_tokens,
            session_bias=session_bias, smart=True, limit=limit,
        )  # fmt: skip
        return self.recall(opts, today=today, session_files=session_files)


class Engine(Ranker):
    """Holds entries and answers recall, search, suggest, smart recall and graph paths."""

    def __init__(self) -> None:
        self._corpus = Corpus()
        super().__init__(self._corpus)

    @classmethod
    def over(cls, entries: EntryMap) -> Engine:
        """An engine that indexes and shares ``entries`` (the store's own map).

        The caller keeps putting and deleting in the map and tells the engine
        through ``upsert``/``remove``; both see the same ``Entry`` objects.
        """
        engine = cls()
        engine._corpus.entries = entries
        for entry in list(entries.values()):
            engine._corpus.index_entry(entry)
        return engine

    @classmethod
    def build(cls, entries: Iterable[Entry]) -> Engine:
        """An engine over ``entries`` (all of them: active, superseded, obsolete)."""
        engine = cls()
        for entry in entries:
            engine.upsert(entry)
        return engine

    def __len__(self) -> int:
        return len(self._corpus.entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._corpus.entries

    def upsert(self, entry: Entry) -> None:
        """Add or replace one entry (matched by id)."""
        self._corpus.upsert(entry)

    def remove(self, entry_id: str) -> None:
        """Forget one entry; unknown ids are ignored."""
        self._corpus.remove(entry_id)

    def used(self, entry: Entry) -> None:
        """Only the entry's use changed (an access folded in): refresh what ranking reads of it."""
        self._corpus.used(entry)

    @property
    def entries(self) -> list[Entry]:
        return list(self._corpus.entries.values())

    def export(self) -> Corpus:
        """The analysed corpus, for an on-disk index to load without analysing again."""
        return self._corpus

    def __getstate__(self) -> dict[str, Any]:
        return {"corpus": self._corpus}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._corpus = state["corpus"]
        self._view = self._corpus


def get_over(corpus: RankCorpus, id_or_key: str) -> Entry | None:
    """The entry with this id, else the best entry with this key (active, newest)."""
    entries = corpus.entries
    found = entries.get(id_or_key)
    if found is not None:
        return found
    versions = [entries[i] for i in corpus.ids_of(id_or_key)]
    if not versions:
        return None
    return max(versions, key=lambda e: (e.status == "active", e.updated, e.created, e.id))


def recall_over(
    corpus: RankCorpus,
    opts: RecallOptions,
    *,
    today: date,
    session_files: Collection[str] = frozenset(),
) -> RecallResult:
    """``Engine.recall`` over any corpus (in memory, or ``search.source.SourceCorpus``)."""
    o = opts.validated()
    result = _fetch(corpus, o) if o.ids else rank_entries(corpus, o, today, session_files)
    return fit_budget(result) if o.budget_tokens > 0 else result


def _fetch(corpus: RankCorpus, o: RecallOptions) -> RecallResult:
    hits: list[Hit] = []
    missing: list[str] = []
    seen: set[str] = set()
    for wanted in o.ids or ():
        entry = get_over(corpus, wanted)
        if entry is None:
            missing.append(wanted)
        elif entry.id not in seen:
            seen.add(entry.id)
            hits.append(Hit(entry, 1.0, 100, -1, "", ()))
    return RecallResult(o, tuple(hits), hit_edges(hits), len(hits), tuple(missing))
