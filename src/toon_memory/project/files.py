"""The project's file list and the normalisation of paths into it.

Invariant: never raises and never writes. Paths are POSIX, relative to the
project root, never escaping it; lists are bounded by ``limit``. Inside a
git repository the list is what git tracks plus untracked files that are
not ignored; elsewhere a walk that skips dependency and build folders.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from toon_memory.project.git import run_git

MAX_FILES = 50_000
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", "target", "dist",
     "build", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".toon-memory", ".next"}
)  # fmt: skip


def _walk(root: Path, limit: int) -> list[str]:
    found: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        base = Path(folder).relative_to(root).as_posix()
        for name in sorted(names):
            found.append(name if base == "." else f"{base}/{name}")
            if len(found) >= limit:
                return found
    return found


def project_files(root: Path, limit: int = MAX_FILES) -> list[str]:
    """Files of the project at ``root`` (relative POSIX paths), at most ``limit``."""
    out = run_git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if out is not None:
        return list(dict.fromkeys(name for name in out.split("\0") if name))[:limit]
    try:
        return _walk(root, limit)
    except (OSError, ValueError):
        return []


def relative_path(root: Path, path: str | Path) -> str | None:
    """``path`` as a normalised POSIX path relative to ``root``; ``None`` if it leaves the root.

    Relative paths are taken from ``root``; absolute ones must lie under it.
    """
    text = str(path).strip().replace("\\", "/")
    if not text:
        return None
    if text.startswith("/"):
        try:
            text = Path(text).resolve().relative_to(root.resolve()).as_posix()
        except (OSError, ValueError, RuntimeError):
            return None
    rel = posixpath.normpath(text)
    if rel in (".", "..") or rel.startswith(("../", "/")):
        return None
    return rel


def is_file(root: Path, rel: str) -> bool:
    """Whether ``root/rel`` is an existing regular file."""
    try:
        return (root / rel).is_file()
    except (OSError, ValueError):
        return False
