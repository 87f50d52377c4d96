"""Whole memory files outside a ``Store``: the three versions a git merge driver gets.

Invariant: a file is read as UTF-8 TOON (ours or the TypeScript original's);
a missing or empty file is an empty document (git passes an empty base when
both sides added the file); anything else that does not decode exactly (a
repaired or skipped line included) raises ``CorruptFileError`` and nothing
is written. A write is strict TOON through
the store codec, replaced atomically.
"""

from __future__ import annotations

from pathlib import Path

from toon_memory.errors import CorruptFileError
from toon_memory.model import Entry, Summary
from toon_memory.store.atomic import write_atomic
from toon_memory.store.codec import Document, decode_document, encode_document


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
    """Replace ``path`` with the strict TOON of ``entries`` and ``summaries``."""
    write_atomic(path, encode_document(entries, summaries).encode("utf-8"))


def document_text(entries: list[Entry], summaries: list[Summary]) -> str:
    """The strict TOON text of a memory document (what a Gist or a backup holds)."""
    return encode_document(entries, summaries)
