"""Big batches of writes (an import): one new ``data.toon`` instead of a journal line per row.

Invariant: ``write_batch`` runs its plan on the fresh state under the store's
lock, like ``Store.mutate``, and is durable when it returns. A batch of at least
``WHOLE_MIN_PUTS`` entries that is at least a quarter of the memory becomes a
new ``data.toon`` (every entry, the journal and the access log folded in; the
same file a compaction writes, encoded a chunk at a time when plain), replaced whole
by one atomic rename, so a process killed at any point leaves the memory as it
was before the batch or with all of it, never part. A smaller batch is
journaled by ``Store.mutate`` as any write. The derived files (cache, on-disk
index) key on ``data.toon``'s identity, so the next read rebuilds them once;
this process forgets its loaded state for the same reason (its engine was not
told about the batch).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from toon_memory.model.entry import Entry, Summary
from toon_memory.store import journal

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


def write_batch(store: Store, plan: Callable[[State], tuple[Batch, T]]) -> T:
    """Run ``plan`` on the locked, fresh state and write its batch durably (see the module)."""

    def change(state: State) -> tuple[list[journal.Op], T]:
        batch, result = plan(state)
        if store.local() or not written_whole(batch, state):  # (a database: one transaction)
            return batch.ops(), result
        _write_whole(store, state, batch)
        return [], result

    return store.mutate(change)


def _write_whole(store: Store, state: State, batch: Batch) -> None:
    """The state with ``batch`` applied as the new data.toon (called under the lock)."""
    gone = set(batch.deletes)
    replaced = {entry.id: entry for entry in batch.puts if entry.id in state.entries}
    entries = [replaced.get(entry_id) or state.entries[entry_id]
               for entry_id in state.entries if entry_id not in gone]  # fmt: skip
    entries += [entry for entry in batch.puts if entry.id not in replaced]
    summaries = dict(state.summaries)
    summaries.update((s.file, s) for s in batch.summaries)
    store.key()  # (looked up before anything is written)
    store.write_data(entries, list(summaries.values()))
    # The loaded state (and its engine) no longer describes the files: read them again.
    store.release()
