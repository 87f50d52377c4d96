"""One term's postings as the pruned top-k reads them: bitmaps in impact tiers.

Invariant: a ``TermData`` depends only on one term's postings (slot, tf, weighted
length), never on N, df or the average length, so it stays valid until that term's
postings change (``patched`` applies a change exactly); its tiers, best first, each
carry the (tf, shortest length) pairs that bound the score of every slot in them. A
bitmap is a Python ``int`` with bit ``s`` set for slot ``s`` (``bits_of``/``slots_of``),
so sets are ANDed, ORed and counted in C. Why bitmaps: ``search.topk``. ``packed``
and ``unpacked`` turn one into bytes and back (a term read from a pack costs C-speed
copies, not a pass over its postings); ``unpacked`` checks every size and count and
refuses (``ValueError``) what ``packed`` could not have written.
"""

from __future__ import annotations

import math
import struct
from array import array
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from operator import itemgetter
from typing import Any, TypeAlias

#: A group whose terms hold at most this many postings is scored whole (no bitmap walk).
#: (4,096 scored every match of a 10,000-entry memory, whose head words hold fewer: a
#: remember's near search 6.5 -> 1.9 ms, a recall 2.5 -> 1.6 ms; no change at 100,000.)
SMALL = 512

#: Tier cuts, as fractions of a term's postings sorted by impact (best first). The low
#: half cut in three: the 400 best of two head words lie mostly in both, whose common
#: slots sit mostly in the low tiers, and a cell of two low tiers bounded by their best
#: had to be scored whole (measured at 100,000 entries, 40 queries of 2-3 head words:
#: slots scored 1,581 -> 726, the top 2.3 -> 1.4 ms; cut finer, the walk costs more).
_CUTS = (0.005, 0.02, 0.08, 0.25, 0.5, 0.75)
#: Below this many postings a term is one tier.
_TIERED = 256
#: Where the weighted length of each slot is kept (a list by slot, or a dict).
Lengths: TypeAlias = "list[float] | dict[int, float]"
#: ``packed``: magic, df, bitmap bytes, tiers, tf values, one-byte tf codes, dict tfs.
_HEAD = struct.Struct("<4sqqIIqq")
_MAGIC = b"TD1\x00"
#: One tier: its bitmap's bytes, its (tf, shortest length) pairs.
_TIER = struct.Struct("<qI")


def bits_of(slots: Iterable[int]) -> int:
    """The bitmap (bit ``s`` set for each slot ``s``) of non-negative slots: few of them
    set a byte each (~0.1 µs a slot), many are written as binary digits (~1 ns a bit of
    the bitmap: a few hundred slots of 100,000 cost 50 µs one way, 200 the other)."""
    wanted = list(slots)
    if not wanted:
        return 0
    top = max(wanted)
    if len(wanted) * 64 < top:
        flags = bytearray((top >> 3) + 1)
        for slot in wanted:
            flags[slot >> 3] |= 1 << (slot & 7)
        return int.from_bytes(flags, "little")
    buf = bytearray(b"0") * (top + 1)
    for slot in wanted:
        buf[slot] = 49
    buf.reverse()
    return int(buf, 2)


def slots_of(bits: int) -> list[int]:
    """The set bits of a bitmap, ascending: its bytes flagged non-zero in C (``translate``),
    each flagged byte found by ``find`` (memchr), so a sparse bitmap costs its set bits."""
    if not bits:
        return []
    data = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
    find = data.translate(_FLAGS).find
    out: list[int] = []
    append = out.append
    at = find(1)
    while at >= 0:
        base = at * 8
        for bit in _BYTE_BITS[data[at]]:
            append(base + bit)
        at = find(1, at + 1)
    return out


#: ``bytes.translate`` table: 1 for a non-zero byte, 0 for zero.
_FLAGS = bytes([0] + [1] * 255)
_BYTE_BITS = [tuple(bit for bit in range(8) if value >> bit & 1) for value in range(256)]
#: Every one-byte tf code, in order (``unpacked`` deletes the valid ones to check the rest).
_CODES = bytes(range(256))


