"""The entry model: one memory, its fields, and their row form.

Invariant: ``FIELDS`` is the column order of ``data.toon``; ``Entry.to_row``
and ``entry_from_row`` are exact inverses for every valid entry, so any
content survives a save and a load unchanged. ``entry_from_row`` gives equal
values of the fields that repeat across entries (an enum, a day, a file, a tag)
one shared string object (``shared``): equal text, less memory. This module
does no I/O.
"""

from __future__ import annotations

import json
import marshal
import re
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any

from toon_memory.errors import quote

CATEGORIES: tuple[str, ...] = ("decision", "pattern", "bug", "knowledge", "warning")
IMPORTANCE_LEVELS: tuple[str, ...] = ("critical", "high", "medium", "low")
IMPORTANCE_RANK: dict[str, int] = {"": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}
STATUSES: tuple[str, ...] = ("active", "obsolete", "superseded")
ORIGINS: tuple[str, ...] = ("human", "agent", "inferred", "import")
EVIDENCE_LEVELS: tuple[str, ...] = ("", "verified", "unverified", "conflict")
LINK_TYPES: tuple[str, ...] = ("relates", "supersedes", "superseded_by")
#: What ``remember`` accepts as origin (``import`` is set by import only).
REMEMBER_ORIGINS: tuple[str, ...] = ("human", "agent", "inferred")
FORGET_ACTIONS: tuple[str, ...] = ("soft", "hard", "restore", "supersede")
TAG_ACTIONS: tuple[str, ...] = ("add", "remove", "set")
DIFF_TYPES: tuple[str, ...] = ("all", "created", "updated")
#: ``memory_captured`` actions: list the activity log, or clear it.
CAPTURED_ACTIONS: tuple[str, ...] = ("list", "clear")
#: Recall modes and output budgets (``search.RecallOptions`` validates against these).
RECALL_MODES: tuple[str, ...] = ("flat", "graph", "index")
RECALL_BUDGETS: tuple[str, ...] = ("tiny", "normal", "deep")
#: ``memory_consolidate`` modes (``curation.consolidate.MODES`` plans each of them).
CONSOLIDATE_MODES: tuple[str, ...] = ("identical", "similar", "low-quality", "versions")
#: The actions of ``memory_secret`` (the secrets vault).
SECRET_ACTIONS: tuple[str, ...] = ("store", "get", "list", "forget")
#: The hot memory (SESSION-STATE.json, ``memory_session_state``): its fields and actions.
STATE_TEXT_FIELDS: tuple[str, ...] = ("current_task",)
STATE_LIST_FIELDS: tuple[str, ...] = ("key_context", "pending_actions", "recent_decisions")
STATE_FIELDS: tuple[str, ...] = (*STATE_TEXT_FIELDS, *STATE_LIST_FIELDS)
STATE_ACTIONS: tuple[str, ...] = ("show", "set", "add", "clear")
#: The agent hooks the installer writes (``toon-memory hook <action>``), and the git hook's.
HOOK_ACTIONS: tuple[str, ...] = ("session-start", "post-tool", "stop")
GIT_HOOK_ACTIONS: tuple[str, ...] = ("pre-commit",)

#: Column names of the entries table, in file order.
FIELDS: tuple[str, ...] = (
    "id", "category", "key", "content", "file", "tags", "date", "ttl", "accessed",
    "links", "quality", "confidence", "lastAccessed", "priority", "path_scope",
    "origin", "status", "supersededOn", "importance", "evidence", "created",
    "updated", "meta",
)  # fmt: skip

_ID_RE = re.compile(r"^[0-9a-f]{8}$")


