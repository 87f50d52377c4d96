"""Filling an index at once: from an analysed corpus (``Bulk``), or from entries analysed here.

Invariant: ``fill`` and ``fill_analysing`` write, into the empty tables of
``store.index_db``, exactly the rows that one ``IndexDb.upsert`` per entry would (a
row per entry in file order, its postings, links and degrees) in a handful of
statements: rows and links a chunk at a time as the entries come, postings in
(term, slot) order, degrees by one set of SQL statements. ``fill`` takes the
postings of a corpus an engine holds already (one ``executemany``);
``fill_analysing`` analyses one entry at a time and stages its postings in a
temporary table, which SQLite sorts into place: the entries may be a stream, and
only the terms' ids and counts stay in memory. No file I/O beyond the connection
given (SQLite's own temporary file).
"""

from __future__ import annotations

import marshal
import sqlite3
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Protocol

from toon_memory.model.entry import ATTRIBUTES, Entry
from toon_memory.rules.stats import content_digest

#: What ``analyse`` gives for one entry: weighted terms, weighted length, typed links.
Analysis = tuple[dict[str, float], float, list[tuple[str, str]], str]
Analyse = Callable[[Entry], Analysis]
#: Between the terms of a ``docs`` row's ``terms`` column.
TERM_SEP = "\x00"
INSERT_DOC = f"INSERT INTO docs VALUES ({','.join('?' * 27)})"
#: One analysed entry: (slot, entry, graph order, weighted length, terms, typed links,
#: family).
Document = tuple[int, Entry, int, float, list[str], list[tuple[str, str]], str]
#: Rows and links written together while a corpus is read.
CHUNK = 5_000


class Bulk(Protocol):
    """An analysed corpus to load at once (the search engine's)."""

    def documents(self) -> Iterable[Document]: ...
    def postings(self) -> Iterable[tuple[str, Iterable[tuple[int, float]]]]:
        """Every term with its (slot, tf) postings, in slot order."""
        ...

    def total_length(self) -> float: ...


def fill(conn: sqlite3.Connection, bulk: Bulk, order: Iterable[str],
         pending: Mapping[str, int], ver: int) -> tuple[int, float]:  # fmt: skip
    """Write ``bulk`` into empty tables (``order``: the ids in file order; ``ver``: the
    terms' version); the last sequence number given, and Σ|d|."""
    lengths: dict[int, float] = {}
    place = {doc_id: pos for pos, doc_id in enumerate(order)}
    seq = _write_docs(conn, bulk.documents(), place, pending, lengths)
    counted: list[tuple[int, str, int, int]] = []
    conn.executemany("INSERT INTO postings VALUES (?, ?, ?, ?)",
                     _posting_rows(bulk, lengths, counted, ver))  # fmt: skip
    conn.executemany("INSERT INTO terms VALUES (?, ?, ?, ?)", counted)
    _degrees(conn)
    return seq, bulk.total_length()


def fill_analysing(conn: sqlite3.Connection, entries: Iterable[Entry], analyse: Analyse,
                   pending: Mapping[str, int], ver: int) -> tuple[int, float]:  # fmt: skip
    """Write ``entries`` (file order, read once) into empty tables, analysed here; the last
    sequence number given, and Σ|d|. ``sqlite3.IntegrityError`` for an id seen twice."""
    staged = _Staged(conn, analyse)
    seq = _write_docs(conn, staged.documents(entries), None, pending, None)
    staged.finish(ver)
    _degrees(conn)
    return seq, staged.total


def _write_docs(conn: sqlite3.Connection, documents: Iterable[Document],
                place: Mapping[str, int] | None, pending: Mapping[str, int],
                lengths: dict[int, float] | None) -> int:  # fmt: skip
    """The rows and links of ``documents``, a chunk at a time (``place``: id -> file
    position, None when that is the slot; ``lengths``, when given: filled, slot -> |d|);
    the last sequence number."""
    seq = 0
    links: list[tuple[int, int, str, str]] = []
    docs: list[tuple[object, ...]] = []
    for slot, entry, seq, length, terms, out, family in documents:
        if lengths is not None:
            lengths[slot] = length
        docs.append(doc_row(slot, entry, seq, (length, terms, family), pending.get(entry.id, 0),
                            slot if place is None else place[entry.id]))  # fmt: skip
        links.extend((slot, pos, kind, target) for pos, (kind, target) in enumerate(out))
        if len(docs) >= CHUNK:
            _write_rows(conn, docs, links)
    _write_rows(conn, docs, links)
    return seq


def _write_rows(
    conn: sqlite3.Connection, docs: list[tuple[object, ...]], links: list[tuple[int, int, str, str]]
) -> None:
    """Insert the gathered rows and links, and empty both lists."""
    conn.executemany(INSERT_DOC, docs)
    conn.executemany("INSERT INTO links VALUES (?, ?, ?, ?)", links)
    docs.clear()
    links.clear()


