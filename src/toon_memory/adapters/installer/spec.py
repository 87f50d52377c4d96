"""The declarative shape of an agent definition and of the parts it writes.

Invariant: a definition is data (paths, format, keys, value builders); the
parts know how to add themselves to a parsed document, find themselves, and
take themselves out again, touching nothing that is not theirs. ``Entry`` is
one keyed value (an MCP server, a named hook object; an MCP entry with a
``remote`` builder can point at a team server instead); ``ListEntries`` are
items we own inside lists (hook groups, Aider's ``read``); ``OwnedFile`` is a
whole file we write; ``Block`` is an instruction block between markers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toon_memory.adapters.installer.command import ServerCommand
from toon_memory.adapters.installer.documents import MISSING, Document
from toon_memory.adapters.installer.places import Place, Places
from toon_memory.adapters.installer.remote import RemoteServer

SCOPES = ("project", "user")
SERVER_NAME = "toon-memory"
PathT = tuple[str | int, ...]


@dataclass(frozen=True)
class Inputs:
    """What value builders see: the server argv and the hook command lines (of ``agent``);
    ``remote`` the team server the entry and the hooks point at (None: the local memory)."""

    argv: list[str]
    command: ServerCommand
    places: Places
    windows: bool = False
    agent: str = ""
    remote: RemoteServer | None = None

    @property
    def hook_args(self) -> tuple[str, ...]:
        """What a hook line adds after ``--agent``: the team server's arguments, if any."""
        return () if self.remote is None else self.remote.hook_args()

    def hook(self, action: str) -> str:
        return self.command.hook_line(action, self.agent, self.windows, self.hook_args)


def prune(doc: Document, path: PathT, backup: Document | None) -> None:
    """Remove containers on ``path`` left empty by us that the original file did not have."""
    while path:
        value = doc.get(path)
        if value not in ({}, []) or (backup is not None and backup.get(path) is not MISSING):
            return
        doc.delete(path)
        path = path[:-1]


def _pick(files: tuple[Place, ...], places: Places, every: bool) -> list[Path]:
    paths = [place.resolve(places) for place in files]
    existing = [path for path in paths if path.exists()]
    if every:
        return existing or paths[:1]
    return existing[:1] or paths[:1]


@dataclass(frozen=True)
class Entry:
    """One value at ``path`` in a config document (ours: the whole value). ``remote``
    builds the value instead when the run points at a team server (an MCP entry only)."""

    files: tuple[Place, ...]
    fmt: str
    path: PathT
    value: Callable[[Inputs], Any]
    what: str = "MCP entry"
    every: bool = False
    remote: Callable[[RemoteServer], Any] | None = None

    def targets(self, places: Places) -> list[Path]:
        return _pick(self.files, places, self.every)

    def install(self, doc: Document, inputs: Inputs) -> None:
        if inputs.remote is not None and self.remote is not None:
            doc.set(self.path, self.remote(inputs.remote))
        else:
            doc.set(self.path, self.value(inputs))

    def uninstall(self, doc: Document, backup: Document | None) -> None:
        if doc.get(self.path) is not MISSING:
            doc.delete(self.path)
            prune(doc, self.path[:-1], backup)

    def present(self, doc: Document) -> bool:
        return doc.get(self.path) is not MISSING


@dataclass(frozen=True)
class ListEntries:
    """Items we own inside lists: ``items`` gives (list path, item); ``ours`` recognises them."""

    files: tuple[Place, ...]
    fmt: str
    items: Callable[[Inputs], list[tuple[PathT, Any]]]
    ours: Callable[[Any], bool]
    paths: tuple[PathT, ...] = ()
    what: str = "hooks"

    def targets(self, places: Places) -> list[Path]:
        return _pick(self.files, places, False)

    def install(self, doc: Document, inputs: Inputs) -> None:
        for path, item in self.items(inputs):
            current = doc.get(path)
            if current is MISSING:
                doc.append(path, item)
            elif not isinstance(current, list):
                if current != item:
                    doc.set(path, [current, item])
            else:
                mine = [i for i, found in enumerate(current) if self.ours(found)]
                for index in reversed(mine[1:]):
                    doc.delete((*path, index))
                if not mine:
                    doc.append(path, item)
                elif current[mine[0]] != item:
                    doc.set((*path, mine[0]), item)

    def uninstall(self, doc: Document, backup: Document | None) -> None:
        for path in self.paths:
            current = doc.get(path)
            before = MISSING if backup is None else backup.get(path)
            if isinstance(current, list):
                for index in reversed([i for i, x in enumerate(current) if self.ours(x)]):
                    doc.delete((*path, index))
                left = doc.get(path)
                if isinstance(before, str) and left == [before]:
                    doc.set(path, before)
            elif current is not MISSING and self.ours(current) and before != current:
                doc.delete(path)
            prune(doc, path, backup)

    def present(self, doc: Document) -> bool:
        for path in self.paths:
            current = doc.get(path)
            found = current if isinstance(current, list) else [current]
            if any(self.ours(x) for x in found if x is not MISSING):
                return True
        return False


@dataclass(frozen=True)
class OwnedFile:
    """A whole file we write (plugin, rule file, block file); removed on uninstall."""

    place: Place
    render: Callable[[Inputs], str]
    what: str = "rule file"

    def targets(self, places: Places) -> list[Path]:
        return [self.place.resolve(places)]


@dataclass(frozen=True)
class Block:
    """An instruction block between markers in the first existing of ``files`` (else the first)."""

    files: tuple[Place, ...]
    kind: str = "mcp"
    what: str = "instruction block"
    default: Place | None = None

    def targets(self, places: Places) -> list[Path]:
        found = [p for p in (place.resolve(places) for place in self.files) if p.exists()]
        return found[:1] or [(self.default or self.files[0]).resolve(places)]


Part = Entry | ListEntries | OwnedFile | Block


@dataclass(frozen=True)
class Setup:
    """What one scope of an agent writes, and what to tell the user afterwards."""

    parts: tuple[Part, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Agent:
    """One agent: names, how to detect it, and what each scope writes (None: unsupported).

    ``project_args`` follow ``mcp`` in a project-scope entry: the agent's own
    workspace variable (``--project ${workspaceFolder}``) where it starts
    servers outside the project; empty where it starts them in the project.
    ``forget`` (scope, places) runs first on uninstall and removes what the
    agent recorded about our parts (Codex's hook trust): (file, action) or None.
    ``no_remote`` says why the agent cannot point at a team server, when its
    server entry has no ``remote`` builder (``remote_ok``).
    """

    id: str
    title: str
    project: Setup | None
    user: Setup | None
    aliases: tuple[str, ...] = ()
    detect: tuple[Place, ...] = ()
    binaries: tuple[str, ...] = ()
    scope_note: str = ""
    project_args: tuple[str, ...] = ()
    forget: Callable[[str, Places], tuple[Path, str] | None] | None = None
    no_remote: str = ""

    def setup(self, scope: str) -> Setup | None:
        return self.project if scope == "project" else self.user

    def remote_ok(self, scope: str) -> bool:
        """True when the scope's server entry can point at a team server (Streamable HTTP,
        the token from an environment variable in the agent's own syntax)."""
        setup = self.setup(scope)
        main = setup.parts[0] if setup is not None and setup.parts else None
        return isinstance(main, Entry) and main.remote is not None

    @property
    def scopes(self) -> tuple[str, ...]:
        return tuple(s for s in SCOPES if self.setup(s) is not None)
