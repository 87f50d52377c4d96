"""Recency decay: the one curve behind every "how recent is it" signal.

Invariant: both functions are pure and total. ``day_of`` reads the date at the
start of an ISO date or timestamp and gives ``None`` for anything else (it
never raises). ``recency`` is 1.0 on ``today`` (and for a day after it),
halves every ``half_life_days`` days, and is 0.0 for an unknown day: no date,
no credit for being recent.

Who uses it, with which half-life: the engine's use-based importance (30
days) and smart recall's freshness (90 days) in ``search.signals``, the
quality score in ``toon_memory.rules.scoring`` (45 days) and simple-local-memory's
recency boost in ``search.blend`` (30 days).
"""

from __future__ import annotations

import math
from datetime import date


def day_of(value: str) -> date | None:
    """The date that ``value`` (``2026-07-15`` or ``2026-07-15T10:00:00Z``) starts with."""
    if not value:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def recency(day: date | None, today: date, half_life_days: float) -> float:
    """``0.5 ** (age / half_life_days)`` with the age in whole days, never below 0.

    ``day`` is a date (``day_of`` reads one from text); ``None`` means unknown.
    """
    if day is None:
        return 0.0
    age = (today - day).days
    return math.pow(0.5, age / half_life_days) if age > 0 else 1.0