class TermData:
    """One term's postings as the pruned path reads them (see the module docstring).

    ``bits``: every slot; ``tiers``: (bitmap, ((tf, shortest length), ...)) best first;
    ``order``: posting position by slot when the postings are not in slot order. The tf
    of a slot is a dict for a rare term and one byte per slot (an index into the few
    distinct tf values) for a common one. Lengths go to ``lengths`` (shared by slot).
    """

    __slots__ = ("_codes", "_tf", "_values", "bits", "df", "order", "tiers")

    def __init__(
        self, postings: Iterable[tuple[int, float, float]], lengths: Lengths | None
    ) -> None:
        rows = list(postings)
        self.df = len(rows)
        slots = [row[0] for row in rows]
        ordered = all(a < b for a, b in pairwise(slots))
        self.order = None if ordered else {slot: i for i, slot in enumerate(slots)}
        self.bits = bits_of(slots)
        self._tf: dict[int, float] | None = None
        self._codes: bytes = b""
        self._values: tuple[float, ...] = (0.0,)
        values = sorted({row[1] for row in rows})
        if self.df <= SMALL or len(values) > 250:
            self._tf = {slot: tf for slot, tf, _ in rows}
        else:
            code = {tf: i for i, tf in enumerate(values, start=1)}
            codes = bytearray(max(slots) + 1)
            for slot, tf, _ in rows:
                codes[slot] = code[tf]
            self._codes, self._values = bytes(codes), (0.0, *values)
        if isinstance(lengths, list):
            grow_lengths(lengths, max(slots, default=-1) + 1)
        if lengths is not None:
            for slot, _tf, length in rows:
                lengths[slot] = length
        self.tiers = _tiers(rows)

    def tf(self, slot: int) -> float | None:
        if self._tf is not None:
            return self._tf.get(slot)
        codes = self._codes
        code = codes[slot] if slot < len(codes) else 0
        return self._values[code] if code else None

    def tfs(self, slots: Sequence[int]) -> list[float | None]:
        """``tf`` of many slots at once, in their order (the lookups done in C)."""
        if self._tf is not None:
            return list(map(self._tf.get, slots))
        codes, values = self._codes, self._values
        if len(slots) < 2 or max(slots) >= len(codes):
            return [self.tf(slot) for slot in slots]
        return [values[code] if code else None for code in itemgetter(*slots)(codes)]

    def lookup(self) -> Callable[[int], float | None]:
        """``tf`` as one callable (a dict's own ``get`` for a rare term: no Python frame)."""
        if self._tf is not None:
            return self._tf.get
        codes, values, size = self._codes, self._values, len(self._codes)

        def coded(slot: int) -> float | None:
            code = codes[slot] if slot < size else 0
            return values[code] if code else None

        return coded

    def patched(
        self, changes: Iterable[tuple[int, float | None, float]], lengths: Lengths | None
    ) -> TermData | None:
        """A copy after ``changes`` ((slot, tf or None when removed, length), in order), or
        None when the postings are not in slot order. Each tier's bound stays an upper
        bound: a removed slot leaves it as it was, an added one joins the last tier and
        its (tf, length) pair is taken into that tier's bound."""
        if self.order is not None:
            return None
        new = TermData((), None)
        new.bits, new.df, new._values = self.bits, self.df, self._values
        new._tf = None if self._tf is None else dict(self._tf)
        codes, values = bytearray(self._codes), list(self._values)
        marks = [bits for bits, _pairs in self.tiers] or [0]
        bounds = [dict(pairs) for _bits, pairs in self.tiers] or [{}]
        for slot, tf, length in changes:
            mask = 1 << slot
            if new.bits & mask:
                new._unset(slot, codes)
                marks = [bits & ~mask for bits in marks]
            if tf is None:
                continue
            new._set(slot, tf, codes, values)
            marks[-1] |= mask
            bounds[-1][tf] = min(length, bounds[-1].get(tf, math.inf))
            if isinstance(lengths, list):
                grow_lengths(lengths, slot + 1)
            if lengths is not None:
                lengths[slot] = length
        if new._tf is None:
            new._codes, new._values = bytes(codes), tuple(values)
        new.tiers = [(bits, tuple(pairs.items()))
                     for bits, pairs in zip(marks, bounds, strict=True) if pairs]  # fmt: skip
        return new

    def _unset(self, slot: int, codes: bytearray) -> None:
        """``patched``: the posting of ``slot`` removed (``codes``: the one-byte tfs)."""
        self.bits ^= 1 << slot
        self.df -= 1
        if self._tf is not None:
            self._tf.pop(slot, None)
        else:
            codes[slot] = 0

    def _set(self, slot: int, tf: float, codes: bytearray, values: list[float]) -> None:
        """``patched``: a posting of ``slot`` added (one byte per slot while 250 tfs do)."""
        self.bits |= 1 << slot
        self.df += 1
        if self._tf is None and tf not in values and len(values) >= 250:
            self._tf = {s: values[c] for s, c in enumerate(codes) if c}
        if self._tf is not None:
            self._tf[slot] = tf
            return
        if tf not in values:
            values.append(tf)
        codes.extend(bytes(max(0, slot + 1 - len(codes))))
        codes[slot] = values.index(tf)

    def packed(self) -> bytes:
        """These postings as bytes (``unpacked``); ValueError when not in slot order."""
        if self.order is not None:
            raise ValueError("only postings in slot order are packed")
        parts = [b"", _int_bytes(self.bits)]
        for bits, pairs in self.tiers:
            raw = _int_bytes(bits)
            parts += [_TIER.pack(len(raw), len(pairs)), raw,
                      array("d", [v for pair in pairs for v in pair]).tobytes()]  # fmt: skip
        tf = self._tf or {}
        parts += [array("d", self._values).tobytes(), self._codes,
                  array("q", tf.keys()).tobytes(), array("d", tf.values()).tobytes()]  # fmt: skip
        parts[0] = _HEAD.pack(_MAGIC, self.df, len(parts[1]), len(self.tiers),
                              len(self._values), len(self._codes),
                              -1 if self._tf is None else len(tf))  # fmt: skip
        return b"".join(parts)

    @classmethod
    def unpacked(cls, data: bytes) -> TermData:
        """The ``TermData`` that ``packed`` wrote; ValueError for anything else."""
        reader = _Reader(data)
        magic, df, nbits, ntiers, nvalues, ncodes, ntf = reader.struct(_HEAD)
        if magic != _MAGIC or min(df, nbits, nvalues, ncodes) < 0 or nvalues < 1:
            raise ValueError("not a packed term")
        new = cls((), None)
        new.df, new.bits = df, int.from_bytes(reader.take(nbits), "little")
        tiers = []
        for _ in range(ntiers):
            size, npairs = reader.struct(_TIER)
            bits = int.from_bytes(reader.take(size), "little")
            flat = reader.floats(2 * npairs)
            tiers.append((bits, tuple(zip(flat[::2], flat[1::2], strict=True))))
        new.tiers = tiers
        new._values = tuple(reader.floats(nvalues))
        new._codes = reader.take(ncodes)
        new._tf = None
        if ntf >= 0:
            slots = array("q", reader.take(8 * ntf)).tolist()
            new._tf = dict(zip(slots, reader.floats(ntf), strict=True))
        reader.end()
        # (every code below ``nvalues``: what deleting those codes leaves is empty, in C)
        if new.bits.bit_count() != df or new._codes.translate(None, _CODES[:nvalues]) or (
            len(new._tf) != df or min(new._tf, default=0) < 0
            if new._tf is not None else len(new._codes) < new.bits.bit_length()
        ):  # fmt: skip
            raise ValueError("a packed term's counts disagree")
        return new

    def slots(self) -> Iterable[int]:
        return self._tf.keys() if self._tf is not None else slots_of(self.bits)

    def position(self, slot: int) -> int:
        """Where ``slot`` comes in the term's postings (their order, not sorted)."""
        return slot if self.order is None else self.order[slot]


