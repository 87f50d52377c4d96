"""The rules an imported row must pass: those of ``remember``, repaired where that is safe.

Invariant: ``admit_row`` returns either an ``Entry`` whose every field passes
what ``remember`` checks (a valid NFC key, non-empty content within
``limits.contentBytes``, known category, importance, origin, status and
evidence, numbers finite and in range, dates that read, sizes within the
limits, valid Unicode everywhere) or no entry and the reason. A repair never
happens silently: each one is listed in ``Verdict.repairs`` naming the field.
Only what cannot be repaired without guessing (no key, no content, an
oversized value, a number that does not parse) is refused; so is a row holding
a credential (``secret_problem``, named by kind, never quoted), unless the
caller allows secrets. ``check_rows`` applies both to a whole import with one
clock reading; ``deeper_than`` and ``surrogate_free`` judge an import's JSON
text at once (what a walk over every parsed value would find). No I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from toon_memory.errors import InputError, quote
from toon_memory.model.clock import now_iso, relative_span, today
from toon_memory.model.entry import (
    CATEGORIES,
    EVIDENCE_LEVELS,
    IMPORTANCE_LEVELS,
    ORIGINS,
    STATUSES,
    Entry,
    entry_from_row,
)
from toon_memory.model.settings import Limits
from toon_memory.rules.remember import check_key, check_text

_KEY_JUNK = re.compile(r"[\x00-\x1f|]+")
_SPACE = re.compile(r"\s+")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_PRIORITY = 5


@dataclass(frozen=True, slots=True)
class Verdict:
    """An admitted entry (or None and ``problem``) and the repairs made to it (an import
    keeps one per row until its write: slots, and no list when nothing was repaired)."""

    entry: Entry | None
    problem: str = ""
    repairs: tuple[str, ...] = ()
    #: A category toon-memory does not have (kept as a tag and in meta; reported once per import).
    foreign: str = ""


def _clean(value: Any, fixed: list[str], name: str) -> Any:
    """``value`` with lone surrogates replaced by U+FFFD (``name`` noted once when any was)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            if name not in fixed:
                fixed.append(name)
            return _SURROGATE.sub("\ufffd", value)
        return value
    if isinstance(value, dict):
        return {_clean(k, fixed, name): _clean(v, fixed, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, fixed, name) for v in value]
    return value


@lru_cache(maxsize=4096)
def _reads_as_day(value: str) -> bool:
    if not _DAY.match(value):
        return False
    try:
        date.fromisoformat(value[:10])
    except ValueError:
        return False
    return True


def _repair_key(entry: Entry, limits: Limits, repairs: list[str]) -> str:
    """The entry's key as ``remember`` would accept it; '' with the reason when it cannot be."""
    try:
        entry.key = check_key(entry.key, limits)
        return ""
    except InputError:
        pass
    fixed = _KEY_JUNK.sub("", _SPACE.sub("-", entry.key.strip()))
    try:
        entry.key, old = check_key(fixed, limits), entry.key
    except InputError as exc:
        return str(exc)
    repairs.append(
        f"key {quote(old)} had spaces, control characters or '|', stored as {entry.key!r}"
    )
    return ""


def _category_tag(category: str) -> str:
    """A foreign category as a tag: lower-case, words joined by ``-``, no ``;``."""
    return "-".join(category.replace(";", " ").lower().split())


def _keep_category(entry: Entry) -> str:
    """A category we do not have becomes ``knowledge``; the original stays as a tag and in
    meta. Returns the original ('' when the category is ours)."""
    original = entry.category.strip()
    if original.lower() in CATEGORIES:
        entry.category = original.lower()
        return ""
    if original:
        entry.meta.setdefault("category", original)
    tag = _category_tag(original)
    if tag and tag not in entry.tags:
        entry.tags.append(tag)
    entry.category = "knowledge"
    return original or "(empty)"


def _repair_enums(entry: Entry, repairs: list[str]) -> None:
    importance = entry.importance.strip().lower()
    if importance and importance not in IMPORTANCE_LEVELS:
        repairs.append(f"importance {quote(entry.importance)} unknown, cleared")
        importance = ""
    entry.importance = importance
    if entry.origin not in ORIGINS:
        repairs.append(f"origin {quote(entry.origin)} unknown, stored as import")
        entry.origin = "import"
    if entry.status not in STATUSES:
        repairs.append(f"status {quote(entry.status)} unknown, stored as active")
        entry.status = "active"
    if entry.evidence not in EVIDENCE_LEVELS:
        repairs.append(f"evidence {quote(entry.evidence)} unknown, cleared")
        entry.evidence = ""


