"""``--server URL`` / ``--token-env VAR``: a CLI command or a hook talks to a team server.

Invariant: the one place the CLI reaches a team server. ``remote_from`` takes
``--server`` (else ``TOON_MEMORY_SERVER``) and ``--token-env`` (else
``TOON_MEMORY_TOKEN``), checked once by ``installer.remote``; None means the
local memory, and then nothing of ``mcp`` or ``httpx2`` is imported. A call
is one MCP tool call through ``adapters.server.client``: its text is printed
(its structured data with ``--json``), a tool error is passed through as a
``RemoteError``; a missing token is refused before connecting, naming the
variable. The token is read from the environment at the call and never
printed. A hook against a team server (``hook_reply``) is one ``memory_hook``
call: the session id made here (``hook_session_id``: the payload's, else
``<agent>-<pid>`` of this machine's agent), the files relative to the caller's
project, the activity line made (and redacted) here; the server beats,
records or ends that session as a local hook would. Session-start prints
``TEAM_HEADER`` and the server's start context (sessions, then primer) in the
agent's reply shape; a server that refuses ``memory_hook`` (a read token, an
older server) still gives its primer. ``probe_remote`` is ``status`` asking a
remote entry's server for its tools, with the token of the entry's variable.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from toon_memory.adapters.installer.remote import (
    DEFAULT_TOKEN_ENV,
    SERVER_ENV,
    RemoteServer,
    remote_server,
)
from toon_memory.errors import RemoteError

if TYPE_CHECKING:
    from pathlib import Path

    from toon_memory.adapters.server.client import ToolAnswer
    from toon_memory.memory.hooks import HookCall

F = TypeVar("F", bound=Callable[..., Any])
#: The session-start text's first line: where the primer came from.
TEAM_HEADER = "Team memory ({url}):"
#: The tool a hook calls on a team server.
HOOK_TOOL = "memory_hook"


def remote_from(server: str | None, token_env: str | None) -> RemoteServer | None:
    """The team server of a command: ``--server`` or ``TOON_MEMORY_SERVER``; None: local."""
    url = server if server is not None else os.environ.get(SERVER_ENV, "")
    if not url.strip():
        return None
    return remote_server(url, token_env)


def call(remote: RemoteServer, tool: str, arguments: dict[str, Any]) -> ToolAnswer:
    """One tool call on the team server; a tool error becomes a ``RemoteError`` (its text)."""
    answer = _answer(remote, tool, arguments)
    if answer.error:
        raise RemoteError(f"the team server at {remote.url} answered {tool}: {answer.text}")
    return answer


def _answer(remote: RemoteServer, tool: str, arguments: dict[str, Any]) -> ToolAnswer:
    """One tool call's answer, a tool error included (the server could not be reached, or
    refused the token: ``RemoteError``)."""
    from toon_memory.adapters.server.client import call_tools

    token = os.environ.get(remote.token_env, "").strip()
    if not token:
        raise RemoteError(f"no token for the team server at {remote.url}: set {remote.token_env} "
                          "(or name another variable with --token-env)")  # fmt: skip
    (answer,) = call_tools(remote.url, token, remote.token_env, [(tool, arguments)])
    return answer


def show_remote(remote: RemoteServer, tool: str, arguments: dict[str, Any], as_json: bool) -> None:
    """A declared command run on the team server: the tool's text, or its data (``--json``)."""
    from toon_memory.adapters.cli.invocation import emit

    answer = call(remote, tool, arguments)
    data = answer.data if answer.data is not None else {"text": answer.text}
    emit(data, answer.text, as_json)


def hook_reply(remote: RemoteServer, hook: HookCall, root: Path) -> str:
    """What a hook prints against a team server: session-start's context (its sessions and
    primer) in the agent's own reply shape; nothing for the other actions."""
    starting = hook.action == "session-start"
    try:
        answer = _answer(remote, HOOK_TOOL, hook_arguments(hook, root))
    except RemoteError as exc:  # an older server may not know the tool at all
        if not starting or f"Unknown tool: {HOOK_TOOL}" not in str(exc):
            raise
        answer = None
    if answer is not None and answer.error and not starting:
        raise RemoteError(f"the team server at {remote.url} answered {HOOK_TOOL}: {answer.text}")
    if answer is None or answer.error:  # refused (a read token, an older server): the primer
        text = call(remote, "memory_primer", {}).text
    else:
        data = answer.data
        text = str(data.get("context") or "") if isinstance(data, dict) else ""
    if hook.action != "session-start" or not text.strip():
        return ""
    from toon_memory.adapters.installer.replies import context_reply

    reply = TEAM_HEADER.format(url=remote.url) + "\n" + text
    return context_reply(hook.agent, hook.event or "SessionStart", reply)


def hook_arguments(hook: HookCall, root: Path) -> dict[str, Any]:
    """The published arguments of ``memory_hook`` for a hook event of the project at ``root``."""
    from toon_memory.model.heartbeat import normalize_path
    from toon_memory.rules.coordination import activity_summary, hook_session_id

    files = [normalize_path(f, root) for f in hook.files]
    arguments: dict[str, Any] = {
        "action": hook.action, "session_id": hook_session_id(hook.session_id, hook.agent, hook.pid),
        "agent": hook.agent, "event": hook.event, "tool": hook.tool, "files": files,
    }  # fmt: skip
    if hook.action == "post-tool":
        arguments["summary"] = activity_summary(hook.tool, files, hook.payload)
    return {k: v for k, v in arguments.items() if v}


def probe_remote(url: str, token_env: str) -> tuple[str, int, str]:
    """``status``'s probe of a remote entry: ``("answers", tools, "")``, or ``("fails", 0,
    why)``: no variable named, the variable unset (named, never its value), a refused token
    (401), a server that cannot be reached (the URL)."""
    from toon_memory.adapters.installer.remote import remote_server
    from toon_memory.errors import ToonMemoryError

    if not token_env:
        return "fails", 0, "its Authorization header names no environment variable"
    token = os.environ.get(token_env, "").strip()
    if not token:
        return "fails", 0, f"{token_env} is not set here (the agent reads the token from it)"
    try:
        from toon_memory.adapters.server.client import count_tools

        remote = remote_server(url, token_env)
        return "answers", count_tools(remote.url, token, remote.token_env), ""
    except ToonMemoryError as exc:
        return "fails", 0, " ".join(str(exc).split()).replace(token, "***")


def server_options(func: F) -> F:
    """``--server URL`` (``TOON_MEMORY_SERVER``) and ``--token-env VAR`` on a command (a
    function being decorated, or a built ``click.Command``), listed in that order."""
    server = click.option(
        "--server", "server", default=None, metavar="URL",
        help=f"Run on this team server (its /mcp URL) instead of the local memory (default ${SERVER_ENV}).",
    )  # fmt: skip
    token_env = click.option(
        "--token-env", "token_env", default=None, metavar="VAR",
        help=f"The environment variable holding the team server's token (default {DEFAULT_TOKEN_ENV}).",
    )  # fmt: skip
    if isinstance(func, click.Command):  # appended in order
        return token_env(server(func))
    return server(token_env(func))
