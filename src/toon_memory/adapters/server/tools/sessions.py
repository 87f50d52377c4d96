"""The sessions tools: active sessions and soft conflicts, merged observations, captured activity.

Invariant: pure data (no I/O, no ``mcp``, no click); each tool also declares its CLI
command (``command``, ``help``, ``Param.cli``; ``sessions`` takes this terminal's session
from TOON_MEMORY_SESSION, a CLI-only option); every enum is a core constant.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import Param, ToolSpec, obj_schema
from toon_memory.model.entry import CAPTURED_ACTIONS, HOOK_ACTIONS

SESSIONS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_sessions",
        "Active agent sessions (agent, branch, files, last seen) and soft conflicts: files "
        "touched by 2+ sessions. Check before editing shared files.",
        (
            Param("conflicts_only", "boolean", "Only the soft conflicts").on_cli(
                help="Only the soft conflicts."
            ),
            Param("session").on_cli(
                help="This terminal's session, marked as you (env TOON_MEMORY_SESSION).",
                envvar="TOON_MEMORY_SESSION",
                only=True,
            ),
        ),
        read_only=True,
        idempotent=True,
        method="sessions.list",
        render="sessions.sessions_listed",
        command="sessions",
        help="Active agent sessions (agent, branch, files, last seen) and soft conflicts.\n\n"
        "The session named by TOON_MEMORY_SESSION is marked as you.",
    ),
    ToolSpec(
        "memory_merge_sessions",
        "Merge what parallel sessions observed about a file (near duplicates folded); "
        "promote saves each as a knowledge entry.",
        (
            Param("file", doc="Project-relative path").on_cli(argument=True),
            Param("promote", "boolean").on_cli(help="Save each merged observation as a memory."),
        ),
        required=("file",),
        method="sessions.merge",
        render="sessions.sessions_merged",
        command="merge-sessions",
        help="Merge what parallel sessions observed about FILE (near duplicates folded).",
    ),
    ToolSpec(
        "memory_captured",
        "Activity captured by hooks (when capture is on in config.json): list, or clear the log.",
        (
            Param("action", enum=CAPTURED_ACTIONS).on_cli(argument=True),
            Param("limit", "integer", "Newest events to list (50)", minimum=1).on_cli(
                help="Newest events to list.", show_default=True
            ),
        ),
        destructive=True,
        method="sessions.captured",
        render="sessions.captured_shown",
        command="captured",
        help="Activity captured by hooks (capture on in config.json): list, or clear the log.",
    ),
    ToolSpec(
        "memory_hook",
        "An agent hook's event: session-start returns the start context; post-tool records "
        "files touched; stop ends the session.",
        (
            Param("action", enum=HOOK_ACTIONS),
            Param("session_id"),
            Param("agent"),
            Param("event"),
            Param("tool"),
            Param("files", doc="a;b", many=True),
            Param("summary"),
        ),
        required=("action", "session_id"),
        output=obj_schema(context={"type": "string"}),
        method="hook_event",
        render="sessions.hook_done",
    ),
)
