"""simple-local-memory compatibility: its three tiers served by our store.

Invariant: this package only calls the public ``Memory`` API and writes
workspace files atomically; it adds no rule to the core. Tiers:

1. hot memory ``SESSION-STATE.json`` — ``store.session_state`` (``read_state``,
   ``update_state``, ``clear_state``: the pure API for a ``memory_state`` tool);
2. cold store — our entries; types map onto categories (``slm.records``);
3. curated archive ``MEMORY.md`` + ``memories/`` — ``slm.workspace``.

``slm.ops`` holds the operations behind the ``memory-*`` commands.
"""

from toon_memory.adapters.slm.records import CATEGORY_OF_TYPE, TYPES
from toon_memory.store.hot_state import clear_state, read_state, update_state

__all__ = ["CATEGORY_OF_TYPE", "TYPES", "clear_state", "read_state", "update_state"]
