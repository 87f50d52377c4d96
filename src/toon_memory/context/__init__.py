"""Context briefs: one call that replaces the five or six an agent would make.

Invariant: every brief is deterministic (no LLM), reads only (the memory,
the project, git, the sessions), and fits ``budget_tokens`` by cutting the
lowest-value content first and saying what it left out.
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.coordination import Sessions
from toon_memory.recalling import Recaller
from toon_memory.store.store import Store


class Context:
    """``Memory.context``: briefs for a session."""

    def __init__(self, store: Store, root: Path, recaller: Recaller, sessions: Sessions) -> None:
        self.store = store
        self.root = root
        self._recaller = recaller
        self._sessions = sessions
