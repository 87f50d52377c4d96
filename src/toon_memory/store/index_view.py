"""A locked writer's view of a memory through its on-disk index (``store.index_db``).

Invariant: an ``IndexView`` answers ``state.Lookup`` exactly as the full ``State`` at
the same position would (the same entries, ``accessed`` including the accesses still
pending in the access log, file order as the ``pos`` column keeps it), reading only the rows a
question needs. It is made by ``index_sync.lean_view`` under the store's lock from
an index that describes the files as they are, so nothing can change under it; it
never writes. ``complete`` is False: a change that needs every entry raises
``state.StateNeeded`` and runs again over the full state.
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from datetime import date
from typing import Any

from toon_memory.model.entry import Entry
from toon_memory.rules.stats import Stats, grouped_stats
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_reads import row_entry

_ROW = "SELECT body, accessed, last_accessed FROM docs"


class _Taken(Container[str]):
    def __init__(self, db: IndexDb) -> None:
        self._db = db

    def __contains__(self, entry_id: object) -> bool:
        return isinstance(entry_id, str) and self._db.slot(entry_id) is not None


class IndexView:
    """``state.Lookup`` over an index that is current at ``position``."""

    complete = False

    def __init__(self, db: IndexDb, position: object) -> None:
        """``position``: what the index describes, in its store's terms."""
        self.db = db
        self.position = position

    def _rows(self, where: str, args: tuple[object, ...]) -> list[Entry]:
        found = self.db.conn.execute(f"{_ROW} WHERE {where} ORDER BY pos", args)
        return [row_entry(*row) for row in found]

    def get(self, entry_id: str) -> Entry | None:
        return self.db.entry(entry_id)

    def by_key(self, key: str) -> Entry | None:
        found = self._rows("key = ? AND +active_category IS NOT NULL", (key,))
        return found[-1] if found else None

    def with_key(self, key: str) -> list[Entry]:
        return self._rows("key = ?", (key,))

    def each(self) -> Iterator[Entry]:
        """Every entry in file order, decoded one row at a time."""
        for row in self.db.conn.execute(f"{_ROW} ORDER BY pos"):
            yield row_entry(*row)

    def stats(self, today: date, archived: int) -> Stats:
        """``compute_stats`` of every entry, from the rows grouped in SQLite (no body read)."""
        return grouped_stats(self.db.stat_groups(), self.db.shared_contents(), today, archived)

    def versions(self, key: str) -> list[Entry]:
        return [e for e in self.with_key(key) if e.status == "superseded"]

    @property
    def taken(self) -> Container[str]:
        return _Taken(self.db)

    def active_count(self) -> int:
        sql = "SELECT count(*) FROM docs WHERE active_category IS NOT NULL"  # docs_category
        return int(self.db.conn.execute(sql).fetchone()[0])

    def lowest_ttl(self) -> str:
        """The lowest TTL of the active entries (the conditional rows only)."""
        sql = (f"{_ROW} INDEXED BY docs_conditional"
               " WHERE conditional AND active_category IS NOT NULL")  # fmt: skip
        found = [row_entry(*row) for row in self.db.conn.execute(sql)]
        return min((e.ttl for e in found if e.ttl), default="")

    def persisted_row(self, entry: Entry) -> dict[str, Any]:
        """The journal row of ``entry``: its access count minus what the log holds."""
        sql = "SELECT pending FROM docs WHERE id = ?"
        found = self.db.conn.execute(sql, (entry.id,)).fetchone()
        row = entry.to_row()
        row["accessed"] = entry.accessed - (int(found[0]) if found else 0)
        return row
