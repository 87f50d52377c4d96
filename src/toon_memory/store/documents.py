"""Whole memory files outside a ``Store``: the three versions a git merge driver gets.

Invariant: a file is read as UTF-8 TOON (ours or the TypeScript original's);
a missing or empty file is an empty document (git passes an empty base when
both sides added the file); anything else that does not decode exactly (a
repaired or skipped line included) raises ``CorruptFileError`` and nothing
is written. A write is strict TOON through
the store codec, replaced atomically. An encrypted version (a sealed
data.toon committed by a teammate) is opened with the key of the project's
memory (``TOON_MEMORY_KEY``), and the merged result is sealed again when
``ours`` was sealed; without the key it is an ``EncryptionError``, nothing
written.
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.errors import CorruptFileError, EncryptionError
from toon_memory.model.entry import Entry, Summary
from toon_memory.store import crypto, keys
from toon_memory.store.codec import Document, decode_document, encode_document
from toon_memory.system.atomic import write_atomic


def project_key() -> crypto.Key | None:
    """The key of the memory of the project in the current folder (a merge driver runs there)."""
    from toon_memory.store.paths import MemoryPaths, find_project_root

    folder = MemoryPaths.for_project(find_project_root()).folder
    settings = keys.read_settings(folder)
    return None if settings is None else keys.key_for(folder, settings)


def read_document(path: Path) -> Document:
    """The entries and summaries of ``path``; empty when it is missing or empty.

    Only a lossless read is accepted: a TypeScript-format file the tolerant reader
    had to repair or skip lines of (conflict markers, a torn table) raises.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Document()
    except OSError as exc:
        raise CorruptFileError(path, None, f"cannot be read: {exc.strerror or exc}") from None
    if crypto.is_sealed(raw):
        key = project_key()
        if key is None:
            raise EncryptionError(f"{path} is encrypted and this project has no key")
        raw = crypto.open_sealed(key, raw, keys.DOCUMENT, str(path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CorruptFileError(path, line, "not UTF-8 text") from None
    doc = decode_document(text, path)
    if doc.repairs:
        raise CorruptFileError(path, None, f"does not decode cleanly ({doc.repairs[0]})")
    return doc


def write_document(path: Path, entries: list[Entry], summaries: list[Summary]) -> None:
    """Replace ``path`` with the strict TOON of ``entries`` and ``summaries`` (sealed when
    ``path`` holds a sealed file now)."""
    data = encode_document(entries, summaries).encode("utf-8")
    try:
        sealed = crypto.is_sealed(path.read_bytes()[: len(crypto.MAGIC)])
    except OSError:
        sealed = False
    key = project_key() if sealed else None
    if sealed and key is None:
        raise EncryptionError(f"{path} is encrypted and this project has no key")
    write_atomic(path, keys.seal_bytes(data, key))


def document_text(entries: list[Entry], summaries: list[Summary]) -> str:
    """The strict TOON text of a memory document (what a Gist or a backup holds)."""
    return encode_document(entries, summaries)
