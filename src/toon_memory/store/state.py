"""The in-memory state of one memory: entries, summaries, pending accesses.

Invariant: ``entries`` keeps file order (new entries at the end, a changed
entry keeps its place) so ``data.toon`` stays stable for diffs and merges.
An entry's ``accessed``/``last_accessed`` here already include the accesses
still pending in the access log (``pending``); journal rows carry only the
persisted part, so folding the log in again never double counts.
``history`` lists, per key, the ids of its superseded versions, kept in step
with ``entries`` so pruning old versions never scans every entry.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from toon_memory.model.entry import Entry, EntryMap, Summary, entry_from_row
from toon_memory.rules.stats import Stats, compute_stats
from toon_memory.store.index_lag import tally
from toon_memory.store.journal import Op


class Derived(Protocol):
    """Something kept in step with the entries (the search engine)."""

    def upsert(self, entry: Entry) -> None: ...

    def remove(self, entry_id: str) -> None: ...

    def used(self, entry: Entry) -> None:
        """Only the entry's use (``accessed``/``last_accessed``) changed."""


class Lookup(Protocol):
    """What a single-entry change reads: the full ``State``, or a locked writer's view of
    the on-disk index (``store.index_view``) that never loads every entry.

    ``complete`` says whether every entry is at hand (``entries``); a change that
    needs them all raises ``StateNeeded`` on a view and ``Store.mutate`` runs it
    again over the full state.
    """

    complete: bool

    def get(self, entry_id: str) -> Entry | None: ...

    def by_key(self, key: str) -> Entry | None: ...

    def with_key(self, key: str) -> list[Entry]:
        """Every entry (any status) with ``key``, in file order."""
        ...

    def versions(self, key: str) -> list[Entry]: ...

    def each(self) -> Iterator[Entry]:
        """Every entry (any status), in file order, one at a time."""
        ...

    def stats(self, today: date, archived: int) -> Stats:
        """``rules.stats.compute_stats`` of every entry (``archived``: the archive's size)."""
        ...

    @property
    def taken(self) -> Container[str]:
        """The ids in use (a new id must not be one of them)."""
        ...

    def active_count(self) -> int: ...

    def lowest_ttl(self) -> str:
        """A lower bound of the active entries' TTL dates ('' = none)."""
        ...

    def persisted_row(self, entry: Entry) -> dict[str, Any]: ...


class StateNeeded(Exception):
    """Raised by a change that needs every entry when it was given an index view."""


