"""A second ranking of a recall's matches: relevance + importance + recency.

Invariant: ``blend`` is pure and deterministic (``today`` is passed in). It
keeps only the hits that the query reached (``hop >= 0``: seeds and graph
neighbours, never pinned-only or listed-without-query ones) and orders them
by ``total`` (descending), ties by key then id; every ``Blended`` satisfies
``total == relevance + importance + recency`` with ``relevance`` the
engine's relevance as 0..1 and ``recency`` from ``search.decay``.

This is simple-local-memory's documented formula (``totalScore = relevance
+ recencyBoost + importanceBoost``); the caller says where an entry's
importance and its day come from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from toon_memory.model.entry import Entry
from toon_memory.search.decay import day_of, recency
from toon_memory.search.result import RecallResult

RECENCY_WEIGHT = 0.5
RECENCY_HALF_LIFE_DAYS = 30.0


@dataclass(frozen=True, slots=True)
class Blended:
    """One re-ranked entry and the three parts of its total."""

    entry: Entry
    total: float
    relevance: float
    importance: float
    recency: float


def blend(
    result: RecallResult,
    *,
    today: date,
    importance: Callable[[Entry], float],
    day: Callable[[Entry], str] = lambda entry: entry.date,
    recency_weight: float = RECENCY_WEIGHT,
    half_life_days: float = RECENCY_HALF_LIFE_DAYS,
) -> list[Blended]:
    """The matches of ``result``, best total first (see the module docstring).

    ``recency`` is ``recency_weight * 0.5 ** (age / half_life_days)``, the age
    in days of ``day(entry)`` (an ISO date or timestamp; unreadable: 0).
    """
    scored: list[Blended] = []
    for hit in result.hits:
        if hit.hop < 0:
            continue
        relevance = hit.relevance / 100
        weight = importance(hit.entry)
        recent = recency_weight * recency(day_of(day(hit.entry)), today, half_life_days)
        scored.append(Blended(hit.entry, relevance + weight + recent, relevance, weight, recent))
    scored.sort(key=lambda s: (-s.total, s.entry.key, s.entry.id))
    return scored
