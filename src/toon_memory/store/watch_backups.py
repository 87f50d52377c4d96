"""The backups ``toon-memory watch`` writes, and its log.

Invariant: a watch backup is a complete memory document
(``backups/watch-<stamp>.toon``, or ``.toon.gz`` when compressed, gzip with
a fixed mtime so equal memories give equal bytes), written atomically; names
sort by time, so pruning keeps the newest ``keep`` of them and never touches
another file (manual backups, copies kept by restore or migration). The log
is appended one line at a time. Whether a memory changed is judged on its
content (``content_digest``): access counts alone are no change. In an
encrypted memory a watch backup is sealed after compression (gzip, then
AES-GCM), and read back the other way round.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from toon_memory.errors import StoreError
from toon_memory.model.clock import file_stamp
from toon_memory.model.entry import Entry, Summary
from toon_memory.store import keys
from toon_memory.store.codec import decode_document
from toon_memory.store.paths import MemoryPaths
from toon_memory.system.atomic import write_atomic

PREFIX = "watch-"
SUFFIXES = (".toon", ".toon.gz")
_ACCESS_FIELDS = ("accessed", "lastAccessed")


def list_watch_backups(paths: MemoryPaths) -> list[Path]:
    """Watch backups (plain and gzip), newest first."""
    if not paths.backups.is_dir():
        return []
    found = [p for p in paths.backups.glob(f"{PREFIX}*") if p.name.endswith(SUFFIXES)]
    return sorted(found, key=lambda p: p.name.removesuffix(".gz"), reverse=True)


def write_watch_backup(paths: MemoryPaths, text: str, compress: bool) -> Path:
    """Write ``text`` as a new watch backup; return its path."""
    data = text.encode("utf-8")
    name = f"{PREFIX}{file_stamp()}.toon"
    if compress:
        data = gzip.compress(data, mtime=0)
        name += ".gz"
    target = paths.backups / name
    write_atomic(target, keys.seal_bytes(data, keys.cipher_for(paths.folder)))
    return target


def read_backup_text(path: Path) -> str:
    """The document text of a backup, plain or gzip, sealed or not (the key of the
    memory folder the backup sits in)."""
    data = keys.read_bytes(path, keys.cipher_for(path.parent.parent))
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode("utf-8")


def content_digest(entries: Iterable[Entry], summaries: Iterable[Summary]) -> str:
    """A digest of what a memory holds, leaving out access statistics (a recall is no change)."""
    digest = hashlib.sha256()
    for entry in entries:
        row = entry.to_row()
        for name in _ACCESS_FIELDS:
            row.pop(name, None)
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    for summary in summaries:
        digest.update(json.dumps(summary.to_row(), sort_keys=True).encode("utf-8"))
    return digest.hexdigest()


def newest_digest(paths: MemoryPaths) -> str:
    """The ``content_digest`` of the newest readable watch backup ('' when none)."""
    for path in list_watch_backups(paths):
        try:
            doc = decode_document(read_backup_text(path), path)
        except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError, StoreError):
            continue
        return content_digest(doc.entries, doc.summaries)
    return ""


def prune_watch_backups(paths: MemoryPaths, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` watch backups (0 keeps all); return the deleted."""
    if keep <= 0:
        return []
    gone = list_watch_backups(paths)[keep:]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def append_log(path: Path, line: str) -> None:
    """Append one line to the watch log (the folder is created when missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line.rstrip("\n") + "\n").encode("utf-8"))
    finally:
        os.close(fd)
