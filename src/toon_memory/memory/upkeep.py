"""The upkeep and transfer calls of ``Memory``: the folder made, backed up and restored,
compacted, caught up and closed, checked, exported and imported (``Upkeep``, a mixin of
``Memory``, which provides what is declared here).

Invariant: each call is one call of ``Maintenance`` or ``Transfer`` (they hold the rules);
none of them builds the search engine for its own sake.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.memory.maintenance import InitResult, Maintenance
    from toon_memory.memory.recaller import Recaller
    from toon_memory.memory.transfer import ImportReport, Progress, Transfer
    from toon_memory.model.entry import Summary


class Upkeep:
    """``Memory``'s upkeep and transfer calls (see the module docstring)."""

    _upkeep: Maintenance
    _recaller: Recaller
    _transfer: Transfer

    # -- upkeep ----------------------------------------------------------
    def init(self) -> InitResult:
        """Create the memory folder and scan dependency manifests into the tag vocabulary."""
        return self._upkeep.init()

    def backup(self) -> Path:
        """A timestamped full copy in backups/ (newest 10 kept)."""
        return self._upkeep.backup()

    def backups(self) -> list[Path]:
        """Timestamped backups, newest first."""
        return self._upkeep.backups()

    def restore(self, backup: str | Path | None = None) -> tuple[Path, Path | None]:
        """Bring back the newest good backup; the replaced data.toon is kept beside it."""
        return self._upkeep.restore(backup)

    def compact(self) -> bool:
        """Fold the journal and access log into data.toon."""
        return self._upkeep.compact(self._recaller.lean)

    def refresh(self) -> None:
        """Catch up with the store's head without a client's query: the loaded state, else
        the on-disk index this memory opened, take the writes made since (through another
        process or server); what was never opened stays unopened. A team server calls this
        on a write notice; any store allows it (a file memory reads its journal's tail)."""
        self._recaller.refresh()

    def close(self) -> None:
        """Compact on the way out (servers call this on exit); never raises."""
        self._upkeep.close(self._recaller.lean)

    def doctor(self) -> list[tuple[str, str]]:
        """Health report: (level, message) pairs, level ok|warn|error."""
        return self._upkeep.doctor()

    # -- transfer --------------------------------------------------------
    def export(self, path: str | Path) -> int:
        """Write every entry and summary to a JSON file; return the entry count."""
        return self._transfer.export(path)

    def import_(
        self, path: str | Path, allow_secrets: bool = False, progress: Progress | None = None
    ) -> ImportReport:
        """Bring entries in from a file; duplicates by key are skipped and reported, and so
        are rows holding a credential unless ``allow_secrets``; ``progress(done, total)``
        hears how many rows are checked."""
        return self._transfer.import_(path, allow_secrets, progress)

    def import_rows(
        self, rows: list[dict[str, Any]], summaries: list[Summary] | None = None,
        notes: list[str] | None = None, allow_secrets: bool = False,
    ) -> ImportReport:  # fmt: skip
        """Bring in entry objects (export or file-column names); the same rules as ``import_``."""
        return self._transfer.import_rows(rows, summaries, notes, allow_secrets)
