"""Exact top-k of BM25F matches without scoring every posting: the warm path of a query.

Invariant: for the same index, groups and weights, ``Plan`` answers exactly what the
exhaustive path answers (``Scoring.score_slots``, ``rank.merge``, the exclusion of
``pipeline._exclude``, then ``rank.top``): the same slots, the same float scores
(each computed with the same operations in the same order as ``index.term_scores``,
``Scoring._group_scores`` and ``rank.merge``), ties in the exhaustive order (first
group holding the slot, first term of that group holding it, then the term's
posting order) and ``count`` the number of matches left after exclusion. A
``TermData`` depends only on one term's postings, never on N, df or the average
length, so it stays valid until that term's postings change.

Why (measured at 100,000 entries, store_bench's Zipf corpus, warm process): a
2-3 word query of head words scores 30,000-120,000 postings; in Python that is
65 ms in memory and 130 ms over SQLite (fetching the rows is half of it). Scoring in
SQL still visits every posting (the SQLite VM is not much faster than a dict
comprehension, and its SUM order would change float ties). MaxScore/WAND visit a
posting at a time, which in Python costs more than the term-at-a-time pass unless
most postings are skipped, and with head words of similar IDF and a pool of 400
they are not. So the pruning is set-at-a-time, in C: each term keeps its postings
as a bitmap (a Python ``int``) split into impact tiers, each tier with the exact
maximum of its score for the current N and average length (its (tf, shortest length)
pairs: BM25 rises with tf and falls with length, and IEEE rounding is monotone).
A depth-first walk over the groups' tiers ANDs bitmaps and skips every cell whose
bound cannot reach the k-th best score found so far (a relative margin covers the
bound's different summation order); only the docs of the remaining cells are
scored, one by one. Groups with few postings are scored whole first. Counting
matches is a popcount of the OR of the bitmaps.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import TypeAlias

#: A group whose terms hold at most this many postings is scored whole (no bitmap walk).
SMALL = 4096
#: Tier cuts, as fractions of a term's postings sorted by impact (best first).
_CUTS = (0.005, 0.02, 0.08, 0.25)
#: Below this many postings a term is one tier.
_TIERED = 256
#: A bound this close to the k-th score is not pruned (summation order may differ).
_MARGIN = 1e-9
#: Where the weighted length of each slot is kept (a list by slot, or a dict).
Lengths: TypeAlias = "list[float] | dict[int, float]"


def bits_of(slots: Iterable[int]) -> int:
    """The bitmap (bit ``s`` set for each slot ``s``) of non-negative slots."""
    wanted = list(slots)
    if not wanted:
        return 0
    buf = bytearray(b"0") * (max(wanted) + 1)
    for slot in wanted:
        buf[slot] = 49
    buf.reverse()
    return int(buf, 2)


def slots_of(bits: int) -> list[int]:
    """The set bits of a bitmap, ascending (C scans for the non-zero bytes)."""
    if not bits:
        return []
    data = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
    out: list[int] = []
    for found in _NONZERO.finditer(data):
        at = found.start()
        base = at * 8
        out.extend(base + bit for bit in _BYTE_BITS[data[at]])
    return out


_NONZERO = re.compile(rb"[^\x00]")
_BYTE_BITS = [tuple(bit for bit in range(8) if value >> bit & 1) for value in range(256)]


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
            _grow(lengths, max(slots, default=-1) + 1)
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
                _grow(lengths, slot + 1)
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

    def slots(self) -> Iterable[int]:
        return self._tf.keys() if self._tf is not None else slots_of(self.bits)

    def position(self, slot: int) -> int:
        """Where ``slot`` comes in the term's postings (their order, not sorted)."""
        return slot if self.order is None else self.order[slot]


def _grow(lengths: list[float], size: int) -> None:
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


