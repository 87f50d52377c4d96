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
A best-first walk over the groups' tiers ANDs bitmaps and never splits a cell whose
bound cannot reach the k-th best score found so far (a relative margin covers the
bound's different summation order); only the docs of the remaining cells are
scored, small cells together, term at a time over the terms that hold them. The walk
goes level by level, the slots in the most groups first: a slot in exactly ``c`` of the
groups scores at most the sum of the ``c`` best bounds of the groups it may be in, so a
query of many words (an entry's text, for ``remember``'s near search) no longer bounds
every cell by the best of every group it was not split by (measured at 100,000 entries:
10 words 117 → 28 ms, 25 words 327 → 127 ms). Groups
with few postings are scored whole first. Counting
matches is a popcount of the OR of the bitmaps. A filter known by slots (``restrict``:
the active entries of one category) is one more bitmap ANDed into the count, the
small groups and the walk, so the answer is the exhaustive one with the slots outside
it dropped before ``rank.top``; ``parts`` stay unfiltered, as ``score_slots`` is.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from toon_memory.search import term_data
from toon_memory.search.levels import best_sums, levels
from toon_memory.search.term_data import Lengths, TermData, bits_of, slots_of

#: A bound this close to the k-th score is not pruned (summation order may differ).
_MARGIN = 1e-9
#: At most this many cells in the walk (the product of the split groups' cell counts).
CELLS = 4096
#: Leaves of the walk are scored together until they hold this many slots: a leaf costs
#: a pass over the bitmap and a lookup per term whatever its size, and most are small.
BATCH = 256
#: A cell of the walk with at most this many slots is scored, not split: splitting ANDs it
#: with each of the next group's cells, each AND a pass over a bitmap as long as the index
#: (measured at 100,000 entries: a remember's near search 7.9 -> 5.3 ms, ~4% more scored).
FEW = 64

#: One term of a prepared group: (data, BM25 constant c, factor or None, counts as a match).
_Term = tuple[TermData, float, "float | None", bool]
#: A term of a group that holds postings, as scoring reads it: (its ``tf`` lookup, c,
#: factor or None, is the group's first term, counts as a match, its data). A term
#: without postings holds no slot, so leaving it out changes no score, membership or order.
_Live = tuple[Callable[[int], "float | None"], float, "float | None", bool, bool, TermData]


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
            [(data.lookup(), c, factor, i == 0, ok, data)
             for i, (data, c, factor, ok) in enumerate(terms) if data.df]
            for terms in self._groups
        ]  # fmt: skip
        self._union = [_or(d.bits for d, _c, _f, ok in g if ok) for g in self._groups]
        self.excluded: set[int] = set()
        self.count = _or(self._union).bit_count()
        #: The slots that may match (``restrict``); -1: every slot (all bits set).
        self._within = -1

    def restrict(self, within: int) -> None:
        """Only the slots set in the bitmap ``within`` match (the top and the count)."""
        self._within &= within
        self.excluded = {slot for slot in self.excluded if self._within >> slot & 1}
        self.count = (_or(self._union) & self._within).bit_count() - len(self.excluded)

    # -- membership and scores ---------------------------------------------------
    def holds(self, slot: int) -> bool:
        return bool(self._within >> slot & 1) and any(
            self._in_group(terms, slot) for terms in self._live
        )

    def exclude(self, slot: int) -> None:
        """Leave a matching slot out of the answer (and the count)."""
        if slot not in self.excluded and self.holds(slot):
            self.excluded.add(slot)
            self.count -= 1

    @staticmethod
    def _in_group(terms: list[_Live], slot: int) -> bool:
        return any(ok and tf_of(slot) is not None for tf_of, _c, _f, _first, ok, _d in terms)

    def group_score(self, g: int, slot: int) -> float | None:
        """``Scoring._group_scores`` for one slot: None when the group does not hold it."""
        values = self._group_values(g, [slot], [self._per_len * self._lengths[slot]])
        return None if values is None else values[0]

    def score(self, slot: int) -> float:
        """``rank.merge`` of the group scores: summed in group order."""
        return self.scores([slot])[0]

    def scores(
        self, slots: Sequence[int], groups: Iterable[int] | None = None, bits: int = -1
    ) -> list[float]:
        """``score`` of many slots at once (the lookups batched, term at a time). A caller
        that knows them passes the ``groups`` that may hold any of the slots (in order)
        and the slots' bitmap ``bits``: a term holding none of them is skipped, which
        leaves every sum as it was (an absent group or term adds nothing)."""
        lengths, per_len = self._lengths, self._per_len
        extra = [per_len * lengths[slot] for slot in slots]
        totals: list[float | None] | None = None
        for g in range(len(self._groups)) if groups is None else groups:
            values = self._group_values(g, slots, extra, bits)
            if values is None:
                continue
            if totals is None:
                totals = values
            else:  # per slot: the value alone, or the sum so far plus it (rank.merge)
                totals = [v if t is None else t if v is None else t + v
                          for t, v in zip(totals, values, strict=True)]  # fmt: skip
        if totals is None:
            return [0.0] * len(slots)
        return [0.0 if total is None else total for total in totals]

    def _group_values(
        self, g: int, slots: Sequence[int], extra: list[float], bits: int = -1
    ) -> list[float | None] | None:
        """Group ``g``'s score of each slot (None: not held; None for all: no term holds
        any), with ``extra[i]`` the length part of slot i's BM25 denominator and ``bits``
        a bitmap holding every slot; per slot, the operations of ``index.term_scores``
        and ``Scoring._group_scores`` in their order (a factor of None: no product, as
        there; a term after the first takes a slot whose value it beats, or whose value
        is unset when its own is above 0)."""
        base = self._base
        best: list[float | None] | None = None
        for _tf_of, c, factor, first, _ok, data in self._live[g]:
            if not data.bits & bits:
                continue  # a term holding none of the slots changes no value
            tfs = data.tfs(slots)
            if factor is None:
                values = [None if tf is None else c * tf / (tf + base + e)
                          for tf, e in zip(tfs, extra, strict=True)]  # fmt: skip
            else:
                values = [None if tf is None else c * tf / (tf + base + e) * factor
                          for tf, e in zip(tfs, extra, strict=True)]  # fmt: skip
            if first:
                best = values
            else:
                held = best or [None] * len(slots)
                best = [h if v is None or not v > (0.0 if h is None else h) else v
                        for h, v in zip(held, values, strict=True)]  # fmt: skip
        return best

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
            fresh: dict[int, None] = {}
            for data, _c, _f, ok in self._groups[g]:
                if ok:
                    for slot in data.slots():
                        if slot not in scored and slot not in self.excluded:
                            fresh[slot] = None
            if self._within != -1:
                inside = set(slots_of(self._union[g] & self._within))
                fresh = {slot: None for slot in fresh if slot in inside}
            self._take(list(fresh), scored, heap, limit)
            mask |= self._union[g]
        mask |= bits_of(self.excluded)
        large = [g for g in range(len(self._groups)) if g not in small]
        if large:
            self._walk(large, scored, heap, limit, mask)
        return self._ordered(scored, heap, limit)

    def _is_small(self, g: int) -> bool:
        return sum(d.df for d, _c, _f, ok in self._groups[g] if ok) <= term_data.SMALL

    def _take(self, slots: list[int], scored: dict[int, float], heap: list[float], limit: int,
              groups: Iterable[int] | None = None, bits: int = -1) -> None:  # fmt: skip
        """Score ``slots`` (``scores``) into ``scored``; ``heap`` keeps the ``limit`` best."""
        values = self.scores(slots, groups, bits)
        scored.update(zip(slots, values, strict=True))
        room = max(0, limit - len(heap))
        if room:
            heap += values[:room]
            heapq.heapify(heap)
        if len(values) > room:
            floor = heap[0]
            for value in values[room:]:
                if value > floor:
                    heapq.heapreplace(heap, value)
                    floor = heap[0]

    def _walk(self, large: list[int], scored: dict[int, float], heap: list[float],
              limit: int, mask: int) -> None:  # fmt: skip
        """Best first over the cells of the large groups' tiers, one level at a time: the
        slots in exactly ``c`` of the groups, most first (``search.levels``). A cell's bound is
        the sum of its split groups' bounds plus the ``c - k`` best bounds of the groups
        not split yet (``k``: how many split groups the cell is in), so no score in it is
        above it; a level whose best bound cannot reach the k-th best score found ends the
        walk; a cell is split (ANDed with the next group's tiers) only while its bound can
        reach it, and a leaf (split as deep as ``CELLS`` allows, or of at most ``FEW``
        slots) is scored, small ones together (``_Batch``)."""
        options = [self._options(g) for g in large]
        options.sort(key=lambda opts: -opts[0][1] if opts else 0.0)
        best = best_sums([opts[0][1] if opts else 0.0 for opts in options])
        alls = [_or(bits for bits, _b, _h in opts) for opts in options]
        split, order = _split_depth(options), itertools.count()
        batch = _Batch(lambda bits: self._take(slots_of(bits), scored, heap, limit, large, bits))

        def below(bound: float) -> bool:
            return len(heap) >= limit and bound * (1.0 + _MARGIN) < heap[0]

        def reach(depth: int, count: int) -> float:
            return best[depth][max(0, min(count, len(best[depth]) - 1))]

        for c, level in levels(alls, _or(alls) & self._within & ~mask):
            if below(best[0][c]) and (not batch.flush() or below(best[0][c])):
                break  # (what was put off is scored first: the k-th score may rise)
            frontier = [(-best[0][c], next(order), 0, 0, 0.0, level)]
            while frontier:
                key, _n, depth, k, bound, bits = heapq.heappop(frontier)
                if below(-key) and (not batch.flush() or below(-key)):
                    break
                count = -1 if depth == split else bits.bit_count()
                if count <= FEW:  # a leaf (-1: as deep as it goes, its count not known yet)
                    batch.add(bits, count)
                    continue
                for cell, cell_bound, held in (*options[depth], (~alls[depth], 0.0, 0)):
                    sub = bits & cell
                    if sub:
                        below_it = bound + cell_bound
                        rest = reach(depth + 1, c - k - held)
                        heapq.heappush(frontier, (-(below_it + rest), next(order), depth + 1,
                                                  k + held, below_it, sub))  # fmt: skip
        batch.flush()

    def _options(self, g: int) -> list[tuple[int, float, int]]:
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
        cells: list[tuple[int, float, int]] = []
        seen = 0
        for bound, bits in pieces:
            cell = bits & ~seen
            seen |= bits
            if cell:
                cells.append((cell, bound, 1))  # (1: a slot in it is in the group)
        return cells

    def _ordered(
        self, scored: dict[int, float], heap: list[float], limit: int
    ) -> tuple[list[int], dict[int, float]]:
        """The ``limit`` best, by score, equal scores in the exhaustive order: the slots
        that can be in it (a run of ties across the limit included) put in that order
        first, then sorted by score (stable: ties keep it)."""
        if len(scored) > limit:
            floor = heap[0]
            chosen = [slot for slot, value in scored.items() if value >= floor]
        else:
            chosen = list(scored)
        if len(chosen) > 1:
            chosen.sort(key=self._positions(chosen).__getitem__)
        chosen.sort(key=scored.__getitem__, reverse=True)
        best = chosen[:limit]
        return best, {slot: scored[slot] for slot in best}

    def _positions(self, slots: list[int]) -> dict[int, tuple[int, int, int]]:
        """Where the exhaustive path's merged dict holds each slot (its tie order): the
        first group holding it, that group's first term holding it, the term's posting
        order (the lookups batched, term at a time)."""
        found: dict[int, tuple[int, int, int]] = {}
        pending = slots
        for g, terms in enumerate(self._groups):
            for i, (data, _c, _f, ok) in enumerate(terms):
                if not ok or not pending:
                    continue
                missing = []
                where = data.position
                for slot, tf in zip(pending, data.tfs(pending), strict=True):
                    if tf is None:
                        missing.append(slot)
                    else:
                        found[slot] = (g, i, where(slot))
                pending = missing
        found.update({slot: (len(self._groups), 0, slot) for slot in pending})
        return found


