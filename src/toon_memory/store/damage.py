"""A damaged journal and the notices of loading (a part of ``Store``).

Invariant: a damaged journal never bricks the memory: its unreadable lines are
moved, under the lock and atomically, to a new ``journal.broken-<time>`` file and
every readable line stays; each notice (a migration, lines set aside) is given
once through ``take_notices``. When the folder cannot be written nothing moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toon_memory.model.clock import file_stamp
from toon_memory.store import journal
from toon_memory.system.atomic import write_atomic

if TYPE_CHECKING:
    from toon_memory.store.crypto import Key
    from toon_memory.store.paths import MemoryPaths
    from toon_memory.store.state import State
    from toon_memory.system.lock import FileLock

#: The name a journal's unreadable lines are kept under (a timestamp follows).
BROKEN_JOURNAL = "journal.broken-"


class Damage:
    """The damage and notice methods of ``Store`` (which provides what is declared here)."""

    paths: MemoryPaths
    lock: FileLock
    _key: Key | None
    _state: State | None
    _notices: list[str]
    _told: set[str]

    def set_aside_damage(self) -> bool:
        """Move the journal's unreadable lines to ``journal.broken-<time>`` (under the lock).

        True when the journal holds no damage any more (moved, or another
        process did it); False when the folder cannot be written.
        """
        try:
            with self.lock:
                try:
                    raw = self.paths.journal.read_bytes()
                except FileNotFoundError:
                    return True
                good, bad, count = journal.split_damaged(raw, self._key)
                if count:
                    self._keep_aside(bad, count)
                    write_atomic(self.paths.journal, good)
        except OSError:
            return False
        return True

    def _keep_aside(self, bad: bytes, count: int) -> None:
        """Write unreadable journal lines to a new ``journal.broken-<time>`` and say so once."""
        if not count:
            return
        kept = self.paths.folder / f"{BROKEN_JOURNAL}{file_stamp()}"
        write_atomic(kept, bad)
        self._notice(
            f"{self.paths.journal}: {count} unreadable line(s) moved to {kept}; every "
            "readable line was replayed (look at that file, then delete it)"
        )

    def _notice(self, text: str) -> None:
        if text not in self._told:
            self._told.add(text)
            self._notices.append(text)

    def take_notices(self) -> list[str]:
        """Messages from loading (a migration, a damaged journal set aside), each given once."""
        notes, self._notices = self._notices, []
        if self._state is not None:
            notes, self._state.notices = self._state.notices + notes, []
        return notes
