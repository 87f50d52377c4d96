"""What a long-lived process keeps of one corpus source between queries.

Invariant: a kept thing is used only while the source says it has not changed since it
was read: a term's postings (``TermData``) while its ``term_version`` is the same, or
brought there by the source's own changes (``Patching``); a candidate's row and the
source's facts (count, conditional and pinned ids, the largest degree) while
``row_changes`` names no change to them; rows taken from a rows pack (``RowsPacked``)
likewise: a slot changed since the pack was made, or since it was read, is read from the
source. A source that offers neither gets a new ``Warm`` per query (nothing kept), so
every query reads what a fresh process reads.

Why: the MCP server answers many queries over one index; the terms of a query of
common words hold ~100,000 postings and reading its 400 candidates' rows (one B-tree
lookup each) takes ~1.5 ms at 100,000 entries, while between two queries only the
entries written or recalled in between change.
"""

from __future__ import annotations

import functools
import weakref
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar, cast

from toon_memory.search import signals
from toon_memory.search.term_data import TermData, grow_lengths


class Versioned(Protocol):
    """What a source may add so that a long-lived process keeps each term's postings
    between queries (``search.term_data.TermData``): a token that changes whenever the
    postings of ``term`` change (a rebuild included), or None while the source holds no
    such term (kept as ``ABSENT`` until it does: a query's expansions into other
    languages and its new words are mostly terms no entry has)."""

    def term_version(self, term: str) -> object | None: ...


class Known(Protocol):
    """What a versioned source may add so that a query's terms are looked up at once
    (``search.source``): ``term_facts``, the (document frequency, ``term_version``) of
    those of ``terms`` it holds; one read for a query's 20-50 terms instead of two each."""

    def term_facts(self, terms: Sequence[str]) -> Mapping[str, tuple[int, object]]: ...


class Patching(Protocol):
    """What a versioned source may add so that a kept term follows this process's own
    writes without being read again: the posting changes ``(slot, tf or None when
    removed, length)`` that take ``term`` from version ``have`` to ``now``, or None when
    it does not know them all (then the postings are read again)."""

    def term_changes(
        self, term: str, have: object, now: object
    ) -> list[tuple[int, float | None, float]] | None: ...


class Tracked(Protocol):
    """What a versioned source may add so that a long-lived process keeps rows too:
    ``row_changes``: the rows' token now and, since token ``seen``, (the slots whose row
    changed (a ``Row``: an entry's use counts are not in it), whether its facts may have:
    ``count``, ``conditional_ids``, ``pinned_ids``, ``max_degree``), or None when that is
    not known (then every kept row and fact goes).
    A kept row is what ranking reads of a candidate (``Row``, no entry body): reading
    400 candidates' rows was a third of a first-time query at 100,000 entries."""

    def row_changes(self, seen: object) -> tuple[object, tuple[list[int], bool] | None]: ...


class Packed(Protocol):
    """What a tracked source may add so that a term no process keeps is read from a pack
    (``TermData.packed``) instead of its postings: ``packed(term)``, the pack and the slots
    whose postings may have changed since it was made (None: none to read), the term ``""``
    packing every slot's length (an ``array('d')`` by slot); ``postings_at`` and
    ``lengths_at`` read those slots again."""

    def packed(self, term: str) -> tuple[bytes, list[int]] | None: ...
    def postings_at(self, term: str, slots: Sequence[int]) -> list[tuple[int, float, float]]: ...
    def lengths_at(self, slots: Sequence[int]) -> list[tuple[int, float]]: ...


class Columns(Protocol):
    """Every slot's row held whole (``RowsPacked``): ``rows_at`` as the source answers."""

    def rows_at(self, slots: Sequence[int]) -> list[Row]: ...


class RowsPacked(Protocol):
    """What a tracked source may add so that a process that ranks often reads its
    candidates' rows from memory: ``packed_rows``, every slot's row (``Columns``) and the
    slots whose row may have changed since they were packed (read from the source), or
    None when there is none."""

    def packed_rows(self) -> tuple[Columns, list[int]] | None: ...


