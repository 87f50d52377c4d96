"""The files of a simple-local-memory workspace, read into rows and written from entries.

Invariant: reading never writes and never raises on one bad record (it is
skipped with a note naming file and position); writing is a pure function
from entries to ``{relative path: text}``, so ``import`` then ``export`` of a
workspace gives back the same records (same ids, fields, order) and the same
MEMORY.md sections. File I/O is limited to ``read_*`` here; callers write
with ``write_atomic``.

Layout::

    MEMORY.md                     curated notes, one entry per heading section
    memories/YYYY-MM-DD.json      {"date": ..., "memories": [ {id, type, content, ...} ]}
    memories/preferences.json     {"preferences": [ {key, value, set_at, reason} ]}
    memories/decisions.json       {"decisions": [ {id, title, reason, made_at, status} ]}
    memories/lessons.json         {"lessons": [ {id, content, context, importance, learned_at} ]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from toon_memory.adapters.slm import records as rec
from toon_memory.errors import InputError
from toon_memory.model.clock import now_iso
from toon_memory.model.entry import Entry

MEMORY_MD = "MEMORY.md"
MEMORIES_DIR = "memories"
CURATED: dict[str, Callable[[dict[str, Any], int], dict[str, Any]]] = {
    "preferences": rec.preference_row,
    "decisions": rec.decision_row,
    "lessons": rec.lesson_row,
}
DAY_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.json$")
_HEADING = re.compile(r"^#{1,6}\s")
_FENCE = re.compile(r"^\s*(```|~~~)")
MEMORY_MD_TEMPLATE = (
    "# MEMORY\n\nCurated long-term insights (human-readable). Review memories/ weekly and "
    "add what matters here.\n"
)


@dataclass
class Rows:
    """Import rows gathered from files, with a note for each record skipped."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, label: str, build: Callable[[], dict[str, Any]]) -> None:
        try:
            self.rows.append(build())
        except InputError as exc:
            self.notes.append(f"{label}: skipped: {exc}")


# -- reading -----------------------------------------------------------------------------


def load_json(path: Path) -> Any:
    from toon_memory.memory.import_file import parse_import_json, read_import_text

    return parse_import_json(read_import_text(path), path)


def split_markdown(text: str) -> list[tuple[str, str]]:
    """MEMORY.md -> [(heading, section text)], split before each heading outside code fences."""
    sections: list[list[str]] = [[]]
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced and _HEADING.match(line) and any(s.strip() for s in sections[-1]):
            sections.append([])
        sections[-1].append(line)
    out: list[tuple[str, str]] = []
    for lines in sections:
        body = "\n".join(lines).strip("\n")
        if body.strip():
            first = lines[0] if lines and _HEADING.match(lines[0]) else ""
            out.append((first.lstrip("#").strip(), body))
    return out


def read_markdown(text: str, rows: Rows) -> None:
    stamp = now_iso()
    seen: dict[str, int] = {}
    for pos, (heading, body) in enumerate(split_markdown(text)):
        seen[heading] = seen.get(heading, 0) + 1
        build = partial(rec.section_row, body, heading, pos, stamp, seen[heading])
        rows.add(f"{MEMORY_MD} section {pos + 1}", build)


def _records(data: Any, name: str, label: str, rows: Rows) -> list[tuple[int, dict[str, Any]]]:
    items = data.get(name) if isinstance(data, dict) else data
    if not isinstance(items, list):
        rows.notes.append(f"{label}: skipped: expected a list under {name!r}")
        return []
    good = []
    for pos, item in enumerate(items):
        if isinstance(item, dict):
            good.append((pos, item))
        else:
            rows.notes.append(f"{label} record {pos + 1}: skipped: not an object")
    return good


def _daily(record: dict[str, Any], day: str, pos: int) -> dict[str, Any]:
    """A daily row; a backup's records carry their ``date``, which is not part of the record."""
    if day:
        return rec.daily_row(record, day, pos)
    clean = {k: v for k, v in record.items() if k != "date"}
    return rec.daily_row(clean, str(record.get("date") or ""), pos)