@dataclass
class State:
    """Entries by id (file order), summaries by file, and pending accesses."""

    entries: EntryMap = field(default_factory=EntryMap)
    summaries: dict[str, Summary] = field(default_factory=dict)
    pending: dict[str, int] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    #: key -> ids of its superseded versions (file order).
    history: dict[str, list[str]] = field(default_factory=dict)
    #: A lower bound of the active entries' TTL dates ('' = none): lets callers
    #: skip looking for expired entries when none can have expired yet.
    ttl_floor: str = ""
    derived: Any = None
    notices: list[str] = field(default_factory=list)
    complete = True

    def get(self, entry_id: str) -> Entry | None:
        return self.entries.get(entry_id)

    def with_key(self, key: str) -> list[Entry]:
        return [e for e in self.entries.values() if e.key == key]

    def each(self) -> Iterator[Entry]:
        return iter(self.entries.values())

    def stats(self, today: date, archived: int) -> Stats:
        return compute_stats(self.entries.values(), today, archived)

    @property
    def taken(self) -> Container[str]:
        return self.entries

    def active_count(self) -> int:
        return len(self.keys)

    def lowest_ttl(self) -> str:
        return self.ttl_floor

    def by_key(self, key: str) -> Entry | None:
        """The active entry with ``key``, if any."""
        entry_id = self.keys.get(key)
        return self.entries.get(entry_id) if entry_id else None

    def load(self, entries: Iterable[Entry]) -> None:
        """Fill an empty state from a snapshot (no derived updates)."""
        for entry in entries:
            self.entries[entry.id] = entry
            if entry.active:
                self.keys[entry.key] = entry.id
                self._lower_ttl_floor(entry)
            elif entry.status == "superseded":
                self.history.setdefault(entry.key, []).append(entry.id)

    def versions(self, key: str) -> list[Entry]:
        """The superseded versions of ``key`` (file order)."""
        return [self.entries[i] for i in self.history.get(key, ()) if i in self.entries]

    def _list(self, entry: Entry, moved: bool) -> None:
        """Add a superseded version to its key's history, keeping file order.

        A new entry is last in the file; an entry that was there already (it keeps its
        place) is put where the file has it, so the history reads as a fresh load's.
        """
        ids = self.history.setdefault(entry.key, [])
        ids.append(entry.id)
        if moved and len(ids) > 1:
            wanted = set(ids)
            ids[:] = [i for i in self.entries if i in wanted]

    def _unlist(self, old: Entry) -> None:
        ids = self.history.get(old.key)
        if ids and old.id in ids:
            ids.remove(old.id)
            if not ids:
                del self.history[old.key]

    def _lower_ttl_floor(self, entry: Entry) -> None:
        if entry.ttl and (not self.ttl_floor or entry.ttl < self.ttl_floor):
            self.ttl_floor = entry.ttl

    def reset_ttl_floor(self) -> None:
        """Recompute the floor exactly (after a scan)."""
        ttls = [e.ttl for e in self.entries.values() if e.active and e.ttl]
        self.ttl_floor = min(ttls) if ttls else ""

    def apply(self, ops: Iterable[Op]) -> None:
        for op in ops:
            if op.kind == "put":
                self._put(entry_from_row(op.data["entry"]))
            elif op.kind == "del":
                self._delete(str(op.data["id"]))
            elif op.kind == "sum":
                data = op.data
                self.summaries[str(data["file"])] = Summary(
                    str(data["file"]), str(data["summary"]), str(data.get("date", ""))
                )

    def _put(self, entry: Entry) -> None:
        count = self.pending.get(entry.id, 0)
        if count:
            entry.accessed += count
        old = self.entries.get(entry.id)
        listed = old is not None and old.status == "superseded" and old.key == entry.key
        if old is not None:
            if self.keys.get(old.key) == old.id:
                del self.keys[old.key]
            if old.status == "superseded" and not listed:
                self._unlist(old)
        self.entries[entry.id] = entry
        if entry.active:
            self.keys[entry.key] = entry.id
            self._lower_ttl_floor(entry)
        if entry.status == "superseded" and not listed:
            self._list(entry, moved=old is not None)
        elif listed and entry.status != "superseded":
            self._unlist(entry)
        if self.derived is not None:
            self.derived.upsert(entry)

    def _delete(self, entry_id: str) -> None:
        old = self.entries.pop(entry_id, None)
        if old is None:
            return
        if self.keys.get(old.key) == entry_id:
            del self.keys[old.key]
        if old.status == "superseded":
            self._unlist(old)
        if self.derived is not None:
            self.derived.remove(entry_id)
        self.pending.pop(entry_id, None)

    def fold_accesses(self, lines: Iterable[str]) -> None:
        """Count access-log lines (``<id> <date>``, as ``index_lag.tally`` reads them) into
        the entries: each entry's uses added, the later day kept."""
        for entry_id, (count, day) in tally(lines).items():
            entry = self.entries.get(entry_id)
            if entry is None:
                continue
            entry.accessed += count
            self.pending[entry_id] = self.pending.get(entry_id, 0) + count
            if day > entry.last_accessed:
                entry.last_accessed = day
            if self.derived is not None:
                self.derived.used(entry)

    def persisted_row(self, entry: Entry) -> dict[str, Any]:
        """The journal row of ``entry``: its access count minus what the log holds."""
        row = entry.to_row()
        row["accessed"] = entry.accessed - self.pending.get(entry.id, 0)
        return row
