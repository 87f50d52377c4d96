"""Pseudo-relevance feedback: a verbose question borrows words from its best matches.

Invariant: ``feedback_groups`` is a pure, deterministic function of the index
and the first-pass scores (ties broken by document id, then by term); it
only adds single-term groups, each weighted ``FEEDBACK_WEIGHT`` (so a borrowed
word counts for a fifth of a query word), never changes the query's own
groups, and adds nothing to a query of fewer than ``MIN_WORDS`` words.

Used in graph mode only: a long natural-language question ("what did Maria
do at the picnic with her church friends") names its subject with generic
words, and the words its best matches share ("charades", "scavenger") find
the turns that answer it. A short keyword query is already precise. Borrowed
words: from the ``FEEDBACK_DOCS`` best matches, each term weighted by the
match's score over the best and by ln(N / df); terms of more than
``MAX_DF_SHARE`` of the documents, or of one document only, are skipped.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from toon_memory.search.index import BM25Index

FEEDBACK_DOCS = 10
FEEDBACK_TERMS = 10
FEEDBACK_WEIGHT = 0.2
MIN_WORDS = 4
MAX_DF_SHARE = 0.1


def feedback_groups(
    index: BM25Index, total: dict[int, float], groups: Sequence[tuple[str, ...]]
) -> tuple[list[tuple[str, ...]], list[dict[str, float]]]:
    """Extra single-term groups and their weights for ``groups`` given first-pass ``total``."""
    if len(groups) < MIN_WORDS or not total or FEEDBACK_WEIGHT <= 0:
        return [], []
    best_docs = _best(index, total)
    top = total[best_docs[0]] or 1.0
    have = {term for group in groups for term in group}
    n = len(index)
    gain: dict[str, float] = {}
    for slot in best_docs:
        share = total[slot] / top
        for term in index.terms(slot):
            if term in have or term.isdigit():
                continue
            df = index.doc_freq(term)
            if df < 2 or df > MAX_DF_SHARE * n:
                continue
            gain[term] = gain.get(term, 0.0) + share * math.log(n / df)
    chosen = heapq.nsmallest(FEEDBACK_TERMS, gain, key=lambda t: (-gain[t], t))
    return [(term,) for term in chosen], [{term: FEEDBACK_WEIGHT} for term in chosen]


def _best(index: BM25Index, total: dict[int, float]) -> list[int]:
    """The ``FEEDBACK_DOCS`` best slots, ties at the cut broken by document id."""
    top = heapq.nlargest(FEEDBACK_DOCS, total.values())
    cut = top[-1]
    above = [slot for slot, value in total.items() if value > cut]
    tied = sorted((slot for slot, value in total.items() if value == cut), key=index.doc_id)
    order = sorted(above, key=lambda slot: (-total[slot], index.doc_id(slot)))
    return (order + tied)[:FEEDBACK_DOCS]