def read_data(data: Any, label: str, rows: Rows, day: str = "") -> None:
    """Rows from one parsed file: a daily dump, a curated file, a backup or a list."""
    if isinstance(data, dict) and not day and DAY_FILE.match(f"{data.get('date', '')}.json"):
        day = str(data["date"])
    if isinstance(data, list) or (isinstance(data, dict) and "memories" in data):
        for pos, record in _records(data, "memories", label, rows):
            rows.add(f"{label} record {pos + 1}", partial(_daily, record, day, pos))
    for name, build in CURATED.items():
        if isinstance(data, dict) and name in data:
            for pos, record in _records(data, name, label, rows):
                rows.add(f"{label} {name} {pos + 1}", partial(build, record, pos))
    if isinstance(data, dict) and isinstance(data.get("memory_md"), str):
        read_markdown(data["memory_md"], rows)


def read_workspace(folder: Path) -> Rows:
    """Every record of a workspace folder (MEMORY.md and memories/)."""
    rows = Rows()
    md = folder / MEMORY_MD
    if md.is_file():
        read_markdown(md.read_text(encoding="utf-8-sig"), rows)
    memories = folder / MEMORIES_DIR
    if memories.is_dir():
        for path in sorted(memories.glob("*.json")):
            match = DAY_FILE.match(path.name)
            if match or path.stem in CURATED:
                read_data(load_json(path), f"{MEMORIES_DIR}/{path.name}", rows,
                          match.group(1) if match else "")  # fmt: skip
    return rows


def read_path(path: Path) -> Rows:
    """Rows from a workspace folder, MEMORY.md, or one JSON file of any known shape."""
    if path.is_dir():
        return read_workspace(path)
    if path.suffix.lower() == ".md":
        rows = Rows()
        read_markdown(path.read_text(encoding="utf-8-sig"), rows)
        return rows
    rows = Rows()
    match = DAY_FILE.match(path.name)
    read_data(load_json(path), path.name, rows, match.group(1) if match else "")
    return rows


# -- writing -----------------------------------------------------------------------------


def dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def daily_files(entries: Iterable[Entry]) -> dict[str, list[dict[str, Any]]]:
    """``{date: [records]}`` for every entry that belongs in a daily dump."""
    days: dict[str, list[dict[str, Any]]] = {}
    for entry in sorted(entries, key=rec.sort_key):
        if rec.source_of(entry) == "daily":
            days.setdefault(rec.timestamp_of(entry)[:10], []).append(rec.daily_record(entry))
    return days


def curated_records(entries: Iterable[Entry]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in CURATED}
    for entry in sorted(entries, key=lambda e: (rec.slm_meta(e).get("pos", 1 << 30), e.created)):
        source = rec.source_of(entry)
        if source in out:
            out[source].append(rec.curated_record(entry))
    return out


def render_markdown(entries: Iterable[Entry]) -> str:
    """MEMORY.md from its stored sections ('' when there are none)."""
    sections = [e for e in entries if rec.source_of(e) == MEMORY_MD]
    sections.sort(key=lambda e: (rec.slm_meta(e).get("pos", 1 << 30), e.created, e.id))
    return "\n\n".join(e.content.strip("\n") for e in sections) + "\n" if sections else ""


def render_workspace(entries: list[Entry]) -> dict[str, str]:
    """``{relative path: text}`` of every workspace file the entries make."""
    files = {f"{MEMORIES_DIR}/{day}.json": dump({"date": day, "memories": records})
             for day, records in daily_files(entries).items()}  # fmt: skip
    for name, records in curated_records(entries).items():
        files[f"{MEMORIES_DIR}/{name}.json"] = dump({name: records})
    markdown = render_markdown(entries)
    if markdown:
        files[MEMORY_MD] = markdown
    return files


def render_backup(entries: list[Entry]) -> dict[str, Any]:
    """One JSON document with everything (``memory-export --format json``)."""
    memories: list[dict[str, Any]] = []
    for day, records in daily_files(entries).items():
        memories.extend({**r, "date": day} for r in records)
    return {
        "format": "simple-local-memory", "version": 1, "exported_at": now_iso(),
        "memories": memories, **curated_records(entries), "memory_md": render_markdown(entries),
    }  # fmt: skip
