"""One memory folder on disk: snapshot + journal + access log, under one lock.

Invariants:
- Every mutation is a read-modify-write under the inter-process lock and is
  durable when ``mutate`` returns (its operations are fsync'd in the journal).
- ``data.toon`` is only ever replaced whole by an atomic rename, and never
  when it failed to decode: after a crash it decodes and, with the journal,
  holds every write that returned. After ``compact`` it alone is the truth.
- Reads never write ``data.toon``: accesses go to a side log (appended,
  unlocked) that compaction folds in. Concurrent accesses that land while a
  compaction swaps the log may go uncounted; entries never do.
- Compaction (``store.compaction``) encodes outside the lock and swaps under
  it, carrying over the journal tail written meanwhile, so writers are not
  stalled by a big encode.
- A damaged journal never bricks the memory: every readable line is replayed
  and the unreadable ones are moved (under the lock, atomically) to a kept
  ``journal.broken-<time>`` file, reported once through ``take_notices``.
  When the folder cannot be written they are skipped in place instead.
- A read-only memory can be read: nothing on the read path needs to write
  (the access log and the cache are best effort); a change raises
  ``ReadOnlyMemoryError`` before anything is written.
- An encrypted memory (``store.encryption``) seals every file that holds entry
  text as it is written (data.toon, archive.toon, each journal line, the
  derived cache); its key is looked up before anything is read, so a missing
  or wrong key raises ``EncryptionError`` with no file touched.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from toon_memory.errors import ToonMemoryError
from toon_memory.model.clock import today
from toon_memory.model.entry import EntryMap
from toon_memory.store import journal, keys
from toon_memory.store.cache import Position, cache_version, file_id, load_cache, save_cache
from toon_memory.store.compaction import Compaction, inode_size
from toon_memory.store.crypto import Key
from toon_memory.store.damage import Damage
from toon_memory.store.data_rows import read_data
from toon_memory.store.index_lag import whole_lines
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.snapshot import Snapshots
from toon_memory.store.state import Derived, Lookup, State, StateNeeded
from toon_memory.system.atomic import write_atomic
from toon_memory.system.lock import FileLock
from toon_memory.system.oserrors import explain, folder_writable, is_read_only, read_only

if TYPE_CHECKING:
    from toon_memory.store.heartbeats import Heartbeats
    from toon_memory.store.index_bulk import Analyse
    from toon_memory.store.index_db import IndexDb
    from toon_memory.store.index_view import IndexView

T = TypeVar("T")
CACHE_REFRESH_BYTES = 64 * 1024
GITIGNORE = (
    ".lock\njournal.jsonl\naccess.log\n*.tmp\nsessions/\ncaptured.jsonl\ncaptured.1.jsonl\n"
    "captured.jsonl.lock\nbackups/\nwatch.log\njournal.broken-*\nsecrets.toon\n"
)


class Store(Compaction, Damage, Snapshots):
    """The files of one memory folder, read and written safely (compaction: ``Compaction``)."""

    #: Its index may lag its access log in a long-lived process (``store.index_lag``).
    lags_accesses = True

    def __init__(
        self,
        paths: MemoryPaths,
        make_derived: Callable[[EntryMap], Derived] | None = None,
        derived_version: str = "",
        *,
        one_shot: bool = False,
    ) -> None:
        """``derived_version`` names the format of what ``make_derived`` builds (cache key);
        ``one_shot``: this process makes one call and exits (``prefers_index``)."""
        self.paths = paths
        self.one_shot = one_shot
        self.lock = FileLock(paths.lock)
        self._make_derived = make_derived
        self._cache_version = cache_version(derived_version)
        self._state: State | None = None
        self._pos: Position | None = None
        self._notices: list[str] = []
        self._told: set[str] = set()
        self._key: Key | None = None

    # -- reading ---------------------------------------------------------
    def loaded(self) -> State | None:
        """The state if it was loaded already (no file access)."""
        return self._state

    def release(self) -> None:
        """Drop the loaded state (it is read again when asked for); its notices are kept."""
        if self._state is not None:
            for text in self._state.notices:
                self._notice(text)
        self._state, self._pos = None, None

    def position(self) -> Position | None:
        """How far the loaded state has read the files (None before ``state``)."""
        return self._pos

    @property
    def derived_key(self) -> str:
        """The version a derived file must carry: layout, columns, entry layout, index format."""
        return self._cache_version

    def key(self) -> Key | None:
        """The key of an encrypted memory (None when plain); ``EncryptionError`` if missing/wrong."""
        self._key = keys.cipher_for(self.paths.folder)
        return self._key

    def encrypted(self) -> bool:
        """Are this memory's files encrypted? (no key needed)"""
        return keys.is_encrypted(self.paths.folder)

    def _seal(self, data: bytes) -> bytes:
        return keys.seal_bytes(data, self._key)

    def state(self, engine: bool = True) -> State:
        """The current state, brought up to date with the files (cheap when unchanged).

        ``engine=False`` (``bare_state``): without building the search engine, and without
        writing the cache, when neither exists yet; a later ``state()`` builds the engine."""
        self.key()
        if self._state is not None and self._pos is not None and self._catch_up(self._pos):
            return self._with_engine(engine)
        cached = load_cache(
            self.paths.cache, self._cache_version, file_id(self.paths.data), self._key
        )
        if cached is not None:
            self._pos, self._state = cached
            cached_offset = self._pos.journal_offset
            if self._catch_up(self._pos):
                if engine and self._pos.journal_offset - cached_offset > CACHE_REFRESH_BYTES:
                    self.save_cache()
                return self._with_engine(engine)
        self._load_full(engine)
        return self._with_engine(engine)

    def bare_state(self) -> State:
        """The state for filling a derived index: the loaded one, else read from the cache
        or the files without building the search engine or writing the cache."""
        return self.state(engine=False)

    def _with_engine(self, engine: bool) -> State:
        """The loaded state, its engine built first when ``engine`` asks for one."""
        state = self._state
        assert state is not None
        if engine and state.derived is None and self._make_derived is not None:
            state.derived = self._make_derived(state.entries)
        return state

    def _catch_up(self, pos: Position) -> bool:
        """Replay the logs' new tails onto the state; False if the files moved under it."""
        j_ino, j_size = inode_size(self.paths.journal)
        a_ino, a_size = inode_size(self.paths.access_log)
        if file_id(self.paths.data) != pos.data:
            return False
        if (j_ino != pos.journal_ino and pos.journal_offset) or j_size < pos.journal_offset:
            return False
        if (a_ino != pos.access_ino and pos.access_offset) or a_size < pos.access_offset:
            return False
        state = self._state
        assert state is not None
        j_off, a_off = pos.journal_offset, pos.access_offset
        if j_size > j_off:
            read = journal.read_ops(self.paths.journal, j_off, self._key)
            if read.damaged and self.set_aside_damage():
                return False  # the journal was rewritten: the caller reloads
            state.apply(read.ops)
            j_off = read.offset
            if read.damaged:
                self._notice(
                    f"{self.paths.journal}: skipped {len(read.damaged)} unreadable line(s); "
                    "the memory folder is not writable, so they were left in place"
                )
        if a_size > a_off:
            a_off = self._fold_access(state, a_off)
        self._pos = Position(pos.data, j_ino, j_off, a_ino, a_off)
        return True

    def _fold_access(self, state: State, start: int) -> int:
        with self.paths.access_log.open("rb") as handle:
            handle.seek(start)
            raw = handle.read()
        lines, size = whole_lines(raw)
        state.fold_accesses(lines)
        return start + size

    def _load_full(self, engine: bool) -> None:
        streamed = None if self._key is not None else read_data(self.paths.data)
        data_id = file_id(self.paths.data) if streamed is None else streamed[1]
        doc = self._read_document(self.paths.data) if streamed is None else streamed[0]
        state = State()
        state.load(doc.entries)
        state.summaries = {s.file: s for s in doc.summaries}
        self._state = state
        self._with_engine(engine)
        self._pos = Position(data_id, None, 0, None, 0)
        if doc.migrated_from_ts:
            self._migrate(doc)
            return
        for _attempt in range(3):  # False: a damaged journal was set aside; replay it again
            if self._catch_up(self._pos):
                break
        if engine:  # a bare read (for an index) leaves the cache to a full one
            self.save_cache()

    def save_cache(self) -> None:
        if self._state is not None and self._pos is not None:
            notices, self._state.notices = self._state.notices, []
            save_cache(self.paths.cache, self._cache_version, self._pos, self._state, self._key)
            self._state.notices = notices

    # -- writing ---------------------------------------------------------
    def mutate(self, change: Callable[[State], tuple[list[journal.Op], T]]) -> T:
        """Run ``change`` on the fresh state under the lock and journal its ops durably.

        An OS refusal becomes ``ReadOnlyMemoryError`` (folder not writable) or a
        ``FileAccessError`` naming the path; nothing is acknowledged then. A process with
        no state loaded whose reads go over the on-disk index (``index_sync.serves_writes``:
        every one-shot process, and any by default) reads the state bare for the change and
        lets it go afterwards: no search engine built, no pickle written, none kept.
        """
        from toon_memory.store.index_sync import serves_writes

        passing = self._state is None and serves_writes(self)
        try:
            return self._locked(lambda: self._over_state(change, bare=passing))
        finally:
            if passing:
                self.release()

    def mutate_lean(
        self,
        change: Callable[[Lookup], tuple[list[journal.Op], T]],
        lean: Callable[[], IndexView | None],
    ) -> T:
        """``mutate`` for a single-entry change, over a view of the on-disk index (``lean``,
        called under the lock) when the state is not loaded in this process: the change
        reads only the rows it needs; it raises ``StateNeeded`` to run over the state."""
        return self._locked(lambda: self._over_view(change, lean), lean)

    def _locked(
        self,
        run: Callable[[], tuple[list[journal.Op], T]],
        sync: Callable[[], object] | None = None,
    ) -> T:
        """``run`` under the lock, then a compaction when the journal grew enough (``sync``
        first: see ``_maybe_compact``)."""
        try:
            self.ensure_folder()
            with self.lock:
                ops, result = run()
        except OSError as exc:
            if is_read_only(exc) and not self.writable():
                raise read_only(self.paths.folder, exc) from None
            raise explain(exc, self.paths.folder) from None
        if ops:
            # The change is durable already: folding it in can wait for the next write.
            with contextlib.suppress(OSError, ToonMemoryError):
                self._maybe_compact(sync)
        return result

    def _over_state(
        self, change: Callable[[State], tuple[list[journal.Op], T]], bare: bool = False
    ) -> tuple[list[journal.Op], T]:
        """``change`` over the state (``bare``: no engine built for it; see ``bare_state``)."""
        state = self.bare_state() if bare else self.state()
        ops, result = change(state)
        if ops:
            self._append(ops)
            state.apply(ops)
        return ops, result

    def _over_view(
        self,
        change: Callable[[Lookup], tuple[list[journal.Op], T]],
        lean: Callable[[], IndexView | None],
    ) -> tuple[list[journal.Op], T]:
        view = lean() if self._state is None else None
        if view is None or self._state is not None:  # (a rebuilt index loaded the state)
            return self._over_state(change)
        try:
            with view.db.reading():
                ops, result = change(view)
        except StateNeeded:  # every entry, not the engine: a later recall builds that
            return self._over_state(change, bare=True)
        if ops:
            assert isinstance(view.position, Position)
            self._pos = view.position
            self._append(ops)
            self._pos = None  # no state is loaded: the index catches up from the journal
        return ops, result

    # -- the on-disk index (``store.index_sync``) ------------------------------
    def prefers_index(self, lean_bytes: int) -> bool:
        """Should single-entry reads and writes go through the on-disk index instead of
        loading the state? Yes for a one-shot process at any size (it would load the
        state for one call), else when data.toon holds ``lean_bytes`` or more (0 by
        default: always; ``index_sync.LEAN_BYTES``)."""
        if self.one_shot:
            return True
        try:
            return self.paths.data.stat().st_size >= lean_bytes
        except OSError:
            return False

    def index(
        self, analyse: Analyse, held: IndexDb | None, lagging: bool = False
    ) -> IndexDb | None:
        """The on-disk index, current with the files (``held``: one opened earlier;
        ``lagging``: but for the access log's last lines, ``store.index_lag``)."""
        from toon_memory.store.index_sync import synced_index

        return synced_index(self, analyse, held, lagging)

    def lean_view(
        self, analyse: Analyse, held: IndexDb | None
    ) -> tuple[IndexDb | None, IndexView | None]:
        """The index (as ``index``) and a view of it for a writer holding the lock."""
        from toon_memory.store.index_sync import lean_view

        return lean_view(self, analyse, held)

    def identity(self) -> tuple[object, ...]:
        """What names the stored entries as they are now (data.toon's and the journal's
        identity): what a cache derived from them is keyed on."""
        return (file_id(self.paths.data), file_id(self.paths.journal))

    def local(self) -> str:
        """'' when the entries live in this folder's files, else where they live (a
        file operation such as ``restore`` is refused then, naming it)."""
        return ""

    def sessions(self) -> Heartbeats:
        """Where this memory's agent sessions live: the memory folder's heartbeat files."""
        from toon_memory.store.heartbeats import FileHeartbeats

        return FileHeartbeats(self.paths.folder)

    def writable(self) -> bool:
        """Can a file be created in the memory folder (or the folder be created)?"""
        return folder_writable(self.paths.folder)

    def _append(self, ops: list[journal.Op]) -> None:
        assert self._pos is not None
        pos = self._pos
        j_ino, j_size = inode_size(self.paths.journal)
        if j_size > pos.journal_offset:
            with self.paths.journal.open("r+b") as handle:
                handle.truncate(pos.journal_offset)
        end = journal.append_ops(self.paths.journal, ops, self._key)
        j_ino, _ = inode_size(self.paths.journal)
        self._pos = Position(pos.data, j_ino, end, pos.access_ino, pos.access_offset)

    def ensure_folder(self) -> None:
        folder = self.paths.folder
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
        try:
            have = self.paths.gitignore.read_text(encoding="utf-8")
        except FileNotFoundError:
            have = None
        if have is None:
            write_atomic(self.paths.gitignore, GITIGNORE.encode())
            return
        missing = [line for line in GITIGNORE.splitlines() if line not in have.splitlines()]
        if missing:  # a memory made by an older version: add the new local-only files
            text = have + ("" if have.endswith("\n") or not have else "\n")
            write_atomic(self.paths.gitignore, (text + "\n".join(missing) + "\n").encode())

    def record_access(self, ids: Iterable[str]) -> None:
        """Log that entries were recalled (no lock, no fsync: statistics only)."""
        day = today().isoformat()
        lines = "".join(f"{entry_id} {day}\n" for entry_id in ids)
        if not lines or not self.paths.folder.is_dir():
            return
        try:
            fd = os.open(self.paths.access_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError:  # a read-only memory: counting is best effort
            return
        try:
            os.write(fd, lines.encode())
        except OSError:
            return
        finally:
            os.close(fd)
