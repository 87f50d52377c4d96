"""``search.levels``: slots by how many groups hold them, and the best sums a count allows
(property tests against counting one slot at a time)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.search.levels import best_sums, levels
from toon_memory.search.term_data import bits_of, slots_of

_slots = st.sets(st.integers(0, 200), max_size=40)


@given(groups=st.lists(_slots, max_size=7), within=_slots)
def test_levels_are_the_slots_in_exactly_c_groups(groups: list[set[int]], within: set[int]) -> None:
    found = list(levels([bits_of(g) for g in groups], bits_of(within)))
    counts = {slot: sum(slot in g for g in groups) for slot in within}
    wanted = {c: sorted(s for s, n in counts.items() if n == c) for c in set(counts.values()) if c}
    assert [c for c, _bits in found] == sorted(wanted, reverse=True)  # most first, none empty
    assert {c: slots_of(bits) for c, bits in found} == wanted


@given(bounds=st.lists(st.floats(-2.0, 5.0), max_size=6))
def test_best_sums_are_the_largest_sums_of_j_bounds(bounds: list[float]) -> None:
    sums = best_sums(bounds)
    assert len(sums) == len(bounds) + 1
    for d, row in enumerate(sums):
        rest = [max(b, 0.0) for b in bounds[d:]]
        assert len(row) == len(rest) + 1
        for j, value in enumerate(row):
            best = max((sum(pick) for pick in combinations(rest, j)), default=0.0)
            assert abs(value - best) <= 1e-9 * max(1.0, abs(best))
