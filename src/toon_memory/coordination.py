"""Sessions of agents working on one memory: heartbeats, soft conflicts, observations, activity.

Invariant: each process writes only its own heartbeat file (``store.sessions``);
reading the sessions never fails on a damaged file, and dead sessions are
pruned only lazily, by a reader; nothing here changes an entry except through
``Editor`` (promoting merged observations). A soft conflict is a file touched
by sessions of two or more *agent processes*: the sessions of one agent (its
hooks and the MCP server it started record the same ``pid``, the agent's)
never conflict with each other. Importing this module is cheap (the MCP
server's tool list reads ``CAPTURED_ACTIONS``); the store and the rules are
imported when a method runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.curation import MergedObservation
    from toon_memory.editing import Editor
    from toon_memory.remember import RememberResult
    from toon_memory.session import Session
    from toon_memory.store.store import Store

#: ``memory_captured`` actions: list the activity log, or clear it.
CAPTURED_ACTIONS: tuple[str, ...] = ("list", "clear")
#: Files of one tool use recorded as separate captured events, at most.
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


# -- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionsReport:
    """``memory_sessions``: the active sessions (newest first) and their soft conflicts."""

    sessions: tuple[Session, ...]
    conflicts: dict[str, tuple[str, ...]]
    window_minutes: int
    now: str
    you: str = ""
    mine: tuple[str, ...] = ()
    conflicts_only: bool = False
    pruned: tuple[str, ...] = ()

    def session(self, session_id: str) -> Session | None:
        return next((s for s in self.sessions if s.id == session_id), None)

    def others(self) -> tuple[Session, ...]:
        """Sessions of other agent processes than yours."""
        return tuple(s for s in self.sessions if s.id not in self.mine)

    def to_dict(self) -> dict[str, Any]:
        sessions = [{**s.to_dict(), "you": s.id == self.you} for s in self.sessions]
        for item in sessions:
            item.pop("notes", None)
        data: dict[str, Any] = {
            "window_minutes": self.window_minutes, "you": self.you or None,
            "conflicts": [{"file": f, "sessions": list(ids)} for f, ids in self.conflicts.items()],
        }  # fmt: skip
        if not self.conflicts_only:
            data["sessions"] = sessions
        return data


@dataclass(frozen=True)
class MergeReport:
    """``memory_merge_sessions``: what parallel sessions observed about one file, merged."""

    file: str
    observations: int
    merged: tuple[MergedObservation, ...]
    promoted: tuple[RememberResult, ...] = ()

    @property
    def sessions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s for m in self.merged for s in m.sessions))

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file, "observations": self.observations,
            "sessions": list(self.sessions), "merged": [m.to_dict() for m in self.merged],
            "promoted": [
                {"key": r.entry.key, "id": r.entry.id, "created": r.created} for r in self.promoted
            ],
        }  # fmt: skip


@dataclass(frozen=True)
class CapturedReport:
    """``memory_captured``: the newest events of the activity log, or how many were cleared."""

    action: str
    enabled: bool
    events: tuple[dict[str, Any], ...] = ()
    cleared: int = 0
    limit: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, "capture": self.enabled}
        if self.action == "clear":
            data["cleared"] = self.cleared
        else:
            data["events"] = list(self.events)
        return data


# -- pure rules -------------------------------------------------------------------------------


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


def check_captured(action: object, limit: object) -> tuple[str, int]:
    from toon_memory.errors import InputError

    name = str(action or "list").strip().lower()
    if name not in CAPTURED_ACTIONS:
        raise InputError("action", f"must be one of {', '.join(CAPTURED_ACTIONS)}; got {action!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InputError("limit", f"must be a whole number of at least 1; got {limit!r}")
    return name, limit


# -- the part ---------------------------------------------------------------------------------


class Sessions:
    """``Memory.sessions``: the coordination of parallel agent sessions."""

    def __init__(self, store: Store, root: Path, editor: Editor) -> None:
        self.store = store
        self.root = root
        self._editor = editor
        #: The session this process beats for (``you`` in reports); ``beat`` sets it.
        self.current = ""

    # -- where and how long ----------------------------------------------------------------
    @property
    def folder(self) -> Path:
        return self.store.paths.folder

    def exists(self) -> bool:
        """Whether the memory folder exists (hooks and the server never create it)."""
        return self.folder.is_dir()

    def window(self) -> int:
        """Minutes within which a heartbeat counts as active (``sessionWindowMinutes``)."""
        from toon_memory.config import load_config
        from toon_memory.session import check_window

        minutes = load_config(self.store.paths.config).session_window_minutes
        return check_window(minutes, "sessionWindowMinutes")

    def capture_enabled(self) -> bool:
        from toon_memory.config import load_config

        return load_config(self.store.paths.config).capture

    # -- heartbeats ------------------------------------------------------------------------
    def get(self, session_id: str) -> Session | None:
        """The session's heartbeat as recorded (active or not), None when there is none."""
        from toon_memory.store.sessions import read_session_file, session_path

        return read_session_file(session_path(self.folder, session_id))

    def beat(
        self, session_id: str, *, agent: str | None, files: Iterable[str] = (),
        notes: Iterable[tuple[str, str]] = (), pid: int | None = None,
    ) -> Session:  # fmt: skip
        """Create or refresh a session's heartbeat (branch from git); it becomes ``current``.

        ``agent=None`` keeps the recorded name; ``pid`` defaults to this process
        (a hook passes its agent's). Creates the memory folder when missing.
        """
        from toon_memory.project.git import current_branch
        from toon_memory.search.paths import normalise_path
        from toon_memory.session import check_session_id
        from toon_memory.store.sessions import beat

        sid = check_session_id(session_id)
        if not self.exists():
            self.store.ensure_folder()
        session = beat(
            self.folder, sid, agent=agent, branch=current_branch(self.root),
            files=[normalise_path(f) for f in files],
            notes=[(normalise_path(f), text) for f, text in notes], pid=pid, root=self.root,
        )  # fmt: skip
        self.current = sid
        return session

    def end(self, session_id: str) -> Session:
        """Mark a session ended (its files released, its notes kept for merging)."""
        from toon_memory.errors import InputError
        from toon_memory.store.sessions import end_session

        ended = end_session(self.folder, session_id) if self.get(session_id) else None
        if ended is None:
            raise InputError("session_id", f"no session {session_id!r}")
        if ended.id == self.current:
            self.current = ""
        return ended

    def tool_used(
        self, session_id: str, *, agent: str | None, files: Sequence[str] = (), tool: str = "",
        summary: str = "", pid: int | None = None,
    ) -> Session:  # fmt: skip
        """A hook's post-tool: heartbeat with the files touched, and the activity log if on.

        Files a reading tool (``is_read_tool``) names are logged but not touched.
        """
        touched = () if is_read_tool(tool) else files
        session = self.beat(session_id, agent=agent, files=touched, pid=pid)
        if self.capture_enabled():
            from toon_memory.store.captured import capture

            base = {"session": session.id, "agent": session.agent, "branch": session.branch,
                    "tool": tool, "summary": summary}  # fmt: skip
            for file in list(files)[:MAX_CAPTURED_FILES] or [""]:
                capture(self.folder, {**base, "file": file})
        return session

    # -- the tools -------------------------------------------------------------------------
    def list(self, conflicts_only: bool = False) -> SessionsReport:
        """Active sessions within the window and their soft conflicts; dead ones pruned."""
        from toon_memory.session import clock_now, format_stamp, is_active
        from toon_memory.store.sessions import prune_sessions, read_sessions

        window, now = self.window(), clock_now()
        pruned = prune_sessions(self.folder, window, now) if self.exists() else []
        active = tuple(s for s in read_sessions(self.folder) if is_active(s, window, now))
        you = self.current if any(s.id == self.current for s in active) else ""
        return SessionsReport(
            sessions=active, conflicts=agent_conflicts(active), window_minutes=window,
            now=format_stamp(now), you=you, mine=same_agent(active, you),
            conflicts_only=bool(conflicts_only), pruned=tuple(pruned),
        )  # fmt: skip

    def merge(self, file: str, promote: bool = False) -> MergeReport:
        """Observations about ``file`` from every session, deduplicated (Jaccard > 0.5).

        With ``promote`` each merged observation becomes (or merges into) a
        knowledge entry about the file, through the usual remember rules.
        """
        from toon_memory.curation import merge_observations, observation_draft
        from toon_memory.errors import InputError
        from toon_memory.remember import draft_entry
        from toon_memory.search.paths import normalise_path
        from toon_memory.session import normalize_path
        from toon_memory.store.observations import file_observations

        name = normalize_path(normalise_path(str(file or "")), self.root)
        if not name:
            raise InputError("file", "must not be empty")
        found = file_observations(self.folder, name)
        merged = tuple(merge_observations(found))
        promoted: tuple[RememberResult, ...] = ()
        if promote:
            promoted = tuple(
                self._editor.remember(draft_entry(**observation_draft(name, item)))
                for item in merged
            )
        return MergeReport(name, len(found), merged, promoted)

    def captured(self, action: str = "list", limit: int = 50) -> CapturedReport:
        """The activity log hooks write when ``capture`` is on: list (newest ``limit``) or clear."""
        from toon_memory.store.captured import clear_captured, read_captured

        name, count = check_captured(action, limit)
        enabled = self.capture_enabled()
        if name == "clear":
            return CapturedReport(name, enabled, cleared=clear_captured(self.folder))
        return CapturedReport(name, enabled, tuple(read_captured(self.folder, count)), limit=count)
