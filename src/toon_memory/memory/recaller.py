"""Recall for ``Memory``: the glue between the store and the search engine.

Invariant: recall reads the state (never writes data.toon), hands entries to
the pure ``search`` engine, and records what it returned in the access log.
Archived entries take part only when a date filter asks for them. Every
ranked list the product shows (recall, search, suggest, the primer) is
ranked here, by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from toon_memory.errors import InputError
from toon_memory.model.clock import today
from toon_memory.model.entry import Entry
from toon_memory.project.git import start_session_files
from toon_memory.store.paths import STORE_DIR

if TYPE_CHECKING:
    from toon_memory.search import Engine, RecallOptions, RecallResult
    from toon_memory.search.engine import Ranker
    from toon_memory.store.index_db import IndexDb
    from toon_memory.store.index_view import IndexView
    from toon_memory.store.state import Lookup
    from toon_memory.store.store import Store

T = TypeVar("T")
#: Entries the primer lists at the top, and per category section.
PRIMER_TOP = 10
PRIMER_SECTIONS: tuple[str, ...] = ("pattern", "warning", "decision")


@dataclass
class Primer:
    """What a session starts with: counts, the top entries, one section per category.

    ``session_files`` are the files changed in this session (the work tree and
    this branch, ``project.git.session_files``); ``budget_tokens`` is the
    token budget its text must fit (0: none), applied when it is rendered.
    """

    counts: dict[str, int]
    top: list[Entry]
    sections: dict[str, list[Entry]] = field(default_factory=dict)
    session_files: list[str] = field(default_factory=list)
    budget_tokens: int = 0


def is_memory_file(path: str) -> bool:
    """A path inside the memory's own folder (``.toon-memory/``): never a project change."""
    name = path.replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    return name.rstrip("/") == STORE_DIR or name.startswith(STORE_DIR + "/")


