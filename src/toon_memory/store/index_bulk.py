"""Filling an index at once: an analysed corpus (``Bulk``) and the rows it becomes.

Invariant: ``fill`` writes, into the empty tables of ``store.index_db``, exactly
the rows that one ``IndexDb.upsert`` per entry would (a row per entry in file
order, its postings, links and degrees) in a handful of statements: postings in
(term, slot) order, one ``executemany`` for all of them, degrees by one set of
SQL statements. ``Analysed`` computes the corpus here when no engine has it (a
term's postings kept as one flat array). No file I/O beyond the connection given.
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
INSERT_DOC = f"INSERT INTO docs VALUES ({','.join('?' * 24)})"
#: One analysed entry: (slot, id, graph order, weighted length, terms, typed links, family).
Document = tuple[int, str, int, float, list[str], list[tuple[str, str]], str]


class Bulk(Protocol):
    """An analysed corpus to load at once (the search engine's, or ``Analysed``)."""

    def documents(self) -> Iterable[Document]: ...
    def postings(self) -> Iterable[tuple[str, Iterable[tuple[int, float]]]]:
        """Every term with its (slot, tf) postings, in slot order."""
        ...

    def total_length(self) -> float: ...


class Analysed:
    """``Bulk`` computed here by ``analyse`` (in entry order; no engine at hand)."""

    def __init__(self, entries: Iterable[Entry], analyse: Analyse) -> None:
        self._docs: list[Document] = []
        #: term -> its postings as one flat array: slot, tf, slot, tf… (slots are whole
        #: numbers far below 2**53, exact as doubles): a tenth of tuples' RAM, one append.
        self._postings: dict[str, array[float]] = {}
        self._total = 0.0
        postings = self._postings
        for slot, entry in enumerate(entries):
            terms, length, links, family = analyse(entry)
            self._docs.append((slot, entry.id, slot + 1, length, list(terms), links, family))
            self._total += length
            for term, tf in terms.items():
                found = postings.get(term)
                if found is None:
                    found = postings[term] = array("d")
                found.append(slot)
                found.append(tf)

    def documents(self) -> Iterable[Document]:
        return self._docs

    def postings(self) -> Iterable[tuple[str, Iterable[tuple[int, float]]]]:
        return ((term, zip(map(int, flat[0::2]), flat[1::2], strict=True))
                for term, flat in self._postings.items())  # fmt: skip

    def total_length(self) -> float:
        return self._total


def fill(conn: sqlite3.Connection, bulk: Bulk, entries: Mapping[str, Entry],
         pending: Mapping[str, int], ver: int) -> int:  # fmt: skip
    """Write ``bulk`` over ``entries`` into empty tables (``ver``: the terms' version);
    the last sequence number given."""
    lengths: dict[int, float] = {}
    order = {doc_id: pos for pos, doc_id in enumerate(entries)}  # file order
    seq = 0
    links: list[tuple[int, int, str, str]] = []
    docs: list[tuple[object, ...]] = []
    for slot, doc_id, seq, length, terms, out, family in bulk.documents():
        lengths[slot] = length
        docs.append(doc_row(slot, entries[doc_id], seq, (length, terms, family),
                            pending.get(doc_id, 0), order[doc_id]))  # fmt: skip
        links.extend((slot, pos, kind, target) for pos, (kind, target) in enumerate(out))
        if len(docs) >= 5_000:
            conn.executemany(INSERT_DOC, docs)
            docs.clear()
    conn.executemany(INSERT_DOC, docs)
    conn.executemany("INSERT INTO links VALUES (?, ?, ?, ?)", links)
    counted: list[tuple[int, str, int, int]] = []
    conn.executemany("INSERT INTO postings VALUES (?, ?, ?, ?)",
                     _posting_rows(bulk, lengths, counted, ver))  # fmt: skip
    conn.executemany("INSERT INTO terms VALUES (?, ?, ?, ?)", counted)
    for statement in filter(str.strip, _DEGREES.split(";\n")):
        conn.execute(statement)
    return seq


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
            pos, family, *stat_columns(entry))  # fmt: skip


def stat_columns(entry: Entry) -> tuple[object, ...]:
    """The ``docs`` columns only the statistics read (``rules.stats.Counted`` and the
    content's digest; a REAL column keeps a quality's float exactly but for the sign of
    a zero, which no statistic sees: ``fsum`` of zeros is 0.0 whatever their signs)."""
    return (entry.status, entry.origin, entry.quality, entry.priority,
            entry.ttl, content_digest(entry.content))  # fmt: skip
