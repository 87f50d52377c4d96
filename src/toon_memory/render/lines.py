"""One markdown line per thing a brief lists: an entry, a session, a commit, a finding.

Invariant: pure functions of their arguments (``now`` is passed in, never
read); each returns one list item (``- …``), whitespace folded, long text
cut with "…" at a fixed number of characters.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from toon_memory.model.entry import Entry

if TYPE_CHECKING:
    from toon_memory.model.heartbeat import Session
    from toon_memory.project.callers import Hit
    from toon_memory.project.languages import Language
    from toon_memory.project.repository import Commit
    from toon_memory.rules.curation import Finding

ENTRY_CHARS = 120
SESSION_FILES = 3
FINDING_LABELS = {
    "orphan_link": "Orphan link", "duplicate": "Duplicate", "broken_file": "Broken file",
    "expired_ttl": "Expired TTL", "missing_evidence": "Missing evidence",
    "stale_claim": "Stale claim", "stale_session": "Stale sessions",
}  # fmt: skip


def cut(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters (an ellipsis marks a cut)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: max(limit - 1, 0)].rstrip() + "…"


def entry_item(entry: Entry, limit: int = ENTRY_CHARS) -> str:
    """``- [category] key: content`` (content cut to ``limit``)."""
    return f"- [{entry.category}] {entry.key}: {cut(entry.content, limit)}"


def entry_short(entry: Entry, limit: int = 100) -> str:
    """``- key: content`` (content cut to ``limit``): the compact export line."""
    return f"- {entry.key}: {cut(entry.content, limit)}"


def entry_full(entry: Entry) -> str:
    """``- **key**: content (file; tags: a, b)`` with the whole content."""
    facts = [entry.file] if entry.file else []
    if entry.tags:
        facts.append("tags: " + ", ".join(entry.tags))
    tail = f" ({'; '.join(facts)})" if facts else ""
    return f"- **{entry.key}**: {cut(entry.content, 10_000)}{tail}"


def ago(seen: datetime | None, now: datetime) -> str:
    """``just now``, ``5m ago``, ``3h ago``, ``2d ago``; ``?`` for an unreadable stamp."""
    if seen is None:
        return "?"
    seconds = max(0, int((now - seen).total_seconds()))
    if seconds < 60:
        return "just now"
    for unit, size in (("d", 86_400), ("h", 3_600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return "just now"  # pragma: no cover - unreachable


def session_item(session: Session, now: datetime) -> str:
    """``- id (agent, branch, 2m ago): 3 files: a, b, c +1``."""
    facts = [f for f in (session.agent, session.branch) if f] + [ago(session.seen_at(), now)]
    files = list(reversed(session.files))  # newest first
    shown = ", ".join(files[:SESSION_FILES]) + (
        f" +{len(files) - SESSION_FILES}" if len(files) > SESSION_FILES else ""
    )
    touched = f": {len(files)} file{'s' if len(files) != 1 else ''}" + (
        f": {shown}" if files else ""
    )
    return f"- {session.id} ({', '.join(facts)}){touched}"


def conflict_item(file: str, ids: list[str]) -> str:
    return f"- ⚠ {file}: touched by {', '.join(ids)}"


def commit_item(commit: Commit) -> str:
    return f"- {commit.short} {commit.date[:10]} {commit.author}: {cut(commit.subject, 100)}"


def language_item(language: Language) -> str:
    """``- Python >=3.11 (pyproject.toml)``; ``- Rust 1.75, edition 2021 (Cargo.toml)``."""
    version = f" {language.version}" if language.version else ""
    edition = f", edition {language.edition}" if language.edition else ""
    source = f" ({language.source})" if language.source else ""
    return f"- {language.name}{version}{edition}{source}"


def finding_item(finding: Finding) -> str:
    return f"- {FINDING_LABELS.get(finding.kind, finding.kind)}: {cut(finding.detail, 160)}"


def caller_item(hit: Hit) -> str:
    return f"- {hit.file}:{hit.line}: {cut(hit.text, 100)}"


def counts_text(counts: dict[str, int]) -> str:
    """``decision 12, pattern 8`` (largest first, then by name); ``none`` when empty."""
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{name} {count:,}" for name, count in ordered) or "none"
