"""Per-entry signals of the ranking: eligibility, bonuses, freshness, explain reasons.

Invariant: every function here is pure and total over valid entries: it
reads an entry (plus ``today`` and the options), never mutates it, and a
malformed date never raises (it counts as "unknown"). Every age goes
through ``search.decay.recency`` and every path comparison through
``search.paths`` (normalised paths: ``src/a.py:10-20`` is ``src/a.py``).
The weights are the seeds' (tool reference, "how recall ranks"):

    explicit importance  critical +0.3, high +0.15, medium 0, low -0.1
    warning category     +0.2
    evidence             conflict +0.15, verified +0.03, unverified -0.02
    same script family   +0.1      path_scope covers the current file  +0.05
    session file         x1.15     quality q in 0..1                    x(0.9 + 0.2q)
"""

from __future__ import annotations

import math
from collections.abc import Collection
from datetime import date

from toon_memory.model.clock import is_expired
from toon_memory.model.entry import Entry
from toon_memory.search.decay import day_of, recency
from toon_memory.search.options import RecallOptions
from toon_memory.search.paths import normalise_path, path_matches

IMPORTANCE_BONUS = {"critical": 0.3, "high": 0.15, "medium": 0.0, "low": -0.1}
EVIDENCE_BONUS = {"conflict": 0.15, "verified": 0.03, "unverified": -0.02}
WARNING_BONUS = 0.2
FAMILY_BONUS = 0.1
PATH_BONUS = 0.05
#: The entry's ``file`` is a path the query names ("before editing src/carriers/dhl.py"): an
#: explicit ask, so a factor like the session bias's, not a bonus scaled by the match.
NAMED_FILE_FACTOR = 1.5
SESSION_FACTOR = 1.15
USE_HALF_LIFE_DAYS = 30.0
FRESHNESS_HALF_LIFE_DAYS = 90.0


def created_day(entry: Entry) -> date | None:
    """When the entry came to be: ``created`` if set, else ``date``."""
    return day_of(entry.created) or day_of(entry.date)


def eligible(entry: Entry, opts: RecallOptions, today: date, history: str = "") -> bool:
    """May ``entry`` appear in a ranked result for these (validated) options?

    Excluded: expired TTL, obsolete, superseded, and (with ``as_of``) entries
    created after that date; ``as_of`` re-includes entries superseded after
    it. ``history`` re-includes superseded entries too: ``"all"`` of them, or
    (an ISO day) those valid on that day. Then the date range, category, tags
    (all of them) and path scope.
    """
    as_of = opts.as_of_date
    if is_expired(entry.ttl, as_of or today):
        return False
    if not _status_ok(entry, as_of) and not (history and _was_valid(entry, history, as_of)):
        return False
    if opts.from_date or opts.to_date:
        day = entry.date[:10]
        if not day or (opts.from_date and day < opts.from_date):
            return False
        if opts.to_date and day > opts.to_date:
            return False
    if opts.category and entry.category != opts.category:
        return False
    if opts.tags and not set(opts.tags) <= {t.lower() for t in entry.tags}:
        return False
    return not opts.path_scope or in_scope(entry, opts.path_scope)


def _status_ok(entry: Entry, as_of: date | None) -> bool:
    if as_of is None:
        return entry.status == "active"
    born = created_day(entry)
    if born is not None and born > as_of:
        return False
    if entry.status == "active":
        return True
    if entry.status == "superseded":
        gone = day_of(entry.superseded_on)
        return gone is not None and gone > as_of
    return False


def _was_valid(entry: Entry, history: str, as_of: date | None) -> bool:
    """A superseded entry valid on the ISO day ``history`` (any day for ``"all"``), and not
    created after ``as_of``."""
    if entry.status != "superseded":
        return False
    born = created_day(entry)
    if as_of is not None and born is not None and born > as_of:
        return False
    return history == "all" or _status_ok(entry, date.fromisoformat(history))


def in_scope(entry: Entry, scope: str) -> bool:
    """The entry's file lies under ``scope``, or the entry's own path_scope covers it."""
    if entry.file and path_matches(entry.file, scope):
        return True
    return bool(entry.path_scope) and (
        path_matches(scope, entry.path_scope) or path_matches(entry.path_scope, scope)
    )


