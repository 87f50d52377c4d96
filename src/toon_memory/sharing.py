"""Moving a memory: to and from the global store and a GitHub Gist.

Invariant: an import merges with the remember merge rules (or replaces when
asked) in one journaled write; an export never changes the source; nothing
reaches the network except a Gist call the user asked for.
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.editing import Editor
from toon_memory.store.store import Store
from toon_memory.transfer import Transfer


class Sharing:
    """``Memory.sharing``: the global store and Gist sync."""

    def __init__(self, store: Store, root: Path, editor: Editor, transfer: Transfer) -> None:
        self.store = store
        self.root = root
        self._editor = editor
        self._transfer = transfer
