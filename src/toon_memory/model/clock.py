"""What "today" and "now" are, and how relative dates and TTLs read.

Invariant: every date computation in the package goes through ``today()``,
which honours ``TOON_MEMORY_TODAY=YYYY-MM-DD`` so tests and benchmarks are
deterministic. A date parameter accepts exactly ``YYYY-MM-DD`` (what every
help text documents) and a span exactly ``<n>h|d|w|m|y``; anything else,
including a span that runs past the calendar (year 1..9999), is an
``InputError`` naming the field, never an ``OverflowError``. No I/O.
"""

from __future__ import annotations

import os
import re
from datetime import date, datetime, timedelta, timezone

from toon_memory.errors import InputError, quote

_RELATIVE = re.compile(r"^\s*(\d+)\s*([hdwmy])\s*$", re.IGNORECASE)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_UNIT_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}


def today() -> date:
    """Today's date (UTC), or ``TOON_MEMORY_TODAY`` when it is set."""
    fixed = os.environ.get("TOON_MEMORY_TODAY", "").strip()
    if fixed:
        try:
            return date.fromisoformat(fixed)
        except ValueError:
            raise InputError(
                "TOON_MEMORY_TODAY", f"expected YYYY-MM-DD, got {quote(fixed)}"
            ) from None
    return datetime.now(timezone.utc).date()


def now_iso() -> str:
    """An ISO timestamp (UTC, seconds) on ``today()``'s date."""
    clock = datetime.now(timezone.utc)
    return f"{today().isoformat()}T{clock:%H:%M:%S}Z"


def file_stamp() -> str:
    """``YYYYmmdd-HHMMSS-ffffff`` (UTC, on ``today()``'s date) for file names that sort by time."""
    clock = datetime.now(timezone.utc)
    return f"{today():%Y%m%d}-{clock:%H%M%S-%f}"


def parse_date(value: str, field: str) -> date:
    """A ``YYYY-MM-DD`` date, exactly; InputError naming ``field`` for anything else."""
    text = str(value).strip()
    try:
        if _DATE.match(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise InputError(field, f"expected a date YYYY-MM-DD, got {quote(value)}") from None


def relative_span(value: str) -> timedelta | None:
    """``"24h"``/``"7d"``/``"2w"`` -> a timedelta; None when not relative.

    Raises ``OverflowError`` for a span longer than a ``timedelta`` holds.
    """
    match = _RELATIVE.match(str(value))
    if not match:
        return None
    amount, unit = int(match.group(1)), match.group(2).lower()
    if unit == "h":
        return timedelta(hours=amount)
    return timedelta(days=amount * _UNIT_DAYS[unit])


def resolve_ttl(value: str, field: str = "ttl") -> str:
    """A TTL (``7d``, ``24h``, ``30d`` or a date) -> its expiry date, '' for none."""
    text = str(value or "").strip()
    if not text:
        return ""
    try:
        span = relative_span(text)
        if span is not None:
            if span <= timedelta(0):
                raise InputError(field, f"must be positive, got {quote(value)}")
            return (today() + max(span, timedelta(days=1))).isoformat()
    except OverflowError:
        raise InputError(field, f"{quote(value)} ends after the year 9999") from None
    if re.match(r"^\d{4}-\d{2}-\d{2}", text):
        return parse_date(text, field).isoformat()
    raise InputError(field, f"expected 7d, 24h, 30d or a date YYYY-MM-DD, got {quote(value)}")


def resolve_since(value: str, field: str = "since") -> date:
    """``"24h"``, ``"7d"`` or a date -> the first date included."""
    text = str(value or "").strip() or "24h"
    try:
        span = relative_span(text)
        if span is not None:
            return today() - timedelta(days=max(span.days, 1))
    except OverflowError:
        raise InputError(field, f"{quote(value)} reaches before the year 1") from None
    return parse_date(text, field)


def is_expired(ttl: str, on: date | None = None) -> bool:
    """True when an expiry date ``ttl`` lies before ``on`` (default today)."""
    if not ttl:
        return False
    try:
        return date.fromisoformat(ttl[:10]) < (on or today())
    except ValueError:
        return False