def _repair_numbers(entry: Entry, repairs: list[str]) -> None:
    for name, low, high, default in (("confidence", 0.0, 1.0, 1.0), ("quality", 0.0, 1.0, 0.0)):
        value = getattr(entry, name)
        if not low <= value <= high:
            repairs.append(f"{name} {value:g} out of range {low:g}..{high:g}, set to {default:g}")
            setattr(entry, name, default)
    if not 0 <= entry.priority <= MAX_PRIORITY:
        repairs.append(f"priority {entry.priority} out of range 0..{MAX_PRIORITY}, set to 0")
        entry.priority = 0
    if entry.accessed < 0:
        repairs.append(f"accessed {entry.accessed} is negative, set to 0")
        entry.accessed = 0


def _relative_ttl(entry: Entry) -> None:
    """A TypeScript ``ttl`` such as ``7d`` counts from the entry's date: its expiry day."""
    try:
        span = relative_span(entry.ttl)
        start = date.fromisoformat(entry.date.strip()[:10]) if span else None
        if span is not None and start is not None and span > timedelta(0):
            entry.ttl = (start + max(span, timedelta(days=1))).isoformat()
    except (ValueError, OverflowError):
        pass  # not a span from a day: the checks below clear it, with a repair note


def _repair_dates(entry: Entry, repairs: list[str], clock: tuple[str, str] | None) -> None:
    day, stamp = clock or import_clock()
    _relative_ttl(entry)
    for name, default in (("date", day), ("created", stamp), ("updated", ""),
                          ("ttl", ""), ("last_accessed", ""), ("superseded_on", "")):  # fmt: skip
        value = getattr(entry, name)
        if value and not _reads_as_day(value):
            repairs.append(
                f"{name} {quote(value)} is not a date, {'reset' if default else 'cleared'}"
            )
            setattr(entry, name, default)
    if not entry.created:  # the source's own time when it gives one; the import time in meta
        entry.meta.setdefault("imported", stamp)
        entry.created = source_time(entry) or stamp
    entry.date = entry.date or entry.created[:10] or day
    entry.updated = entry.updated or entry.created


def source_time(entry: Entry) -> str:
    """When the source says the entry was made: ``created``, else ``date`` (a day at 00:00 UTC
    or a full ISO timestamp, normalised to UTC); ``""`` when neither reads as a time."""
    if entry.created:
        return entry.created
    text = entry.date.strip()
    if len(text) == 10:
        try:
            return f"{date.fromisoformat(text).isoformat()}T00:00:00Z"
        except ValueError:
            return ""
    try:
        stamp = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return ""
    stamp = stamp.replace(tzinfo=timezone.utc) if stamp.tzinfo is None else stamp
    return stamp.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _check_sizes(entry: Entry, limits: Limits, repairs: list[str]) -> str:
    """The reason a size is over a limit ('' when none is); extra tags and links are dropped."""
    try:
        check_text(entry.content, "content", limits)
        check_text(entry.file, "file", limits, "file_chars")
        check_text(entry.path_scope, "path_scope", limits, "file_chars")
        if entry.meta:
            check_text(json.dumps(entry.meta, ensure_ascii=False), "meta", limits)
    except InputError as exc:
        return str(exc)
    except (RecursionError, TypeError, ValueError):
        return "meta: not plain JSON data"
    for name in ("tags", "links"):
        items: list[str] = getattr(entry, name)
        kept = [item for item in items if len(item) <= limits.tag_chars][: limits.tags]
        if len(kept) < len(items):
            repairs.append(
                f"{len(items) - len(kept)} of {len(items)} {name} dropped "
                f"(limits.tags {limits.tags}, limits.tagChars {limits.tag_chars})"
            )
            setattr(entry, name, kept)
    return ""


def import_clock() -> tuple[str, str]:
    """(today, now) as an import stamps entries that give no date: one reading per import."""
    return today().isoformat(), now_iso()


