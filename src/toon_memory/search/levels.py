"""The slots of a query by how many of its groups hold them, and what that count allows.

Invariant: ``levels`` splits the slots of ``within`` held by at least one of the groups'
bitmaps into disjoint bitmaps, one per count ``c`` (the slots in exactly ``c`` of the
groups), most first, none empty; ``best_sums(bounds)[d][j]`` is the largest sum of ``j``
of the bounds from ``d`` on (a bound below 0 counted as 0), so a slot in exactly ``j``
of those groups scores at most that. Both are what ``search.topk``'s walk bounds a cell
by: a query of many words no longer adds the best of every group to every cell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def levels(groups: Sequence[int], within: int) -> Iterator[tuple[int, int]]:
    """(c, the slots of ``within`` in exactly ``c`` of the bitmaps ``groups``), ``c`` from
    the most down to 1, the empty levels left out: counted in C, a bitmap per count."""
    at_least = [within] + [0] * len(groups)  # [j]: the slots in at least j of the groups
    for i, bits in enumerate(groups, start=1):
        for j in range(i, 0, -1):
            at_least[j] |= at_least[j - 1] & bits
    for c in range(len(groups), 0, -1):
        level = at_least[c] & ~at_least[c + 1] if c < len(groups) else at_least[c]
        if level:
            yield c, level


def best_sums(bounds: Sequence[float]) -> list[list[float]]:
    """``[d][j]``: the sum of the ``j`` largest of ``bounds[d:]`` (each at least 0), for
    ``j`` from 0 to ``len(bounds) - d``."""
    tops = [max(bound, 0.0) for bound in bounds]
    sums = []
    for d in range(len(tops) + 1):
        ranked = sorted(tops[d:], reverse=True)
        sums.append([sum(ranked[:j]) for j in range(len(ranked) + 1)])
    return sums
