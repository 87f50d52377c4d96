"""The rules of ``remember``: validate a new memory, then create or merge it.

Invariant: validation raises ``InputError`` naming the field before anything
is written, and the size checks (``config.Limits``) come before any other
work, so no input makes a call slow; every text is valid Unicode (a lone
surrogate is refused) and keys are NFC-normalised. A merge never loses text
(changed content keeps the old version as a superseded history entry,
reachable with ``as_of`` and ``history``); only versions past the newest
``historyVersions`` of a key are dropped (``versions_to_drop``). No I/O:
callers pass in the state and what they need from disk.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from toon_memory.errors import InputError, quote
from toon_memory.model.checks import check_choice, check_fraction
from toon_memory.model.clock import now_iso, resolve_ttl, today
from toon_memory.model.entry import (
    CATEGORIES,
    IMPORTANCE_LEVELS,
    IMPORTANCE_RANK,
    LINK_TYPES,
    REMEMBER_ORIGINS,
    Entry,
    split_list,
)
from toon_memory.model.settings import LIMIT_SETTINGS, Limits

MAX_KEY = Limits().key_chars
DEFAULT_LIMITS = Limits()
#: What a key may not hold: a control character, '|' or whitespace (``\s`` is ``str.isspace``).
_KEY_BAD = re.compile(r"[\x00-\x1f|\s]")
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


def check_category(category: object, allowed: Iterable[str] = CATEGORIES) -> str:
    """One of ``allowed`` (the project's categories), case and spaces forgiven."""
    return check_choice(category, "category", allowed)


def _over(field: str, size: int, unit: str, limit: int, attr: str) -> InputError:
    return InputError(
        field,
        f"is {size} {unit}, over the limit of {limit} "
        f"(limits.{LIMIT_SETTINGS[attr]} in config.json)",
    )


def check_unicode(text: str, field: str) -> bytes:
    """``text`` as UTF-8; InputError naming ``field`` when it holds a lone surrogate."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            field, f"is not valid Unicode text (a lone surrogate at character {exc.start})"
        ) from None


def check_text(value: object, field: str, limits: Limits, attr: str = "content_bytes") -> str:
    """``value`` as text of at most ``limits.<attr>`` (bytes or characters, by its name).

    Checked before any other work: a too-long value is refused from its
    length alone, then its encoding (a lone surrogate is refused).
    """
    text = "" if value is None else value if isinstance(value, str) else str(value)
    limit = getattr(limits, attr)
    if len(text) > limit:
        unit = "bytes" if attr.endswith("_bytes") else "characters"
        raise _over(field, len(text), unit, limit, attr)
    size = len(check_unicode(text, field))
    if attr.endswith("_bytes") and size > limit:
        raise _over(field, size, "bytes", limit, attr)
    return text


def normalise_key(value: str) -> str:
    """The NFC form of a key, so a key typed decomposed finds the same entry."""
    if value.isascii():
        return value
    import unicodedata

    return unicodedata.normalize("NFC", value)


def check_key(key: str, limits: Limits = DEFAULT_LIMITS) -> str:
    value = normalise_key(check_text(key, "key", limits, "key_chars").strip())
    if not value:
        raise InputError("key", "must not be empty")
    if len(value) > limits.key_chars:
        raise _over("key", len(value), "characters", limits.key_chars, "key_chars")
    if _KEY_BAD.search(value):
        raise InputError("key", "must not contain spaces, control characters or '|'")
    return value


def check_list(value: object, field: str, seps: str, limits: Limits) -> list[str]:
    """A tags/links argument split into items, within the count and length limits."""
    most = limits.tags * (limits.tag_chars + 2)
    if isinstance(value, str) and len(value) > most:
        raise InputError(
            field, f"is {len(value)} characters, over the limit of {most} "
            f"(limits.tags x limits.tagChars in config.json)",
        )  # fmt: skip
    if isinstance(value, (list, tuple)) and len(value) > limits.tags:
        raise _over(field, len(value), "items", limits.tags, "tags")
    items = split_list(value, seps)
    if len(items) > limits.tags:
        raise _over(field, len(items), "items", limits.tags, "tags")
    for item in items:
        check_text(item, field, limits, "tag_chars")
    return items


def check_meta(meta: dict[str, Any] | None, limits: Limits) -> dict[str, Any]:
    """Extra fields of an entry: JSON text of valid Unicode within the content limit."""
    if not meta:
        return {}
    if not isinstance(meta, dict):
        raise InputError("meta", f"must be an object; got {type(meta).__name__}")
    try:
        text = json.dumps(meta, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise InputError("meta", "is nested too deeply") from None
    except (TypeError, ValueError) as exc:
        raise InputError("meta", f"must be plain JSON data ({exc})") from None
    check_text(text, "meta", limits)
    return dict(meta)


def check_importance(importance: object) -> str:
    """``""`` (none given) or one of ``IMPORTANCE_LEVELS``."""
    if importance is None or (isinstance(importance, str) and not importance.strip()):
        return ""
    return check_choice(importance, "importance", IMPORTANCE_LEVELS)


def check_confidence(confidence: float | str | None) -> float | None:
    """None (none given) or a number from 0 to 1."""
    if confidence is None or confidence == "":
        return None
    return check_fraction(confidence, "confidence")


def draft_entry(
    category: str, key: str, content: str, *, file: str = "", tags: object = None,
    links: object = None, ttl: str = "", importance: str = "", confidence: float | str | None = None,
    origin: str = "agent", path_scope: str = "", categories: Iterable[str] = CATEGORIES,
    limits: Limits = DEFAULT_LIMITS,
) -> Draft:  # fmt: skip
    """Validate every field of a remember call and build the entry it describes.

    The sizes are checked first (content, key, file, path scope, tags, links).
    """
    text = check_text(content, "content", limits)
    name = check_key(key, limits)
    where = check_text(file, "file", limits, "file_chars").strip()
    scope = check_text(path_scope, "path_scope", limits, "file_chars").strip()
    tag_list = check_list(tags, "tags", ";,", limits)
    link_items = check_list(links, "links", " ;,", limits)
    if not text.strip():
        raise InputError("content", "must not be empty")
    origin = check_choice(origin, "origin", REMEMBER_ORIGINS)
    conf = check_confidence(confidence)
    link_list = _links_of(link_items, text)
    stamp = now_iso()
    entry = Entry(
        id="", category=check_category(category, categories), key=name, content=text,
        file=where, tags=tag_list, date=today().isoformat(),
        ttl=resolve_ttl(ttl), links=link_list, importance=check_importance(importance),
        confidence=conf if conf is not None else (0.7 if origin == "inferred" else 1.0),
        origin=origin, path_scope=scope, created=stamp, updated=stamp,
    )  # fmt: skip
    return Draft(entry, bool(tag_list), conf is not None)


def _links_of(links: list[str], content: str) -> list[str]:
    found = list(links)
    for link in found:
        kind, sep, target = link.partition(":")
        if sep and kind not in LINK_TYPES and _LINK_KIND.match(kind):
            raise InputError(
                "links",
                f"unknown link type {quote(kind)} in {quote(link)}: use {', '.join(LINK_TYPES)} "
                "(a key that holds ':' is written relates:<key>)",
            )
        if sep and kind in LINK_TYPES and not target.strip():
            raise InputError("links", f"{quote(link)} names no key after '{kind}:'")
    for target in _WIKI.findall(content):
        target = target.strip()
        if target and target not in found:
            found.append(target)
    return found


def new_id(taken: Container[str]) -> str:
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
    if IMPORTANCE_RANK.get(new.importance, 0) > IMPORTANCE_RANK.get(old.importance, 0):
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


def versions_to_drop(history: Iterable[Entry], keep: int) -> list[Entry]:
    """The superseded versions of one key beyond the newest ``keep`` (oldest first)."""
    ordered = sorted(history, key=lambda e: (e.superseded_on, e.updated, e.created))
    return ordered[: max(len(ordered) - keep, 0)]