def pack_postings(postings: Iterable[tuple[int, float, float]]) -> bytes:
    """The pack (``TermData.packed``) of one term's postings, in slot order."""
    return TermData(postings, None).packed()


def _int_bytes(bits: int) -> bytes:
    return bits.to_bytes((bits.bit_length() + 7) // 8, "little")


class _Reader:
    """``TermData.unpacked``'s cursor over the bytes: every read checked against the end."""

    def __init__(self, data: bytes) -> None:
        self._data, self._at = memoryview(data), 0

    def take(self, size: int) -> bytes:
        if size < 0 or self._at + size > len(self._data):
            raise ValueError("a packed term is cut short")
        self._at += size
        return bytes(self._data[self._at - size : self._at])

    def struct(self, layout: struct.Struct) -> tuple[Any, ...]:
        return layout.unpack(self.take(layout.size))

    def floats(self, count: int) -> list[float]:
        return array("d", self.take(8 * count)).tolist()

    def end(self) -> None:
        if self._at != len(self._data):
            raise ValueError("a packed term has bytes past its end")


def grow_lengths(lengths: list[float], size: int) -> None:
    """Pad ``lengths`` with zeros to ``size`` slots."""
    if len(lengths) < size:
        lengths.extend([0.0] * (size - len(lengths)))


def _tiers(
    rows: list[tuple[int, float, float]],
) -> list[tuple[int, tuple[tuple[float, float], ...]]]:
    """Impact tiers, best first, cut between distinct (tf, length) pairs: the slots of one
    pair share one score, so each pair is ranked once and lands in one tier whole."""
    if not rows:
        return []
    by_pair: dict[tuple[float, float], list[int]] = {}
    for slot, tf, length in rows:
        found = by_pair.get((tf, length))
        if found is None:
            by_pair[(tf, length)] = [slot]
        else:
            found.append(slot)
    mean = sum(n * len(slots) for (_tf, n), slots in by_pair.items()) / len(rows) or 1.0
    ranked = sorted(by_pair, key=lambda p: -p[0] / (p[0] + 0.3 + 0.9 * p[1] / mean))
    size = len(rows)
    cuts = [*(int(size * c) for c in _CUTS), size] if size >= _TIERED else [size]
    tiers = []
    members: list[int] = []
    shortest: dict[float, float] = {}
    for tf, length in ranked:
        members.extend(by_pair[(tf, length)])
        if length < shortest.get(tf, math.inf):
            shortest[tf] = length
        if len(members) >= cuts[0] or (tf, length) == ranked[-1]:
            tiers.append((bits_of(members), tuple(shortest.items())))
            cuts = [cut - len(members) for cut in cuts if cut - len(members) > 0] or [1]
            members, shortest = [], {}
    return tiers
