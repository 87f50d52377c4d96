"""Compaction: folding the journal and the access log into data.toon (a part of ``Store``).

Invariant: data.toon is encoded outside the lock and swapped in under it,
only when neither data.toon nor the journal moved meanwhile (else nothing is
replaced: another process compacted); the journal tail written during the
encode is carried over, and unreadable lines in the part folded in are kept
aside, never dropped. An OS refusal leaves every file as it was. A process with
no state loaded writes the new data.toon from the on-disk index when that index is
current with the files (``compaction_stream``: the same bytes, a chunk of entries
at a time); else over the state, which a one-shot process (``Store.one_shot``: a
CLI command, a hook) reads bare (no search engine built) and caches nowhere: it
exits next, and a long-lived process writes its own. Given a ``sync`` (the
caller's way to catch the on-disk index up with the files) and no loaded state,
it runs that first, so the index is moved along to the new files rather than
left to a rebuild, and serves the compaction.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.errors import ToonMemoryError
from toon_memory.store import journal
from toon_memory.store.cache import Position, file_id
from toon_memory.store.codec import encode_document
from toon_memory.store.index_anchor import catch_up_accesses, reanchor
from toon_memory.system.atomic import replace_durable, write_atomic, write_temp
from toon_memory.system.oserrors import explain

if TYPE_CHECKING:
    from toon_memory.store.compaction_stream import Streamed
    from toon_memory.store.crypto import Key
    from toon_memory.store.paths import MemoryPaths
    from toon_memory.store.state import State
    from toon_memory.system.lock import FileLock

#: A memory whose data.toon is smaller than this is compacted after every write.
EAGER_COMPACT_BYTES = 64 * 1024
#: Otherwise once the journal passes this, or a quarter of data.toon.
MIN_JOURNAL_BYTES = 256 * 1024


def inode_size(path: Path) -> tuple[int | None, int]:
    """(inode, size) of ``path``; (None, 0) when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None, 0
    except NotADirectoryError as exc:
        raise explain(exc, path) from None
    return st.st_ino, st.st_size


class Compaction:
    """The compaction methods of ``Store`` (which provides what is declared here)."""

    paths: MemoryPaths
    lock: FileLock
    _pos: Position | None
    _key: Key | None
    _state: State | None
    one_shot: bool

    if TYPE_CHECKING:

        @property
        def derived_key(self) -> str: ...
        def state(self, engine: bool = True) -> State: ...
        def save_cache(self) -> None: ...
        def local(self) -> str: ...
        def encrypted(self) -> bool: ...
        def _catch_up(self, pos: Position) -> bool: ...
        def _keep_aside(self, bad: bytes, count: int) -> None: ...
        def _seal(self, data: bytes) -> bytes: ...

    def journal_size(self) -> int:
        return inode_size(self.paths.journal)[1]

    def _maybe_compact(self, sync: Callable[[], object] | None = None) -> None:
        """Compact when the journal grew enough (``sync``: as ``compact``'s)."""
        data_size = (file_id(self.paths.data) or (0, 0, 0))[2]
        j_size = self.journal_size()
        if data_size < EAGER_COMPACT_BYTES or j_size > max(MIN_JOURNAL_BYTES, data_size // 4):
            self.compact(sync)

    def compact(self, sync: Callable[[], object] | None = None) -> bool:
        """Fold journal and access log into data.toon. False if another process raced us.

        ``sync`` (a ``Recaller.lean``), when no state is loaded, first brings the on-disk
        index up to the files (a write made over it leaves it one write behind), so the
        compaction moves it along to the new files (``index_anchor.reanchor``) instead
        of leaving it to a full rebuild by the next reader. An OS refusal (read-only,
        disk full) raises ``FileAccessError`` and leaves every file as it was.
        """
        if sync is not None and self._state is None:
            with contextlib.suppress(OSError, ToonMemoryError):
                sync()
        try:
            return self._compact()
        except OSError as exc:
            raise explain(exc, self.paths.data) from None

    def _compact(self) -> bool:
        streamed = self._streamed()
        if streamed is not None:
            made, folded = streamed
            return True if made is None else self._swap(made, folded, None)
        with self.lock:
            state = self.state(engine=False)  # (folding the logs in needs no search engine)
            pos = self._pos
            assert pos is not None
            if not pos.journal_offset and not pos.access_offset and pos.data is not None:
                return True
        temp = write_temp(self.paths.data, self._seal(encode_document(
            list(state.entries.values()), list(state.summaries.values())).encode()))  # fmt: skip
        return self._swap(temp, pos, state)

    def _streamed(self) -> Streamed | None:
        """A process with no state loaded writes the new data.toon from the on-disk index
        (``compaction_stream``) when that index is current with the files; None: the
        state path (a plain store of this folder's files only)."""
        if self._state is not None or self.local() or self.encrypted():
            return None
        from toon_memory.store.compaction_stream import streamed_data

        return streamed_data(self.paths, self.derived_key, self.lock)

    def _swap(self, temp: Path, pos: Position, state: State | None) -> bool:
        """Put ``temp`` (the files at ``pos`` folded) in place of data.toon, unless they
        moved meanwhile; ``state``: the loaded state it was encoded from (None: streamed)."""
        with self.lock:
            if (
                file_id(self.paths.data) != pos.data
                or inode_size(self.paths.journal)[0] != pos.journal_ino
            ):
                temp.unlink()
                return False
            catch_up_accesses(self.paths, self.derived_key, pos)
            try:
                replace_durable(temp, self.paths.data)
            except OSError:
                temp.unlink(missing_ok=True)
                raise
            j_ino = self._carry_tail(self.paths.journal, pos.journal_offset, keep_damage=True)
            a_ino = self._carry_tail(self.paths.access_log, pos.access_offset)
            now = Position(file_id(self.paths.data), j_ino, 0, a_ino, 0)
            if state is not None:
                state.pending.clear()
                self._pos = now
            reanchor(self.paths, self.derived_key, pos, now)
            if state is not None:
                self._catch_up(now)
        if state is not None and not self.one_shot:
            self.save_cache()
        return True

    def _carry_tail(self, path: Path, offset: int, *, keep_damage: bool = False) -> int | None:
        """Keep only the bytes of ``path`` past ``offset`` (atomically); return the new inode.

        With ``keep_damage``, unreadable lines in the part folded in (skipped by a
        reader that could not move them) are kept aside first, never dropped.
        """
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        if keep_damage and offset:
            self._keep_aside(*journal.split_damaged(raw[:offset], self._key)[1:])
        tail = raw[offset:]
        if not tail and offset:
            path.unlink()
            return None
        if offset:
            write_atomic(path, tail)
        return inode_size(path)[0]
