"""Recall for ``Memory``: the glue between the store and the search engine.

Invariant: recall reads the state (never writes data.toon), hands entries to
the pure ``search`` engine, and records what it returned in the access log.
Archived entries take part only when a date filter asks for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.clock import today
from toon_memory.errors import InputError
from toon_memory.model import Entry, split_list
from toon_memory.project.git import session_files

if TYPE_CHECKING:
    from toon_memory.search import Engine, RecallResult
    from toon_memory.store.store import Store


class RecallMixin:
    """Recall methods of ``Memory``."""

    store: Store
    root: Path

    def _engine(self, *, with_archive: bool = False) -> Engine:
        from toon_memory.search import Engine

        state = self.store.state()
        engine: Engine = state.derived
        if with_archive:
            archived = self.store.read_archive()
            if archived:
                return Engine.build([*state.entries.values(), *archived])
        return engine

    def _session(self, wanted: bool) -> frozenset[str]:
        return session_files(self.root) if wanted else frozenset()

    def _record(self, result: RecallResult) -> RecallResult:
        ids = [hit.entry.id for hit in result.hits]
        if ids:
            self.store.record_access(ids)
        return result

    def recall(self, query: str = "", **options: Any) -> RecallResult:
        """Ranked recall; see ``search.RecallOptions`` for every option."""
        from toon_memory.search import RecallOptions

        if options.get("hops") is None:  # graph mode spreads 2 hops unless told otherwise
            options["hops"] = 2 if options.get("mode") == "graph" else 1
        opts = RecallOptions(query=query, **options)
        dated = bool(opts.from_date or opts.to_date)
        engine = self._engine(with_archive=dated)
        result = engine.recall(opts, today=today(), session_files=self._session(opts.session_bias))
        return result if opts.mode == "index" else self._record(result)

    def smart_recall(self, intent: str, **options: Any) -> RecallResult:
        """One call combining BM25, graph, quality, freshness and decay."""
        if not str(intent or "").strip():
            raise InputError("intent", "must not be empty")
        session = self._session(bool(options.get("session_bias", True)))
        result = self._engine().smart_recall(
            intent, today=today(), session_files=session, **options
        )
        return self._record(result)

    def search(self, query: str = "", **options: Any) -> RecallResult:
        """Recall with filters: category, tags (all must match), dates, path scope."""
        from toon_memory.search import RecallOptions

        tags = options.pop("tags", None)
        opts = RecallOptions(query=query, tags=tuple(split_list(tags, ";,")), **options)
        engine = self._engine(with_archive=bool(opts.from_date or opts.to_date))
        session = self._session(opts.session_bias)
        return self._record(engine.recall(opts, today=today(), session_files=session))

    def suggest(self, context: str, limit: int = 5) -> list[Entry]:
        """Entries related to a free-text context (no access recorded)."""
        if not str(context or "").strip():
            raise InputError("context", "must not be empty")
        return self._engine().suggest(context, limit=limit, today=today())

    def graph_path(self, from_key: str, to_key: str) -> list[Entry]:
        """The shortest chain of links between two entries (empty when none)."""
        for name, value in (("from_key", from_key), ("to_key", to_key)):
            if not str(value or "").strip():
                raise InputError(name, "must not be empty")
        return self._engine().graph_path(from_key, to_key)
