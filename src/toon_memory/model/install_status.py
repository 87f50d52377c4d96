"""What ``toon-memory status`` found: per agent, the files that hold its part, and their state.

Invariant: plain frozen records (no I/O, no rule): built by the CLI from
``adapters.installer.status`` and rendered by ``render.install``. A file is
fine (``ok``) unless it does not parse, its command names a path missing on
this machine, or its server was started and failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class FileStatus:
    """One file of one agent's install: ``state`` is installed or error (``problem`` says why);
    for an MCP entry, the paths it names that are missing, the step the agent still waits for,
    or the answer of its server (``server`` is answers or fails, ``problem`` why it failed;
    empty when not started); ``remote`` the team server's URL a remote entry points at (its
    ``server``: whether that server answers, with the token of the entry's variable)."""

    scope: str
    path: str
    shown: str
    what: str
    state: str
    problem: str = ""
    missing: tuple[str, ...] = ()
    waiting_for: str = ""
    server: str = ""
    tools: int = 0
    remote: str = ""

    @property
    def ok(self) -> bool:
        return self.state != "error" and not self.missing and self.server != "fails"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"scope": self.scope, "path": self.path, "what": self.what,
                                "state": self.state, "ok": self.ok}  # fmt: skip
        if self.problem:
            data["problem"] = self.problem
        if self.missing:
            data["missing"] = list(self.missing)
        if self.waiting_for:
            data["waiting_for"] = self.waiting_for
        if self.remote:
            data["remote"] = self.remote
        if self.server:
            data["server"] = {"answers": self.server == "answers", "tools": self.tools}
        return data


@dataclass(frozen=True, slots=True)
class AgentStatus:
    """One agent with something of toon-memory installed (or a file that does not parse)."""

    agent: str
    title: str
    files: tuple[FileStatus, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "title": self.title,
            "files": [f.to_dict() for f in self.files],
        }


@dataclass(frozen=True, slots=True)
class InstallStatus:
    """Every agent that has something installed here, in catalog order."""

    agents: tuple[AgentStatus, ...]

    @property
    def ok(self) -> bool:
        return all(f.ok for a in self.agents for f in a.files)

    def to_dict(self) -> dict[str, Any]:
        return {"installed": bool(self.agents), "ok": self.ok,
                "agents": [a.to_dict() for a in self.agents]}  # fmt: skip
