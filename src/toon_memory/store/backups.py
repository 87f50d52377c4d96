"""Backups of a memory folder and restoring from them.

Invariant: a backup is a complete, decodable copy of the memory (snapshot
plus journal folded in); at most ``KEEP`` timestamped backups are kept,
newest first; ``restore`` never deletes the file it replaces (the broken one
is kept beside it), only restores a backup that decodes and is not empty,
and leaves a clean journal: its readable lines are replayed over the
restored snapshot, its unreadable ones are set aside (``journal.broken-*``).
A file named with ``--from`` that is missing, empty or not a memory is
refused as bad input naming that file. In an encrypted memory a backup is
sealed like data.toon, and a restored one is sealed again as it is put back.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from toon_memory.errors import CorruptFileError, InputError, StoreError, ToonMemoryError
from toon_memory.model.clock import file_stamp
from toon_memory.store import keys
from toon_memory.store.codec import decode_document, encode_document
from toon_memory.store.crypto import Key
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.store import Store
from toon_memory.system.atomic import write_atomic

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
    write_atomic(target, keys.seal_bytes(text.encode(), store.key()))
    for old in list_backups(store.paths)[KEEP:]:
        old.unlink(missing_ok=True)
    return target


def _problem(path: Path, key: Key | None) -> str:
    """Why ``path`` cannot be restored ('' when it can)."""
    try:
        raw = keys.read_bytes(path, key)
    except FileNotFoundError:
        return "does not exist"
    except IsADirectoryError:
        return "is a folder, not a backup file"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    except ToonMemoryError as exc:  # encrypted, and no key or another one
        return str(exc)
    if not raw.strip():
        return "is empty, not a toon-memory backup"
    try:
        decode_document(raw.decode("utf-8"), path)
    except UnicodeDecodeError:
        return "is not UTF-8 text, not a toon-memory backup"
    except CorruptFileError as exc:
        return f"is not a toon-memory file ({exc.problem})"
    except ToonMemoryError as exc:
        return str(exc)
    return ""


def restore_backup(store: Store, backup: Path | None = None) -> tuple[Path, Path | None]:
    """Put the newest good backup (or ``backup``) in place of data.toon.

    Returns (restored backup, where the replaced data.toon was kept). The
    journal's readable lines stay, so writes made after the backup are
    replayed over it; its unreadable lines are moved to ``journal.broken-*``.
    """
    if store.local():
        raise StoreError(
            f"the entries live in {store.local()}: restore a backup there with "
            "`toon-memory team push` from a local copy, or with the database's own tools"
        )
    key = store.key()
    if backup is not None:
        problem = _problem(backup, key)
        if problem:
            raise InputError("from", f"{backup} {problem}")
        good = backup
    else:
        found = next((path for path in list_backups(store.paths) if not _problem(path, key)), None)
        if found is None:
            raise StoreError(f"{store.paths.backups}: no backup that decodes")
        good = found
    with store.lock:
        kept: Path | None = None
        if store.paths.data.is_file():
            kept = store.paths.data.with_name(f"data.toon.broken-{file_stamp()}")
            shutil.copy2(store.paths.data, kept)
        plain = keys.read_bytes(good, key)
        write_atomic(store.paths.data, keys.seal_bytes(plain, key))
        store.set_aside_damage()
    return good, kept