#: One term of a prepared group: (data, BM25 constant c, factor or None, counts as a match).
_Term = tuple[TermData, float, "float | None", bool]
#: A term of a group that holds postings, as scoring reads it: (its ``tf`` lookup, c,
#: factor or None, is the group's first term, counts as a match). A term without
#: postings holds no slot, so leaving it out changes no score, membership or order.
_Live = tuple[Callable[[int], "float | None"], float, "float | None", bool, bool]


class Plan:
    """The matches of one query over term data (see the module docstring)."""

    def __init__(
        self,
        groups: Sequence[Sequence[tuple[TermData, float, float | None]]],
        base: float,
        per_len: float,
        lengths: Lengths,
    ) -> None:
        self._base, self._per_len, self._lengths = base, per_len, lengths
        self._groups: list[list[_Term]] = []
        for group in groups:
            terms: list[_Term] = []
            for i, (data, c, factor) in enumerate(group):
                counts = i == 0 or (factor if factor is not None else 1.0) > 0.0
                terms.append((data, c, factor, counts))
            self._groups.append(terms)
        self._live: list[list[_Live]] = [
            [(data.lookup(), c, factor, i == 0, ok)
             for i, (data, c, factor, ok) in enumerate(terms) if data.df]
            for terms in self._groups
        ]  # fmt: skip
        self._union = [_or(d.bits for d, _c, _f, ok in g if ok) for g in self._groups]
        self.excluded: set[int] = set()
        self.count = _or(self._union).bit_count()

    # -- membership and scores ---------------------------------------------------
    def holds(self, slot: int) -> bool:
        return any(self._in_group(terms, slot) for terms in self._live)

    def exclude(self, slot: int) -> None:
        """Leave a matching slot out of the answer (and the count)."""
        if slot not in self.excluded and self.holds(slot):
            self.excluded.add(slot)
            self.count -= 1

    @staticmethod
    def _in_group(terms: list[_Live], slot: int) -> bool:
        return any(ok and tf_of(slot) is not None for tf_of, _c, _f, _first, ok in terms)

    def group_score(self, g: int, slot: int) -> float | None:
        """``Scoring._group_scores`` for one slot: None when the group does not hold it."""
        length = self._lengths[slot]
        base, per_len = self._base, self._per_len
        best: float | None = None
        for tf_of, c, factor, first, _ok in self._live[g]:
            tf = tf_of(slot)
            if tf is None:
                continue
            value = c * tf / (tf + base + per_len * length)
            if first:
                best = value * factor if factor is not None else value
                continue
            value *= factor if factor is not None else 1.0
            if value > (0.0 if best is None else best):
                best = value
        return best

    def score(self, slot: int) -> float:
        """``rank.merge`` of the group scores: summed in group order."""
        total: float | None = None
        for g in range(len(self._groups)):
            value = self.group_score(g, slot)
            if value is not None:
                total = value if total is None else total + value
        return 0.0 if total is None else total

    def parts(self) -> list[Mapping[int, float]]:
        """One lazy ``{slot: score}`` per group (``Scoring.score_slots``, for graph spreading)."""
        return [_Part(self, g) for g in range(len(self._groups))]

    # -- the top ------------------------------------------------------------------
    def top(self, limit: int) -> tuple[list[int], dict[int, float]]:
        """The ``limit`` best slots in the exhaustive order, and their scores."""
        scored: dict[int, float] = {}
        heap: list[float] = []
        small = [g for g, u in enumerate(self._union) if self._is_small(g)]
        mask = 0
        for g in small:
            for data, _c, _f, ok in self._groups[g]:
                if ok:
                    for slot in data.slots():
                        if slot not in scored and slot not in self.excluded:
                            self._take(slot, scored, heap, limit)
            mask |= self._union[g]
        mask |= bits_of(self.excluded)
        large = [g for g in range(len(self._groups)) if g not in small]
        if large:
            self._walk(large, scored, heap, limit, mask)
        return self._ordered(scored, heap, limit)

    def _is_small(self, g: int) -> bool:
        return sum(d.df for d, _c, _f, ok in self._groups[g] if ok) <= SMALL

    def _take(self, slot: int, scored: dict[int, float], heap: list[float], limit: int) -> None:
        value = scored[slot] = self.score(slot)
        if len(heap) < limit:
            heapq.heappush(heap, value)
        elif value > heap[0]:
            heapq.heapreplace(heap, value)

    def _walk(self, large: list[int], scored: dict[int, float], heap: list[float],
              limit: int, mask: int) -> None:  # fmt: skip
        options = [self._options(g) for g in large]
        options.sort(key=lambda opts: -opts[0][1] if opts else 0.0)
        rest = [0.0] * (len(options) + 1)
        for d in range(len(options) - 1, -1, -1):
            rest[d] = rest[d + 1] + (options[d][0][1] if options[d] else 0.0)
        alls = [_or(bits for bits, _b in opts) for opts in options]
        leaves: list[tuple[float, int]] = []

        def cells(bits: int, depth: int, bound: float) -> None:
            if not bits:
                return
            if depth == len(options):
                leaves.append((bound, bits))
                return
            for cell, cell_bound in options[depth]:
                cells(bits & cell, depth + 1, bound + cell_bound)
            cells(bits & ~alls[depth], depth + 1, bound)

        cells(_or(alls) & ~mask, 0, 0.0)
        leaves.sort(key=lambda leaf: -leaf[0])
        for bound, bits in leaves:  # best bound first: the k-th score rises fastest
            if len(heap) >= limit and bound * (1.0 + _MARGIN) < heap[0]:
                return
            for slot in slots_of(bits):
                self._take(slot, scored, heap, limit)

    def _options(self, g: int) -> list[tuple[int, float]]:
        """Disjoint cells of one group, best bound first: each (term, tier) minus better ones."""
        base, per_len = self._base, self._per_len
        pieces: list[tuple[float, int]] = []
        for data, c, factor, ok in self._groups[g]:
            if not ok:
                continue
            scale = factor if factor is not None else 1.0
            for bits, pairs in data.tiers:
                top = max(c * tf / (tf + base + per_len * length) for tf, length in pairs)
                pieces.append((top * scale, bits))
        pieces.sort(key=lambda piece: -piece[0])
        cells: list[tuple[int, float]] = []
        seen = 0
        for bound, bits in pieces:
            cell = bits & ~seen
            seen |= bits
            if cell:
                cells.append((cell, bound))
        return cells

    def _ordered(
        self, scored: dict[int, float], heap: list[float], limit: int
    ) -> tuple[list[int], dict[int, float]]:
        if len(scored) > limit:
            floor = heap[0]
            chosen = [slot for slot, value in scored.items() if value >= floor]
        else:
            chosen = list(scored)
        chosen.sort(key=lambda slot: (-scored[slot], self._position(slot)))
        best = chosen[:limit]
        return best, {slot: scored[slot] for slot in best}

    def _position(self, slot: int) -> tuple[int, int, int]:
        """Where the exhaustive path's merged dict holds ``slot`` (its tie order)."""
        for g, terms in enumerate(self._groups):
            for i, (data, _c, _f, ok) in enumerate(terms):
                if ok and data.tf(slot) is not None:
                    return g, i, data.position(slot)
        return len(self._groups), 0, slot


class _Part(Mapping[int, float]):
    """One group's ``{slot: score}``, computed per slot on demand."""

    def __init__(self, plan: Plan, g: int) -> None:
        self._plan, self._g = plan, g

    def __contains__(self, slot: object) -> bool:
        return isinstance(slot, int) and Plan._in_group(self._plan._live[self._g], slot)

    def __getitem__(self, slot: int) -> float:
        value = self._plan.group_score(self._g, slot)
        if value is None:
            raise KeyError(slot)
        return value

    def __iter__(self) -> Iterator[int]:
        return iter(slots_of(self._plan._union[self._g]))

    def __len__(self) -> int:
        return self._plan._union[self._g].bit_count()


def _or(values: Iterable[int]) -> int:
    out = 0
    for value in values:
        out |= value
    return out