class Common(Protocol):
    """What a packed source may add so that a long-lived process reads its most common
    terms with its rows pack (``COMMON_BYTES``): ``common_terms``, the ``count`` packed
    terms held by the most entries, most first."""

    def common_terms(self, count: int) -> list[str]: ...


#: One ``search.corpus_source.CorpusSource.rows_at`` row: what ranking reads of a candidate
#: besides its terms: (slot, id, key, priority, degree, family, quality, importance,
#: evidence, category).
Row = tuple[int, str, str, int, int, str, float, str, str, str]
#: A ``Row`` as ranking reads it (``prepared``): (slot, id, degree, family, (priority,
#: key), (static bonus, quality factor)).
Prepared = tuple[int, str, int, str, tuple[int, str], tuple[float, float]]
#: The token of a term a versioned source does not hold (``Versioned``).
ABSENT = "absent"
#: ``Warm.term_data``'s token when the caller has not read it (then it asks the source).
UNREAD = object()
#: Rows a process keeps between queries at most (past it, only the last query's stay:
#: a copy of the newer half cost ~5 ms in the query that made it): ~10 MB.
ROWS_KEPT = 32_768
#: A process reads every row at once (``RowsPacked``) once it has read the rows of one in
#: ``RENT`` entries one by one: a one-shot command never does (a recall reads at most 400
#: rows; a primer, a hook or a brief none); a source that serves a long-lived process
#: (``lasting``: the MCP server) reads it with its first rows (at 100,000 entries: 1,562
#: rows one by one ~5 ms over ~4 queries, each ~2x slower; the pack ~10 ms, ~4.5 MB).
RENT = 64
#: Rows changed since the pack was read that are read one by one at most; past it the
#: pack is let go (and read again, fresher, after ``RENT`` more).
STALE_ROWS = 4096
#: A long-lived process (``lasting``) reads the packs of its most common terms (``Common``)
#: with its rows pack, as many as hold about this many bytes (a common term holds ~2 bytes
#: a slot: its bitmaps and tf codes; 80 terms at 100,000 entries, 8 at 1,000,000): a
#: common word's pack read in a query cost it ~0.25 ms at 100,000 entries (measured over
#: MCP, 40 queries of 2-3 of 38 common words: p50 ~5.0 -> ~4.3 ms read before).
COMMON_BYTES = 16 * 1024 * 1024
_T = TypeVar("_T")


class _Postings(Protocol):
    def postings(self, term: str) -> Iterable[tuple[int, float, float]]: ...
    def postings_in(self, term: str, category: str) -> Iterable[tuple[int, float, float]]: ...


