"""The project's ``.gitignore`` lines for toon-memory's local-only files.

Invariant: the block is added once, identified by its first line; when that
line is already in the file nothing is written (a user who removed some of
the lines keeps their choice). Written atomically; other lines untouched.
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.system.atomic import write_atomic

MARK = "# toon-memory: local-only files (journal, access log, lock, temp files, backups)"
LINES = (
    ".toon-memory/memory/journal.jsonl",
    ".toon-memory/memory/access.log",
    ".toon-memory/memory/.lock",
    ".toon-memory/memory/*.tmp",
    ".toon-memory/cache/",
    "*.toon-memory.bak",
)


def ensure_gitignore(root: Path) -> bool:
    """Add the block to ``root/.gitignore`` unless it is there; True when written."""
    path = root / ".gitignore"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    if MARK in text:
        return False
    sep = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    write_atomic(path, (text + sep + MARK + "\n" + "\n".join(LINES) + "\n").encode("utf-8"))
    return True
