"""One handler per MCP tool: checked arguments in, ``Memory`` call, rendered output out.

Invariant: a handler only maps arguments onto one ``Memory`` method (two for
a checkpoint: backup, then remember) and renders the result with the shared
renderers; it holds no product rule and no ``mcp`` import. It returns text
for ``content`` and, for data tools, a JSON-ready dict for
``structuredContent``. Errors propagate as ``ToonMemoryError``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from toon_memory.errors import InputError
from toon_memory.model import split_list

if TYPE_CHECKING:
    from toon_memory.memory import Memory
    from toon_memory.search import RecallResult


@dataclass(frozen=True, slots=True)
class Output:
    """What a tool returns: text, plus structured data for data tools."""

    text: str
    data: dict[str, Any] | None = None


Handler = Callable[["Memory", dict[str, Any]], Output]


def _recall_output(result: RecallResult) -> Output:
    from toon_memory.render.recall import render_recall

    return Output(render_recall(result), result.to_dict())


def remember(memory: Memory, a: dict[str, Any]) -> Output:
    from toon_memory.render.core import render_remember

    result = memory.remember(a.pop("category"), a.pop("key"), a.pop("content"), **a)
    return Output(render_remember(result))


def recall(memory: Memory, a: dict[str, Any]) -> Output:
    return _recall_output(memory.recall(a.pop("query", ""), **a))


def smart_recall(memory: Memory, a: dict[str, Any]) -> Output:
    return _recall_output(memory.smart_recall(a.pop("intent"), **a))


def search(memory: Memory, a: dict[str, Any]) -> Output:
    if "tags" in a:
        a["tags"] = split_list(a["tags"], ";,")
    return _recall_output(memory.search(a.pop("query", ""), **a))


def suggest(memory: Memory, a: dict[str, Any]) -> Output:
    from toon_memory.render.core import render_entries

    context = a["context"]
    entries = memory.suggest(context, limit=a.get("limit", 5))
    body = render_entries(entries, empty="No related entries.")
    return Output(
        f'🔍 Suggestions for "{context}":\n\n{body}', {"results": [e.to_dict() for e in entries]}
    )


def forget(memory: Memory, a: dict[str, Any]) -> Output:
    action = a.get("action", "soft")
    entry = memory.forget(a["key"], action=action, new_key=a.get("new_key", ""))
    return Output(f"🗑️ {action}: {entry.key} ({entry.id})")


def stats(memory: Memory, a: dict[str, Any]) -> Output:
    from toon_memory.render.core import render_stats

    result = memory.stats()
    return Output(render_stats(result), result.to_dict())


def summary(memory: Memory, a: dict[str, Any]) -> Output:
    saved = memory.summary(a["file"], a.get("summary"))
    if saved is None:
        return Output(f"No summary for {a['file']}.")
    if "summary" in a:
        return Output(f"📝 Summary saved for {saved.file}")
    return Output(f"📝 {saved.file} ({saved.date})\n{saved.summary}")


def archive(memory: Memory, a: dict[str, Any]) -> Output:
    result = memory.archive()
    lines = [
        f"📦 Archived {len(result.moved)} entries",
        f"📋 {result.remaining} active entries remain",
    ]
    if result.moved:
        lines.insert(1, "  " + ", ".join(e.key for e in result.moved))
    return Output("\n".join(lines))


def diff(memory: Memory, a: dict[str, Any]) -> Output:
    from toon_memory.render.core import render_diff

    changes = memory.diff(since=a.get("since", "24h"), type=a.get("type", "all"))
    data = {
        "since": changes["since"],
        "created": [e.to_dict() for e in changes["created"]],
        "updated": [e.to_dict() for e in changes["updated"]],
    }
    return Output(render_diff(changes), data)


def pin(memory: Memory, a: dict[str, Any]) -> Output:
    entry = memory.pin(a["key"], a.get("priority", 1))
    return Output(f"📌 Pinned {entry.key} ({entry.id}), priority {entry.priority}")


def unpin(memory: Memory, a: dict[str, Any]) -> Output:
    entry = memory.unpin(a["key"])
    return Output(f"Unpinned {entry.key} ({entry.id})")


def tag(memory: Memory, a: dict[str, Any]) -> Output:
    entries = memory.tag(a["keys"], a["action"], a["tags"])
    lines = [f"🏷️ {e.key}: {';'.join(e.tags) or '(no tags)'}" for e in entries]
    return Output("\n".join(lines))


def graph_path(memory: Memory, a: dict[str, Any]) -> Output:
    entries = memory.graph_path(a["from_key"], a["to_key"])
    keys = [e.key for e in entries]
    text = " -> ".join(keys) if keys else f"No path from {a['from_key']} to {a['to_key']}."
    return Output(text, {"path": keys})


def backup(memory: Memory, a: dict[str, Any]) -> Output:
    return Output(f"💾 Backup: {memory.backup()}")


def checkpoint(memory: Memory, a: dict[str, Any]) -> Output:
    """A restorable backup, and a 7-day knowledge entry that names it and the state."""
    from toon_memory.render.core import render_remember

    path = memory.backup()
    counts = memory.stats()
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    note = str(a.get("note") or "").strip()
    content = (
        f"Checkpoint {stamp}: {counts.active} active entries; backup {path.name} "
        f"(toon-memory restore --from {path})." + (f" {note}" if note else "")
    )
    result = memory.remember(
        "knowledge", f"checkpoint-{stamp}", content, tags="checkpoint", ttl="7d"
    )
    return Output(f"💾 Backup: {path}\n{render_remember(result)}")


def session_state(memory: Memory, a: dict[str, Any]) -> Output:
    """SESSION-STATE.json of the project: show, set, add, clear (simple-local-memory's hot tier)."""
    from toon_memory.render.core import render_session_state
    from toon_memory.slm.state import LIST_FIELDS, clear_state, read_state, update_state

    action, name = a.get("action", "show"), a.get("field")
    if action in ("set", "add") and name is None:
        raise InputError("field", f"is required for action {action!r}")
    if action in ("set", "add") and a.get("value") is None:
        raise InputError("value", f"is required for action {action!r}")
    raw = a.get("value")
    values: list[str] = raw if isinstance(raw, list) else [str(raw)]
    if action == "show":
        data = read_state(memory.root)
    elif action == "clear":
        data = update_state(memory.root, clear=[name]) if name else clear_state(memory.root)
    elif action == "add":
        data = update_state(memory.root, add={str(name): values})
    else:
        value: Any = values if name in LIST_FIELDS else " ".join(values)
        data = update_state(memory.root, set_fields={str(name): value})
    return Output(render_session_state(data), data)


HANDLERS: dict[str, Handler] = {
    "memory_remember": remember,
    "memory_recall": recall,
    "memory_smart_recall": smart_recall,
    "memory_search": search,
    "memory_suggest": suggest,
    "memory_forget": forget,
    "memory_stats": stats,
    "memory_summary": summary,
    "memory_archive": archive,
    "memory_diff": diff,
    "memory_pin": pin,
    "memory_unpin": unpin,
    "memory_tag": tag,
    "memory_graph_path": graph_path,
    "memory_backup": backup,
    "memory_checkpoint": checkpoint,
    "memory_state": session_state,
}
