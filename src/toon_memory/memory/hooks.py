"""What an agent's hook does to a memory: session-start, post-tool and stop, one call each.

Invariant: ``run_hook`` is the whole of a hook's work on the memory (the CLI
only parses the payload and prints the reply): it never creates a memory
folder (no memory is an ``InputError`` naming ``project``); the session id
is the payload's, made safe, else ``<agent>-<pid>``; stop ends a known
session; post-tool records the files touched (and the activity log when
capture is on); session-start beats and, once per session and on every
real start event (``START_EVENTS``), returns what the agent is told: the
sessions report, the primer and the hook's token budget (rendered by
``render.sessions.hook_started``). ``sent_call`` is a hook a client sent a
server (``memory_hook``), checked again there: its session id is the
client's (``hook_session_id``), its summary redacted and cut, and it has no
pid (the client's process is not the server's to check: the session lives
by its beats, and is its own owner in conflicts). ``after_write`` is the MCP server's
heartbeat after a write call: the same no-folder rule, the call's file
touched and its text noted on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from toon_memory.errors import InputError

if TYPE_CHECKING:
    from toon_memory.memory.recaller import Primer
    from toon_memory.memory.sessions import Sessions
    from toon_memory.memory.sessions.reports import SessionsReport
    from toon_memory.model.settings import Config, Limits


class Memory(Protocol):
    """What a hook uses of ``memory.api.Memory`` (named so, that module imports this one)."""

    root: Path

    @property
    def sessions(self) -> Sessions: ...

    @property
    def config(self) -> Config: ...

    def primer(self) -> Primer: ...


#: Agent events that start a session (lower-cased); any other event of a known, live
#: session (Antigravity's PreInvocation, say) only refreshes its heartbeat.
START_EVENTS = frozenset({"sessionstart", "session_start", "agentspawn", "taskstart"})


@dataclass(frozen=True, slots=True)
class HookCall:
    """One hook event as the agent sent it (``event``: its own name for the event;
    ``summary``: the activity line a client already made, else made from ``payload``)."""

    action: str
    agent: str
    pid: int
    session_id: str = ""
    event: str = ""
    tool: str = ""
    files: tuple[str, ...] = ()
    payload: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""


@dataclass(frozen=True, slots=True)
class HookStart:
    """What session-start tells the agent (``budget_tokens``: the config's hook budget)."""

    sessions: SessionsReport
    primer: Primer
    budget_tokens: int


def run_hook(memory: Memory, call: HookCall) -> HookStart | None:
    """Do what ``call.action`` asks; the start context, or None when nothing is to be said."""
    from toon_memory.rules.coordination import hook_session_id

    sessions = memory.sessions
    if not sessions.exists():
        raise InputError("project", f"no memory in {memory.root} (toon-memory init creates one)")
    sid = hook_session_id(call.session_id, call.agent, call.pid)
    if call.action == "stop":
        if sessions.get(sid) is not None:
            sessions.end(sid)
        return None
    if call.action == "post-tool":
        from toon_memory.rules.coordination import activity_summary

        summary = call.summary or activity_summary(call.tool, call.files, call.payload)
        sessions.tool_used(sid, agent=call.agent or None, files=call.files, tool=call.tool,
                           summary=summary, pid=call.pid)  # fmt: skip
        return None
    return _start(memory, sid, call)


def _start(memory: Memory, sid: str, call: HookCall) -> HookStart | None:
    """Beat; then, once per session (and on every real start event), the start context."""
    sessions = memory.sessions
    before = sessions.get(sid)
    sessions.beat(sid, agent=call.agent or None, pid=call.pid)
    starting = not call.event or call.event.strip().lower() in START_EVENTS
    if not starting and before is not None and not before.ended:
        return None
    return HookStart(sessions.list(), memory.primer(), memory.config.hook_budget_tokens)


#: The most files one sent hook event may name.
MAX_SENT_FILES = 100


def sent_call(
    action: str, session_id: str, limits: Limits, *, agent: str = "", event: str = "",
    tool: str = "", files: str | Sequence[str] = (), summary: str = "",
) -> HookCall:  # fmt: skip
    """The checked ``HookCall`` of a hook event a client sent (``memory_hook``), each text
    within ``limits`` first: an ``InputError`` names the bad field."""
    from toon_memory.model.checks import check_choice
    from toon_memory.model.entry import HOOK_ACTIONS
    from toon_memory.model.heartbeat import check_session_id
    from toon_memory.rules.coordination import MAX_SUMMARY_CHARS, redact
    from toon_memory.rules.remember import check_text

    names = {name: check_text(value, name, limits, "key_chars")
             for name, value in (("agent", agent), ("event", event), ("tool", tool))}  # fmt: skip
    line = check_text(summary, "summary", limits, "query_bytes")
    given = files.split(";") if isinstance(files, str) else list(files)
    if len(given) > MAX_SENT_FILES:
        raise InputError("files", f"at most {MAX_SENT_FILES} paths; got {len(given)}")
    paths = tuple(check_text(p, "files", limits, "file_chars").strip() for p in given)
    name = check_choice(action, "action", HOOK_ACTIONS)
    sid = check_session_id(session_id)
    return HookCall(name, names["agent"].strip().lower(), 0, sid, names["event"].strip(),
                    names["tool"].strip(), tuple(p for p in paths if p),
                    summary=" ".join(redact(line).split())[:MAX_SUMMARY_CHARS])  # fmt: skip


#: Published parameters of a write call whose value is an observation about its ``file``.
NOTE_PARAMS = ("content", "summary")


def after_write(
    memory: Memory, session_id: str, *, agent: str, arguments: Mapping[str, Any], pid: int
) -> bool:
    """The heartbeat after a write call (the MCP server's own session): its ``file`` argument
    as a file touched, its ``content``/``summary`` as a note on that file. Never creates a
    memory folder: False (nothing written) when there is none."""
    sessions = memory.sessions
    if not sessions.exists():
        return False
    file = str(arguments.get("file") or "").strip()
    notes = tuple(
        (file, str(arguments[name]))
        for name in NOTE_PARAMS
        if file and isinstance(arguments.get(name), str) and arguments[name].strip()
    )
    sessions.beat(session_id, agent=agent, files=(file,) if file else (), notes=notes, pid=pid)
    return True
