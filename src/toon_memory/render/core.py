"""Text output of the core operations, shared by the CLI and the MCP server.

Invariant: pure functions from results to short, token-lean text; the same
result always renders the same way. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from toon_memory.model.entry import Entry

if TYPE_CHECKING:
    from toon_memory.rules.changes import Diff
    from toon_memory.rules.remember import RememberResult
    from toon_memory.rules.stats import Stats


def entry_line(entry: Entry) -> str:
    return f"[{entry.category}] {entry.key} ({entry.id})"


def entry_block(entry: Entry, *, deep: bool = False) -> str:
    lines = [entry_line(entry), f"  {entry.content}"]
    facts = []
    if entry.file:
        facts.append(f"File: {entry.file}")
    if entry.tags:
        facts.append(f"Tags: {';'.join(entry.tags)}")
    facts.append(f"Date: {entry.date}")
    if entry.status != "active":
        facts.append(
            f"Status: {entry.status}" + (f" {entry.superseded_on}" if entry.superseded_on else "")
        )
    lines.append("  " + " | ".join(facts))
    if entry.links:
        lines.append(f"  links: {' '.join(entry.links)}")
    if deep:
        extra = {k: v for k, v in entry.to_dict().items()
                 if k not in ("id", "category", "key", "content", "file", "tags", "date", "links") and v not in ("", [], {}, 0)}  # fmt: skip
        lines.extend(f"  {k}: {v}" for k, v in extra.items())
    return "\n".join(lines)


def render_remember(result: RememberResult) -> str:
    entry = result.entry
    verb = "Saved" if result.created else "Merged into"
    lines = [f"🧠 {verb}: {entry.category}/{entry.key} ({entry.id})",
             f"🎯 Quality: {entry.quality:.2f} | Confidence: {entry.confidence:.2f} | Evidence: {entry.evidence}"]  # fmt: skip
    if entry.ttl:
        lines.append(f"⏰ TTL: {entry.ttl}")
    if result.inferred_tags:
        lines.append(f"🏷️ Inferred tags: {';'.join(result.inferred_tags)}")
    if result.history is not None:
        lines.append(f"📜 Previous content kept as history ({result.history.id})")
    lines.extend(f"⚠️ {warning}" for warning in result.warnings)
    if result.archived:
        lines.append(
            f"📦 Auto-archived {len(result.archived)}: " + ", ".join(e.key for e in result.archived)
        )
    if result.related:
        lines.append("🔗 Related:")
        lines.extend(f"  [{e.category}] {e.key} — {e.content[:80]}" for e in result.related)
    return "\n".join(lines)


def remember_dict(result: RememberResult) -> dict[str, Any]:
    return {
        "entry": result.entry.to_dict(), "created": result.created, "merged": result.merged,
        "history": result.history.to_dict() if result.history else None,
        "inferred_tags": result.inferred_tags, "warnings": result.warnings,
        "related": [{"key": e.key, "id": e.id, "category": e.category} for e in result.related],
        "archived": [e.key for e in result.archived],
    }  # fmt: skip


def render_entries(
    entries: Iterable[Entry], *, deep: bool = False, empty: str = "No entries."
) -> str:
    blocks = [entry_block(e, deep=deep) for e in entries]
    return "\n\n".join(blocks) if blocks else empty


def render_stats(stats: Stats) -> str:
    def pairs(data: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(data.items())) or "none"

    return "\n".join([
        f"📊 {stats.active} active / {stats.total} total entries, {stats.archived} archived, {stats.pinned} pinned",
        f"categories: {pairs(stats.by_category)}",
        f"origin: {pairs(stats.by_origin)} · status: {pairs(stats.by_status)}",
        f"TTL: {stats.with_ttl} with TTL, {stats.expired} expired, {stats.expiring_7d} expiring in 7d",
        f"quality: {pairs(stats.quality)} · average {stats.average_quality:.2f} · cold {stats.cold}",
        f"hit rate {stats.hit_rate:.0%} · duplicates {stats.duplicate_rate:.0%} · obsolete {stats.obsolete_rate:.0%}",
    ])  # fmt: skip


def authored(entry: Entry) -> str:
    """`` — by NAME`` for an entry whose last change has an author (a team token), else ""."""
    author = entry.meta.get("author")
    return f" — by {author}" if isinstance(author, str) and author else ""


def render_diff(diff: Diff) -> str:
    lines = [f"📋 Changes since {diff.since}:"]
    for label, icon, items in (("created", "➕", diff.created), ("updated", "✏️", diff.updated)):
        if items:
            lines.append(f"{icon} {label.capitalize()} ({len(items)}):")
            lines.extend(f"  {entry_line(e)}{authored(e)}\n    {e.content[:100]}" for e in items)
    return "\n".join(lines) if len(lines) > 1 else lines[0] + " none"


def render_session_state(state: dict[str, Any]) -> str:
    """SESSION-STATE.json as short text."""
    lines = [f"current_task: {state.get('current_task') or '-'}"]
    for name in ("key_context", "pending_actions", "recent_decisions"):
        lines.append(f"{name}:")
        lines.extend(f"  - {item}" for item in state.get(name) or [])
    lines.append(f"last_updated: {state.get('last_updated') or '-'}")
    return "\n".join(lines)
