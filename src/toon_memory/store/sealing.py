"""Turning a memory folder's files from plain to encrypted and back.

Invariant: both directions run under the store lock and never lose a byte a
reader could read: ``encrypt`` marks the folder encrypted first (so every
write from then on is sealed) and then seals each file in place, atomically;
``decrypt`` opens each file first and clears the mark last, so the key stays
derivable until no sealed file is left. Reads tell sealed from plain bytes by
their first bytes, so a crash half way leaves a memory that reads, and running
the same command again finishes the job. Covered: data.toon (with the journal
and the access log folded in), archive.toon, every file in ``backups/``, the
``*.broken-*`` copies, and the derived cache and sidecars under the home
folder (deleted: they are written again, sealed, on the next read). A
memory already in the asked state raises ``EncryptionError`` and nothing is
written. The passphrase and key are never written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toon_memory.errors import EncryptionError
from toon_memory.store import crypto, keys
from toon_memory.store.store import Store
from toon_memory.system.atomic import write_atomic

SECRETS = "secrets.toon"


@dataclass
class Conversion:
    """What ``encrypt`` or ``decrypt`` did."""

    action: str
    folder: Path
    files: list[Path] = field(default_factory=list)
    caches_removed: int = 0
    entries: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "folder": str(self.folder),
                "files": [str(p) for p in self.files], "cachesRemoved": self.caches_removed,
                "entries": self.entries}  # fmt: skip


def _side_files(store: Store) -> list[Path]:
    """Files other than data.toon that may hold entry text: archive, backups, broken copies."""
    folder = store.paths.folder
    found = [store.paths.archive] if store.paths.archive.is_file() else []
    found += sorted(p for p in folder.glob("*.broken-*") if p.is_file())
    if store.paths.backups.is_dir():
        found += sorted(p for p in store.paths.backups.iterdir() if p.is_file())
    return found


def _remove_caches(store: Store) -> int:
    """Delete the derived cache and its sidecars under the home folder."""
    cache = store.paths.cache
    gone = 0
    for path in [cache, *cache.parent.glob(f"{cache.stem}.*.pickle")]:
        try:
            path.unlink()
            gone += 1
        except FileNotFoundError:
            continue
    return gone


def _convert(path: Path, key: crypto.Key, sealing: bool) -> bool:
    """Seal (or open) ``path`` in place; False when it is in that state already."""
    raw = path.read_bytes()
    if crypto.is_sealed(raw) == sealing:
        return False
    if sealing:
        data = crypto.seal(key, raw, keys.DOCUMENT)
    else:
        data = crypto.open_sealed(key, raw, keys.DOCUMENT, str(path))
    write_atomic(path, data)
    return True


def _leftovers(store: Store, sealing: bool) -> list[Path]:
    files = [store.paths.data] if store.paths.data.is_file() else []
    files += _side_files(store)
    return [p for p in files if crypto.is_sealed(p.read_bytes()[: len(crypto.MAGIC)]) != sealing]


def encrypt_folder(store: Store) -> Conversion:
    """Encrypt every file of the memory that holds entry text (key from ``TOON_MEMORY_KEY``)."""
    folder = store.paths.folder
    keys.passphrase()
    store.ensure_folder()
    with store.lock:
        settings = keys.read_settings(folder)
        known = None if settings is None else keys.key_for(folder, settings)
        if settings is not None and settings.memory and not _leftovers(store, True):
            raise EncryptionError(f"{folder} is encrypted already; nothing was changed")
        state = store.state()  # every file must read before the first sealed write
        for path in _side_files(store):
            keys.read_bytes(path, known)
        if settings is None or known is None:
            settings, key = keys.new_settings(memory=True)
        else:  # a vault's settings (same passphrase), or an encrypt that did not finish
            settings, key = (
                keys.Settings(settings.salt, settings.check, True, settings.kdf),
                known,
            )
        keys.write_settings(folder, settings)
        return _rewrite(store, state, key, sealing=True)


def decrypt_folder(store: Store) -> Conversion:
    """Write every encrypted file of the memory in clear again (needs the key)."""
    folder = store.paths.folder
    with store.lock:
        settings = keys.read_settings(folder)
        if settings is None or (not settings.memory and not _leftovers(store, False)):
            raise EncryptionError(f"{folder} is not encrypted; nothing was changed")
        key = keys.key_for(folder, settings)
        state = store.state()
        for path in _side_files(store):  # each opens before anything is written
            keys.read_bytes(path, key)
        report = _rewrite(store, state, key, sealing=False)
        if (folder / SECRETS).exists():
            plain = keys.Settings(settings.salt, settings.check, False, settings.kdf)
            keys.write_settings(folder, plain)
        else:
            keys.settings_path(folder).unlink()
        return report


def _rewrite(store: Store, state: Any, key: crypto.Key, sealing: bool) -> Conversion:
    report = Conversion("encrypt" if sealing else "decrypt", store.paths.folder)
    store.rewrite_snapshot(key if sealing else None)
    report.files.append(store.paths.data)
    report.entries = len(state.entries)
    for path in _side_files(store):
        if _convert(path, key, sealing):
            report.files.append(path)
    report.caches_removed = _remove_caches(store)
    return report
