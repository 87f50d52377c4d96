"""Sessions of agents working on one memory: heartbeats, soft conflicts, observations, activity.

Invariant: each process writes only its own heartbeat file (``store.sessions``);
reading the sessions never fails on a damaged file; nothing here changes an
entry except through ``Editor`` (promoting merged observations).
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.editing import Editor
from toon_memory.store.store import Store


class Sessions:
    """``Memory.sessions``: the coordination of parallel agent sessions."""

    def __init__(self, store: Store, root: Path, editor: Editor) -> None:
        self.store = store
        self.root = root
        self._editor = editor
