"""The recall engine of toon-memory: pure ranking over ``Entry`` objects, no file I/O.

Public API (everything else in this package is internal, except the small
helpers named below that other layers share)::

    engine = Engine.build(entries)          # every entry, any status (as_of needs them)
    engine.upsert(entry); engine.remove(entry_id); pickle.dumps(engine)
    engine.recall(RecallOptions(query="redis", mode="graph"), today=date, session_files=...)
    engine.search(query, today=..., category=, tags=, from_date=, to_date=, path_scope=, ...)
    engine.suggest(context, limit=5, today=...)
    engine.smart_recall(intent, today=..., hops=2, explain=, budget_tokens=, session_bias=True)
    engine.graph_path(from_key, to_key) -> list[Entry]   # raises NotFoundError (any Ranker)
    engine.get(id_or_key) -> Entry | None
    blend(result, today=..., importance=..., day=...) -> list[Blended]  # relevance+importance+recency
    estimate_tokens(text) -> int            # the token estimate every budget uses

Every query returns a ``RecallResult`` (ordered ``Hit``s with score, relevance %,
hop, reasons; ``edges`` among hits; ``to_dict()`` -> ``{"results": [...]}``).
Text output lives in ``toon_memory.render.recall.render_recall`` (each hit's
block in ``search.blocks``, which the token budget measures). Bad options
raise ``InputError(field, problem)``. ``INDEX_VERSION`` belongs in any cache key.

One home per ranking concept, shared by ``toon_memory.rules.scoring`` and the
simple-local-memory commands: ``search.decay.recency`` (every recency decay),
``search.paths.normalise_path`` (every file / path_scope comparison),
``search.tokenize`` with ``search.stopwords`` (every term set), defaults in
``RecallOptions``. Invariant: importing this package is cheap; the attributes
above are imported on first use (module ``__getattr__``), so a module that
needs only ``search.paths`` does not load the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.search.blending import Blended, blend
    from toon_memory.search.budget import estimate_tokens
    from toon_memory.search.corpus import FIELD_WEIGHTS, INDEX_VERSION
    from toon_memory.search.engine import Engine
    from toon_memory.search.options import BUDGETS, MODES, RecallOptions
    from toon_memory.search.result import Edge, Hit, RecallResult

_HOMES: dict[str, str] = {
    "BUDGETS": "options",
    "Blended": "blending",
    "FIELD_WEIGHTS": "corpus",
    "INDEX_VERSION": "corpus",
    "MODES": "options",
    "Edge": "result",
    "Engine": "engine",
    "Hit": "result",
    "RecallOptions": "options",
    "RecallResult": "result",
    "blend": "blending",
    "estimate_tokens": "budget",
}

__all__ = [
    "BUDGETS",
    "FIELD_WEIGHTS",
    "INDEX_VERSION",
    "MODES",
    "Blended",
    "Edge",
    "Engine",
    "Hit",
    "RecallOptions",
    "RecallResult",
    "blend",
    "estimate_tokens",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
