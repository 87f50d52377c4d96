"""Curation of a memory over months: consolidate, reflect, promote, compress.

Invariant: plans come from the pure ``curation`` package; every removal is a
soft forget or a supersede (history kept, ``forget(action="restore")`` works)
applied through ``Editor``; a dry run changes nothing.
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.editing import Editor
from toon_memory.recalling import Recaller
from toon_memory.store.store import Store


class Curation:
    """``Memory.curation``: keeping a memory clean."""

    def __init__(self, store: Store, root: Path, editor: Editor, recaller: Recaller) -> None:
        self.store = store
        self.root = root
        self._editor = editor
        self._recaller = recaller
