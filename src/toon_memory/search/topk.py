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
matches is a popcount of the OR of the bitmaps. A filter known by slots (``restrict``:
the active entries of one category) is one more bitmap ANDed into the count, the
small groups and the walk, so the answer is the exhaustive one with the slots outside
it dropped before ``rank.top``; ``parts`` stay unfiltered, as ``score_slots`` is.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from toon_memory.search import term_data
from toon_memory.search.term_data import Lengths, TermData, bits_of, slots_of

#: A bound this close to the k-th score is not pruned (summation order may differ).
_MARGIN = 1e-9
#: At most this many cells in the walk (the product of the split groups' cell counts).
CELLS = 4096

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
        return self._group_values(g, [slot], [self._per_len * self._lengths[slot]])[0]

    def score(self, slot: int) -> float:
        """``rank.merge`` of the group scores: summed in group order."""
        return self.scores([slot])[0]

    def scores(self, slots: Sequence[int]) -> list[float]:
        """``score`` of many slots at once (the lookups batched, term at a time)."""
        lengths, per_len = self._lengths, self._per_len
        extra = [per_len * lengths[slot] for slot in slots]
        totals: list[float | None] = [None] * len(slots)
        for g in range(len(self._groups)):
            for i, value in enumerate(self._group_values(g, slots, extra)):
                if value is not None:
                    total = totals[i]
                    totals[i] = value if total is None else total + value
        return [0.0 if total is None else total for total in totals]

    def _group_values(self, g: int, slots: Sequence[int], extra: list[float]) -> list[float | None]:
        """Group ``g``'s score of each slot (None: not held), with ``extra[i]`` the length
        part of slot i's BM25 denominator; per slot, the operations of
        ``index.term_scores`` and ``Scoring._group_scores`` in their order."""
        base = self._base
        best: list[float | None] = [None] * len(slots)
        for _tf_of, c, factor, first, _ok, data in self._live[g]:
            scale = 1.0 if factor is None else factor
            for i, tf in enumerate(data.tfs(slots)):
                if tf is None:
                    continue
                value = c * tf / (tf + base + extra[i]) * scale
                held = best[i]
                if first or value > (0.0 if held is None else held):
                    best[i] = value
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

    def _take(self, slots: list[int], scored: dict[int, float], heap: list[float],
              limit: int) -> None:  # fmt: skip
        for slot, value in zip(slots, self.scores(slots), strict=True):
            scored[slot] = value
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
        split = _split_depth(options)
        leaves: list[tuple[float, int]] = []

        def cells(bits: int, depth: int, bound: float) -> None:
            if not bits:
                return
            if depth == split:
                leaves.append((bound + rest[depth], bits))
                return
            for cell, cell_bound in options[depth]:
                cells(bits & cell, depth + 1, bound + cell_bound)
            cells(bits & ~alls[depth], depth + 1, bound)

        cells(_or(alls) & self._within & ~mask, 0, 0.0)
        leaves.sort(key=lambda leaf: -leaf[0])
        for bound, bits in leaves:  # best bound first: the k-th score rises fastest
            if len(heap) >= limit and bound * (1.0 + _MARGIN) < heap[0]:
                return
            self._take(slots_of(bits), scored, heap, limit)

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


def _split_depth(options: Sequence[Sequence[tuple[int, float]]]) -> int:
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
