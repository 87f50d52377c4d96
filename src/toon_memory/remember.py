"""The rules of ``remember``: validate a new memory, then create or merge it.

Invariant: validation raises ``InputError`` naming the field before anything
is written; a merge never loses text (changed content keeps the old version
as a superseded history entry, reachable with ``as_of`` and ``history``).
No I/O: callers pass in the state and what they need from disk.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from toon_memory.clock import now_iso, resolve_ttl, today
from toon_memory.errors import InputError
from toon_memory.model import (
    CATEGORIES,
    IMPORTANCE_LEVELS,
    IMPORTANCE_RANK,
    LINK_TYPES,
    ORIGINS,
    Entry,
    split_list,
)

MAX_KEY = 200
_KEY_BAD = re.compile(r"[\x00-\x1f|]")
_WIKI = re.compile(r"\[\[([^\[\]\n]+)\]\]")
_LINK_KIND = re.compile(r"^[a-z_]+$")


@dataclass
class Draft:
    """A validated remember call, before it meets the store."""

    entry: Entry
    explicit_tags: bool
    explicit_confidence: bool


@dataclass
class RememberResult:
    """What a remember did."""

    entry: Entry
    created: bool
    merged: bool = False
    history: Entry | None = None
    inferred_tags: list[str] = field(default_factory=list)
    related: list[Entry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    archived: list[Entry] = field(default_factory=list)


def check_category(category: str, allowed: Iterable[str] = CATEGORIES) -> str:
    value = str(category or "").strip().lower()
    allowed = tuple(allowed)
    if value not in allowed:
        raise InputError("category", f"must be one of {', '.join(allowed)}; got {category!r}")
    return value


def check_key(key: str) -> str:
    value = str(key or "").strip()
    if not value:
        raise InputError("key", "must not be empty")
    if len(value) > MAX_KEY:
        raise InputError("key", f"must be at most {MAX_KEY} characters")
    if _KEY_BAD.search(value) or any(ch.isspace() for ch in value):
        raise InputError("key", "must not contain spaces, control characters or '|'")
    return value


def check_importance(importance: str) -> str:
    value = str(importance or "").strip().lower()
    if value and value not in IMPORTANCE_LEVELS:
        raise InputError(
            "importance", f"must be one of {', '.join(IMPORTANCE_LEVELS)}; got {importance!r}"
        )
    return value


def check_number(value: object, field: str, low: float, high: float, kind: type = float) -> float:
    """``value`` as a number of ``kind`` within [low, high], or InputError naming ``field``."""
    noun = "a whole number" if kind is int else "a number"
    try:
        number = kind(value)
    except (TypeError, ValueError):
        raise InputError(field, f"must be {noun} from {low:g} to {high:g}; got {value!r}") from None
    if not low <= number <= high:
        raise InputError(field, f"must be from {low:g} to {high:g}; got {number}")
    return float(number)


def check_confidence(confidence: float | str | None) -> float | None:
    if confidence is None or confidence == "":
        return None
    return check_number(confidence, "confidence", 0.0, 1.0)


def draft_entry(
    category: str, key: str, content: str, *, file: str = "", tags: object = None,
    links: object = None, ttl: str = "", importance: str = "", confidence: float | str | None = None,
    origin: str = "agent", path_scope: str = "", categories: Iterable[str] = CATEGORIES,
) -> Draft:  # fmt: skip
    """Validate every field of a remember call and build the entry it describes."""
    text = str(content or "")
    if not text.strip():
        raise InputError("content", "must not be empty")
    if origin not in ORIGINS:
        raise InputError("origin", f"must be one of {', '.join(ORIGINS)}; got {origin!r}")
    conf = check_confidence(confidence)
    tag_list = split_list(tags, ";,")
    link_list = _links_of(links, text)
    stamp = now_iso()
    entry = Entry(
        id="", category=check_category(category, categories), key=check_key(key), content=text,
        file=str(file or "").strip(), tags=tag_list, date=today().isoformat(),
        ttl=resolve_ttl(ttl), links=link_list, importance=check_importance(importance),
        confidence=conf if conf is not None else (0.7 if origin == "inferred" else 1.0),
        origin=origin, path_scope=str(path_scope or "").strip(), created=stamp, updated=stamp,
    )  # fmt: skip
    return Draft(entry, bool(tag_list), conf is not None)


def _links_of(links: object, content: str) -> list[str]:
    found = split_list(links, " ;,")
    for link in found:
        kind, sep, target = link.partition(":")
        if sep and kind not in LINK_TYPES and _LINK_KIND.match(kind):
            raise InputError(
                "links",
                f"unknown link type {kind!r} in {link!r}: use {', '.join(LINK_TYPES)} "
                f"(a key that holds ':' is written relates:{link})",
            )
        if sep and kind in LINK_TYPES and not target.strip():
            raise InputError("links", f"{link!r} names no key after '{kind}:'")
    for target in _WIKI.findall(content):
        target = target.strip()
        if target and target not in found:
            found.append(target)
    return found


def new_id(taken: Iterable[str] | dict[str, Entry]) -> str:
    """A fresh 8-hex id not in ``taken``."""
    while True:
        candidate = os.urandom(4).hex()
        if candidate not in taken:
            return candidate


def merge_entries(
    old: Entry, new: Entry, *, keep_first: bool, history_id: str
) -> tuple[Entry, Entry | None]:
    """Merge a re-remembered key into its entry; return (merged, old version kept as history)."""
    merged = old.copy()
    merged.tags = split_list(old.tags + new.tags, ";")
    merged.links = split_list(old.links + new.links, " ")
    merged.confidence = max(old.confidence, new.confidence)
    merged.meta.update(new.meta)
    merged.date = new.date
    merged.updated = new.updated
    if IMPORTANCE_RANK[new.importance] > IMPORTANCE_RANK[old.importance]:
        merged.importance = new.importance
    for attr in ("file", "ttl", "path_scope"):
        if getattr(new, attr):
            setattr(merged, attr, getattr(new, attr))
    if new.category != old.category:
        merged.category = new.category
    history: Entry | None = None
    if new.content != old.content and not keep_first:
        merged.content = new.content
        history = old.copy(
            id=history_id, status="superseded", superseded_on=new.date,
            links=split_list([*old.links, f"superseded_by:{old.key}"], " "), priority=0,
        )  # fmt: skip
    return merged, history
