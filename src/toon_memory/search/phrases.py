"""Term proximity as index terms: near pairs of words, on the document and the query side.

Invariant: ``document_pairs`` and ``query_pairs`` are pure, deterministic
functions; a pair of words written within ``PAIR_WINDOW`` kept words of each
other (stopwords are not counted) in one field of an entry yields the same
pair term as the same two words, in the same order, within ``PAIR_WINDOW``
words of a query. Pair terms contain ``PAIR_SEP``, which no word term can
contain (words are runs of letters and digits), so they never collide with a
word. Pairs of two numbers (the parts of a date or a version) are left out:
the date logic reads those, and a shared ``2026 03`` says little about topic.

The index stores pairs in a field that does not count toward the document
length (``corpus.UNMEASURED``), so adding them leaves every word's score
unchanged; a query asks for each pair of its near words as one more group at
``PAIR_WEIGHT``, so an entry holding "meteor shower" outranks one that says
"meteor" here and "shower" there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: Words at most this many kept words apart form a pair (2: adjacent or one word between).
PAIR_WINDOW = 2
#: Weight of a pair group relative to a word group (0 turns proximity off at query time).
PAIR_WEIGHT = 0.5
PAIR_SEP = "~"


def _near(count: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(count) for j in range(i + 1, min(count, i + 1 + PAIR_WINDOW))]


def _both_numbers(a: str, b: str) -> bool:
    return a.isdigit() and b.isdigit()


def document_pairs(groups: Sequence[tuple[str, ...]]) -> list[str]:
    """Pair terms of one field's word groups (alternative stems: every combination)."""
    out: dict[str, None] = {}
    for i, j in _near(len(groups)):
        for a in groups[i]:
            for b in groups[j]:
                if not _both_numbers(a, b):
                    out[a + PAIR_SEP + b] = None
    return list(out)


def query_pairs(
    groups: Sequence[tuple[str, ...]], weights: Sequence[Mapping[str, float]]
) -> tuple[list[tuple[str, ...]], list[dict[str, float]]]:
    """One group per near pair of query groups, each term weighted ``PAIR_WEIGHT`` x the
    weights of its two words (a pair of translations counts for less)."""
    if PAIR_WEIGHT <= 0:
        return [], []
    out: list[tuple[str, ...]] = []
    out_weights: list[dict[str, float]] = []
    for i, j in _near(len(groups)):
        weight: dict[str, float] = {}
        for a in groups[i]:
            for b in groups[j]:
                if not _both_numbers(a, b):
                    factor = weights[i].get(a, 1.0) * weights[j].get(b, 1.0)
                    weight[a + PAIR_SEP + b] = PAIR_WEIGHT * factor
        if weight:
            out.append(tuple(weight))
            out_weights.append(weight)
    return out, out_weights
