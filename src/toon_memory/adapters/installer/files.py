"""File transactions of the installer: read, edit, back up once, write atomically, clean up.

Invariant: a file is written only when its bytes change, always through
``write_atomic``; before the first change to a file that existed, its
original bytes are copied to ``<name>.toon-memory.bak`` beside it. The
backup is kept only while it is the true original: a file that holds nothing
of ours (no ``toon-memory``) replaces an older backup when we write to it,
and uninstall deletes the backup once it took our parts out, whether or not
the agent changed the file since (it never restores over the agent's later
changes). A file that does not parse raises ``AgentConfigError`` and is not
touched. Uninstall deletes a file only when it has no backup (we created it)
and nothing is left in it. Folders we emptied are removed, never above the
place's root.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from toon_memory.adapters.installer.documents import (
    Document,
    DocumentSyntaxError,
    is_empty,
    open_document,
)
from toon_memory.errors import AgentConfigError
from toon_memory.system.atomic import write_atomic

BACKUP_SUFFIX = ".toon-memory.bak"
OURS = "toon-memory"  # in every entry, hook line and block we write
BOM = "\ufeff"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def read_text(path: Path) -> str | None:
    """The file's text (None when missing); AgentConfigError when it is not UTF-8."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise AgentConfigError(path, None, "is a folder, expected a file") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise AgentConfigError(path, line, "not UTF-8 text") from None


def open_config(path: Path, fmt: str, text: str | None) -> Document:
    body = (text or "").removeprefix(BOM)
    try:
        return open_document(fmt, body)
    except DocumentSyntaxError as exc:
        raise AgentConfigError(
            path, exc.line or None, f"does not parse as {fmt.upper()}: {exc.problem}"
        ) from None


def _backup_doc(path: Path, fmt: str) -> Document | None:
    try:
        text = read_text(backup_path(path))
        return None if text is None else open_config(path, fmt, text)
    except AgentConfigError:
        return None


def remove_empty_dirs(folder: Path, stop: Path) -> None:
    """Remove ``folder`` and its parents while empty, never ``stop`` or above it."""
    stop = stop.absolute()
    folder = folder.absolute()
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def write_text(path: Path, old: str | None, new: str, installing: bool) -> str:
    """Write ``new`` (backing up the original first); the action taken."""
    if old == new:
        return "unchanged"
    backup = backup_path(path)
    if installing and old is not None and (not backup.exists() or OURS not in old):
        write_atomic(backup, path.read_bytes())
    write_atomic(path, new.encode("utf-8"))
    if not installing and backup.exists():
        same = backup.read_bytes() == path.read_bytes()
        backup.unlink()
        return "restored" if same else "updated"
    return "created" if old is None else "updated"


def delete_file(path: Path, stop: Path) -> str:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    remove_empty_dirs(path.parent, stop)
    return "removed"


def edit_config(path: Path, fmt: str, stop: Path, installing: bool,
                apply: Callable[[Document, Document | None], None]) -> str:  # fmt: skip
    """Open ``path``, let ``apply`` edit it, write it back; the action taken."""
    text = read_text(path)
    if text is None and not installing:
        return "absent"
    doc = open_config(path, fmt, text)
    bom = BOM if text and text.startswith(BOM) else ""
    try:
        apply(doc, _backup_doc(path, fmt))
    except TypeError as exc:
        raise AgentConfigError(path, None, f"unexpected shape: {exc}") from None
    if not installing and text is not None and is_empty(doc):
        backup = backup_path(path)
        if not backup.exists():
            return delete_file(path, stop)
        original = read_text(backup) or ""
        if original.strip() == "":
            return write_text(path, text, original, installing)
    new = doc.text
    return write_text(path, text, bom + new if new else new, installing)


def edit_text(path: Path, stop: Path, installing: bool, change: Callable[[str], str]) -> str:
    """Apply ``change`` to a text file (Markdown); delete it when we emptied a file we made."""
    text = read_text(path)
    if text is None and not installing:
        return "absent"
    new = change(text or "")
    if not installing and new == "" and text and not backup_path(path).exists():
        return delete_file(path, stop)
    return write_text(path, text, new, installing)
