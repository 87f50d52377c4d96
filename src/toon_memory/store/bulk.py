"""Big batches of writes (an import): one new ``data.toon`` instead of a journal line per row.

Invariant: ``write_batch`` runs its plan on the fresh state under the store's
lock, like ``Store.mutate``, and is durable when it returns. A batch of at least
``WHOLE_MIN_PUTS`` entries that is at least a quarter of the memory becomes a
new ``data.toon`` (every entry, the journal and the access log folded in; the
same file a compaction writes), replaced whole
by one atomic rename, so a process killed at any point leaves the memory as it
was before the batch or with all of it, never part. A smaller batch is
journaled by ``Store.mutate`` as any write. The derived files (cache, on-disk
index) key on ``data.toon``'s identity; given the caller's ``analyse``, the
on-disk index is filled from the written entries themselves right after the
lock is released (recording the new file's position, so a write made meanwhile
is caught up from the journal and a compaction meanwhile makes it rebuild), so
the next read does not decode and analyse the whole file again; a plain memory
only (an encrypted one keeps its text sealed), best effort (a failure leaves the
index to the next reader's rebuild). This process forgets its loaded state (its
engine was not told about the batch).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from toon_memory.model.entry import Entry, Summary
from toon_memory.store import journal, keys
from toon_memory.store.cache import Position, file_id
from toon_memory.store.codec import encode_document
from toon_memory.store.index_anchor import encode_position
from toon_memory.store.index_db import Analyse, Analysed, IndexDb, index_path
from toon_memory.system.atomic import write_atomic

if TYPE_CHECKING:
    from toon_memory.store.state import State
    from toon_memory.store.store import Store

T = TypeVar("T")
#: A batch this big (entries put), and at least a quarter of the memory, is written whole.
WHOLE_MIN_PUTS = 1000


@dataclass
class Batch:
    """Entries to put (new ids, or an id to replace in place), ids to delete, summaries."""

    puts: list[Entry] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)

    def ops(self) -> list[journal.Op]:
        """The batch as journal operations (puts, then deletes, then summaries)."""
        ops = [journal.put(entry.to_row()) for entry in self.puts]
        ops += [journal.delete(entry_id) for entry_id in self.deletes]
        ops += [journal.put_summary(s.file, s.summary, s.date) for s in self.summaries]
        return ops


def written_whole(batch: Batch, state: State) -> bool:
    """Is ``batch`` big enough, for the memory it goes into, to be written as a new file?"""
    return len(batch.puts) >= WHOLE_MIN_PUTS and len(batch.puts) * 4 >= len(state.entries)


def write_batch(
    store: Store, plan: Callable[[State], tuple[Batch, T]], analyse: Analyse | None = None
) -> T:
    """Run ``plan`` on the locked, fresh state and write its batch durably; ``analyse``:
    fill the on-disk index from a batch written whole (see the module)."""
    written: list[tuple[list[Entry], Position]] = []

    def change(state: State) -> tuple[list[journal.Op], T]:
        batch, result = plan(state)
        if store.local() or not written_whole(batch, state):  # (a database: one transaction)
            return batch.ops(), result
        written.append(_write_whole(store, state, batch))
        return [], result

    result = store.mutate(change)
    if written and analyse is not None and not store.encrypted():
        _fill_index(store, *written[0], analyse)
    return result


def _fill_index(store: Store, entries: list[Entry], position: Position, analyse: Analyse) -> None:
    """The on-disk index of ``entries``, the memory at ``position`` (outside the lock)."""
    db = IndexDb.open(index_path(store.paths), store.derived_key)
    if db is None:
        return
    try:
        with db.writing():
            db.clear()
            db.load(Analysed(entries, analyse), {e.id: e for e in entries}, {})
            db.set_position(encode_position(position))
        db.checkpoint()
    except (sqlite3.Error, OSError):
        pass  # derived: the next reader rebuilds it
    finally:
        db.close()


def _write_whole(store: Store, state: State, batch: Batch) -> tuple[list[Entry], Position]:
    """The state with ``batch`` applied as the new data.toon (called under the lock)."""
    gone = set(batch.deletes)
    replaced = {entry.id: entry for entry in batch.puts if entry.id in state.entries}
    entries = [replaced.get(entry_id) or state.entries[entry_id]
               for entry_id in state.entries if entry_id not in gone]  # fmt: skip
    entries += [entry for entry in batch.puts if entry.id not in replaced]
    summaries = dict(state.summaries)
    summaries.update((s.file, s) for s in batch.summaries)
    text = encode_document(entries, list(summaries.values()))
    write_atomic(store.paths.data, keys.seal_bytes(text.encode(), store.key()))
    # data.toon holds everything now (accesses included): a crash before these unlinks
    # replays journal lines that are already in it (replay is idempotent).
    for path in (store.paths.journal, store.paths.access_log):
        path.unlink(missing_ok=True)
    # The loaded state (and its engine) no longer describes the files: read them again.
    store.release()
    return entries, Position(file_id(store.paths.data), None, 0, None, 0)
