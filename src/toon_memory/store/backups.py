"""Backups of a memory folder and restoring from them.

Invariant: a backup is a complete, decodable copy of the memory (snapshot
plus journal folded in); at most ``KEEP`` timestamped backups are kept,
newest first; ``restore`` never deletes the file it replaces (the broken one
is kept beside it) and only restores a backup that decodes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from toon_memory.clock import file_stamp
from toon_memory.errors import CorruptFileError, StoreError
from toon_memory.store.atomic import write_atomic
from toon_memory.store.codec import decode_document, encode_document
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.store import Store

KEEP = 10
PREFIX = "data-"


def list_backups(paths: MemoryPaths) -> list[Path]:
    """Timestamped backups, newest first."""
    if not paths.backups.is_dir():
        return []
    return sorted(paths.backups.glob(f"{PREFIX}*.toon"), reverse=True)


def create_backup(store: Store) -> Path:
    """Write the full current memory to a new backup and prune to the newest ``KEEP``."""
    state = store.state()
    text = encode_document(list(state.entries.values()), list(state.summaries.values()))
    target = store.paths.backups / f"{PREFIX}{file_stamp()}.toon"
    write_atomic(target, text.encode())
    for old in list_backups(store.paths)[KEEP:]:
        old.unlink(missing_ok=True)
    return target


def _decodes(path: Path) -> bool:
    try:
        decode_document(path.read_text(encoding="utf-8"), path)
    except (CorruptFileError, UnicodeDecodeError, OSError):
        return False
    return True


def restore_backup(store: Store, backup: Path | None = None) -> tuple[Path, Path | None]:
    """Put the newest good backup (or ``backup``) in place of data.toon.

    Returns (restored backup, where the replaced data.toon was kept). The
    journal stays, so writes made after the backup are replayed over it.
    """
    candidates = [backup] if backup else list_backups(store.paths)
    good = next((path for path in candidates if path is not None and _decodes(path)), None)
    if good is None:
        raise StoreError(f"{store.paths.backups}: no backup that decodes")
    with store.lock:
        kept: Path | None = None
        if store.paths.data.exists():
            kept = store.paths.data.with_name(f"data.toon.broken-{file_stamp()}")
            shutil.copy2(store.paths.data, kept)
        write_atomic(store.paths.data, good.read_bytes())
    return good, kept
