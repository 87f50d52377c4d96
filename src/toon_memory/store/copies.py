"""Labelled, timestamped copies of memory files kept in ``backups/``.

Invariant: a copy never replaces or prunes anything; its name sorts by time
(``<label>-<stamp><suffix>``), so repeated copies of one file never collide.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from toon_memory.model.clock import file_stamp
from toon_memory.store.paths import MemoryPaths


def keep_copy(paths: MemoryPaths, source: Path, label: str) -> Path:
    """Copy ``source`` into backups/ under a labelled, timestamped name (not pruned)."""
    paths.backups.mkdir(parents=True, exist_ok=True)
    target = paths.backups / f"{label}-{file_stamp()}{source.suffix}"
    shutil.copy2(source, target)
    return target
