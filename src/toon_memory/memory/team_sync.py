"""Moving a project's memory between its files and a team database (``team push``/``pull``).

Invariant: each direction is one merge with the remember merge rules (``sharing.merge_into``)
in one write of its target, and never changes its source; pushing or pulling twice changes
nothing the second time, and a pull that brings nothing new leaves data.toon byte for byte.
A pull that changed the memory folds it into data.toon at once (it is what git shares).
Entries holding a credential stay behind (reported) unless ``allow_secrets``; an encrypted
memory is never copied in clear into a database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toon_memory.memory.sharing import SyncReport
    from toon_memory.store.store import Store
    from toon_memory.store.team.team_store import TeamStore


def _team(local: Store, url: str, name: str) -> TeamStore:
    from toon_memory.search import INDEX_VERSION, Engine
    from toon_memory.store.team.team_store import TeamStore

    return TeamStore(local.paths, url, name, Engine.over, str(INDEX_VERSION))


def push(local: Store, url: str, name: str,
         allow_secrets: bool = False) -> SyncReport:  # fmt: skip
    """Merge this project's entries and file summaries into the team database."""
    from toon_memory.memory.sharing import SyncReport, merge_into, refuse_clear_copy

    target = _team(local, url, name)
    if local.encrypted():
        refuse_clear_copy("a push to a team database")
    state = local.state()
    report = SyncReport(str(local.paths.folder), target.local())
    entries = [entry.copy() for entry in state.entries.values()]
    return merge_into(target, entries, list(state.summaries.values()), report, allow_secrets)


def pull(local: Store, url: str, name: str,
         allow_secrets: bool = False) -> SyncReport:  # fmt: skip
    """Merge the team database's entries and file summaries into this project's files."""
    from toon_memory.memory.sharing import SyncReport, merge_into

    source = _team(local, url, name)
    state = source.state()
    report = SyncReport(source.local(), str(local.paths.folder))
    entries = [entry.copy() for entry in state.entries.values()]
    merge_into(local, entries, list(state.summaries.values()), report, allow_secrets)
    if report.changed:
        local.compact()
    return report
