"""simple-local-memory records <-> toon-memory entries.

Invariant: a record of simple-local-memory (a daily memory, a preference, a
decision, a lesson or a MEMORY.md section) becomes exactly one entry whose
``meta["slm"]`` keeps everything needed to write the record back
(``type``, ``importance`` float, ``timestamp``, ``source``, ``pos`` and the
original ``record`` minus the fields the entry itself holds), so import then
export loses nothing. Validation raises ``InputError`` naming the field
before anything is written. No I/O.

Type mapping (see docs/simple-local-memory.md): each type maps onto one of
our five categories, and the type name is also added as a tag. We do not add
new categories because ``data.toon`` is shared with every other adapter
(CLI, MCP, the TypeScript original, ``import``), all of which know only the
five categories; the type itself lives in ``meta["slm"]["type"]``.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from datetime import datetime, timezone
from typing import Any

from toon_memory.errors import InputError
from toon_memory.model.checks import check_choice, check_fraction
from toon_memory.model.clock import now_iso
from toon_memory.model.entry import Entry

TYPES: tuple[str, ...] = ("preference", "decision", "fact", "lesson", "context")
CATEGORY_OF_TYPE: dict[str, str] = {
    "preference": "pattern",
    "decision": "decision",
    "fact": "knowledge",
    "lesson": "warning",
    "context": "knowledge",
}
#: The type shown for an entry made by toon-memory itself (no ``meta["slm"]``).
TYPE_OF_CATEGORY: dict[str, str] = {
    "decision": "decision",
    "pattern": "preference",
    "knowledge": "fact",
    "warning": "lesson",
    "bug": "lesson",
}
#: Where a record came from, and so which file it is written back to.
SOURCES: tuple[str, ...] = ("daily", "preferences", "decisions", "lessons", "MEMORY.md")
DEFAULT_IMPORTANCE = 0.5
#: Fields a daily memory keeps in the entry itself rather than in ``record``.
_ENTRY_FIELDS = ("content", "tags")
_WORD = re.compile(r"[a-z0-9]+")
_KEY_BAD = re.compile(r"[^A-Za-z0-9._:\-]+")


def check_type(value: object) -> str:
    return check_choice(value or "", "type", TYPES)


def check_importance(value: object, default: float = DEFAULT_IMPORTANCE) -> float:
    if value is None or value == "":
        return default
    return check_fraction(value, "importance")


def check_content(value: object) -> str:
    text = str(value or "")
    if not text.strip():
        raise InputError("content", "must not be empty")
    return text


def importance_level(value: float) -> str:
    """The float as one of our importance levels (critical/high/medium/low)."""
    if value >= 0.9:
        return "critical"
    if value >= 0.7:
        return "high"
    if value >= 0.4:
        return "medium"
    return "low"


def normalise_timestamp(value: object, fallback: str = "") -> str:
    """Any ISO date or timestamp -> ``YYYY-MM-DDTHH:MM:SSZ`` (UTC); ``fallback`` if unreadable."""
    text = str(value or "").strip()
    if not text:
        return fallback or now_iso()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return fallback or now_iso()
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return f"{moment:%Y-%m-%dT%H:%M:%S}Z"


def slug(text: str, words: int = 5) -> str:
    return "-".join(_WORD.findall(text.lower())[:words])[:40]


def digest(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:8]


def make_key(kind: str, label: str, ident: str) -> str:
    """A key unique per record: ``slm-<kind>-<slug>-<8 hex of the id>``."""
    name = slug(label)
    middle = f"-{name}" if name else ""
    return _KEY_BAD.sub("-", f"slm-{kind}{middle}-{digest(ident)}")[:200]


def new_record_id() -> str:
    return str(uuid.uuid4())


def record_id(record: dict[str, Any]) -> str:
    """The record's id, or a stable one derived from its content."""
    value = str(record.get("id") or "").strip()
    return value or "sha1:" + digest(json.dumps(record, sort_keys=True, ensure_ascii=False))


# -- entries from records ----------------------------------------------------------------


