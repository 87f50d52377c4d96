"""The read side of the on-disk index (``store.index_db``): the ``CorpusSource`` queries.

Invariant: every method here only reads (one statement each, inside the caller's
``IndexDb.reading`` snapshot or writing transaction) and answers exactly what the
in-memory corpus would for the position the index records: postings in slot order,
entries with their use counts (pending accesses included), links both ways with
each end's graph order; in a ranking snapshot over an index that lags its access log
(``uses``, ``store.index_lag``), for that position with those lines folded in: entries
with their uses added, and no read that groups entries by use (``Unsettled``). Nothing
here writes or caches across snapshots.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TypeVar

from toon_memory.model.entry import Entry
from toon_memory.rules.stats import Alike

_T = TypeVar("_T")
#: What ranking reads of an entry besides its terms: (slot, id, key, priority, degree,
#: family, quality, importance, evidence, category).
Row = tuple[int, str, str, int, int, str, float, str, str, str]
#: What ``entry`` reads of a document: its body and use counts (``row_entry``).
_ENTRY = "SELECT id, body, accessed, last_accessed FROM docs"
_ROW = ("SELECT slot, id, key, priority, degree, family, quality, importance, evidence,"
        " category FROM docs")  # fmt: skip
#: (other id, other's graph order, the link is the node's own, its type).
LinkRow = tuple[str, int, bool, str]
_LINKS_OF_MANY = """
SELECT s.id, d.id, d.seq, 1, l.kind, l.pos FROM docs s JOIN links l ON l.src = s.slot
 JOIN docs d ON d.key = l.target WHERE s.id IN @IDS
UNION ALL
SELECT s.id, d.id, d.seq, 0, l.kind, l.pos FROM docs s JOIN links l ON l.target = s.key
 JOIN docs d ON d.slot = l.src WHERE s.id IN @IDS
ORDER BY 1, 2, 4, 6
"""
_LINKS_OF = """
SELECT d.id, d.seq, 1, l.kind FROM links l JOIN docs d ON d.key = l.target
 WHERE l.src = :slot
UNION ALL
SELECT d.id, d.seq, 0, l.kind FROM links l JOIN docs d ON d.slot = l.src
 WHERE l.target = :key
"""

#: The entries that count alike for ``rules.stats`` (its ``Counted`` fields, ``priority``
#: and ``accessed`` as whether they are 0), each group with its size and in the order
#: of its first entry in the file; one scan of the ``docs_stats`` index.
_STAT_GROUPS = """
SELECT status, active_category IS NOT NULL, coalesce(active_category, ''), origin, quality,
 priority != 0, last_accessed, date, accessed > 0, ttl, count(*) FROM docs INDEXED BY docs_stats
 GROUP BY status, active_category, origin, quality, priority != 0,
 last_accessed, date, accessed > 0, ttl
 ORDER BY min(pos)
