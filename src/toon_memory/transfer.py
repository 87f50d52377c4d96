"""Export and import for ``Memory``.

Invariant: export writes every entry (all statuses) and summary as JSON
``{"version": 1, "entries": [...], "summaries": [...]}``; import reads that,
a plain JSON list of entry objects (at least key and content), or a
``.toon`` file (ours or the TypeScript original's), adds entries whose key is
not active yet, skips the others, and reports every skip and repair: nothing
is dropped silently. Import validates everything before one journaled write.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.clock import now_iso, today
from toon_memory.errors import ImportFormatError, InputError
from toon_memory.model import CATEGORIES, Entry, Summary, entry_from_row, is_valid_id
from toon_memory.remember import new_id
from toon_memory.store import journal
from toon_memory.store.atomic import write_atomic

if TYPE_CHECKING:
    from toon_memory.store.state import State
    from toon_memory.store.store import Store


@dataclass
class ImportReport:
    added: int = 0
    skipped: int = 0
    repaired: int = 0
    messages: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "skipped": self.skipped, "repaired": self.repaired,
                "messages": list(self.messages)}  # fmt: skip


def read_import_text(path: Path) -> str:
    """The text of a file to import; a clear error when it is missing or not UTF-8."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("file", f"{path} does not exist") from None
    except UnicodeDecodeError:
        raise ImportFormatError(f"{path}: not UTF-8 text") from None


def parse_import_json(text: str, path: Path) -> Any:
    """JSON of a file to import; ``ImportFormatError`` naming file and line when invalid."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from None


def read_import_file(path: Path) -> tuple[list[dict[str, Any]], list[Summary], list[str]]:
    """Rows, summaries and reader notes from an export, a JSON list or a .toon file."""
    text = read_import_text(path)
    if text.lstrip()[:1] in ("{", "["):
        return _rows_from_json(parse_import_json(text, path), path)
    from toon_memory.store.codec import decode_document

    doc = decode_document(text, path)
    return [e.to_dict() for e in doc.entries], doc.summaries, list(doc.repairs)


def _rows_from_json(data: Any, path: Path) -> tuple[list[dict[str, Any]], list[Summary], list[str]]:
    rows = data.get("entries") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ImportFormatError(
            f"{path}: expected a JSON list of entries or an object with 'entries'"
        )
    notes = [
        f"entry {n}: not an object, skipped"
        for n, r in enumerate(rows, 1)
        if not isinstance(r, dict)
    ]
    summaries: list[Summary] = []
    if isinstance(data, dict):
        for item in data.get("summaries") or []:
            if isinstance(item, dict) and item.get("file"):
                summaries.append(
                    Summary(
                        str(item["file"]), str(item.get("summary", "")), str(item.get("date", ""))
                    )
                )
    return [r for r in rows if isinstance(r, dict)], summaries, notes


def _is_skip(note: str) -> bool:
    """A reader's note is either a skipped row or a repaired one, never both."""
    return note.startswith("skipped") or note.endswith(", skipped")


def _is_duplicate(entry: Entry, state: State, seen: set[str]) -> bool:
    """An active key already taken, or the very same entry (id or key+content) already stored."""
    if entry.active:
        return state.by_key(entry.key) is not None or entry.key in seen
    same = state.entries.get(entry.id)
    if same is not None and same.key == entry.key:
        return True
    return any(e.key == entry.key and e.content == entry.content for e in state.entries.values())


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


def _category_tag(category: str) -> str:
    """A foreign category as a tag: lower-case, words joined by ``-``, no ``;``."""
    return "-".join(category.replace(";", " ").lower().split())


def _keep_category(entry: Entry, unknown: Counter[str]) -> None:
    """A category we do not have: ``knowledge``, the original kept as a tag and in meta."""
    original = entry.category.strip()
    unknown[original] += 1
    tag = _category_tag(original)
    if original:
        entry.meta.setdefault("category", original)
    if tag and tag not in entry.tags:
        entry.tags.append(tag)
    entry.category = "knowledge"


def _keep_time(entry: Entry) -> None:
    """Created/updated from the source; the import time noted in meta when they were derived."""
    stamp = source_time(entry)
    if not entry.created:
        entry.meta.setdefault("imported", now_iso())
    entry.date = entry.date or (stamp[:10] if stamp else today().isoformat())
    entry.created = stamp or now_iso()
    entry.updated = entry.updated or entry.created


