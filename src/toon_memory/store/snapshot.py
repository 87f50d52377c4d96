"""The .toon files of a memory read and written whole: data.toon's snapshot (a TypeScript
file migrated to ours; a big import's batch), archive.toon.

Invariant: a snapshot or the archive is only ever replaced whole by an atomic rename of
its sealed text (plain when the memory is; a plain data.toon encoded and written a chunk
of entries at a time, the same bytes: ``write_data``); a snapshot write folds the journal
and the access log in, and is made under the store's lock. The ``Snapshots`` methods of
``Store`` (which provides what is declared here).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.errors import StoreError
from toon_memory.model.entry import Entry, Summary
from toon_memory.store import keys
from toon_memory.store.cache import Position, file_id
from toon_memory.store.codec import FORMAT_VERSION, Document, decode_document, encode_document
from toon_memory.store.crypto import Key
from toon_memory.store.paths import MemoryPaths
from toon_memory.system.atomic import write_atomic, write_atomic_chunks
from toon_memory.system.lock import FileLock

if TYPE_CHECKING:
    from toon_memory.store.state import State


class Snapshots:
    """data.toon and archive.toon read and written whole (see the module docstring)."""

    paths: MemoryPaths
    lock: FileLock
    _pos: Position | None
    _key: Key | None
    _state: State | None

    if TYPE_CHECKING:

        def key(self) -> Key | None: ...
        def state(self, engine: bool = True) -> State: ...
        def save_cache(self) -> None: ...
        def _catch_up(self, pos: Position) -> bool: ...
        def _notice(self, text: str) -> None: ...
        def _seal(self, data: bytes) -> bytes: ...

    def _read_document(self, path: Path) -> Document:
        try:
            text = keys.read_bytes(path, self._key).decode("utf-8")
        except FileNotFoundError:
            return Document()
        except UnicodeDecodeError as exc:
            from toon_memory.errors import CorruptFileError

            line = path.read_bytes()[: exc.start].count(b"\n") + 1
            raise CorruptFileError(path, line, "not UTF-8 text") from None
        return decode_document(text, path)

    def _migrate(self, doc: Document) -> None:
        """Replace a TypeScript-format data.toon by ours, keeping the original as a backup."""
        from toon_memory.store.copies import keep_copy

        assert self._state is not None
        try:
            with self.lock:
                kept = keep_copy(self.paths, self.paths.data, "ts-original")
                self._state.notices.append(
                    f"migrated a TypeScript toon-memory file (original kept as {kept})"
                )
                self._state.notices.extend(doc.repairs)
                self._write_snapshot(self._state)
                self._pos = Position(file_id(self.paths.data), None, 0, None, 0)
                self._catch_up(self._pos)
        except OSError:  # a read-only memory: read the TypeScript file as it is
            self._notice(
                f"{self.paths.data}: a TypeScript toon-memory file, read as it is "
                "(the folder is not writable, so it was not migrated)"
            )
            assert self._pos is not None
            self._catch_up(self._pos)
            return
        self.save_cache()

    def read_document(self, path: Path) -> Document:
        """A .toon file of this memory; ``CorruptFileError`` naming file and line when damaged."""
        self.key()
        return self._read_document(path)

    def rewrite_snapshot(self, key: Key | None) -> None:
        """Write data.toon again, sealed with ``key`` (plain when None), folding the journal
        and the access log in (used by encrypt/decrypt; takes the lock)."""
        from toon_memory.store.index_db import drop_index

        with self.lock:
            state = self.state()
            self._key = key
            if key is not None:
                drop_index(self.paths)  # the plain index holds entry text: never kept sealed
            self._write_snapshot(state)
            self._pos = Position(file_id(self.paths.data), None, 0, None, 0)

    def _write_snapshot(self, state: State) -> None:
        self.write_data(list(state.entries.values()), list(state.summaries.values()))
        state.pending.clear()

    def write_data(self, entries: list[Entry], summaries: list[Summary]) -> None:
        """data.toon replaced by ``entries`` and ``summaries`` (``write_data``, sealed with
        this memory's key), the journal and the access log then removed: they are in it
        (a crash before the unlinks replays lines it holds; replay is idempotent). Call
        under the lock."""
        write_data(self.paths.data, entries, summaries, self._key)
        for path in (self.paths.journal, self.paths.access_log):
            path.unlink(missing_ok=True)

    # -- archive ---------------------------------------------------------
    def read_archive(self) -> list[Entry]:
        self.key()
        return self._read_document(self.paths.archive).entries

    def archived_count(self) -> int:
        return len(self.read_archive())

    def add_to_archive(self, entries: list[Entry]) -> None:
        """Append ``entries`` to the archive (under the lock, inside ``mutate``)."""
        self.write_archive(self.read_archive() + entries)

    def take_from_archive(self, entry_id: str) -> None:
        """Drop one entry from the archive (under the lock, inside ``mutate``)."""
        self.write_archive([e for e in self.read_archive() if e.id != entry_id])

    def write_archive(self, entries: list[Entry]) -> None:
        """Replace archive.toon (call under the lock, inside ``mutate``)."""
        if not self.lock.held:
            raise StoreError("write_archive must run under the store lock")
        write_atomic(self.paths.archive, self._seal(encode_document(entries, []).encode()))


def write_data(path: Path, entries: list[Entry], summaries: list[Summary], key: Key | None) -> None:
    """``path`` replaced by ``encode_document``'s text of ``entries``: a plain file's encoded and
    written a chunk of entries at a time (``toon_table.encode_streamed``: the same bytes, never
    the whole text in memory), a sealed one's whole; when the streamed encoder cannot prove a
    chunk alike, ``path`` is left as it was and the text is encoded whole."""
    if key is None:
        from toon_memory.store.compaction_stream import CHUNK
        from toon_memory.store.toon_table import Unproven, encode_streamed

        texts = encode_streamed(len(entries), entries, summaries, CHUNK, FORMAT_VERSION)
        with contextlib.suppress(Unproven):
            return write_atomic_chunks(path, (text.encode() for text in texts))
    write_atomic(path, keys.seal_bytes(encode_document(entries, summaries).encode(), key))
