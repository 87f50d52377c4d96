"""Small derived results kept beside the derived cache, keyed on the memory's files.

Invariant: a sidecar is only ever a shortcut, like ``store.cache``: a missing,
damaged or mismatched file (its stored key differs from the caller's) is a
miss, never an error. Files live under the user's home next to the derived
cache (``MemoryPaths.cache``), never in the project, so a pickle committed to
a cloned repository is never loaded. Writes are atomic and best effort.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

from toon_memory.store.paths import MemoryPaths


def sidecar_path(paths: MemoryPaths, name: str) -> Path:
    """``<cache stem>.<name>.pickle`` beside the memory's derived cache."""
    return paths.cache.with_name(f"{paths.cache.stem}.{name}.pickle")


def load_sidecar(path: Path, key: Any) -> Any | None:
    """The value saved under ``key``; None when absent, damaged or saved under another key."""
    try:
        found_key, value = pickle.loads(path.read_bytes())
    except Exception:
        return None
    return value if found_key == key else None


def save_sidecar(path: Path, key: Any, value: Any) -> None:
    """Save ``value`` under ``key`` (a failure only costs a recomputation later)."""
    try:
        payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(temp, path)
    except OSError:
        return
