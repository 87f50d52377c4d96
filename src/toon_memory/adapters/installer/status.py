"""What is installed where: per agent, scope and file, read without writing anything.

Invariant: ``inspect`` only reads; a file that does not parse is reported
with its error, never repaired. ``installed`` is True when the agent's MCP
entry (or, for Aider, its ``read:`` item) is present in the scope.
``missing_paths`` names the absolute paths of a written command that do not
exist on this machine (a project file written on another one), after the
agent's workspace variables are put in (``expanded``). A remote entry (a
team server's) has no argv: its ``url`` and ``token_env`` (the variable its
header reads the token from; "" when it names none) are read instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from toon_memory.adapters.installer import blocks, files, texts
from toon_memory.adapters.installer.places import Places
from toon_memory.adapters.installer.shapes import argv_of, env_of, token_env_of, url_of
from toon_memory.adapters.installer.spec import Agent, Block, Entry, ListEntries, OwnedFile, Part
from toon_memory.errors import AgentConfigError


@dataclass(frozen=True)
class FileState:
    """One file of one part: ``state`` is installed, missing, no-file or error."""

    agent: Agent
    scope: str
    path: Path
    what: str
    state: str
    problem: str = ""
    argv: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    url: str = ""
    token_env: str = ""


def _doc_state(part: Entry | ListEntries, path: Path) -> FileState:
    """The state of one config file (agent and scope filled in by the caller)."""
    try:
        text = files.read_text(path)
        if text is None:
            return FileState(NO_AGENT, "", path, part.what, "no-file")
        doc = files.open_config(path, part.fmt, text)
    except AgentConfigError as exc:
        return FileState(NO_AGENT, "", path, part.what, "error", str(exc))
    if not part.present(doc):
        return FileState(NO_AGENT, "", path, part.what, "missing")
    if isinstance(part, Entry) and part.what == "MCP entry":
        entry = doc.get(part.path)
        argv, env = tuple(argv_of(entry) or ()), tuple(sorted(env_of(entry).items()))
        return FileState(NO_AGENT, "", path, part.what, "installed", "", argv, env,
                         url_of(entry) or "", token_env_of(entry) or "")  # fmt: skip
    return FileState(NO_AGENT, "", path, part.what, "installed")


#: The placeholder agent of a file state before ``_part_states`` names the real one.
NO_AGENT = Agent("", "", None, None)


def _text_state(part: OwnedFile | Block, path: Path) -> tuple[str, str]:
    try:
        text = files.read_text(path)
    except AgentConfigError as exc:
        return "error", str(exc)
    if text is None:
        return "no-file", ""
    ours = texts.OWNED_MARK in text if isinstance(part, OwnedFile) else blocks.has_block(text)
    return ("installed" if ours else "missing"), ""


def _part_states(agent: Agent, scope: str, part: Part, places: Places) -> list[FileState]:
    out = []
    for path in part.targets(places):
        if isinstance(part, (Entry, ListEntries)):
            out.append(replace(_doc_state(part, path), agent=agent, scope=scope))
        else:
            state, problem = _text_state(part, path)
            out.append(FileState(agent, scope, path, part.what, state, problem))
    return out


def inspect(agent: Agent, scope: str, places: Places) -> list[FileState]:
    """The state of every file the agent writes in ``scope``."""
    setup = agent.setup(scope)
    if setup is None:
        return []
    return [s for part in setup.parts for s in _part_states(agent, scope, part, places)]


def installed(agent: Agent, scope: str, places: Places) -> bool:
    """True when the agent's server entry (or its main item) is in place for ``scope``."""
    setup = agent.setup(scope)
    if setup is None:
        return False
    main = setup.parts[0]
    return any(state.state == "installed" for state in _part_states(agent, scope, main, places))


WORKSPACE_VARS = ("${workspaceFolder}",)
_WINDOWS_ABS = re.compile(r"^[A-Za-z]:[\\/]")


def expanded(argv: tuple[str, ...], places: Places) -> list[str]:
    """``argv`` with the agents' workspace variables replaced by the project folder."""
    out = []
    for arg in argv:
        for name in WORKSPACE_VARS:
            arg = arg.replace(name, str(places.project))
        out.append(arg)
    return out


def missing_paths(argv: list[str]) -> list[str]:
    """The absolute paths in ``argv`` that do not exist here."""
    paths = [a for a in argv if a.startswith("/") or _WINDOWS_ABS.match(a)]
    return [a for a in paths if not Path(a).exists()]
