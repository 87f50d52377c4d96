"""The command lines the installer writes: the MCP server and the hooks.

Invariant: a user-scope program is an absolute path that works without PATH —
the ``toon-memory`` script installed beside the running interpreter, else that
interpreter with ``-m toon_memory``. A project-scope file is committed and
cloned, so its program names no path of this machine (``portable``:
``toon-memory`` on PATH, else ``uvx toon-memory``, else ``pipx run
toon-memory``) and its project is the agent's working directory or workspace
variable, never an absolute ``--project``. A hook line names its agent (``hook <action> --agent <id>``), so the
hook knows who runs it without guessing; ``is_our_hook`` recognises any hook
command we ever wrote (with or without ``--agent``), whatever the path of the
program in it, and ``hook_agent`` reads the agent back.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from toon_memory.errors import quote
from toon_memory.model.entry import HOOK_ACTIONS

AGENT_ID = re.compile(r"[a-z0-9][a-z0-9._-]*")
_OURS = re.compile(
    r"(?:toon-memory(?:\.exe)?['\"]?|-m\s+toon_memory)\s+hook\s+"
    rf"({'|'.join(map(re.escape, HOOK_ACTIONS))})\b"
    r"(?:\s+--agent(?:=|\s+)['\"]?([a-z0-9][a-z0-9._-]*))?"
)


@dataclass(frozen=True)
class ServerCommand:
    """How to start toon-memory: ``program`` then ``prefix`` arguments (``-m toon_memory``)."""

    program: str
    prefix: tuple[str, ...] = ()
    why: str = field(default="", compare=False)

    @classmethod
    def installed(cls, python: str | None = None) -> ServerCommand:
        """The ``toon-memory`` next to the running interpreter, else ``python -m toon_memory``."""
        import shutil  # the installer only, not on a hook's path

        interpreter = Path(python or sys.executable).absolute()
        folders = [interpreter.parent, interpreter.parent / "Scripts"]
        for folder in folders:
            found = shutil.which("toon-memory", path=str(folder))
            if found:
                return cls(str(Path(found).absolute()))
        return cls(str(interpreter), ("-m", "toon_memory"))

    @classmethod
    def portable(cls, path: str | None) -> ServerCommand:
        """The command a project file names: found through ``path`` (PATH) on any machine."""
        import shutil

        if shutil.which("toon-memory", path=path):
            return cls("toon-memory", why="toon-memory is on PATH")
        if shutil.which("uvx", path=path):
            return cls("uvx", ("toon-memory",), "toon-memory is not on PATH; uvx is")
        if shutil.which("pipx", path=path):
            return cls("pipx", ("run", "toon-memory"), "toon-memory is not on PATH; pipx is")
        return cls("toon-memory", why="toon-memory is NOT on PATH here: the agents cannot start "
                   "it until it is (pipx install toon-memory)")  # fmt: skip

    @property
    def line(self) -> str:
        return shlex.join(self.argv())

    def argv(self, *args: str) -> list[str]:
        return [self.program, *self.prefix, *args]

    def server_argv(self, *extra: str) -> list[str]:
        """``… mcp`` and the agent's own project arguments (``--project ${workspaceFolder}``)."""
        return self.argv("mcp", *extra)

    def hook_line(
        self,
        action: str,
        agent: str,
        windows: bool = sys.platform.startswith("win"),
        extra: tuple[str, ...] = (),
    ) -> str:
        """The shell line of a hook: ``<program> hook <action> --agent <agent>`` and ``extra``
        (a team server's ``--server URL``), quoted for the shell (``is_our_hook`` and
        ``hook_agent`` read it back)."""
        if action not in HOOK_ACTIONS:
            raise ValueError(f"unknown hook action {quote(action)}")
        if not AGENT_ID.fullmatch(agent):
            raise ValueError(f"not an agent id: {quote(agent)}")
        import subprocess

        parts = self.argv("hook", action, "--agent", agent, *extra)
        return subprocess.list2cmdline(parts) if windows else shlex.join(parts)


def is_our_hook(command: object, action: str | None = None) -> bool:
    """True when ``command`` is a toon-memory hook line (of ``action`` when given)."""
    if not isinstance(command, str):
        return False
    match = _OURS.search(command)
    return match is not None and (action is None or match.group(1) == action)


def hook_agent(command: object) -> str | None:
    """The ``--agent`` of our hook line; ``""`` for a line written before it was named,
    None when ``command`` is not ours."""
    if not isinstance(command, str):
        return None
    match = _OURS.search(command)
    return None if match is None else match.group(2) or ""
