"""Install, uninstall, plan and inspect one agent in one scope.

Invariant: every file is opened once per run and written at most once;
a project-scope run writes the portable command (``scope_command``);
parts that share a file (Gemini's server entry and hooks) are applied to
the same document. A file that cannot be edited is reported in the
``Report`` and the other files of the run go on. Uninstall leaves an
instruction block in place while another installed agent of the same scope
still reads that file (``keep``). A run with a team server (``remote``)
writes the remote entry and hook lines that name the server, and writes
nothing for an agent that cannot point at one (``Agent.remote_ok``): its
report says so.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from toon_memory.adapters.installer import blocks, files, texts
from toon_memory.adapters.installer.command import ServerCommand
from toon_memory.adapters.installer.documents import Document
from toon_memory.adapters.installer.places import Places
from toon_memory.adapters.installer.remote import RemoteServer
from toon_memory.adapters.installer.spec import (
    Agent,
    Block,
    Entry,
    Inputs,
    ListEntries,
    OwnedFile,
    Part,
)
from toon_memory.errors import AgentConfigError

DocPart = Entry | ListEntries


@dataclass(frozen=True)
class Change:
    """One file touched (or not) by a run: ``action`` is created, updated, unchanged,
    removed, restored, absent or error."""

    path: Path
    what: str
    action: str


@dataclass
class Report:
    """What a run did for one agent in one scope."""

    agent: Agent
    scope: str
    changes: list[Change] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def scope_command(scope: str, places: Places, command: ServerCommand) -> ServerCommand:
    """``command`` for the user scope; the portable command (no path of this machine) for
    the project scope, whose files are committed and cloned."""
    return ServerCommand.portable(places.env.get("PATH")) if scope == "project" else command


def inputs_for(scope: str, places: Places, command: ServerCommand, agent: Agent,
               remote: RemoteServer | None = None) -> Inputs:  # fmt: skip
    chosen = scope_command(scope, places, command)
    extra = agent.project_args if scope == "project" else ()
    argv = chosen.server_argv(*extra)
    return Inputs(argv, chosen, places, places.windows, agent.id, remote)


def no_remote(agent: Agent) -> str:
    """Why ``init --server`` skips ``agent``."""
    why = agent.no_remote or f"{agent.title} has no remote (HTTP) MCP entry we can write"
    return f"not supported with --server: {why}; skipped (nothing written)"


def detected(agent: Agent, places: Places) -> bool:
    """True when one of the agent's marker paths exists or its program is on PATH."""
    if any(place.resolve(places).exists() for place in agent.detect):
        return True
    path = places.env.get("PATH")
    return any(shutil.which(name, path=path) for name in agent.binaries)


def plan(agent: Agent, scope: str, places: Places, remote: bool = False) -> list[tuple[Path, str]]:
    """(file, what) pairs a run would write (with a team server: ``remote``), touching nothing."""
    setup = agent.setup(scope)
    if setup is None or (remote and not agent.remote_ok(scope)):
        return []
    return [(path, part.what) for part in setup.parts for path in part.targets(places)]


def _grouped(parts: Iterable[Part], places: Places) -> dict[Path, list[DocPart]]:
    by_file: dict[Path, list[DocPart]] = {}
    for part in parts:
        if isinstance(part, (Entry, ListEntries)):
            for path in part.targets(places):
                by_file.setdefault(path, []).append(part)
    return by_file


def _root_of(part: Part, places: Places) -> Path:
    place = part.place if isinstance(part, OwnedFile) else part.files[0]
    return place.root(places)


def _run_docs(report: Report, parts: list[Part], places: Places, inputs: Inputs | None) -> None:
    installing = inputs is not None
    for path, group in _grouped(parts, places).items():

        def apply(doc: Document, backup: Document | None, group: list[DocPart] = group) -> None:
            for part in group:
                if inputs is not None:
                    part.install(doc, inputs)
                else:
                    part.uninstall(doc, backup)

        what = " + ".join(dict.fromkeys(part.what for part in group))
        try:
            action = files.edit_config(
                path, group[0].fmt, _root_of(group[0], places), installing, apply
            )
        except AgentConfigError as exc:
            report.errors.append(str(exc))
            action = "error"
        report.changes.append(Change(path, what, action))