def category_notice(unknown: Counter[str]) -> str:
    """The one report line about foreign categories (``""`` when there were none)."""
    if not unknown:
        return ""
    counts = ", ".join(f"{name or '(empty)'} ×{n}" for name, n in sorted(
        unknown.items(), key=lambda item: (-item[1], item[0])))  # fmt: skip
    total = sum(unknown.values())
    return (f"{total} entr{'y' if total == 1 else 'ies'} with a category toon-memory does not "
            f"have ({counts}): stored as knowledge, the original kept as a tag and in "
            "meta.category")  # fmt: skip


def _admit(
    row: dict[str, Any],
    number: int,
    state: State,
    seen: set[str],
    report: ImportReport,
    unknown: Counter[str],
) -> Entry | None:
    label = f"entry {number} ({row.get('key', '?')})"
    try:
        entry = entry_from_row(row)
    except ValueError as exc:
        report.skipped += 1
        report.messages.append(f"{label}: skipped: {exc}")
        return None
    if not entry.key.strip() or not entry.content.strip():
        report.skipped += 1
        report.messages.append(f"{label}: skipped: key and content are required")
        return None
    if _is_duplicate(entry, state, seen):
        report.skipped += 1
        report.messages.append(f"{label}: skipped: already in memory")
        return None
    if entry.category.strip().lower() in CATEGORIES:
        entry.category = entry.category.strip().lower()
    else:
        report.repaired += 1
        _keep_category(entry, unknown)
    if not is_valid_id(entry.id) or entry.id in state.entries:
        entry.id = new_id(state.entries)
    _keep_time(entry)
    if entry.origin not in ("human", "agent", "inferred", "import"):
        entry.origin = "import"
    if entry.active:
        seen.add(entry.key)
    return entry


def _supersede_repeated_keys(rows: list[dict[str, Any]], report: ImportReport) -> None:
    """A key repeated inside one import file: the last row wins, earlier ones become history."""
    last: dict[str, int] = {}
    for number, row in enumerate(rows):
        if str(row.get("status") or "active") == "active" and row.get("key"):
            last[str(row["key"])] = number
    for number, row in enumerate(rows):
        key = str(row.get("key") or "")
        if key in last and last[key] != number and str(row.get("status") or "active") == "active":
            row["status"] = "superseded"
            row["supersededOn"] = str(rows[last[key]].get("date") or today().isoformat())
            report.repaired += 1
            report.messages.append(
                f"entry {number + 1} ({key}): key repeated later in the file; kept as history"
            )


class Transfer:
    """Moves entries in and out of one memory."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def export(self, path: str | Path) -> int:
        """Write every entry and summary to a JSON file; return the entry count."""
        state = self.store.state()
        entries = [e.to_dict() for e in state.entries.values()]
        payload = {
            "version": 1,
            "entries": entries,
            "summaries": [s.to_row() for s in state.summaries.values()],
        }
        target = Path(path)
        write_atomic(target, (json.dumps(payload, ensure_ascii=False, indent=2) + "\n").encode())
        return len(entries)

    def import_(self, path: str | Path) -> ImportReport:
        """Bring entries in from a file; duplicates by key are skipped and reported."""
        rows, summaries, notes = read_import_file(Path(path))
        return self.import_rows(rows, summaries, notes)

    def import_rows(
        self,
        rows: list[dict[str, Any]],
        summaries: list[Summary] | None = None,
        notes: list[str] | None = None,
    ) -> ImportReport:
        """Bring in entry objects (export or file-column names); the same rules as ``import_``."""
        notes = list(notes or [])
        summaries = list(summaries or [])
        report = ImportReport(messages=list(notes))
        skipped = sum(1 for note in notes if _is_skip(note))
        report.skipped += skipped
        report.repaired += len(notes) - skipped

        _supersede_repeated_keys(rows, report)

        def apply(state: State) -> tuple[list[journal.Op], ImportReport]:
            seen: set[str] = set()
            unknown: Counter[str] = Counter()
            ops: list[journal.Op] = []
            taken = set(state.entries)
            for number, row in enumerate(rows, start=1):
                entry = _admit(row, number, state, seen, report, unknown)
                if entry is not None:
                    while entry.id in taken:
                        entry.id = new_id(taken)
                    taken.add(entry.id)
                    ops.append(journal.put(entry.to_row()))
                    report.added += 1
            ops.extend(journal.put_summary(s.file, s.summary, s.date) for s in summaries
                       if s.file not in state.summaries)  # fmt: skip
            if unknown:
                report.messages.append(category_notice(unknown))
            return ops, report

        return self.store.mutate(apply)
