"""The sessions tools: active sessions and soft conflicts, merged observations, captured activity.

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import Param, ToolSpec
from toon_memory.model.entry import CAPTURED_ACTIONS

SESSIONS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_sessions",
        "Active agent sessions (agent, branch, files, last seen) and soft conflicts: files "
        "touched by 2+ sessions. Check before editing shared files.",
        (Param("conflicts_only", "boolean", "Only the soft conflicts"),),
        read_only=True,
        idempotent=True,
        method="sessions.list",
        render="sessions.sessions_listed",
    ),
    ToolSpec(
        "memory_merge_sessions",
        "Merge what parallel sessions observed about a file (near duplicates folded); "
        "promote saves each as a knowledge entry.",
        (Param("file", doc="Project-relative path"), Param("promote", "boolean")),
        required=("file",),
        method="sessions.merge",
        render="sessions.sessions_merged",
    ),
    ToolSpec(
        "memory_captured",
        "Activity captured by hooks (when capture is on in config.json): list, or clear the log.",
        (
            Param("action", enum=CAPTURED_ACTIONS),
            Param("limit", "integer", "Newest events to list (50)", minimum=1),
        ),
        destructive=True,
        method="sessions.captured",
        render="sessions.captured_shown",
    ),
)
