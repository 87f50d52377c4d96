"""Entry shapes shared by the agent definitions, and the reverse: the argv in an entry.

Invariant: every builder turns the server argv (absolute program first) into
exactly the entry the agent's docs show, nothing more (strict schemas such
as OpenCode's reject unknown keys); ``argv_of`` reads the program and
arguments back out of any of these shapes for ``status``. A remote entry
(``http_entry``) points at a team server with the ``Authorization`` header
written in the agent's own interpolation syntax (``${VAR}``, ``$VAR``,
``{env:VAR}``, ``${env:VAR}``): the token never lands in a file;
``url_of`` reads the URL back, ``token_env_of`` the variable's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from toon_memory.adapters.installer.command import is_our_hook
from toon_memory.adapters.installer.places import Place
from toon_memory.adapters.installer.remote import RemoteServer
from toon_memory.adapters.installer.spec import SERVER_NAME, Entry, Inputs, ListEntries, PathT


def stdio(argv: list[str]) -> dict[str, Any]:
    """``{command, args}``: Cursor, Windsurf, Gemini, Qwen, Kimi, Junie, Amp, Trae, OpenClaw…"""
    return {"command": argv[0], "args": argv[1:]}


def typed_stdio(argv: list[str]) -> dict[str, Any]:
    """``{type: stdio, command, args}``: Claude Code and VS Code."""
    return {"type": "stdio", **stdio(argv)}


def opencode_local(argv: list[str]) -> dict[str, Any]:
    """OpenCode / Kilo v7: ``type: local`` and one command array."""
    return {"type": "local", "command": list(argv), "enabled": True}


RemoteShape = Callable[[RemoteServer], dict[str, Any]]


def http_entry(syntax: str, url_key: str = "url", **fixed: Any) -> RemoteShape:
    """A remote entry: ``fixed`` keys first (``type``), the URL under ``url_key``, then
    ``headers.Authorization = "Bearer " + syntax`` (``VAR`` stands for the variable)."""

    def build(remote: RemoteServer) -> dict[str, Any]:
        header = "Bearer " + syntax.replace("VAR", remote.token_env)
        return {**fixed, url_key: remote.url, "headers": {"Authorization": header}}

    return build


#: OpenCode / Kilo: ``type: remote``; ``{env:VAR}`` is their interpolation (checked: ``mcp list``).
opencode_remote = http_entry("{env:VAR}", type="remote", enabled=True)


def codex_http(remote: RemoteServer) -> dict[str, Any]:
    """Codex: ``url`` and ``bearer_token_env_var`` (Codex reads the variable itself)."""
    return {"url": remote.url, "bearer_token_env_var": remote.token_env}


def mcp_entry(files: tuple[Place, ...], fmt: str, key: PathT,
              shape: Callable[[list[str]], dict[str, Any]], every: bool = False,
              remote: RemoteShape | None = None) -> Entry:  # fmt: skip
    """The MCP server entry ``key.toon-memory`` built by ``shape`` (by ``remote`` for a
    team server; None: the agent cannot point at one)."""
    return Entry(files, fmt, (*key, SERVER_NAME), lambda i: shape(i.argv), "MCP entry", every,
                 remote)  # fmt: skip


def url_of(entry: Any) -> str | None:
    """The team server's URL of a remote entry (any shape above), or None."""
    if not isinstance(entry, dict):
        return None
    for key in ("url", "httpUrl", "serverUrl"):
        if isinstance(entry.get(key), str):
            return str(entry[key])
    return None


#: ``Bearer <the variable in one agent's syntax>``: ``${env:VAR}``, ``${VAR}``, ``{env:VAR}``, ``$VAR``.
_BEARER = re.compile(r"Bearer\s+(?:\$\{env:(\w+)\}|\$\{(\w+)\}|\{env:(\w+)\}|\$(\w+))\s*")


def token_env_of(entry: Any) -> str | None:
    """The variable a remote entry reads the token from (Codex's ``bearer_token_env_var``,
    else its ``Authorization`` header), or None."""
    if not isinstance(entry, dict):
        return None
    if isinstance(entry.get("bearer_token_env_var"), str):
        return str(entry["bearer_token_env_var"])
    headers = entry.get("headers")
    header = headers.get("Authorization") if isinstance(headers, dict) else None
    found = _BEARER.fullmatch(header) if isinstance(header, str) else None
    return next((name for name in found.groups() if name), None) if found else None


def argv_of(entry: Any) -> list[str] | None:
    """Program and arguments of a written entry (any shape above), or None."""
    if not isinstance(entry, dict):
        return None
    if isinstance(entry.get("cmd"), str):
        return [entry["cmd"], *map(str, entry.get("args") or [])]
    command = entry.get("command")
    if isinstance(command, list) and command:
        return [str(part) for part in command]
    if isinstance(command, str):
        return [command, *map(str, entry.get("args") or [])]
    return None


def env_of(entry: Any) -> dict[str, str]:
    """Extra environment of a written entry (``env``, ``envs`` or ``environment``)."""
    if not isinstance(entry, dict):
        return {}
    for key in ("env", "envs", "environment"):
        value = entry.get(key)
        if isinstance(value, dict):
            return {str(k): str(v) for k, v in value.items()}
    return {}


def _group_is_ours(group: Any) -> bool:
    handlers = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(handlers, list) and any(
        isinstance(h, dict) and is_our_hook(h.get("command")) for h in handlers
    )


def grouped_hooks(files: tuple[Place, ...], fmt: str, events: tuple[tuple[str, str], ...],
                  handler: Callable[[str, str], dict[str, Any]]) -> ListEntries:  # fmt: skip
    """Claude-style ``hooks.<Event>: [{hooks: [handler]}]`` for each (event, action).

    ``handler(action, line)`` builds the handler object; the group carries no
    matcher (every tool / every source).
    """

    def items(inputs: Inputs) -> list[tuple[PathT, Any]]:
        return [
            (("hooks", event), {"hooks": [handler(action, inputs.hook(action))]})
            for event, action in events
        ]

    paths: tuple[PathT, ...] = tuple(("hooks", event) for event, _ in events)
    return ListEntries(files, fmt, items, _group_is_ours, paths, "hooks")


def command_handler(timeout: int) -> Callable[[str, str], dict[str, Any]]:
    """``{type: command, command, timeout}`` (timeout in the agent's own unit)."""

    def build(action: str, line: str) -> dict[str, Any]:
        return {"type": "command", "command": line, "timeout": timeout}

    return build