def entry_row(
    *, type_: str, key: str, content: str, importance: float, timestamp: str, source: str,
    record: dict[str, Any], tags: list[str], pos: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """An import row (as ``Memory.import_`` reads it) for one record."""
    slm: dict[str, Any] = {
        "type": type_, "importance": importance, "timestamp": timestamp, "source": source,
        "record": record,
    }  # fmt: skip
    if pos is not None:
        slm["pos"] = pos
    all_tags = list(tags)
    if type_ not in all_tags:
        all_tags.append(type_)
        slm["type_tag"] = True
    return {
        "category": CATEGORY_OF_TYPE[type_], "key": key, "content": content, "tags": all_tags,
        "importance": importance_level(importance), "date": timestamp[:10], "created": timestamp,
        "updated": timestamp, "origin": "import", "meta": {"slm": slm},
    }  # fmt: skip


def tag_list(value: object) -> list[str]:
    if isinstance(value, (list, tuple)):
        items = [str(v).strip() for v in value]
    else:
        items = [t.strip() for t in re.split(r"[,;]", str(value or ""))]
    return list(dict.fromkeys(t for t in items if t))


def daily_row(record: dict[str, Any], day: str, pos: int) -> dict[str, Any]:
    """A row for one memory of ``memories/YYYY-MM-DD.json``."""
    type_ = check_type(record.get("type") or "fact")
    content = check_content(record.get("content"))
    stamp = normalise_timestamp(record.get("timestamp"), f"{day}T00:00:00Z" if day else "")
    ident = record_id(record)
    kept = {k: v for k, v in record.items() if k not in _ENTRY_FIELDS}
    return entry_row(
        type_=type_, key=make_key(type_, content, ident), content=content,
        importance=check_importance(record.get("importance")), timestamp=stamp, source="daily",
        record=kept, tags=tag_list(record.get("tags")), pos=pos,
    )  # fmt: skip


def preference_row(record: dict[str, Any], pos: int) -> dict[str, Any]:
    name = str(record.get("key") or "").strip()
    if not name:
        raise InputError("key", "a preference needs a key")
    value = record.get("value")
    reason = str(record.get("reason") or "").strip()
    content = f"{name}: {value if isinstance(value, str) else json.dumps(value)}"
    content += f" ({reason})" if reason else ""
    return entry_row(
        type_="preference", key=make_key("pref", name, name), content=content,
        importance=check_importance(record.get("importance"), 0.9),
        timestamp=normalise_timestamp(record.get("set_at")), source="preferences",
        record=dict(record), tags=tag_list(record.get("tags")), pos=pos,
    )  # fmt: skip


def decision_row(record: dict[str, Any], pos: int) -> dict[str, Any]:
    title = check_content(record.get("title") or record.get("content"))
    reason = str(record.get("reason") or "").strip()
    return entry_row(
        type_="decision", key=make_key("decision", title, record_id(record)),
        content=f"{title} — {reason}" if reason else title,
        importance=check_importance(record.get("importance"), 0.9),
        timestamp=normalise_timestamp(record.get("made_at") or record.get("timestamp")),
        source="decisions", record=dict(record), tags=tag_list(record.get("tags")), pos=pos,
    )  # fmt: skip


def lesson_row(record: dict[str, Any], pos: int) -> dict[str, Any]:
    text = record.get("content") or record.get("lesson") or record.get("title")
    content = check_content(text)
    stamp = record.get("learned_at") or record.get("timestamp") or record.get("created_at")
    return entry_row(
        type_="lesson", key=make_key("lesson", content, record_id(record)), content=content,
        importance=check_importance(record.get("importance"), 0.9),
        timestamp=normalise_timestamp(stamp), source="lessons", record=dict(record),
        tags=tag_list(record.get("tags")), pos=pos,
    )  # fmt: skip


def section_row(
    section: str, heading: str, pos: int, timestamp: str, occurrence: int = 1
) -> dict[str, Any]:
    """A row for one section of MEMORY.md (kept verbatim), keyed by its heading.

    The key comes from the heading and its occurrence (not the position), so a
    section inserted above others does not change their keys.
    """
    ident = f"{occurrence}:{heading}"
    return entry_row(
        type_="context", key=make_key("memory-md", heading or "preamble", ident),
        content=section, importance=0.8, timestamp=timestamp, source="MEMORY.md",
        record={"heading": heading}, tags=[], pos=pos,
    )  # fmt: skip


# -- records from entries ----------------------------------------------------------------


def slm_meta(entry: Entry) -> dict[str, Any]:
    value = entry.meta.get("slm")
    return value if isinstance(value, dict) else {}


def type_of(entry: Entry) -> str:
    value = slm_meta(entry).get("type")
    if value in TYPES:
        return str(value)
    for tag in entry.tags:
        if tag in TYPES:
            return tag
    return TYPE_OF_CATEGORY.get(entry.category, "fact")


def importance_of(entry: Entry) -> float:
    value = slm_meta(entry).get("importance")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    levels = {"critical": 1.0, "high": 0.8, "medium": 0.5, "low": 0.2}
    return levels.get(entry.importance, DEFAULT_IMPORTANCE)


def timestamp_of(entry: Entry) -> str:
    return str(slm_meta(entry).get("timestamp") or entry.created or f"{entry.date}T00:00:00Z")


def source_of(entry: Entry) -> str:
    value = slm_meta(entry).get("source")
    return str(value) if value in SOURCES else "daily"


def sort_key(entry: Entry) -> tuple[str, bool, int, str, str]:
    pos = slm_meta(entry).get("pos")
    has_pos = isinstance(pos, int)
    return (timestamp_of(entry)[:10], not has_pos, pos if isinstance(pos, int) else 0,
            timestamp_of(entry), entry.id)  # fmt: skip


def user_tags(entry: Entry) -> list[str]:
    meta = slm_meta(entry)
    drop = type_of(entry) if meta.get("type_tag") else None
    return [t for t in entry.tags if t != drop]


def derived_id(entry: Entry) -> str:
    """The record id written for an entry that has none (made by toon-memory itself)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"toon:{entry.id}"))


def daily_record(entry: Entry) -> dict[str, Any]:
    """The entry as a memory of a daily dump, fields in simple-local-memory's order."""
    record = dict(slm_meta(entry).get("record") or {})
    out: dict[str, Any] = {
        "id": record.pop("id", None) or derived_id(entry),
        "type": type_of(entry),
        "content": entry.content,
        "importance": importance_of(entry),
        "tags": user_tags(entry),
        "timestamp": record.pop("timestamp", None) or timestamp_of(entry),
    }
    for name in ("type", "importance"):
        record.pop(name, None)
    out.update(record)
    return out


def curated_record(entry: Entry) -> dict[str, Any]:
    """A record of preferences/decisions/lessons.json: the stored original."""
    record = dict(slm_meta(entry).get("record") or {})
    if source_of(entry) == "lessons" and "content" in record:
        record["content"] = entry.content
    return record