def _plain_unicode(row: dict[str, Any]) -> bool:
    """True when every key and text of ``row`` (flat, or lists of texts) is valid Unicode,
    so ``_clean`` would change nothing; False also when a value is nested (check it all)."""
    texts: list[str] = [key for key in row if isinstance(key, str)]
    for value in row.values():
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, list):
            if not all(isinstance(item, str) for item in value):
                return False
            texts.extend(value)
        elif isinstance(value, dict) and value:
            return False
    try:
        "".join(texts).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def admit_row(
    row: dict[str, Any], limits: Limits, clock: tuple[str, str] | None = None,
    plain: bool = False,
) -> Verdict:  # fmt: skip
    """Validate one imported row as ``remember`` would, repairing what is safe to repair.

    ``clock`` is ``import_clock()`` read once for a whole import (read per row when None);
    ``plain``: the caller knows every text of the row is valid Unicode (no lone surrogate).
    """
    fixed: list[str] = []
    try:
        clean = row if plain or _plain_unicode(row) else {
            _clean(k, fixed, str(k)): _clean(v, fixed, str(k)) for k, v in row.items()}  # fmt: skip
        entry = entry_from_row(clean)
    except RecursionError:
        return Verdict(None, "nested too deeply")
    except ValueError as exc:
        return Verdict(None, str(exc))
    repairs = [f"{quote(name)} held invalid Unicode, replaced by U+FFFD" for name in fixed]
    if not entry.key.strip() or not entry.content.strip():
        return Verdict(None, "key and content are required")
    problem = _repair_key(entry, limits, repairs) or _check_sizes(entry, limits, repairs)
    if problem:
        return Verdict(None, problem)
    foreign = _keep_category(entry)
    _repair_enums(entry, repairs)
    _repair_numbers(entry, repairs)
    _repair_dates(entry, repairs, clock)
    return Verdict(entry, "", tuple(repairs), foreign)


def secret_problem(entry: Entry) -> str:
    """Why ``entry`` may not come in because it holds a credential ('' when it holds none);
    names the fields and kinds, never the value."""
    from toon_memory.rules.secrets import describe, might_hold_secret, scan_entry

    texts = [entry.key, entry.content, *entry.tags, entry.file, entry.path_scope]
    if entry.meta:
        texts.append(json.dumps(entry.meta, ensure_ascii=False, default=str))
    if not might_hold_secret("\n".join(texts)):  # no prefilter match spans a line break
        return ""
    findings = scan_entry(entry)
    if not findings:
        return ""
    return f"{describe(findings)}, or import with allow_secrets (CLI --allow-secrets)"


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKET = re.compile(r"[\[\]{}]")
#: A ``\uD800``-``\uDFFF`` escape: the one way JSON text read as UTF-8 holds a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def surrogate_free(text: str) -> bool:
    """True when no string parsed from the JSON ``text`` (read as UTF-8) can hold a lone
    surrogate: it has no surrogate escape (``plain`` for ``admit_row``)."""
    return _SURROGATE_ESCAPE.search(text) is None


def deeper_than(text: str, depth: int) -> bool:
    """True when the valid JSON ``text`` nests lists/objects more than ``depth`` levels
    (its brackets outside strings, counted: no walk over the parsed values, no recursion)."""
    level = 0
    for mark in _BRACKET.findall(_JSON_STRING.sub("", text)):
        level += 1 if mark in "[{" else -1
        if level > depth:
            return True
    return False


#: How often ``check_rows`` reports progress (rows).
PROGRESS_EVERY = 1000


def check_rows(
    rows: Iterable[dict[str, Any]], limits: Limits, allow_secrets: bool,
    progress: Callable[[int, int], None] | None = None, plain: bool = False,
    total: int = 0,
) -> list[Verdict]:  # fmt: skip
    """``admit_row`` for each row (read one at a time) with one clock reading, a row holding
    a credential refused (``secret_problem``) unless ``allow_secrets``; ``progress(done,
    total)`` every ``PROGRESS_EVERY`` rows and at the end, ``total`` being how many rows
    come (``plain``: as ``admit_row``'s, for all rows)."""
    clock = import_clock()
    verdicts: list[Verdict] = []
    for number, row in enumerate(rows, start=1):
        verdict = admit_row(row, limits, clock, plain)
        secret = "" if verdict.entry is None or allow_secrets else secret_problem(verdict.entry)
        verdicts.append(Verdict(None, secret) if secret else verdict)
        if progress is not None and (number % PROGRESS_EVERY == 0 or number == total):
            progress(number, total)
    return verdicts