def _owned(part: OwnedFile, places: Places, inputs: Inputs | None) -> str:
    path = part.place.resolve(places)
    text = files.read_text(path)
    if text is not None and texts.OWNED_MARK not in text:
        raise AgentConfigError(path, None, "exists and was not written by toon-memory")
    if inputs is None:
        return "absent" if text is None else files.delete_file(path, part.place.root(places))
    return files.write_text(path, text, part.render(inputs), installing=True)


def _block(part: Block, path: Path, places: Places, installing: bool) -> str:
    stop = part.files[0].root(places)
    body = texts.body(part.kind)
    if installing:
        return files.edit_text(path, stop, True, lambda text: blocks.add_block(text, body))
    return files.edit_text(path, stop, False, blocks.remove_block)


def _run_texts(report: Report, parts: list[Part], places: Places, inputs: Inputs | None,
               keep: set[Path]) -> None:  # fmt: skip
    for part in parts:
        if not isinstance(part, (OwnedFile, Block)):
            continue
        for path in part.targets(places):
            try:
                if isinstance(part, OwnedFile):
                    action = _owned(part, places, inputs)
                elif inputs is None and path in keep:
                    action = "kept"
                else:
                    action = _block(part, path, places, inputs is not None)
            except AgentConfigError as exc:
                report.errors.append(str(exc))
                action = "error"
            report.changes.append(Change(path, part.what, action))


def install(agent: Agent, scope: str, places: Places, command: ServerCommand,
            remote: RemoteServer | None = None) -> Report:  # fmt: skip
    """Write the agent's entries, hooks, plugin and instruction block for ``scope`` (pointing
    at the team server ``remote`` when given)."""
    report = Report(agent, scope)
    setup = agent.setup(scope)
    if setup is None:
        report.notes.append(agent.scope_note or f"{agent.title} has no {scope}-scope config")
        return report
    if remote is not None and not agent.remote_ok(scope):
        report.notes.append(no_remote(agent))
        return report
    inputs = inputs_for(scope, places, command, agent, remote)
    _run_docs(report, list(setup.parts), places, inputs)
    _run_texts(report, list(setup.parts), places, inputs, set())
    report.notes.extend(setup.notes)
    return report


def uninstall(agent: Agent, scope: str, places: Places, keep: set[Path] | None = None) -> Report:
    """Remove only what ``install`` writes; files in ``keep`` keep their instruction block."""
    report = Report(agent, scope)
    setup = agent.setup(scope)
    if setup is None:
        return report
    if agent.forget is not None:
        try:
            forgot = agent.forget(scope, places)
        except AgentConfigError as exc:
            report.errors.append(str(exc))
            forgot = None
        if forgot is not None:
            report.changes.append(Change(forgot[0], "hook trust", forgot[1]))
    _run_texts(report, list(setup.parts), places, None, keep or set())
    _run_docs(report, list(setup.parts), places, None)
    return report


def block_files(agent: Agent, scope: str, places: Places) -> set[Path]:
    """Files holding this agent's instruction block in ``scope``."""
    setup = agent.setup(scope)
    if setup is None:
        return set()
    return {
        path for part in setup.parts if isinstance(part, Block) for path in part.targets(places)
    }


def remove_created_gitignore(root: Path) -> Path | None:
    """Delete ``root/.gitignore`` when it holds exactly the block ``init`` created (no line
    of the user's); the path removed, else None."""
    from toon_memory.project.gitignore import LINES, MARK

    path = root / ".gitignore"
    if files.read_text(path) != MARK + "\n" + "\n".join(LINES) + "\n":
        return None
    path.unlink()
    return path
