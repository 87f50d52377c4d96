"""Backups, restore, compaction and health checks for ``Memory``.

Invariant: nothing here deletes user data: restore keeps the replaced file,
doctor only reads, compaction only folds logs into data.toon.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.errors import ToonMemoryError

if TYPE_CHECKING:
    from toon_memory.store.paths import MemoryPaths
    from toon_memory.store.store import Store


class MaintenanceMixin:
    """Maintenance methods of ``Memory``."""

    store: Store
    paths: MemoryPaths

    def backup(self) -> Path:
        """A timestamped full copy in backups/ (newest 10 kept)."""
        from toon_memory.store.backups import create_backup

        return create_backup(self.store)

    def backups(self) -> list[Path]:
        from toon_memory.store.backups import list_backups

        return list_backups(self.paths)

    def restore(self, backup: str | Path | None = None) -> tuple[Path, Path | None]:
        """Bring back the newest good backup; the replaced data.toon is kept beside it."""
        from toon_memory.store.backups import restore_backup

        return restore_backup(self.store, Path(backup) if backup else None)

    def compact(self) -> bool:
        """Fold the journal and access log into data.toon."""
        if not self.paths.folder.is_dir():
            return True
        return self.store.compact()

    def close(self) -> None:
        """Compact on the way out (servers call this on exit); never raises."""
        try:
            if self.store.journal_size() or self.paths.access_log.exists():
                self.store.compact()
        except (ToonMemoryError, OSError):
            return

    def doctor(self) -> list[tuple[str, str]]:
        """Health report: (level, message) pairs, level ok|warn|error."""
        from toon_memory.config import read_json_object
        from toon_memory.store.codec import decode_document
        from toon_memory.store.journal import read_ops

        report: list[tuple[str, str]] = [("ok", f"memory folder: {self.paths.folder}")]
        for path in (self.paths.data, self.paths.archive):
            if not path.exists():
                report.append(("ok", f"{path.name}: not created yet"))
                continue
            try:
                doc = decode_document(path.read_text(encoding="utf-8"), path)
            except (ToonMemoryError, UnicodeDecodeError) as exc:
                report.append(("error", str(exc)))
                continue
            kind = (
                "TypeScript format (migrated on next use)" if doc.migrated_from_ts else "valid TOON"
            )
            report.append(("ok", f"{path.name}: {kind}, {len(doc.entries)} entries"))
        try:
            ops, _ = read_ops(self.paths.journal)
            report.append(("ok", f"journal: {len(ops)} pending operations"))
            read_json_object(self.paths.config)
        except ToonMemoryError as exc:
            report.append(("error", str(exc)))
        report.append(("ok", f"backups: {len(self.backups())}"))
        return report
