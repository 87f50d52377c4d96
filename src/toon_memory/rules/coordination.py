"""The pure rules of session coordination: conflicts between agents, hook ids, activity lines.

Invariant: pure (no I/O). A soft conflict is a file touched by not-ended
sessions of two or more *agent processes*; the sessions of one agent (its
hooks and the MCP server it started record the same ``pid``, the agent's)
never conflict with each other. Activity summaries never carry a secret the
patterns below recognise, and never exceed ``MAX_SUMMARY_CHARS``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.model.heartbeat import Session

MAX_CAPTURED_FILES = 10
MAX_SUMMARY_CHARS = 200
#: First words of tool names that only read (their files are not "touched").
READ_TOOL_WORDS = frozenset({"read", "view", "list", "ls", "glob", "grep", "search", "find",
                             "fetch", "web", "cat", "open", "get", "lsp"})  # fmt: skip
_DETAIL_KEYS = ("command", "cmd", "description", "query", "pattern", "url", "prompt")
_RESPONSE_KEYS = frozenset({"tool_response", "toolResponse", "toolResult", "result", "response",
                            "output", "tool_output", "transcript_path"})  # fmt: skip
_SECRETS = (
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", "<redacted>"),
    (r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}", "<redacted>"),
    (r"\bAKIA[0-9A-Z]{16}\b", "<redacted>"),
    (r"\bgh[pousr]_[A-Za-z0-9]{20,}", "<redacted>"),
    (r"\bxox[abprs]-[A-Za-z0-9-]{10,}", "<redacted>"),
    (r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}", r"\1<redacted>"),
    (
        r"(?i)((?:password|passwd|secret|token|api[_-]?key|access[_-]?key)[\"']?\s*[=:]\s*[\"']?)"
        r"[^\s\"']{6,}",
        r"\1<redacted>",
    ),
)


def _owner(session: Session) -> tuple[str, ...]:
    """The agent process a session belongs to: (host, pid), or the session alone (no pid)."""
    return ("pid", session.host, str(session.pid)) if session.pid > 1 else ("id", session.id)


def agent_conflicts(sessions: Iterable[Session]) -> dict[str, tuple[str, ...]]:
    """Files touched by not-ended sessions of two or more agent processes -> their sorted ids.

    With one session per process this is ``session.soft_conflicts``.
    """
    owners: dict[str, dict[tuple[str, ...], set[str]]] = {}
    for session in sessions:
        if session.ended:
            continue
        for file in session.files:
            owners.setdefault(file, {}).setdefault(_owner(session), set()).add(session.id)
    return {
        file: tuple(sorted(set().union(*by.values())))
        for file, by in sorted(owners.items())
        if len(by) >= 2
    }


def same_agent(sessions: Iterable[Session], session_id: str) -> tuple[str, ...]:
    """The ids of ``session_id`` and of every session of the same agent process."""
    found = tuple(sessions)
    me = next((s for s in found if s.id == session_id), None)
    if me is None:
        return (session_id,) if session_id else ()
    return tuple(s.id for s in found if _owner(s) == _owner(me))


def hook_session_id(given: str, agent: str, parent_pid: int) -> str:
    """A session id from an agent's payload, made a safe file stem; else ``<agent>-<pid>``."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", str(given or "")).strip("-._")[:128]
    if stem:
        return stem
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", str(agent or "")).strip("-._")[:40] or "agent"
    return f"{name}-{parent_pid}"


def is_read_tool(tool: str) -> bool:
    """Whether a tool name says it only reads (``Read``, ``read_file``, ``NotebookRead``…)."""
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+", str(tool or "").rsplit("__", 1)[-1])
    lowered = [w.lower() for w in words]
    return bool(lowered) and (lowered[0] in READ_TOOL_WORDS or lowered[-1] == "read")


def redact(text: str) -> str:
    """``text`` with API keys, tokens, private keys and ``password=…`` values replaced."""
    for pattern, replacement in _SECRETS:
        text = re.sub(pattern, replacement, text, flags=re.S)
    return text


def _detail(value: Any, depth: int = 0) -> str:
    if depth > 3 or not isinstance(value, Mapping):
        return ""
    for key in _DETAIL_KEYS:
        found = value.get(key)
        if isinstance(found, str) and found.strip():
            return found
    for key, inner in value.items():
        if key not in _RESPONSE_KEYS and isinstance(inner, Mapping):
            text = _detail(inner, depth + 1)
            if text:
                return text
    return ""


def activity_summary(tool: str, files: Sequence[str], payload: Mapping[str, Any]) -> str:
    """One line for the activity log: the tool, the files, and a redacted command or query."""
    detail = " ".join(redact(_detail(payload)).split())
    head = " ".join(part for part in (tool or "tool", ", ".join(files[:3])) if part)
    text = f"{head}: {detail}" if detail else head
    return text if len(text) <= MAX_SUMMARY_CHARS else text[: MAX_SUMMARY_CHARS - 1] + "…"