"""


class Unsettled(Exception):
    """A read that needs every access folded into the index (usage and stats groups) was
    asked while ``IndexReads.uses`` holds some that are not: fold them, then ask again."""


class IndexReads:
    """The queries a ranking pass (``search.source.SourceCorpus``) and a writer's view
    (``store.index_view``) send to one open index."""

    conn: sqlite3.Connection
    _total: float
    _count: int
    #: Accesses read from the access log but not folded into the index yet, by entry id:
    #: (how many, the latest day); set for one ranking snapshot (``store.index_lag``).
    #: Entries are read with them added, as folding them would have left their rows.
    uses: Mapping[str, tuple[int, str]] = MappingProxyType({})

    def count(self) -> int:
        if self._count < 0:
            self._count = self.conn.execute("SELECT count(*) FROM docs").fetchone()[0]
        return self._count

    def avg_len(self) -> float:
        return self._total / max(self.count(), 1) or 1.0

    def doc_freq(self, term: str) -> int:
        found = self.conn.execute("SELECT df FROM terms WHERE term = ?", (term,)).fetchone()
        return 0 if found is None else int(found[0])

    def term_version(self, term: str) -> int | None:
        """Changes whenever the postings of ``term`` change (``search.warm.Versioned``)."""
        found = self.conn.execute("SELECT ver FROM terms WHERE term = ?", (term,)).fetchone()
        return None if found is None else int(found[0])

    def term_facts(self, terms: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(``doc_freq``, ``term_version``) of those of ``terms`` the index holds, in one
        statement a chunk (``search.warm.Known``: a query's 20-50 terms and their other
        languages' forms, most of them held by no entry)."""
        found: dict[str, tuple[int, int]] = {}
        for part in chunks(terms):
            sql = f"SELECT term, df, ver FROM terms WHERE term IN ({','.join('?' * len(part))})"
            found.update((term, (int(df), int(ver))) for term, df, ver in
                         self.conn.execute(sql, part))  # fmt: skip
        return found

    def postings(self, term: str) -> list[tuple[int, float, float]]:
        sql = ("SELECT slot, tf, len FROM postings WHERE tid = "
               "(SELECT tid FROM terms WHERE term = ?) ORDER BY slot")  # fmt: skip
        return self.conn.execute(sql, (term,)).fetchall()

    def postings_in(self, term: str, category: str) -> list[tuple[int, float, float]]:
        sql = ("SELECT slot, tf, len FROM postings WHERE tid = (SELECT tid FROM terms WHERE"
               " term = ?) AND slot IN (SELECT slot FROM docs WHERE active_category = ?)"
               " ORDER BY slot")  # fmt: skip
        return self.conn.execute(sql, (term, category)).fetchall()

    def slot(self, doc_id: str) -> int | None:
        found = self.conn.execute("SELECT slot FROM docs WHERE id = ?", (doc_id,)).fetchone()
        return None if found is None else int(found[0])

    def doc_id(self, slot: int) -> str:
        found = self.conn.execute("SELECT id FROM docs WHERE slot = ?", (slot,)).fetchone()
        return "" if found is None else str(found[0])

    def doc_ids(self, slots: Sequence[int]) -> list[str]:
        found: dict[int, str] = {}
        for part in chunks(slots):
            sql = f"SELECT slot, id FROM docs WHERE slot IN ({','.join('?' * len(part))})"
            found.update(self.conn.execute(sql, part).fetchall())
        return [found.get(slot, "") for slot in slots]

    def active_ids(self, slots: Sequence[int], category: str) -> list[str]:
        found: dict[int, str] = {}
        for part in chunks(slots):
            sql = (f"SELECT slot, id FROM docs WHERE slot IN ({','.join('?' * len(part))})"
                   " AND active_category = ?")  # fmt: skip
            found.update(self.conn.execute(sql, [*part, category]).fetchall())
        return [found.get(slot, "") for slot in slots]

    def category_slots(self, category: str) -> list[int]:
        sql = "SELECT slot FROM docs WHERE active_category = ? ORDER BY slot"  # docs_category
        return [slot for (slot,) in self.conn.execute(sql, (category,))]

    def entry(self, doc_id: str) -> Entry | None:
        sql = "SELECT body, accessed, last_accessed FROM docs WHERE id = ?"
        found = self.conn.execute(sql, (doc_id,)).fetchone()
        if found is None:
            return None
        return self._used(doc_id, row_entry(*found))

    def entries_of(self, ids: Collection[str]) -> dict[str, Entry]:
        """``entry`` for many ids at once (unknown ids left out)."""
        return self._entries(self._many(f"{_ENTRY} WHERE id IN ", ids))

    def entries_at(self, slots: Sequence[int]) -> dict[str, Entry]:
        """``entries_of`` the documents at these slots, by id (unknown slots left out): a
        rowid lookup each, not the id index's and then the rowid's (400 entries ~1 ms
        instead of ~2 at 100,000 entries)."""
        return self._entries(self._at(_ENTRY, slots))

    def _entries(self, rows: Iterable[tuple[Any, ...]]) -> dict[str, Entry]:
        return {doc_id: self._used(doc_id, row_entry(body, accessed, last))
                for doc_id, body, accessed, last in rows}  # fmt: skip

    def _used(self, doc_id: str, entry: Entry) -> Entry:
        """``entry`` with its accesses not folded yet (``uses``) added, as the fold adds
        them (``IndexDb.fold_accesses``: one more use each, the later day kept)."""
        extra = self.uses.get(doc_id)
        if extra is not None:
            entry.accessed += extra[0]
            entry.last_accessed = max(entry.last_accessed, extra[1])
        return entry

    def rows_at(self, slots: Sequence[int]) -> list[Row]:
        """What ranking reads of the documents at many slots (``Row``; unknown slots left
        out, any order), in one read per 400: a candidate ranked without its body."""
        return self._at(_ROW, slots)

    def every_row(self) -> Iterator[Row]:
        """``rows_at`` of every document, in one scan, in slot order."""
        return iter(self.conn.execute(f"{_ROW} ORDER BY slot"))

    def rows_of(self, ids: Collection[str]) -> list[Row]:
        """``rows_at`` by id (unknown ids left out)."""
        return self._many(f"{_ROW} WHERE id IN ", ids)

    def links_of(self, ids: Collection[str]) -> dict[str, tuple[int, list[LinkRow]]]:
        """``(seq, links)`` of many nodes at once (see ``links``)."""
        found: dict[str, tuple[int, list[LinkRow]]] = {
            doc_id: (seq, [])
            for doc_id, seq in self._many("SELECT id, seq FROM docs WHERE id IN ", ids)
        }
        for node, other, seq, own, kind, _pos in self._many(_LINKS_OF_MANY, ids, twice=True):
            found[node][1].append((other, seq, bool(own), kind))
        return found

    def _at(self, select: str, slots: Sequence[int]) -> list[Any]:
        """``select`` of the documents at ``slots``, one statement per 400 (unknown left out)."""
        rows: list[Any] = []
        for part in chunks(slots):
            sql = f"{select} WHERE slot IN ({','.join('?' * len(part))})"
            rows.extend(self.conn.execute(sql, part).fetchall())
        return rows

    def _many(self, sql: str, ids: Collection[str], twice: bool = False) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = []
        for part in chunks(list(ids)):
            marks = "(" + ",".join("?" * len(part)) + ")"
            query = sql.replace("@IDS", marks) if twice else sql + marks
            rows.extend(self.conn.execute(query, part * 2 if twice else part).fetchall())
        return rows

    def seq(self, doc_id: str) -> int:
        found = self.conn.execute("SELECT seq FROM docs WHERE id = ?", (doc_id,)).fetchone()
        return 0 if found is None else int(found[0])

    def links(self, doc_id: str) -> list[tuple[str, int, bool, str]]:
        found = self.conn.execute("SELECT slot, key FROM docs WHERE id = ?", (doc_id,)).fetchone()
        if found is None:
            return []
        rows = self.conn.execute(_LINKS_OF, {"slot": found[0], "key": found[1]})
        return [(other, seq, bool(own), kind) for other, seq, own, kind in rows]

    def degree(self, doc_id: str) -> int:
        found = self.conn.execute("SELECT degree FROM docs WHERE id = ?", (doc_id,)).fetchone()
        return 0 if found is None else int(found[0])

    def max_degree(self) -> int:
        return int(self.conn.execute("SELECT coalesce(max(degree), 0) FROM docs").fetchone()[0])

    def ids_with_key(self, key: str) -> list[str]:
        return [i for (i,) in self.conn.execute("SELECT id FROM docs WHERE key = ?", (key,))]

    def conditional_ids(self) -> dict[str, int]:
        """The conditional entries' ids, each with its slot."""
        return dict(self.conn.execute("SELECT id, slot FROM docs WHERE conditional"))

    def pinned_ids(self) -> set[str]:
        return {i for (i,) in self.conn.execute("SELECT id FROM docs WHERE pinned")}

    def usage_groups(self) -> list[tuple[str, str, str, int]]:
        self._settled()
        sql = "SELECT DISTINCT last_accessed, date, created, accessed FROM docs"
        return self.conn.execute(sql).fetchall()

    def ids_in_group(
        self, fields: tuple[str, str, str, int], after: int, limit: int
    ) -> list[tuple[int, str]]:
        """(slot, id) of up to ``limit`` entries past slot ``after`` with these usage
        fields, in slot order (one range of the ``docs_usage`` index)."""
        self._settled()
        sql = ("SELECT slot, id FROM docs WHERE last_accessed = ? AND date = ? AND created = ?"
               " AND accessed = ? AND slot > ? ORDER BY slot LIMIT ?")  # fmt: skip
        return self.conn.execute(sql, (*fields, after, limit)).fetchall()

    def category_counts(self) -> dict[str, int]:
        """How many active entries each category has."""
        sql = ("SELECT active_category, count(*) FROM docs WHERE active_category IS NOT NULL "
               "GROUP BY active_category ORDER BY min(slot)")  # fmt: skip
        return dict(self.conn.execute(sql).fetchall())

    def row_changes(self, seen: object) -> tuple[object, tuple[list[int], bool] | None]:
        """The rows' token now, and what changed since token ``seen``: (the slots whose row
        as ranking reads it changed, whether any count, degree, conditional or pinned flag
        may have), or None when that is not known (another epoch, or past the kept log):
        read all again. An access fold changes neither (``facts`` 0): its slots are not
        listed, so a warm process keeps the rows of the entries it just recalled."""
        epoch = self._meta("rows_epoch")
        floor = int(self._meta("rows_floor") or 0)
        if not (isinstance(seen, tuple) and seen[0] == epoch and seen[1] >= floor):
            sql = "SELECT coalesce(max(seq), ?) FROM doc_changes"
            return (epoch, int(self.conn.execute(sql, (floor,)).fetchone()[0])), None
        sql = "SELECT seq, slot, facts FROM doc_changes WHERE seq > ?"
        rows = self.conn.execute(sql, (seen[1],)).fetchall()
        now = max((seq for seq, _slot, _facts in rows), default=seen[1])
        changed = [slot for _seq, slot, facts in rows if facts]
        return (epoch, now), (changed, bool(changed))

    def stat_groups(self) -> list[tuple[Alike, int]]:
        """The entries as ``rules.stats.grouped_stats`` reads them (``_STAT_GROUPS``)."""
        self._settled()
        return [(Alike(status, bool(active), category, origin, float(quality), pinned, last,
                       day, used, ttl), n)
                for status, active, category, origin, quality, pinned, last, day, used, ttl, n
                in self.conn.execute(_STAT_GROUPS)]  # fmt: skip

    def shared_contents(self) -> list[tuple[bytes, int]]:
        """(content digest, how many active entries have it) for the digests at least two
        active entries share (one alone counts nothing: ``rules.stats.grouped_stats``)."""
        sql = ("SELECT digest, count(*) FROM docs INDEXED BY docs_digest"
               " WHERE active_category IS NOT NULL GROUP BY digest HAVING count(*) > 1")  # fmt: skip
        return self.conn.execute(sql).fetchall()

    def _settled(self) -> None:
        """Unsettled while accesses are not folded (``uses``): these reads group by them."""
        if self.uses:
            raise Unsettled

    # -- meta ---------------------------------------------------------------------
    def _meta(self, name: str) -> str | None:
        found = self.conn.execute("SELECT v FROM meta WHERE k = ?", (name,)).fetchone()
        return None if found is None else str(found[0])

    def _set_meta(self, name: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, value))


def chunks(items: Sequence[_T]) -> Iterator[list[_T]]:
    """``items`` a SQL statement's worth at a time (400 bound parameters)."""
    for i in range(0, len(items), 400):
        yield list(items[i : i + 400])


def row_entry(body: bytes, accessed: int, last_accessed: str) -> Entry:
    """The entry of a ``docs`` row: its body with the use counts kept beside it."""
    entry = Entry(*marshal.loads(body))
    entry.accessed, entry.last_accessed = accessed, last_accessed
    return entry
