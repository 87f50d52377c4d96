"""Cross-language query expansion: a query word also asks for its translations.

Invariant: ``expand`` is a pure, deterministic function of the query groups
and the query's language. It never removes or reorders a group; it adds to a
group the stems of the words that translate it (``search.lexicon``), each
with weight ``TRANSLATION_WEIGHT`` in the group (``BM25Index`` scores a group
as its best term times that term's weight), so an entry written in Spanish,
Portuguese, French or German matches an English query about the same thing,
and the word itself still counts for more than any translation.
"""

from __future__ import annotations

from collections.abc import Sequence

from toon_memory.search.lexicon import concepts_of, terms_of

TRANSLATION_WEIGHT = 0.8


def expand(
    groups: Sequence[tuple[str, ...]], lang: str
) -> tuple[list[tuple[str, ...]], list[dict[str, float]]]:
    """The groups with their translations added, and each group's term weights."""
    out: list[tuple[str, ...]] = []
    weights: list[dict[str, float]] = []
    if TRANSLATION_WEIGHT <= 0:
        return list(groups), [{} for _ in groups]
    for group in groups:
        concepts: set[int] = set()
        for term in group:
            concepts.update(concepts_of(term, lang))
        extra = sorted({t for c in concepts for t in terms_of(c)} - set(group))
        out.append((*group, *extra))
        weights.append(dict.fromkeys(extra, TRANSLATION_WEIGHT))
    return out, weights