@dataclass(slots=True)
class Entry:
    """One memory. Attribute names are the file's, in snake_case."""

    id: str
    category: str
    key: str
    content: str
    file: str = ""
    tags: list[str] = field(default_factory=list)
    date: str = ""
    ttl: str = ""
    accessed: int = 0
    links: list[str] = field(default_factory=list)
    quality: float = 0.0
    confidence: float = 1.0
    last_accessed: str = ""
    priority: int = 0
    path_scope: str = ""
    origin: str = "agent"
    status: str = "active"
    superseded_on: str = ""
    importance: str = ""
    evidence: str = ""
    created: str = ""
    updated: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.status == "active"

    def link_targets(self) -> list[tuple[str, str]]:
        """The links as (type, key) pairs; an untyped link is ``relates``."""
        return [split_link(link) for link in self.links]

    def copy(self, **changes: Any) -> Entry:
        base = replace(self, tags=list(self.tags), links=list(self.links), meta=dict(self.meta))
        return replace(base, **changes) if changes else base

    def to_row(self) -> dict[str, Any]:
        """The entry as one table row: tags joined by ``;``, links by spaces."""
        return {
            "id": self.id, "category": self.category, "key": self.key,
            "content": self.content, "file": self.file, "tags": ";".join(self.tags),
            "date": self.date, "ttl": self.ttl, "accessed": self.accessed,
            "links": " ".join(self.links), "quality": round(self.quality, 2),
            "confidence": round(self.confidence, 2), "lastAccessed": self.last_accessed,
            "priority": self.priority, "path_scope": self.path_scope, "origin": self.origin,
            "status": self.status, "supersededOn": self.superseded_on,
            "importance": self.importance, "evidence": self.evidence,
            "created": self.created, "updated": self.updated,
            "meta": json.dumps(self.meta, ensure_ascii=False, sort_keys=True) if self.meta else "",
        }  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data (export, --json): lists stay lists."""
        row = self.to_row()
        row["tags"] = list(self.tags)
        row["links"] = list(self.links)
        row["meta"] = dict(self.meta)
        return row


ATTRIBUTES: tuple[str, ...] = tuple(f.name for f in fields(Entry))
_ATTR_OF: dict[str, str] = dict(zip(FIELDS, ATTRIBUTES, strict=True))
#: The attribute a row's name sets: a file column's, else an attribute named itself.
_ATTR_NAMED: dict[str, str] = {**{name: name for name in ATTRIBUTES}, **_ATTR_OF}


def split_link(link: str) -> tuple[str, str]:
    """``"supersedes:old-key"`` -> ``("supersedes", "old-key")``."""
    kind, sep, target = link.partition(":")
    if sep and kind in LINK_TYPES:
        return kind, target
    return "relates", link


def split_list(value: Any, seps: str) -> list[str]:
    """A list cell from a string (split on any of ``seps``) or a list; no empties, no dupes."""
    if value is None or value == "":
        return []
    items: list[Any] | tuple[Any, ...]
    if isinstance(value, (list, tuple)):
        items = value
    elif len(seps) == 1:
        items = str(value).split(seps)
    else:
        items = _splitter(seps).split(str(value))
    out: dict[str, None] = {}
    for item in items:
        text = item.strip() if type(item) is str else str(item).strip()
        if text:
            out[text] = None
    return list(out)


@cache
def _splitter(seps: str) -> re.Pattern[str]:
    return re.compile("[" + re.escape(seps) + "]")


def _as_int(value: Any, name: str) -> int:
    if type(value) is int:
        return value
    if value is None or value == "":
        return 0
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name}: expected a whole number, got {quote(value)}") from None


def _as_float(value: Any, name: str, default: float) -> float:
    if type(value) is float and value - value == 0.0:  # finite
        return _shared_float(value)
    if value is None or value == "":
        return default
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name}: expected a number, got {quote(value)}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(f"{name}: expected a finite number, got {quote(value)}")
    return _shared_float(number)


def _as_meta(value: Any) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return dict(value)
    try:
        parsed = json.loads(str(value))
    except json.JSONDecodeError:
        return {"raw": str(value)}
    return parsed if isinstance(parsed, dict) else {"raw": parsed}


#: At most this many distinct strings are shared (``shared``); a value past them (a
#: timestamp that never repeats, once the table is full) is kept as it came.
_SHARED_MAX = 4096
_SHARED: dict[str, str] = {}
#: The same for numbers (quality, confidence), 0.0 and -0.0 left out (equal keys, and a
#: sign must not be lost).
_FLOATS: dict[float, float] = {}


def shared(value: str) -> str:
    """One string object for each short value that repeats across entries (an enum, a day,
    a file, a tag): 100,000 entries read from a file hold a few hundred, not a million."""
    found = _SHARED.get(value)
    if found is not None:
        return found
    if len(_SHARED) < _SHARED_MAX and len(value) <= 64:
        _SHARED[value] = value
    return value


def _shared_float(value: float) -> float:
    """``shared`` for a number (never a zero: 0.0 == -0.0)."""
    found = _FLOATS.get(value)
    if found is not None:
        return found
    if value and len(_FLOATS) < _SHARED_MAX:
        _FLOATS[value] = value
    return value


def entry_from_row(row: dict[str, Any]) -> Entry:
    """Build an entry from a row or an exported dict (file names or attribute names).

    Unknown columns are kept in ``meta`` so nothing is dropped. Raises
    ``ValueError`` naming the field when a typed cell does not parse.
    """
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    named = _ATTR_NAMED
    for name, value in row.items():
        attr = named.get(name, "")
        if attr:
            values[attr] = value
        else:
            extra[name] = value
    meta = _as_meta(values.get("meta"))
    if extra:
        meta.update({k: v for k, v in extra.items() if v not in (None, "")})
    get, known = values.get, _SHARED.get

    def text(attr: str) -> str:
        value = get(attr)
        return "" if value is None else value if type(value) is str else str(value)

    def common(attr: str, default: str = "") -> str:
        value = get(attr)
        if type(value) is not str:
            value = "" if value is None else str(value)
        return (known(value) or shared(value)) if value else default

    created, updated = common("created"), common("updated")
    return Entry(
        id=text("id"), category=common("category"), key=text("key"), content=text("content"),
        file=common("file"), tags=[known(t) or shared(t) for t in split_list(get("tags"), ";")],
        date=common("date"), ttl=common("ttl"), accessed=_as_int(get("accessed"), "accessed"),
        links=split_list(get("links"), " ;"),
        quality=_as_float(get("quality"), "quality", 0.0),
        confidence=_as_float(get("confidence"), "confidence", 1.0),
        last_accessed=common("last_accessed"), priority=_as_int(get("priority"), "priority"),
        path_scope=common("path_scope"), origin=common("origin", "agent"),
        status=common("status", "active"), superseded_on=common("superseded_on"),
        importance=common("importance"), evidence=common("evidence"),
        created=created, updated=created if updated == created else updated, meta=meta,
    )  # fmt: skip


def is_valid_id(value: str) -> bool:
    return bool(_ID_RE.match(value))


@dataclass(slots=True)
class Summary:
    """A saved summary of one file."""

    file: str
    summary: str
    date: str = ""

    def to_row(self) -> dict[str, Any]:
        return {"file": self.file, "summary": self.summary, "date": self.date}


def _pack(entry: Entry) -> bytes:
    return marshal.dumps(tuple(getattr(entry, name) for name in ATTRIBUTES))


def _unpack(blob: bytes) -> Entry:
    return Entry(*marshal.loads(blob))


class EntryMap(MutableMapping[str, Entry]):
    """Entries by id, in insertion order, shared by the store's state and the search engine.

    Pickles each entry as one ``marshal`` blob and turns a blob back into an
    ``Entry`` on first access, so a cold process that answers one recall
    builds only the entries it touches (the cache holds every entry).
    """

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Entry | bytes] | None = None) -> None:
        self._data: dict[str, Entry | bytes] = data if data is not None else {}

    def __getitem__(self, entry_id: str) -> Entry:
        value = self._data[entry_id]
        if isinstance(value, bytes):
            value = _unpack(value)
            self._data[entry_id] = value  # an existing key keeps its place
        return value

    def __setitem__(self, entry_id: str, entry: Entry) -> None:
        self._data[entry_id] = entry

    def __delitem__(self, entry_id: str) -> None:
        del self._data[entry_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._data

    def __reduce__(self) -> tuple[type[EntryMap], tuple[dict[str, bytes]]]:
        packed = {k: v if isinstance(v, bytes) else _pack(v) for k, v in self._data.items()}
        return (EntryMap, (packed,))
