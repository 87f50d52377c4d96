"""The operations behind the ``memory-*`` commands, over one ``Memory``.

Invariant: every input is validated (``InputError`` naming the field) before
anything is written; memories go into the store only through ``Memory``
(``remember``, ``import_``, ``forget``, ``archive``), so a store that returns
is durable (the journal is fsync'd) before any workspace file is touched.
Workspace files are written atomically; a daily file (on store) or the
workspace's own MEMORY.md (on export) is rebuilt only after the store has
taken in what it held, so records another tool or a human added survive.
``memory-search`` is ranked by the search engine (``search.blend`` over a
recall); nothing here scores memories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from toon_memory.adapters.slm import records as rec
from toon_memory.adapters.slm import workspace as ws
from toon_memory.errors import InputError, ToonMemoryError
from toon_memory.memory.api import Memory
from toon_memory.model.checks import check_whole
from toon_memory.model.clock import now_iso, parse_date, today
from toon_memory.model.entry import Entry
from toon_memory.search import Blended, blend
from toon_memory.store import hot_state as hot
from toon_memory.store.paths import STORE_DIR
from toon_memory.system.atomic import write_atomic

#: A memory-search result: total = relevance (0..1) + importance + recency (``search.blend``).
Scored = Blended


@dataclass
class ImportSummary:
    added: int = 0
    updated: int = 0
    skipped: int = 0
    messages: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "updated": self.updated, "skipped": self.skipped,
                "messages": list(self.messages)}  # fmt: skip


def workspace(memory: Memory) -> Path:
    return Path(memory.root)


# -- init and store ----------------------------------------------------------------------


def init_workspace(memory: Memory) -> dict[str, Any]:
    """Create SESSION-STATE.json, MEMORY.md and memories/ (existing files are imported)."""
    root = workspace(memory)
    had_files = (root / ws.MEMORY_MD).exists() or (root / ws.MEMORIES_DIR).is_dir()
    first = not any(rec.slm_meta(e) for e in memory.entries(include_inactive=True))
    report = import_path(memory, root) if had_files and first else ImportSummary()
    (root / STORE_DIR).mkdir(parents=True, exist_ok=True)
    created = []
    if hot.init_state(root):
        created.append(hot.STATE_FILE)
    if not (root / ws.MEMORY_MD).exists():
        write_atomic(root / ws.MEMORY_MD, ws.MEMORY_MD_TEMPLATE.encode("utf-8"))
        created.append(ws.MEMORY_MD)
    if not (root / ws.MEMORIES_DIR).is_dir():
        (root / ws.MEMORIES_DIR).mkdir(parents=True)
        created.append(ws.MEMORIES_DIR + "/")
    return {"workspace": str(root), "created": created, "imported": report.to_dict()}


def store_memory(
    memory: Memory, type_: str, content: str, importance: object, *, tags: object = None,
    context: str = "",
) -> tuple[Entry, list[str]]:  # fmt: skip
    """Save one memory (durable when this returns), then refresh today's daily file.

    The memory is stored before the daily file is touched; a daily file that
    cannot be refreshed gives a warning, never a lost memory.
    """
    kind = rec.check_type(type_)
    text = rec.check_content(content)
    weight = rec.check_importance(importance)
    tag_list = rec.tag_list(tags)
    ident, stamp = rec.new_record_id(), now_iso()
    record: dict[str, Any] = {"id": ident, "timestamp": stamp}
    if str(context or "").strip():
        record["context"] = str(context)
    slm = {"type": kind, "importance": weight, "timestamp": stamp, "source": "daily",
           "record": record}  # fmt: skip
    if kind not in tag_list:
        tag_list.append(kind)
        slm["type_tag"] = True
    result = memory.remember(
        rec.CATEGORY_OF_TYPE[kind], rec.make_key(kind, text, ident), text, tags=tag_list,
        importance=rec.importance_level(weight), origin="agent", meta={"slm": slm},
    )  # fmt: skip
    try:
        sync_days(memory, {stamp[:10]}, create=True)
    except (ToonMemoryError, OSError) as exc:
        return result.entry, [f"stored, but memories/{stamp[:10]}.json was not updated: {exc}"]
    return result.entry, []


# -- reading -----------------------------------------------------------------------------


def search(memory: Memory, query: str, limit: int = 5) -> list[Scored]:
    """The recall engine's matches, ranked by the engine's blend of relevance + importance +
    recency (simple-local-memory's formula, with the record's own importance and timestamp).
    """
    text = str(query or "").strip()
    if not text:
        raise InputError("query", "must not be empty")
    check_whole(limit, "limit", 1)
    result = memory.recall(text, limit=max(limit * 5, 50))
    found = blend(result, today=today(), importance=rec.importance_of, day=rec.timestamp_of)
    return found[:limit]


def resolve_day(value: str) -> str:
    text = str(value or "").strip().lower()
    if text == "today":
        return today().isoformat()
    if text == "yesterday":
        return (today() - timedelta(days=1)).isoformat()
    return parse_date(text, "date").isoformat()


def list_memories(
    memory: Memory, *, limit: int | None = None, type_: str = "", day: str = ""
) -> list[Entry]:
    """Newest first; ``limit`` defaults to 10 (all of the day with ``day``); 0 means all."""
    kind = rec.check_type(type_) if type_ else ""
    wanted = resolve_day(day) if day else ""
    if limit is not None:
        check_whole(limit, "limit", 0)
    chosen = [
        e for e in memory.entries()
        if (not kind or rec.type_of(e) == kind)
        and (not wanted or rec.timestamp_of(e)[:10] == wanted)
    ]  # fmt: skip
    chosen.sort(key=lambda e: (rec.timestamp_of(e), e.created, e.id), reverse=True)
    count = limit if limit is not None else (0 if wanted else 10)
    return chosen[:count] if count else chosen


def stats(memory: Memory) -> dict[str, Any]:
    entries = memory.entries()
    by_type = {t: 0 for t in rec.TYPES}
    by_source: dict[str, int] = {}
    for entry in entries:
        by_type[rec.type_of(entry)] += 1
        source = rec.source_of(entry) if rec.slm_meta(entry) else "toon-memory"
        by_source[source] = by_source.get(source, 0) + 1
    stamps = sorted(rec.timestamp_of(e) for e in entries)
    root = workspace(memory)
    day_files = sorted(p.name for p in (root / ws.MEMORIES_DIR).glob("*.json")
                       if ws.DAY_FILE.match(p.name))  # fmt: skip
    weights = [rec.importance_of(e) for e in entries]
    return {
        "workspace": str(root), "total": len(entries), "by_type": by_type,
        "by_source": by_source,
        "today": sum(1 for s in stamps if s[:10] == today().isoformat()),
        "average_importance": round(sum(weights) / len(weights), 3) if weights else 0.0,
        "oldest": stamps[0] if stamps else "", "newest": stamps[-1] if stamps else "",
        "daily_files": len(day_files), "archived": memory.stats().archived,
        "session_state": hot.read_state(root)["last_updated"] if
        hot.state_path(root).exists() else "missing",
    }  # fmt: skip


# -- import / export ---------------------------------------------------------------------


def import_path(memory: Memory, path: Path) -> ImportSummary:
    """Import a workspace folder, MEMORY.md, a daily/curated file, a backup or our own export."""
    target = Path(path)
    if not target.exists():
        raise InputError("file", f"{target} does not exist")
    if target.is_file() and _is_native_export(target):
        report = memory.import_(target)
        return ImportSummary(report.added, 0, report.skipped, list(report.messages))
    found = ws.read_path(target)
    return import_rows(memory, found.rows, found.notes)


def _is_native_export(path: Path) -> bool:
    if path.suffix.lower() == ".toon":
        return True
    if path.suffix.lower() != ".json":
        return False
    data = ws.load_json(path)
    return isinstance(data, dict) and isinstance(data.get("entries"), list)


def import_rows(memory: Memory, rows: list[dict[str, Any]], notes: list[str]) -> ImportSummary:
    """New keys in one journaled import; a changed MEMORY.md section updates its entry."""
    summary = ImportSummary(skipped=len(notes), messages=list(notes))
    known = memory.entries(include_inactive=True)
    active = {e.key: e for e in known if e.active}
    ours = {rec.derived_id(e) for e in known if not rec.slm_meta(e)}
    gone = {e.key for e in known} - set(active)  # forgotten or superseded: stay so
    rows = [r for r in rows if r["meta"]["slm"]["record"].get("id") not in ours]
    rows = [r for r in rows if r["key"] not in gone]
    fresh = [r for r in rows if r["key"] not in active]
    for row in rows:
        old = active.get(row["key"])
        if old is None:
            continue
        if rec.source_of(old) == ws.MEMORY_MD and old.content != row["content"]:
            memory.remember(old.category, old.key, row["content"], tags=old.tags, origin="human")
            summary.updated += 1
        elif old.content != row["content"]:
            summary.skipped += 1
            summary.messages.append(f"{row['key']}: skipped: key exists with other content")
    if fresh:
        report = memory.import_rows(fresh)
        summary.added += report.added
        summary.skipped += report.skipped
        summary.messages.extend(report.messages)
    return summary


def export_json(memory: Memory, output: Path) -> int:
    data = ws.render_backup(memory.entries())
    write_atomic(Path(output), ws.dump(data).encode("utf-8"))
    return len(memory.entries())


def export_workspace(memory: Memory, folder: Path) -> list[str]:
    """Write MEMORY.md and memories/ into ``folder``; returns the files written.

    Exporting into the workspace itself first takes in MEMORY.md, so edits made
    there by hand since the last import are kept, not overwritten.
    """
    markdown = Path(folder) / ws.MEMORY_MD
    if markdown.is_file() and Path(folder).resolve() == workspace(memory).resolve():
        import_path(memory, markdown)
    files = ws.render_workspace(memory.entries())
    for name, text in files.items():
        write_atomic(Path(folder) / name, text.encode("utf-8"))
    return sorted(files)


def sync_days(memory: Memory, days: set[str], *, create: bool = False) -> list[str]:
    """Rebuild these daily files of the workspace (first taking in what they hold).

    Does nothing when the workspace has no ``memories/`` folder (not initialised);
    a missing daily file is written only with ``create``.
    """
    folder = workspace(memory) / ws.MEMORIES_DIR
    if not folder.is_dir():
        return []
    for day in days:
        path = folder / f"{day}.json"
        if path.is_file():
            found = ws.read_path(path)
            import_rows(memory, found.rows, found.notes)
    records = ws.daily_files(memory.entries())
    written = []
    for day in sorted(days):
        path = folder / f"{day}.json"
        if day in records and (create or path.is_file()):
            write_atomic(path, ws.dump({"date": day, "memories": records[day]}).encode("utf-8"))
            written.append(path.name)
        elif path.is_file():
            path.unlink()
    return written


# -- maintenance -------------------------------------------------------------------------


def check_days(days: int) -> int:
    return check_whole(days, "days", 1)


def archive(memory: Memory, days: int) -> list[Entry]:
    """Move memories neither created nor recalled in the last ``days`` days to archive.toon."""
    return memory.archive(older_than_days=check_days(days)).moved


def deduplicate(memory: Memory) -> list[tuple[Entry, Entry]]:
    """Supersede each memory whose type and text repeat another's; keep the most important."""
    groups: dict[tuple[str, str], list[Entry]] = {}
    for entry in memory.entries():
        norm = " ".join(entry.content.casefold().split())
        groups.setdefault((rec.type_of(entry), norm), []).append(entry)
    pairs = []
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda e: (-rec.importance_of(e), e.priority == 0, rec.timestamp_of(e)))
        keeper = group[0]
        for duplicate in group[1:]:
            memory.forget(duplicate.id, action="supersede", new_key=keeper.key)
            pairs.append((duplicate, keeper))
    sync_days(memory, {rec.timestamp_of(d)[:10] for d, _ in pairs if rec.source_of(d) == "daily"})
    return pairs


def cleanup(memory: Memory, days: int) -> list[str]:
    """Delete daily files older than ``days`` days; their memories stay in the store."""
    cutoff = (today() - timedelta(days=check_days(days))).isoformat()
    folder = workspace(memory) / ws.MEMORIES_DIR
    removed = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        match = ws.DAY_FILE.match(path.name)
        if match and match.group(1) < cutoff:
            path.unlink()
            removed.append(path.name)
    return removed
