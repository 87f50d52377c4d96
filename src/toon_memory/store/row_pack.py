"""Every slot's ranking row (``index_reads.Row``) in one blob of columns: the rows pack of
the on-disk index (``index_packs``), read whole by a long-lived process.

Invariant: ``RowColumns.unpacked(pack_rows(rows)).rows_at(slots)`` answers what
``IndexReads.rows_at(slots)`` answered over the rows packed (the same tuples, unknown
slots left out); ``unpacked`` checks the sizes, a CRC-32 of the bytes, the vocabulary
and the codes, and refuses (``ValueError``) what ``pack_rows`` did not write, so a
damaged pack is read as no pack. A field with more than 255 distinct values (a hand-edited
file's free text) makes no pack (``pack_rows`` returns None): its rows are read one by one,
as without it.

Why: a first-time query at 100,000 entries read its ~400 candidates' rows one B-tree
lookup each (~1.4 ms with decoding); from columns kept in memory they cost ~0.5 ms,
for ~4.5 MB held per 100,000 rows (ids and keys as UTF-8 with offsets, numbers in arrays,
the four short text fields as one-byte codes).
"""

from __future__ import annotations

import json
import struct
from array import array
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any
from zlib import crc32

from toon_memory.store.index_reads import Row

_MAGIC = b"RP2\x00"
#: magic, slots, id bytes, key bytes, vocabulary bytes, CRC-32 of what follows; then the
#: vocabulary (JSON), the id offsets (``I``), ids, the key offsets, keys, priority and
#: degree (``i``, by slot), quality (``d``), the four code columns (a byte per slot).
_HEAD = struct.Struct("<4sqqqqI")
#: The text fields kept as one-byte codes (a ``Row``'s 6th, 8th, 9th and 10th).
_CODED = ("family", "importance", "evidence", "category")
_CODES = bytes(range(256))
#: Bytes per offset (``I``) and per priority or degree (``i``): 4 on every platform we run on.
_OFFSET, _NUMBER = array("I").itemsize, array("i").itemsize


def pack_rows(rows: Iterable[Row]) -> bytes | None:
    """The pack of these rows, in ascending slot order (an index's scan), or None when one
    cannot say exactly what they say: a coded field with more than 255 distinct values, an
    empty id (an empty slot is packed as one), a number past 32 bits (a hand edit), text
    past 4 GB, a slot negative, repeated or out of order. Read a row at a time: only the
    columns are held, never the rows (holding them raised a first recall's peak at 100,000
    entries by ~40 MB)."""
    columns = _Columns()
    try:
        if not all(map(columns.add, rows)):
            return None
    except (OverflowError, TypeError):
        return None
    return columns.packed()


class _Columns:
    """``pack_rows``' columns as they fill, a slot at a time."""

    def __init__(self) -> None:
        self.size = 0
        self.ids, self.keys = bytearray(), bytearray()
        self.id_at, self.key_at = array("I", [0]), array("I", [0])
        self.numbers, self.quality = array("i"), array("d")  # priority, degree; quality
        self.codes = [bytearray() for _ in _CODED]
        self.vocab: list[dict[str, int]] = [{} for _ in _CODED]

    def add(self, row: Row) -> bool:
        """Put ``row`` (and an empty slot before it for each slot it skips); False when it
        cannot be packed exactly."""
        slot, ident = row[0], row[1].encode()
        if slot < self.size or not ident:
            return False
        while self.size < slot:
            self._put(b"", b"", 0, 0, 0.0, [0] * len(_CODED))
        codes = []
        for known, text in zip(self.vocab, (row[5], row[7], row[8], row[9]), strict=True):
            codes.append(known.setdefault(text, len(known) + 1))
        if max(codes) > 255:
            return False
        self._put(ident, row[2].encode(), row[3], row[4], row[6], codes)
        return True

    def _put(self, ident: bytes, key: bytes, priority: int, degree: int, quality: float,
             codes: list[int]) -> None:  # fmt: skip
        self.ids += ident
        self.keys += key
        self.id_at.append(len(self.ids))  # (OverflowError past 4 GB, past 32 bits below)
        self.key_at.append(len(self.keys))
        self.numbers.extend((priority, degree))
        self.quality.append(quality)
        for column, code in zip(self.codes, codes, strict=True):
            column.append(code)
        self.size += 1

    def packed(self) -> bytes:
        words = json.dumps(dict(zip(_CODED, map(list, self.vocab), strict=True))).encode()
        body = b"".join([words, self.id_at.tobytes(), self.ids, self.key_at.tobytes(),
                         self.keys, self.numbers.tobytes(), self.quality.tobytes(),
                         *self.codes])  # fmt: skip
        head = _HEAD.pack(_MAGIC, self.size, len(self.ids), len(self.keys), len(words),
                          crc32(body))  # fmt: skip
        return head + body


