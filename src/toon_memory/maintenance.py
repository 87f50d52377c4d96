"""Backups, restore, compaction, health checks and set-up of a memory folder.

Invariant: nothing here deletes user data: restore keeps the replaced file,
doctor only reads, compaction only folds logs into data.toon, init only
creates what is missing and merges into config.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toon_memory.errors import ToonMemoryError
from toon_memory.store.store import Store


@dataclass(frozen=True)
class InitResult:
    """What ``init`` set up: the memory folder and the project vocabulary it found."""

    folder: Path
    vocab: list[str]
    gitignore: bool = False


class Maintenance:
    """Keeps one memory folder healthy."""

    def __init__(self, store: Store, root: Path, *, project: bool = True) -> None:
        self.store = store
        self.paths = store.paths
        self.root = root
        self.project = project

    def init(self) -> InitResult:
        """Create the memory folder, scan dependency manifests into the tag vocabulary and,
        for a project, add the local-only files to its .gitignore (once)."""
        from toon_memory.config import update_config
        from toon_memory.project.gitignore import ensure_gitignore
        from toon_memory.project.manifests import scan_vocab

        self.store.ensure_folder()
        vocab = scan_vocab(self.root) if self.project else {}
        update_config(self.paths.config, {"vocab": vocab})
        ignored = ensure_gitignore(self.root) if self.project else False
        return InitResult(self.paths.folder, sorted(vocab), ignored)

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
        from toon_memory.store.codec import decode_document
        from toon_memory.store.journal import read_ops
        from toon_memory.store.jsonfile import read_json_object

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
