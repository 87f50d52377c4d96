"""Backups, restore, compaction, health checks and set-up of a memory folder.

Invariant: nothing here deletes user data: restore keeps the replaced file
(and sets a damaged journal's unreadable lines aside), doctor only reads and
names every file it cannot read, compaction only folds logs into data.toon,
init only creates what is missing and merges into config.json.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toon_memory.errors import ToonMemoryError
from toon_memory.store.store import Store
from toon_memory.system.oserrors import explain

if TYPE_CHECKING:
    from toon_memory.rules.remember import RememberResult


@dataclass(frozen=True)
class InitResult:
    """What ``init`` set up: the memory folder and the project vocabulary it found."""

    folder: Path
    vocab: list[str]
    gitignore: bool = False


@dataclass(frozen=True)
class Checkpoint:
    """A restorable backup and the 7-day knowledge entry that names it."""

    backup: Path
    remembered: RememberResult


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
        from toon_memory.project.gitignore import ensure_gitignore
        from toon_memory.project.manifests import scan_vocab
        from toon_memory.store.config import update_config

        self.store.ensure_folder()
        vocab = scan_vocab(self.root) if self.project else {}
        update_config(self.paths.config, {"vocab": vocab})
        ignored = ensure_gitignore(self.root) if self.project else False
        return InitResult(self.paths.folder, sorted(vocab), ignored)

    def backup(self) -> Path:
        """A timestamped full copy in backups/ (newest 10 kept)."""
        from toon_memory.store.backups import create_backup

        return create_backup(self.store)

    def checkpoint(
        self, note: str, allow_secrets: bool, remember: Callable[..., RememberResult]
    ) -> Checkpoint:
        """A backup, then ``remember`` of a 7-day knowledge entry naming it, the active count
        and ``note``; a credential in the note (unless ``allow_secrets``) writes neither."""
        from toon_memory.model.clock import file_stamp, today
        from toon_memory.rules.remember import check_text
        from toon_memory.rules.secrets import check_fields
        from toon_memory.rules.stats import compute_stats
        from toon_memory.store.config import load_config

        extra = check_text(note, "note", load_config(self.paths.config).limits).strip()
        check_fields({"note": extra}, allow_secrets)
        path = self.backup()
        entries = self.store.state().entries.values()
        active = compute_stats(entries, today(), self.store.archived_count()).active
        stamp = file_stamp()[:15]
        content = (
            f"Checkpoint {stamp}: {active} active entries; backup {path.name} "
            f"(toon-memory restore --from {path})." + (f" {extra}" if extra else "")
        )
        remembered = remember("knowledge", f"checkpoint-{stamp}", content, tags="checkpoint",
                              ttl="7d", allow_secrets=allow_secrets)  # fmt: skip
        return Checkpoint(path, remembered)

    def backups(self) -> list[Path]:
        from toon_memory.store.backups import list_backups

        return list_backups(self.paths)

    def restore(self, backup: str | Path | None = None) -> tuple[Path, Path | None]:
        """Bring back the newest good backup; the replaced data.toon is kept beside it."""
        from toon_memory.store.backups import restore_backup

        return restore_backup(self.store, Path(backup) if backup else None)

    def compact(self, sync: Callable[[], object] | None = None) -> bool:
        """Fold the journal and access log into data.toon (``sync``: ``Store.compact``'s)."""
        if not self.paths.folder.is_dir():
            return True
        return self.store.compact(sync)

    def close(self, sync: Callable[[], object] | None = None) -> None:
        """Compact on the way out (servers call this on exit); never raises."""
        try:
            if self.store.journal_size() or self.paths.access_log.exists():
                self.store.compact(sync)
        except (ToonMemoryError, OSError):
            return

    def doctor(self) -> list[tuple[str, str]]:
        """Health report: (level, message) pairs, level ok|warn|error."""
        from toon_memory.system.jsonfile import read_json_object

        report: list[tuple[str, str]] = [("ok", f"memory folder: {self.paths.folder}")]
        if self.paths.folder.is_dir() and not self.store.writable():
            report.append(
                ("warn", "the memory folder is read-only: reads work, changes are refused")
            )
        if self.store.local():
            report.append(self._check_database())
        else:
            for path in (self.paths.data, self.paths.archive):
                report.append(self._check_document(path))
            report.extend(self._check_journal())
        try:
            read_json_object(self.paths.config)
        except ToonMemoryError as exc:
            report.append(("error", str(exc)))
        except OSError as exc:
            report.append(("error", str(explain(exc, self.paths.config))))
        report.append(("ok", f"backups: {len(self.backups())}"))
        return report

    def _check_database(self) -> tuple[str, str]:
        """A team memory: the database answers, at this code's schema."""
        try:
            count = len(self.store.state().entries)
        except ToonMemoryError as exc:
            return ("error", str(exc))
        return ("ok", f"entries live in {self.store.local()}: {count} entries")

    def _check_document(self, path: Path) -> tuple[str, str]:
        from toon_memory.store.data_rows import count_rows

        if not path.exists():
            return ("ok", f"{path.name}: not created yet")
        counted = count_rows(path)  # a file in our own shape: counted a row at a time
        if counted is not None:
            return ("ok", f"{path.name}: valid TOON, {counted} entries")
        try:
            doc = self.store.read_document(path)
        except ToonMemoryError as exc:
            return ("error", str(exc))
        except OSError as exc:
            return ("error", str(explain(exc, path)))
        kind = "TypeScript format (migrated on next use)" if doc.migrated_from_ts else "valid TOON"
        return ("ok", f"{path.name}: {kind}, {len(doc.entries)} entries")

    def _check_journal(self) -> list[tuple[str, str]]:
        from toon_memory.store.damage import BROKEN_JOURNAL
        from toon_memory.store.journal import read_ops

        try:
            read = read_ops(self.paths.journal)
        except OSError as exc:
            return [("error", str(explain(exc, self.paths.journal)))]
        report = [("ok", f"journal: {len(read.ops)} pending operations")]
        if read.damaged:
            lines = ", ".join(str(n) for n in read.damaged[:10])
            report.append((
                "warn",
                f"{self.paths.journal}: {len(read.damaged)} unreadable line(s) (line {lines}); "
                f"the next use replays the rest and moves them to {BROKEN_JOURNAL}<time>",
            ))  # fmt: skip
        if self.paths.folder.is_dir():
            for kept in sorted(self.paths.folder.glob(f"{BROKEN_JOURNAL}*")):
                report.append((
                    "warn",
                    f"{kept}: unreadable journal lines set aside ({kept.stat().st_size} bytes); "
                    "look at them, then delete the file",
                ))  # fmt: skip
        return report
