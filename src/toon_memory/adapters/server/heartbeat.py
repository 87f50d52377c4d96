"""The MCP server's own session: a heartbeat when it opens the memory and after each write call.

Invariant: nothing here can fail a tool call or the server (a heartbeat that
cannot be written is logged and skipped); every method runs with the memory
in the server's worker thread, under its lock. The server never creates a
memory folder just to beat: the first beat waits until the folder exists (a
write tool creates it). The id is ``TOON_MEMORY_SESSION`` (when it is a valid
id) or a fresh ``mcp-…``; the agent is ``TOON_MEMORY_AGENT``, else the MCP
client's name; the pid is the agent's process (``store.processes``). A call of
``memory_hook`` beats the hook's own session, not this one. No ``mcp`` import.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.adapters.server.specs import ToolSpec
    from toon_memory.memory.api import Memory

log = logging.getLogger("toon_memory.adapters.server")
#: Write tools that beat a session of their own (the one the call names).
OWN_SESSION_TOOLS = frozenset({"memory_hook"})


def _session_id(environ: Mapping[str, str]) -> str:
    from toon_memory.errors import InputError
    from toon_memory.model.heartbeat import check_session_id, new_session_id

    given = environ.get("TOON_MEMORY_SESSION", "").strip()
    if given:
        try:
            return check_session_id(given)
        except InputError as exc:
            log.warning("TOON_MEMORY_SESSION ignored: %s", exc)
    return new_session_id("mcp")


class ServerSession:
    """The heartbeat of the session this server serves."""

    def __init__(self, client: str = "", environ: Mapping[str, str] | None = None) -> None:
        self._environ = os.environ if environ is None else environ
        self.id = ""
        self.client = client
        self.started = False

    @property
    def agent(self) -> str:
        return self._environ.get("TOON_MEMORY_AGENT", "").strip() or self.client or "mcp"

    def start(self, memory: Memory) -> None:
        """The first heartbeat (when the server opens the memory), unless one was written."""
        if not self.started:
            self._beat(memory, {})

    def after_call(self, memory: Memory, spec: ToolSpec, arguments: Mapping[str, Any]) -> None:
        """After a successful write tool call: ``memory.hooks.after_write`` (its ``file`` a
        file touched, its content a note on it). Reading tools leave the heartbeat alone."""
        if not spec.read_only and spec.name not in OWN_SESSION_TOOLS:
            self._beat(memory, arguments)

    def end(self, memory: Memory) -> None:
        """Mark the session ended (on exit)."""
        if not self.started:
            return
        try:
            memory.sessions.end(self.id)
        except Exception as exc:  # leaving must not fail
            log.warning("session %s not ended: %s", self.id, exc)

    def _beat(self, memory: Memory, arguments: Mapping[str, Any]) -> None:
        from toon_memory.memory.hooks import after_write
        from toon_memory.system.processes import agent_pid

        try:
            self.id = self.id or _session_id(self._environ)
            beaten = after_write(memory, self.id, agent=self.agent, arguments=arguments,
                                 pid=agent_pid())  # fmt: skip
            self.started = self.started or beaten
        except Exception as exc:  # a heartbeat never fails a call
            log.warning("session heartbeat skipped: %s", exc)