class Warm:
    """What a process keeps of one source (see the module docstring)."""

    def __init__(self) -> None:
        self.terms: dict[str, tuple[object, TermData]] = {}
        self.lengths: list[float] = []
        #: Terms once read for one category only (``term_data``).
        self.partial: set[str] = set()
        self._rows: dict[int, Prepared] = {}
        self._facts: dict[str, object] = {}
        self._seen: object = None
        self._tracked = False
        #: ``lengths`` holds every slot's length (from the lengths pack), kept current.
        self._all_lengths = False
        #: Every row (``RowsPacked``), those in ``_stale`` changed since; rows read one
        #: by one while there is none (``RENT``).
        self._columns: Columns | None = None
        self._stale: set[int] = set()
        self._one_by_one = 0
        self._pack_missed = False

    def catch_up(self, source: object) -> None:
        """Drop the rows and facts that changed since the last query (``Tracked``). (A
        ``Warm`` holds no reference to its source: it is kept in a weak mapping by it.)"""
        changes = getattr(source, "row_changes", None)
        self._tracked = callable(getattr(source, "term_version", None)) and callable(changes)
        if not self._tracked or not callable(changes):
            return
        self._seen, changed = changes(self._seen)
        if changed is None:
            self._rows.clear()
            self._facts.clear()
            self._all_lengths = False
            self._columns = None
            return
        slots, facts = changed
        if self._columns is not None:
            self._stale.update(slots)
            if len(self._stale) > STALE_ROWS:
                self._columns, self._one_by_one = None, 0
        if self._all_lengths and facts:  # a length changes only with its entry: a facts change
            self._set_lengths(cast(Packed, source).lengths_at(slots))
        for slot in slots:
            self._rows.pop(slot, None)
        if facts:
            self._facts.clear()

    def fact(self, name: str, read: Callable[[], _T]) -> _T:
        """``read()``, kept while the source's rows say it cannot have changed."""
        if not self._tracked:
            return read()
        if name not in self._facts:
            self._facts[name] = read()
        return cast(_T, self._facts[name])

    def rows_at(self, source: object, slots: Sequence[int]) -> list[Prepared] | None:
        """The source's rows at ``slots``, ``prepared`` (those kept from earlier queries
        taken as they are); None when the source tracks no changes (``Tracked``)."""
        rows_at = getattr(source, "rows_at", None)
        if not self._tracked or not callable(rows_at):
            return None
        got = list(map(self._rows.get, slots))
        missing = [slot for slot, row in zip(slots, got, strict=True) if row is None]
        fresh = [prepared(row) for row in self._read_rows(source, rows_at, missing)]
        if len(self._rows) + len(fresh) > ROWS_KEPT:  # (the kept go; this read's stay)
            self._rows = {}
        kept = self._rows
        for row in fresh:
            kept[row[0]] = row
        return [row for row in got if row is not None] + fresh

    def _read_rows(
        self, source: object, rows_at: Callable[[Sequence[int]], list[Row]], slots: list[int]
    ) -> list[Row]:
        """The rows at ``slots``: from the rows pack when this process holds it (or is due
        to read it: ``RENT``), the slots changed since from the source."""
        if not slots:
            return []
        columns = self._columns
        packed_rows = getattr(source, "packed_rows", None)
        if columns is None and callable(packed_rows) and self._rent_paid(source):
            found = cast(RowsPacked, source).packed_rows()
            self._one_by_one = 0  # (none: try again after as many rows one by one)
            self._pack_missed = found is None
            if found is not None:
                columns, self._stale = found[0], set(found[1])
                self._columns = columns
                self._read_common(source)
        if columns is None:
            self._one_by_one += len(slots)
            return rows_at(slots)
        stale = self._stale
        rows = columns.rows_at([slot for slot in slots if slot not in stale])
        changed = [slot for slot in slots if slot in stale] if stale else []
        return rows + rows_at(changed) if changed else rows

    def _read_common(self, source: object) -> None:
        """A long-lived process's most common terms read from their packs (``COMMON_BYTES``,
        ``Common``); a term whose pack does not unpack is left for a query to read."""
        common, count = getattr(source, "common_terms", None), getattr(source, "count", None)
        if not getattr(source, "lasting", False) or not callable(common) or not callable(count):
            return
        terms = cast(Common, source).common_terms(COMMON_BYTES // (2 * max(1, count())))
        facts = getattr(source, "term_facts", None)
        known = cast(Known, source).term_facts(terms) if callable(facts) else {}
        for term in terms:
            token = _token(source, term, known.get(term, (0, UNREAD))[1])
            if token is None or token is ABSENT or term in self.terms:
                continue
            data = self._unpacked(source, term)
            if data is not None:
                self.terms[term] = (token, data)

    def _rent_paid(self, source: object) -> bool:
        """Time to read the rows pack: at once for a source that serves a long-lived
        process (``lasting``: a server reads thousands of rows anyway) until a read found
        none, else after as many rows read one by one as one in ``RENT`` entries."""
        if getattr(source, "lasting", False) and not self._pack_missed:
            return True
        count = getattr(source, "count", None)
        return callable(count) and self._one_by_one >= self.fact("count", count) // RENT

    def term_data(
        self, source: _Postings, term: str, only: str = "", version: object = UNREAD
    ) -> TermData:
        """Kept across queries while the source's ``term_version`` stays the same (``version``:
        as the caller read it, ``UNREAD``: asked here). With ``only`` (``Scoring.plan``), a
        term not kept is read the first time for the active entries of that category alone
        (not kept: a cold process reads a fifth of a head word's postings), the next time
        whole and kept. A term the source does not hold is read nowhere: it has no postings."""
        token = _token(source, term, version)
        found = self.terms.get(term)
        if found is not None and token is not None and found[0] == token:
            return found[1]
        if token is ABSENT:
            self.terms[term] = (token, TermData((), self.lengths))
            return self.terms[term][1]
        data = self._patched(source, term, found, token)
        if data is None:
            data = self._unpacked(source, term)
        if data is None and only and term not in self.partial:
            self.partial.add(term)
            return TermData(source.postings_in(term, only), self.lengths)
        if data is None:
            data = TermData(source.postings(term), self.lengths)
        if token is not None:
            self.terms[term] = (token, data)
        return data

    def _patched(
        self, source: object, term: str, found: tuple[object, TermData] | None,
        token: object | None,
    ) -> TermData | None:  # fmt: skip
        """The kept data brought to ``token`` by the source's own changes (``Patching``)."""
        term_changes = getattr(source, "term_changes", None)
        if found is None or token is None or not callable(term_changes):
            return None
        changes = term_changes(term, found[0], token)
        return None if changes is None else found[1].patched(changes, self.lengths)

    def _unpacked(self, source: object, term: str) -> TermData | None:
        """The term read from its pack (``Packed``), the slots changed since read again;
        None when the source has no usable pack of it (or of the lengths)."""
        if not self._tracked or not callable(getattr(source, "packed", None)):
            return None
        packs = cast(Packed, source)
        if not self._all_lengths and not self._unpack_lengths(packs):
            return None
        found = packs.packed(term)
        if found is None:
            return None
        blob, changed = found
        try:
            data = TermData.unpacked(blob)
        except ValueError:
            return None
        if not changed:
            return data
        now = {slot: (tf, length) for slot, tf, length in packs.postings_at(term, changed)}
        return data.patched([(slot, *now.get(slot, (None, 0.0))) for slot in changed],
                            self.lengths)  # fmt: skip

    def _unpack_lengths(self, packs: Packed) -> bool:
        """``lengths`` made whole from the lengths pack (``Packed``); False when none."""
        found = packs.packed("")
        if found is None or len(found[0]) % 8:
            return False
        lengths = array("d", found[0]).tolist()
        grow_lengths(lengths, len(self.lengths))  # slots read since are re-read below, or equal
        self.lengths[:] = lengths
        self._set_lengths(packs.lengths_at(found[1]) if found[1] else [])
        self._all_lengths = True
        return True

    def _set_lengths(self, rows: Iterable[tuple[int, float]]) -> None:
        lengths = self.lengths
        for slot, length in rows:
            if slot >= len(lengths):
                grow_lengths(lengths, slot + 1)
            lengths[slot] = length


def _token(source: object, term: str, version: object) -> object | None:
    """A term's kept-data token (``Versioned``): ``ABSENT`` for a term the source does not
    hold, None for a source that versions nothing (nothing kept)."""
    if version is UNREAD:
        read = getattr(source, "term_version", None)
        if not callable(read):
            return None
        version = read(term)
    return ABSENT if version is None else version


def prepared(row: Row) -> Prepared:
    """A source's row as ranking reads it (its static signals computed, as ``signals``
    computes them of the entry): once per row read, kept with it. The few distinct
    (importance, evidence, category, quality) of a memory's rows are computed once each."""
    slot, node, key, priority, degree, family, quality, importance, evidence, category = row
    static = _static(importance, evidence, category, quality)
    return slot, node, degree, family, (priority, key), static


@functools.lru_cache(maxsize=4096)
def _static(importance: str, evidence: str, category: str, quality: float) -> tuple[float, float]:
    """A row's static signals from the fields they come from (``prepared``)."""
    return signals.bonus_of(importance, evidence, category), signals.quality_factor(quality)


_WARM: weakref.WeakKeyDictionary[object, Warm] = weakref.WeakKeyDictionary()


def warm_of(source: object) -> Warm:
    """The source's kept state, caught up (one per versioned source; else a new one)."""
    if callable(getattr(source, "term_version", None)):
        warm = _WARM.get(source)
        if warm is None:
            warm = _WARM[source] = Warm()
    else:
        warm = Warm()
    warm.catch_up(source)
    return warm
