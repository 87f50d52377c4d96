"""Every slot's ranking row (``index_reads.Row``) in one blob, a fixed-size record per
slot: the rows pack of the on-disk index (``index_packs``), read whole by a long-lived
process.

Invariant: ``RowColumns.unpacked(pack_rows(rows)).rows_at(slots)`` answers what
``IndexReads.rows_at(slots)`` answered over the rows packed (the same tuples, unknown
slots left out); ``unpacked`` checks the sizes, a CRC-32 of the bytes, the vocabulary
and the codes, and refuses (``ValueError``) what ``pack_rows`` did not write, so a
damaged pack is read as no pack. A field with more than 255 distinct values (a hand-edited
file's free text) makes no pack (``pack_rows`` returns None): its rows are read one by one,
as without it.

Why: a first-time query at 100,000 entries read its ~400 candidates' rows one B-tree
lookup each (~1.4 ms with decoding). Kept in memory as columns (ids, keys, each number and
code in its own array) a row read touched ten places far apart: 369 rows a query took
~0.68 ms, mostly cache misses; as one 32-byte record (offset and lengths of the slot's id
and key in the text, priority, degree, quality, the four codes) and its text beside each
other, ~0.34 ms. ~5 MB held per 100,000 rows.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable, Sequence
from zlib import crc32

from toon_memory.store.index_reads import Row

_MAGIC = b"RP3\x00"
#: magic, slots, text bytes, vocabulary bytes, CRC-32 of what follows; then the
#: vocabulary (JSON), one ``_RECORD`` per slot, and the text (each slot's id then key).
_HEAD = struct.Struct("<4sqqqI")
#: One slot: where its id starts in the text, the id's and the key's lengths (UTF-8
#: bytes), priority, degree, quality, the four text fields' codes (``_CODED``); 32 bytes,
#: so a row read costs two places in memory, not one per column.
_RECORD = struct.Struct("<IHHiid4B4x")
#: The text fields kept as one-byte codes (a ``Row``'s 6th, 8th, 9th and 10th).
_CODED = ("family", "importance", "evidence", "category")
_CODES = bytes(range(256))
#: Where a record's codes start.
_CODES_AT = 24
_EMPTY = _RECORD.pack(0, 0, 0, 0, 0, 0.0, 0, 0, 0, 0)


def pack_rows(rows: Iterable[Row]) -> bytes | None:
    """The pack of these rows, in ascending slot order (an index's scan), or None when one
    cannot say exactly what they say: a coded field with more than 255 distinct values, an
    empty id (an empty slot is packed as one), an id or key past 64 KB, a number past 32
    bits (a hand edit), text past 4 GB, a slot negative, repeated or out of order. Read a
    row at a time: only the records are held, never the rows (holding them raised a first
    recall's peak at 100,000 entries by ~40 MB)."""
    records = _Records()
    try:
        if not all(map(records.add, rows)):
            return None
    except (OverflowError, TypeError, struct.error):
        return None
    return records.packed()


class _Records:
    """``pack_rows``' records as they fill, a slot at a time."""

    def __init__(self) -> None:
        self.size = 0
        self.records, self.text = bytearray(), bytearray()
        self.vocab: list[dict[str, int]] = [{} for _ in _CODED]

    def add(self, row: Row) -> bool:
        """Put ``row`` (and an empty slot before it for each slot it skips); False when it
        cannot be packed exactly."""
        slot, ident, key = row[0], row[1].encode(), row[2].encode()
        if slot < self.size or not ident:
            return False
        self.records += _EMPTY * (slot - self.size)
        codes = []
        for known, text in zip(self.vocab, (row[5], row[7], row[8], row[9]), strict=True):
            codes.append(known.setdefault(text, len(known) + 1))
        if max(codes) > 255 or not isinstance(row[3], int) or not isinstance(row[4], int):
            return False
        self.records += _RECORD.pack(len(self.text), len(ident), len(key), row[3], row[4],
                                     row[6], *codes)  # fmt: skip
        self.text += ident + key
        self.size = slot + 1
        return len(self.text) < 2**32

    def packed(self) -> bytes:
        words = json.dumps(dict(zip(_CODED, map(list, self.vocab), strict=True))).encode()
        body = b"".join([words, self.records, self.text])
        return _HEAD.pack(_MAGIC, self.size, len(self.text), len(words), crc32(body)) + body


class RowColumns:
    """The rows of a pack (see the module docstring); read-only."""

    __slots__ = ("_records", "_text", "_words", "size")

    def __init__(self) -> None:
        self.size = 0
        self._records = self._text = b""
        self._words: list[tuple[str, ...]] = []

    @classmethod
    def unpacked(cls, data: bytes) -> RowColumns:
        """The rows ``pack_rows`` wrote; ValueError for anything else."""
        view = memoryview(data)
        if len(view) < _HEAD.size:
            raise ValueError("a rows pack is cut short")
        magic, size, ntext, nwords, crc = _HEAD.unpack(view[: _HEAD.size])
        if magic != _MAGIC or min(size, ntext, nwords) < 0:
            raise ValueError("not a rows pack")
        if _HEAD.size + nwords + _RECORD.size * size + ntext != len(view):
            raise ValueError("a rows pack's sizes disagree with its length")
        if crc32(view[_HEAD.size :]) != crc:
            raise ValueError("a rows pack's bytes were changed")
        at = _HEAD.size + nwords
        new = cls()
        new.size = size
        new._words = _vocabulary(bytes(view[_HEAD.size : at]))
        new._records = bytes(view[at : at + _RECORD.size * size])
        new._text = bytes(view[at + _RECORD.size * size :])
        for i, words in enumerate(new._words):
            codes = new._records[_CODES_AT + i :: _RECORD.size]
            if codes.translate(None, _CODES[: len(words) + 1]):
                raise ValueError("a rows pack's code is past its vocabulary")
        return new

    def rows_at(self, slots: Sequence[int]) -> list[Row]:
        """``IndexReads.rows_at`` of these slots over the packed rows (unknown and empty
        slots left out), a record each."""
        size, records, text, unpack = self.size, self._records, self._text, _RECORD.unpack_from
        fams, imps, evis, cats = self._words
        width = _RECORD.size
        rows: list[Row] = []
        for slot in slots:
            if 0 <= slot < size:
                at, nid, nkey, priority, degree, quality, fam, imp, evi, cat = unpack(
                    records, slot * width
                )
                if nid:  # (an empty id is never stored: such a slot holds no document)
                    split = at + nid
                    rows.append((slot, text[at:split].decode(), text[split : split + nkey].decode(),
                                 priority, degree, fams[fam], quality, imps[imp], evis[evi],
                                 cats[cat]))  # fmt: skip
        return rows


def _vocabulary(raw: bytes) -> list[tuple[str, ...]]:
    """The coded fields' values, "" first for code 0 (an empty slot)."""
    try:
        found = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError("a rows pack's vocabulary is not JSON") from exc
    if not isinstance(found, dict) or list(found) != list(_CODED):
        raise ValueError("a rows pack's vocabulary names other fields")
    words = [found[name] for name in _CODED]
    if not all(isinstance(w, list) and all(isinstance(v, str) for v in w) for w in words):
        raise ValueError("a rows pack's vocabulary holds a value that is not text")
    return [("", *w) for w in words]