Usage = tuple[date | None, float]


def usage_of(entry: Entry) -> Usage:
    """What ``auto_importance`` needs of an entry: its last day of use and its use frequency."""
    return usage_from(entry.last_accessed, entry.date, entry.created, entry.accessed)


def usage_from(last_accessed: str, day: str, created: str, accessed: int) -> Usage:
    """``usage_of`` from the four fields it reads (an index row holds them unpacked)."""
    last = day_of(last_accessed) or day_of(day) or day_of(created)
    return last, min(1.0, math.log1p(max(accessed, 0)) / math.log(51.0))


def usage_score(usage: Usage, today: date) -> float:
    """0..1 from recency (last use or date, half-life 30 days) and use count."""
    last, frequency = usage
    return 0.5 * recency(last, today, USE_HALF_LIFE_DAYS) + 0.5 * frequency


def auto_importance(entry: Entry, today: date) -> float:
    """0..1 from recency (last use or date, half-life 30 days) and use count."""
    return usage_score(usage_of(entry), today)


def freshness(entry: Entry, today: date) -> float:
    """0.8..1.0: newer entries (by date) weigh a little more (half-life 90 days)."""
    day = day_of(entry.date) or created_day(entry)
    return 0.8 + 0.2 * recency(day, today, FRESHNESS_HALF_LIFE_DAYS)


def static_bonus(entry: Entry) -> float:
    """The additive adjustments that depend on the entry alone."""
    return bonus_of(entry.importance, entry.evidence, entry.category)


def bonus_of(importance: str, evidence: str, category: str) -> float:
    """``static_bonus`` from the three fields it reads (an index's row holds them)."""
    value = IMPORTANCE_BONUS.get(importance, 0.0)
    value += EVIDENCE_BONUS.get(evidence, 0.0)
    return value + (WARNING_BONUS if category == "warning" else 0.0)


def context_bonus(entry: Entry, family: str, query_family: str, scope: str) -> float:
    """The additive adjustments that depend on the query: script family, path scope."""
    value = FAMILY_BONUS if query_family and family == query_family else 0.0
    if scope and entry.path_scope and path_matches(scope, entry.path_scope):
        value += PATH_BONUS
    return value


def in_session(entry: Entry, session_files: Collection[str]) -> bool:
    """Was the entry's file touched in the current session/branch?

    ``session_files`` must be normalised (``paths.normalise_path``); the
    engine normalises them once per query.
    """
    return bool(session_files and entry.file and normalise_path(entry.file) in session_files)


def factor(entry: Entry, session_files: Collection[str]) -> float:
    """The multiplicative adjustments of one entry (quality, session bias)."""
    value = quality_factor(entry.quality)
    return value * SESSION_FACTOR if in_session(entry, session_files) else value


def quality_factor(quality: float) -> float:
    """The factor of an entry's quality (0..1, clamped): 0.9 to 1.1."""
    return 0.9 + 0.2 * min(max(quality, 0.0), 1.0)


def _used(entry: Entry, today: date) -> str:
    last = day_of(entry.last_accessed)
    if last is None:
        return ""
    days = (today - last).days
    if days <= 0:
        return "used today"
    return "used yesterday" if days == 1 else f"used {days}d ago"


def reasons(entry: Entry, relevance: int, today: date, hop: int, via: str) -> tuple[str, ...]:
    """The pieces of the explain line, e.g. ``92% relevance``, ``used 14×``."""
    parts = [f"{relevance}% relevance"]
    if entry.accessed > 0:
        parts.append(f"used {entry.accessed}×")
    used = _used(entry, today)
    if used:
        parts.append(used)
    level = auto_importance(entry, today)
    parts.append("importance " + ("HIGH" if level >= 0.6 else "MEDIUM" if level >= 0.3 else "LOW"))
    if entry.importance:
        parts.append(f"explicit {entry.importance}")
    if entry.priority > 0:
        parts.append(f"pinned P{entry.priority}")
    if hop > 0 and via:
        parts.append(f"{hop} hop{'s' if hop > 1 else ''} from {via}")
    return tuple(parts)
