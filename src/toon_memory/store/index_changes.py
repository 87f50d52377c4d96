"""The postings this process's writer changed, by term: what a warm reader patches.

Invariant: ``since(term, have, now)`` returns the posting changes that take ``term``
from its version ``have`` to its version ``now``, in the order they were made, only
when this log recorded every step between them (each step names the version before
and after it; versions are unique within one index file); otherwise None, and the
reader reads the term's postings again. So a write of another process (a version
this log never saw), a rebuild (``forget``) or a rolled-back transaction (``forget``)
can only cost a re-read, never a wrong posting. The log is bounded (``LIMIT``
changes): past it, it forgets everything.

Why: a long-lived process (the MCP server) keeps the postings of the terms it was
asked about (``search.source``); each ``remember`` adds a document holding a few of
the memory's most common words, and reading such a term again costs ~30 ms at
100,000 entries, where the writer knows the one posting it added.
"""

from __future__ import annotations

#: One posting change: (slot, tf or None when the posting was removed, the slot's length).
Change = tuple[int, "float | None", float]
#: Changes kept at most (a few hundred writes of a few dozen terms).
LIMIT = 20_000


class TermChanges:
    """The steps of each term's versions that this process made (see the module docstring)."""

    def __init__(self) -> None:
        self._steps: dict[str, list[tuple[int, int, list[Change]]]] = {}
        self._size = 0

    def record(self, term: str, before: int, after: int, change: Change) -> None:
        """``term`` went from version ``before`` to ``after`` by ``change``."""
        if self._size >= LIMIT:
            self.forget()
        steps = self._steps.setdefault(term, [])
        if steps and steps[-1][1] == after:  # one step may change several postings
            steps[-1][2].append(change)
        else:
            steps.append((before, after, [change]))
        self._size += 1

    def since(self, term: str, have: int, now: int) -> list[Change] | None:
        """The changes from version ``have`` to ``now``; None when a step is unknown."""
        out: list[Change] = []
        at = have
        for before, after, changes in self._steps.get(term, ()):
            if at == now:
                break
            if before == at:
                out.extend(changes)
                at = after
        return out if at == now else None

    def forget(self) -> None:
        self._steps.clear()
        self._size = 0
