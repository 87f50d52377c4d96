"""One renderer per operation: a ``Memory`` result in, text and JSON-ready data out.

Invariant: the CLI (text, or the data with ``--json``) and the MCP server
(text as content, data as ``structuredContent`` for data tools) render every
result through these functions, so the two can never drift. Pure: no I/O;
``call`` is the keyword arguments of the ``Memory`` call that produced the
result (for words like the action that the result alone does not carry).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toon_memory.model.entry import Entry, Summary
from toon_memory.render.core import (
    remember_dict,
    render_diff,
    render_entries,
    render_remember,
    render_session_state,
    render_stats,
)

if TYPE_CHECKING:
    from toon_memory.memory.editor import Unpinned
    from toon_memory.memory.maintenance import Checkpoint, InitResult
    from toon_memory.memory.recaller import Primer
    from toon_memory.memory.transfer import ImportReport
    from toon_memory.rules.archiving import ArchiveResult
    from toon_memory.rules.changes import Diff
    from toon_memory.rules.remember import RememberResult
    from toon_memory.rules.stats import Stats
    from toon_memory.search import RecallResult

Call = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Rendered:
    """Text for people and models, and the same answer as JSON-ready data."""

    text: str
    data: Any


def entries_data(entries: list[Entry]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in entries]


def remembered(result: RememberResult, call: Call) -> Rendered:
    return Rendered(render_remember(result), remember_dict(result))


def recalled(result: RecallResult, call: Call) -> Rendered:
    from toon_memory.render.recall import render_recall

    return Rendered(render_recall(result), result.to_dict())


def suggested(entries: list[Entry], call: Call) -> Rendered:
    body = render_entries(entries, empty="No related entries.")
    text = f'🔍 Suggestions for "{call.get("context", "")}":\n\n{body}'
    return Rendered(text, {"results": entries_data(entries)})


def current(entries: list[Entry], call: Call) -> Rendered:
    """The "current" view: pinned entries, then those changed in the last ``days`` days."""
    days = call["days"]
    body = render_entries(entries, empty=f"No entries changed in the last {days} days.")
    text = f"# Current memory (pinned, and changed in the last {days} days)\n\n{body}"
    return Rendered(text, {"days": days, "results": entries_data(entries)})


def shown(entries: list[Entry], call: Call) -> Rendered:
    return Rendered(render_entries(entries, deep=True), {"entries": entries_data(entries)})


def forgotten(entry: Entry, call: Call) -> Rendered:
    action = call.get("action") or "soft"
    return Rendered(
        f"🗑️ {action}: {entry.key} ({entry.id})", {"action": action, "entry": entry.to_dict()}
    )


def pinned(entry: Entry, call: Call) -> Rendered:
    text = f"📌 Pinned {entry.key} ({entry.id}), priority {entry.priority}"
    return Rendered(text, entry.to_dict())


def unpinned(result: Unpinned, call: Call) -> Rendered:
    entry = result.entry
    text = (
        f"Unpinned {entry.key} ({entry.id})"
        if result.was_pinned
        else (f"{entry.key} ({entry.id}) was not pinned; nothing changed")
    )
    return Rendered(text, {**entry.to_dict(), "was_pinned": result.was_pinned})


def tagged(entries: list[Entry], call: Call) -> Rendered:
    lines = [f"🏷️ {e.key}: {';'.join(e.tags) or '(no tags)'}" for e in entries]
    return Rendered("\n".join(lines), {"entries": entries_data(entries)})


def summarised(saved: Summary | None, call: Call) -> Rendered:
    file = str(call.get("file", ""))
    if saved is None:
        return Rendered(f"No summary for {file}.", {"summary": None})
    if call.get("text") is not None:
        return Rendered(f"📝 Summary saved for {saved.file}", saved.to_row())
    dated = f" ({saved.date})" if saved.date else ""
    return Rendered(f"📝 {saved.file}{dated}\n{saved.summary}", saved.to_row())


def statistics(stats: Stats, call: Call) -> Rendered:
    return Rendered(render_stats(stats), stats.to_dict())


def changed(diff: Diff, call: Call) -> Rendered:
    return Rendered(render_diff(diff), diff.to_dict())


def archived(result: ArchiveResult, call: Call) -> Rendered:
    lines = [
        f"📦 Archived {len(result.moved)} entries",
        f"📋 {result.remaining} active entries remain",
    ]
    if result.moved:
        lines.insert(1, "  " + ", ".join(e.key for e in result.moved))
    data = {"archived": [e.key for e in result.moved], "remaining": result.remaining}
    return Rendered("\n".join(lines), data)


def path_found(entries: list[Entry], call: Call) -> Rendered:
    keys = [e.key for e in entries]
    ends = f"{call.get('from_key', '')} to {call.get('to_key', '')}"
    return Rendered(" -> ".join(keys) if keys else f"No path from {ends}.", {"path": keys})


def backed_up(path: Path, call: Call) -> Rendered:
    return Rendered(f"💾 Backup: {path}", {"backup": str(path)})


def checkpointed(result: Checkpoint, call: Call) -> Rendered:
    text = f"💾 Backup: {result.backup}\n{render_remember(result.remembered)}"
    return Rendered(text, {"backup": str(result.backup), **remember_dict(result.remembered)})


def session_state(state: dict[str, Any], call: Call) -> Rendered:
    return Rendered(render_session_state(state), state)


def restored(result: tuple[Path, Path | None], call: Call) -> Rendered:
    used, kept = result
    text = f"♻️ Restored {used}" + (f"\n   previous data.toon kept as {kept}" if kept else "")
    return Rendered(text, {"restored": str(used), "kept": str(kept) if kept else None})


def compacted(done: bool, call: Call) -> Rendered:
    text = "✅ data.toon is complete" if done else "another process compacted first; nothing to do"
    return Rendered(text, {"compacted": done})


def doctored(report: list[tuple[str, str]], call: Call) -> Rendered:
    icons = {"ok": "✅", "warn": "⚠️", "error": "❌"}
    text = "\n".join(f"{icons[level]} {message}" for level, message in report)
    return Rendered(text, [{"level": lv, "message": msg} for lv, msg in report])


def exported(count: int, call: Call) -> Rendered:
    file = str(call.get("path", ""))
    return Rendered(f"📤 Exported {count} entries to {file}", {"exported": count, "file": file})


def imported(report: ImportReport, call: Call) -> Rendered:
    lines = [f"📥 Imported {report.added}, skipped {report.skipped}, repaired {report.repaired}"]
    lines.extend(f"  {message}" for message in report.messages)
    return Rendered("\n".join(lines), report.to_dict())


def initialised(result: InitResult, call: Call) -> Rendered:
    text = f"✅ Memory at {result.folder} ({len(result.vocab)} vocabulary terms)"
    if result.gitignore:
        text += "\n📝 .gitignore: added the memory's local-only files"
    data = {"folder": str(result.folder), "vocab": result.vocab, "gitignore": result.gitignore}
    return Rendered(text, data)


def primed(primer: Primer, call: Call) -> Rendered:
    """The primer: categories, top entries, patterns, warnings, decisions, the session's files.

    The text fits ``primer.budget_tokens`` (lowest-value lines cut first, a
    last line says what was left out); the data lists what the text kept.
    """
    if not primer.top:
        empty = "Empty. Save decisions, patterns, bugs and warnings with memory_remember."
        nothing = {"counts": primer.counts, "top": [], "sections": {},
                   "session_files": primer.session_files, "left_out": {}}  # fmt: skip
        return Rendered(f"# Project memory\n\n{empty}", nothing)
    from toon_memory.render.brief_sections import primer_document
    from toon_memory.render.lines import entry_item

    fitted = primer_document(primer)
    kept = {line for section in fitted.sections for line in section["lines"]}
    data: dict[str, Any] = {
        "counts": primer.counts,
        "top": [{"key": e.key, "id": e.id, "category": e.category}
                for e in primer.top if entry_item(e) in kept],
        "sections": {c: [e.key for e in es if entry_item(e) in kept]
                     for c, es in primer.sections.items()},
        "session_files": [name for name in primer.session_files if f"- {name}" in kept],
        "left_out": fitted.left_out,
        "budget_tokens": fitted.budget_tokens,
    }  # fmt: skip
    return Rendered(fitted.text, data)