class _Batch:
    """Leaves of the walk put off to be scored together, up to ``BATCH`` slots: a leaf
    costs a pass over its bitmap and a lookup per term whatever its size, and most
    are small; scoring a leaf that might have been pruned changes no answer."""

    def __init__(self, score: Callable[[int], None]) -> None:
        self._score = score
        self._bits, self._size = 0, 0

    def add(self, bits: int, count: int = -1) -> None:
        """Put off a leaf (``count``: its slots, when known; -1: counted here)."""
        self._bits |= bits
        self._size += bits.bit_count() if count < 0 else count
        if self._size >= BATCH:
            self.flush()

    def flush(self) -> bool:
        """Score what was put off; False when nothing was."""
        if not self._bits:
            return False
        bits, self._bits, self._size = self._bits, 0, 0
        self._score(bits)
        return True


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


def _split_depth(options: Sequence[Sequence[tuple[int, float, int]]]) -> int:
    """How many groups (best bound first) the walk splits into cells: as many as keep the
    cells under ``CELLS``; each group past them adds its best bound to every leaf, so
    no bound is ever below a score (a query of many words is scored, never walked to
    death: 12 head words made 2.4 million cells)."""
    product, depth = 1, 0
    for opts in options:
        product *= len(opts) + 1
        if product > CELLS:
            break
        depth += 1
    return max(depth, 1) if options else 0


def _or(values: Iterable[int]) -> int:
    out = 0
    for value in values:
        out |= value
    return out
