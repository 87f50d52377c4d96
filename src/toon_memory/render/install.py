"""The text and data of ``toon-memory status``: what is installed where, and whether it works.

Invariant: pure (no I/O). One line per agent, then one per file
(``scope path  what: state`` and what is wrong, still awaited, the team server
a remote entry points at, and whether the server answers); the data is
``InstallStatus.to_dict()``.
"""

from __future__ import annotations

from toon_memory.model.install_status import FileStatus, InstallStatus
from toon_memory.render.results import Call, Rendered

NOTHING = "toon-memory is not installed for any agent here (run `toon-memory init`)."


def status_shown(result: InstallStatus, call: Call) -> Rendered:
    """``toon-memory status``: every agent found, each file's state and its server's answer."""
    lines: list[str] = []
    for agent in result.agents:
        lines.append(agent.title)
        lines.extend(file_line(f) for f in agent.files)
    return Rendered("\n".join(lines) if lines else NOTHING, result.to_dict())


def file_line(file: FileStatus) -> str:
    """``  scope   path  what: state`` and, after it, the problem, the missing paths, the
    step awaited or the server's answer."""
    line = f"  {file.scope:7} {file.shown}  {file.what}: {file.state}"
    if file.state == "error":
        return f"{line} ({file.problem})"
    if file.missing:
        return f"{line}; names {', '.join(file.missing)}, which does not exist here"
    if file.remote:
        line += f"; points at the team server {file.remote}"
    if file.waiting_for:
        line += f"; written, waiting for {file.waiting_for}"
    if file.server == "answers":
        return f"{line}; server answers ({file.tools} tools)"
    if file.server == "fails":
        return f"{line}; server fails: {file.problem}"
    return line