class RowColumns:
    """The rows of a pack (see the module docstring); read-only."""

    __slots__ = ("_codes", "_id_at", "_ids", "_key_at", "_keys", "_numbers", "_quality",
                 "_words", "size")  # fmt: skip

    def __init__(self) -> None:
        self.size = 0
        self._ids = self._keys = b""
        self._id_at = self._key_at = self._numbers = array("I")
        self._quality = array("d")
        self._words: list[tuple[str, ...]] = []
        self._codes: list[bytes] = []

    @classmethod
    def unpacked(cls, data: bytes) -> RowColumns:
        """The columns ``pack_rows`` wrote; ValueError for anything else."""
        view = memoryview(data)
        if len(view) < _HEAD.size:
            raise ValueError("a rows pack is cut short")
        magic, size, nid, nkey, nwords, crc = _HEAD.unpack(view[: _HEAD.size])
        if magic != _MAGIC or min(size, nid, nkey, nwords) < 0:
            raise ValueError("not a rows pack")
        if crc32(view[_HEAD.size :]) != crc:
            raise ValueError("a rows pack's bytes were changed")
        widths = [nwords, _OFFSET * (size + 1), nid, _OFFSET * (size + 1), nkey,
                  2 * _NUMBER * size, 8 * size,
                  *[size] * len(_CODED)]  # fmt: skip
        if _HEAD.size + sum(widths) != len(view):
            raise ValueError("a rows pack's sizes disagree with its length")
        parts, at = [], _HEAD.size
        for width in widths:
            parts.append(bytes(view[at : at + width]))
            at += width
        new = cls()
        new.size = size
        new._words = _vocabulary(parts[0])
        new._id_at, new._ids = _checked_offsets(parts[1], parts[2]), parts[2]
        new._key_at, new._keys = _checked_offsets(parts[3], parts[4]), parts[4]
        new._numbers, new._quality = array("i", parts[5]), array("d", parts[6])
        new._codes = parts[7:]
        for words, codes in zip(new._words, new._codes, strict=True):
            if codes.translate(None, _CODES[: len(words) + 1]):
                raise ValueError("a rows pack's code is past its vocabulary")
        return new

    def rows_at(self, slots: Sequence[int]) -> list[Row]:
        """``IndexReads.rows_at`` of these slots over the packed rows: a column at a time,
        each column's values picked in C (``itemgetter``)."""
        size, id_at = self.size, self._id_at
        wanted = [slot for slot in slots if 0 <= slot < size and id_at[slot] != id_at[slot + 1]]
        if not wanted:
            return []  # (an empty id is never stored: such a slot holds no document)
        pick, after = _picker(wanted), _picker([slot + 1 for slot in wanted])
        ids, keys, key_at = self._ids, self._keys, self._key_at
        twice = [2 * slot for slot in wanted]
        numbers = self._numbers
        (fam, imp, evi, cat), (fams, imps, evis, cats) = self._codes, self._words
        return list(zip(
            wanted,
            [ids[a:b].decode() for a, b in zip(pick(id_at), after(id_at), strict=True)],
            [keys[a:b].decode() for a, b in zip(pick(key_at), after(key_at), strict=True)],
            _picker(twice)(numbers), _picker([n + 1 for n in twice])(numbers),
            map(fams.__getitem__, pick(fam)), pick(self._quality),
            map(imps.__getitem__, pick(imp)), map(evis.__getitem__, pick(evi)),
            map(cats.__getitem__, pick(cat)), strict=True,
        ))  # fmt: skip


def _picker(at: list[int]) -> Callable[[Sequence[Any]], Sequence[Any]]:
    """The items of a sequence at these places, as a sequence (``itemgetter`` gives a
    single item alone)."""
    if len(at) == 1:
        only = at[0]
        return lambda values: (values[only],)
    return itemgetter(*at)


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


def _checked_offsets(raw: bytes, blob: bytes) -> array[int]:
    """Offsets into ``blob`` from 0 to its end (what lies between, ``pack_rows`` wrote:
    the CRC says so, checked in C, where a check of every offset took ~20 ms at 100,000
    rows)."""
    offsets = array("I", raw)
    if offsets[0] != 0 or offsets[-1] != len(blob):
        raise ValueError("a rows pack's offsets do not span its text")
    return offsets