class _Staged:
    """Entries analysed one at a time, their postings staged in a temporary table (terms
    numbered in order of first sight, as ``fill`` numbers an engine's)."""

    def __init__(self, conn: sqlite3.Connection, analyse: Analyse) -> None:
        self._conn, self._analyse = conn, analyse
        self._tids: dict[str, int] = {}
        self._df = array("q", [0])  # by tid (from 1)
        self.total = 0.0
        conn.execute("DROP TABLE IF EXISTS temp.staged")
        conn.execute("CREATE TEMP TABLE staged (tid INTEGER, slot INTEGER, tf REAL, len REAL)")

    def documents(self, entries: Iterable[Entry]) -> Iterator[Document]:
        tids, df, rows = self._tids, self._df, list[tuple[int, int, float, float]]()
        for slot, entry in enumerate(entries):
            terms, length, links, family = self._analyse(entry)
            self.total += length
            for term, tf in terms.items():
                tid = tids.get(term)
                if tid is None:
                    tid = tids[term] = len(df)
                    df.append(0)
                df[tid] += 1
                rows.append((tid, slot, tf, length))
            if len(rows) >= 16 * CHUNK:
                self._stage(rows)
            yield slot, entry, slot + 1, length, list(terms), links, family
        self._stage(rows)

    def _stage(self, rows: list[tuple[int, int, float, float]]) -> None:
        self._conn.executemany("INSERT INTO temp.staged VALUES (?, ?, ?, ?)", rows)
        rows.clear()

    def finish(self, ver: int) -> None:
        """Move the staged postings into place, in (term, slot) order, and count the terms."""
        self._conn.execute("INSERT INTO postings SELECT tid, slot, tf, len FROM temp.staged"
                           " ORDER BY tid, slot")  # fmt: skip
        self._conn.execute("DROP TABLE temp.staged")
        df = self._df
        self._conn.executemany("INSERT INTO terms VALUES (?, ?, ?, ?)",
                               ((tid, term, df[tid], ver) for term, tid in self._tids.items()))  # fmt: skip


def _posting_rows(
    bulk: Bulk, lengths: Mapping[int, float], terms: list[tuple[int, str, int, int]], ver: int
) -> Iterator[tuple[int, int, float, float]]:
    """Every posting row of ``bulk`` in (term, slot) order, one ``executemany`` for all;
    each term's row goes to ``terms`` once its postings are counted."""
    for tid, (term, plist) in enumerate(bulk.postings(), start=1):
        df = 0
        for slot, tf in plist:
            df += 1
            yield tid, slot, tf, lengths[slot]
        terms.append((tid, term, df, ver))


def _degrees(conn: sqlite3.Connection) -> None:
    """Every row's degree, from the links (``_DEGREES``)."""
    for statement in filter(str.strip, _DEGREES.split(";\n")):
        conn.execute(statement)


_DEGREES = """
CREATE TEMP TABLE IF NOT EXISTS edge (a INTEGER, b INTEGER);
DELETE FROM edge;
INSERT INTO edge SELECT l.src, d.slot FROM links l JOIN docs d ON d.key = l.target
 WHERE d.slot != l.src;
CREATE TEMP TABLE IF NOT EXISTS deg (slot INTEGER PRIMARY KEY, n INTEGER);
DELETE FROM deg;
INSERT INTO deg SELECT a, count(*) FROM (SELECT a, b FROM edge UNION SELECT b, a FROM edge)
 GROUP BY a;
UPDATE docs SET degree = coalesce((SELECT n FROM deg WHERE deg.slot = docs.slot), 0);
DELETE FROM edge;
DELETE FROM deg;
"""


def doc_row(
    slot: int | None,
    entry: Entry,
    seq: int,
    analysed: tuple[float, Iterable[str], str],
    pending: int,
    pos: int,
) -> tuple[object, ...]:
    length, terms, family = analysed
    conditional = bool(entry.ttl) or not entry.active
    body = marshal.dumps(tuple(getattr(entry, name) for name in ATTRIBUTES))
    return (slot, entry.id, entry.key, seq, length, 0, conditional, entry.priority > 0,
            entry.category if entry.active else None, entry.last_accessed,
            entry.date, entry.created, entry.accessed, pending, TERM_SEP.join(terms), body,
            pos, family, *stat_columns(entry), entry.importance, entry.evidence,
            entry.category)  # fmt: skip


def stat_columns(entry: Entry) -> tuple[object, ...]:
    """The ``docs`` columns only the statistics read (``rules.stats.Counted`` and the
    content's digest; a REAL column keeps a quality's float exactly but for the sign of
    a zero, which no statistic sees: ``fsum`` of zeros is 0.0 whatever their signs)."""
    return (entry.status, entry.origin, entry.quality, entry.priority,
            entry.ttl, content_digest(entry.content))  # fmt: skip
