"""The recall engine of toon-memory: pure ranking over ``Entry`` objects, no file I/O.

Public API (everything else in this package is internal)::

    engine = Engine.build(entries)          # every entry, any status (as_of needs them)
    engine.upsert(entry); engine.remove(entry_id); pickle.dumps(engine)
    engine.recall(RecallOptions(query="redis", mode="graph"), today=date, session_files=...)
    engine.search(query, today=..., category=, tags=, from_date=, to_date=, path_scope=, ...)
    engine.suggest(context, limit=5, today=...)
    engine.smart_recall(intent, today=..., hops=2, explain=, budget_tokens=, session_bias=True)
    engine.graph_path(from_key, to_key) -> list[Entry]   # raises NotFoundError
    engine.get(id_or_key) -> Entry | None

Every query returns a ``RecallResult`` (ordered ``Hit``s with score, relevance %,
hop, reasons; ``edges`` among hits; ``to_dict()`` -> ``{"results": [...]}``).
Text output lives in ``toon_memory.render.recall.render_recall``. Bad options
raise ``InputError(field, problem)``. ``INDEX_VERSION`` belongs in any cache key.
"""

from toon_memory.search.corpus import FIELD_WEIGHTS, INDEX_VERSION
from toon_memory.search.engine import Engine
from toon_memory.search.options import BUDGETS, MODES, RecallOptions
from toon_memory.search.result import Edge, Hit, RecallResult

__all__ = [
    "BUDGETS",
    "FIELD_WEIGHTS",
    "INDEX_VERSION",
    "MODES",
    "Edge",
    "Engine",
    "Hit",
    "RecallOptions",
    "RecallResult",
]
