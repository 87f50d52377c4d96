"""Hook payloads: what an agent sends a hook on stdin, read into one shape.

Invariant: ``parse_hook_payload`` accepts the payload of any agent in the
reference (Claude Code, Codex, Gemini and Qwen ``session_id``/``cwd``; VS Code
and Grok camelCase ``sessionId``; Cursor ``conversation_id`` and
``workspace_roots``; Cline ``taskId``/``workspaceRoots`` and a nested
``postToolUse``; Goose ``working_dir`` and ``event``; Junie ``project_path``;
Windsurf ``trajectory_id``/``tool_info``; our OpenCode plugin's Claude-style
payload) and never raises on odd field types; it raises ``InputError`` only
when stdin is not a JSON object. Files are returned as given by the agent,
made relative to ``cwd`` when they lie inside it, without duplicates.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from toon_memory.errors import InputError

_SESSION_KEYS = ("session_id", "sessionId", "conversation_id", "conversationId", "taskId",
                 "trajectory_id", "thread_id")  # fmt: skip
_CWD_KEYS = ("cwd", "workspaceRoot", "working_dir", "project_path", "workspace_root")
_ROOTS_KEYS = ("workspace_roots", "workspaceRoots")
_TOOL_KEYS = ("tool_name", "toolName", "tool")
_EVENT_KEYS = ("hook_event_name", "hookEventName", "hookName", "event", "agent_action_name")
_INPUT_KEYS = ("tool_input", "toolInput", "parameters", "args", "tool_info")
_FILE_KEYS = ("file_path", "filePath", "path", "absolute_path", "notebook_path", "target_file",
              "file", "filename")  # fmt: skip
_LIST_KEYS = ("paths", "files", "file_paths")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)
_NESTED = ("postToolUse", "preToolUse", "taskStart", "taskComplete")


@dataclass(frozen=True)
class HookEvent:
    """One hook call: who (session), where (cwd), what (tool, files), and the agent's event name."""

    session_id: str = ""
    cwd: str = ""
    files: tuple[str, ...] = ()
    tool_name: str = ""
    event: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def _first_str(data: dict[str, Any], keys: tuple[str, ...]) -> str:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
    return ""


def _files_in(value: Any, out: list[str], depth: int = 0) -> None:
    if depth > 4:
        return
    if isinstance(value, dict):
        for key in _FILE_KEYS:
            if isinstance(value.get(key), str):
                out.append(value[key])
        for key in _LIST_KEYS:
            if isinstance(value.get(key), list):
                out.extend(item for item in value[key] if isinstance(item, str))
        for key in ("edits", "changes"):
            if isinstance(value.get(key), list):
                for item in value[key]:
                    _files_in(item, out, depth + 1)
        for key in ("input", "patch", "command"):
            if isinstance(value.get(key), str):
                out.extend(_PATCH_FILE.findall(value[key]))
    elif isinstance(value, str):
        out.extend(_PATCH_FILE.findall(value))


def _relative(path: str, cwd: str) -> str:
    if not cwd:
        return path
    try:
        candidate, base = PurePath(path), PurePath(cwd)
        if candidate.is_absolute() and base.is_absolute():
            return candidate.relative_to(base).as_posix()
    except ValueError:
        return path
    return path


def _merged(data: dict[str, Any]) -> dict[str, Any]:
    """The payload with a nested event object (Cline's ``postToolUse``) lifted up."""
    merged = dict(data)
    for key in _NESTED:
        if isinstance(data.get(key), dict):
            for inner, value in data[key].items():
                merged.setdefault(inner, value)
    return merged


def parse_hook_payload(raw: str | bytes, agent: str | None = None) -> HookEvent:
    """Read one hook payload; ``agent`` (an id) only breaks ties and is otherwise unused."""
    try:
        data = json.loads(raw) if raw and str(raw).strip() else {}
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError("stdin", f"hook payload is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InputError("stdin", "hook payload must be a JSON object")
    merged = _merged(data)
    cwd = _first_str(merged, _CWD_KEYS)
    if not cwd:
        for key in _ROOTS_KEYS:
            roots = merged.get(key)
            if isinstance(roots, list) and roots and isinstance(roots[0], str):
                cwd = roots[0]
                break
    found: list[str] = []
    _files_in(merged, found)
    for key in _INPUT_KEYS:
        _files_in(merged.get(key), found)
    files = tuple(dict.fromkeys(_relative(f, cwd) for f in found if f.strip()))
    tool = _first_str(merged, _TOOL_KEYS)
    if agent == "opencode" and not tool:
        tool = _first_str(merged, ("tool",))
    return HookEvent(
        session_id=_first_str(merged, _SESSION_KEYS),
        cwd=cwd,
        files=files,
        tool_name=tool,
        event=_first_str(merged, _EVENT_KEYS),
        raw=data,
    )
