"""Small derived results kept beside the derived cache, keyed on the memory's files.

Invariant: a sidecar is only ever a shortcut, like ``store.cache``: a missing,
damaged or mismatched file (its stored key differs from the caller's) is a
miss, never an error. Files live under the user's home next to the derived
cache (``MemoryPaths.cache``), never in the project, so a pickle committed to
a cloned repository is never loaded. Writes are atomic and best effort.
The sidecar of an encrypted memory is sealed with its key (``sidecar_path``
remembers which memory folder a path belongs to); without the key it is
neither read nor written.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from toon_memory.store import crypto
from toon_memory.store.cache import write_private
from toon_memory.store.paths import MemoryPaths

#: sidecar path -> the memory folder it belongs to (filled by ``sidecar_path``).
_FOLDERS: dict[Path, Path] = {}
_NO_KEY = object()


def _key(path: Path) -> Any:
    """The folder's key, None for a plain memory, ``_NO_KEY`` when it cannot be had."""
    from toon_memory.errors import ToonMemoryError
    from toon_memory.store.keys import cipher_for

    folder = _FOLDERS.get(path)
    try:
        return None if folder is None else cipher_for(folder)
    except ToonMemoryError:
        return _NO_KEY


def sidecar_path(paths: MemoryPaths, name: str) -> Path:
    """``<cache stem>.<name>.pickle`` beside the memory's derived cache."""
    path = paths.cache.with_name(f"{paths.cache.stem}.{name}.pickle")
    _FOLDERS[path] = paths.folder
    return path


def load_sidecar(path: Path, key: Any) -> Any | None:
    """The value saved under ``key``; None when absent, damaged or saved under another key."""
    cipher = _key(path)
    try:
        payload = path.read_bytes()
        if cipher is _NO_KEY or crypto.is_sealed(payload) != (cipher is not None):
            return None
        if cipher is not None:
            payload = crypto.open_sealed(cipher, payload, "sidecar", str(path))
        found_key, value = pickle.loads(payload)
    except Exception:
        return None
    return value if found_key == key else None


def save_sidecar(path: Path, key: Any, value: Any) -> None:
    """Save ``value`` under ``key`` (a failure only costs a recomputation later)."""
    cipher = _key(path)
    if cipher is _NO_KEY:
        return
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        if cipher is not None:
            payload = crypto.seal(cipher, payload, "sidecar")
    except OSError:
        return
    write_private(path, payload)