class Recaller:
    """Answers recall-like questions over one store."""

    def __init__(self, store: Store, root: Path) -> None:
        self.store = store
        self.root = root
        self._index: IndexDb | None = None

    @contextmanager
    def ranker(self, lagging: bool = False) -> Iterator[Ranker]:
        """What answers one query: the store's engine when the state is loaded in this
        process already, else the on-disk index (``store.index_sync``), read lazily in
        one snapshot; the state's engine again when there is no usable index. ``lagging``:
        the index may lag the access log, whose last lines are read beside it
        (``store.index_lag``; a read that needs them folded raises ``Unsettled``)."""
        db = self._synced_index(lagging)
        if db is None:
            yield self.engine()
            return
        from toon_memory.search.engine import Ranker
        from toon_memory.search.source import SourceCorpus
        from toon_memory.store.index_sync import ranking

        with ranking(db, self.store.paths) if lagging else db.reading():
            yield Ranker(SourceCorpus(db))

    def _ranked(self, ask: Callable[[Ranker], T]) -> T:
        """``ask`` a ranker that may lag the access log (``ranker``); asked again over
        the index with every access folded when it needs them (``Unsettled``: a recall
        without words, ranked by use)."""
        from toon_memory.store.index_reads import Unsettled

        try:
            with self.ranker(not self.store.one_shot and self.store.lags_accesses) as ranker:
                return ask(ranker)
        except Unsettled:
            with self.ranker() as ranker:
                return ask(ranker)

    def lean(self) -> IndexView | None:
        """For a writer holding the store's lock: a view of the index, current with the
        files, or None (a memory under ``lean_from()`` bytes, whose state loads in a few
        ms and then answers faster, or no usable index: the writer loads the state)."""
        from toon_memory.store.index_sync import serves_writes

        if not serves_writes(self.store):
            return None
        from toon_memory.search.corpus import analyse

        self._index, view = self.store.lean_view(analyse, self._index)
        return view

    @contextmanager
    def lookup(self) -> Iterator[Lookup]:
        """What single-entry reads look in: the state when this process has it loaded,
        else one read snapshot of the on-disk index, else the state."""
        view = None if self.store.loaded() is not None else self.lean()
        if view is None:
            yield self.store.state()
            return
        with view.db.reading():
            yield view

    def refresh(self) -> None:
        """Catch what this process holds up with the store's head: the state when it is
        loaded, else the index a call opened (none opened: nothing to warm, the next call
        reads the head anyway)."""
        if self.store.loaded() is not None:
            self.store.state()
        elif self._index is not None:
            self._synced_index()

    def _synced_index(self, lagging: bool = False) -> IndexDb | None:
        if self.store.loaded() is not None:
            return None
        from toon_memory.search.corpus import analyse
        from toon_memory.search.term_data import pack_postings

        self._index = self.store.index(analyse, self._index, lagging)
        if self._index is not None:
            self._index.lasting = not self.store.one_shot  # (``search.warm.RENT``)
            self._index.keep_packs_fresh(pack_postings)
        return self._index

    def engine(self, *, with_archive: bool = False) -> Engine:
        """The store's engine, or one over entries + archive for date filters."""
        from toon_memory.search import Engine

        state = self.store.state()
        engine: Engine = state.derived
        if with_archive:
            archived = self.store.read_archive()
            if archived:
                return Engine.build([*state.entries.values(), *archived])
        return engine

    def _session(self, wanted: bool) -> Collection[str]:
        """The session's files when ``wanted``: git asked in a thread, waited for only
        where the ranking reads them (after matching: the two overlap)."""
        return start_session_files(self.root) if wanted else frozenset()

    def _record(self, result: RecallResult) -> RecallResult:
        ids = [hit.entry.id for hit in result.hits]
        if ids:
            self.store.record_access(ids)
        return result

    def recall(self, opts: RecallOptions) -> RecallResult:
        """Ranked recall (or an ids fetch); access recorded except for the index."""
        result = self.rank(opts)
        return result if opts.mode == "index" else self._record(result)

    def rank(self, opts: RecallOptions) -> RecallResult:
        """The ranked answer alone: no access recorded (views that only show entries)."""
        files = self._session(opts.session_bias)
        if opts.from_date or opts.to_date:
            return self.engine(with_archive=True).recall(opts, today=today(), session_files=files)
        return self._ranked(lambda ranker: ranker.recall(opts, today=today(), session_files=files))

    def suggest(self, context: str, limit: int = 5) -> list[Entry]:
        """Entries related to a free-text context (no access recorded)."""
        if not str(context or "").strip():
            raise InputError("context", "must not be empty")
        return self._ranked(lambda ranker: ranker.suggest(context, limit=limit, today=today()))

    def graph_path(self, from_key: str, to_key: str) -> list[Entry]:
        for name, value in (("from_key", from_key), ("to_key", to_key)):
            if not str(value or "").strip():
                raise InputError(name, "must not be empty")
        return self._ranked(lambda ranker: ranker.graph_path(from_key, to_key))

    def primer(self, limit: int = PRIMER_TOP, budget_tokens: int = 0) -> Primer:
        """Counts by category, the top entries, then the best of each category not on top.

        One pass of the engine's no-query ranking, with the files changed in
        this session boosted, orders the top and every section.
        """
        from toon_memory.search import RecallOptions
        from toon_memory.search.options import MAX_LIMIT

        files_later = start_session_files(self.root)  # git runs while the index loads
        with self.ranker() as ranker:
            counts = ranker.category_counts()
            files = files_later.wait()
            wanted = max(1, min(sum(counts.values()), MAX_LIMIT))
            ranked = ranker.recall(
                RecallOptions(limit=wanted, session_bias=True), today=today(), session_files=files
            ).entries
        sections: dict[str, list[Entry]] = {category: [] for category in PRIMER_SECTIONS}
        for entry in ranked[limit:]:
            section = sections.get(entry.category)
            if section is not None and len(section) < limit:
                section.append(entry)
        kept = {category: rest for category, rest in sections.items() if rest}
        changed = sorted(name for name in files if not is_memory_file(name))
        return Primer(dict(counts), ranked[:limit], kept, changed, budget_tokens)
