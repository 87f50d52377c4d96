"""The ``data.toon`` / ``archive.toon`` document: entries and summaries as TOON.

Invariant: ``encode_document`` writes spec TOON, the official ``toon-format``
encoder's text byte for byte (``|`` delimiter, ``version: 1`` first, the entries
table with every column of ``model.FIELDS``, then ``summaries``; written by
``store.toon_table``, which knows this one shape, checked against that encoder
by a property test), and ``decode_document(encode_document(x)) == x`` for any
entries. A file whose
``version`` is newer than ``FORMAT_VERSION`` is refused (``NewerFormatError``),
never guessed at. A file in exactly our shape is read by ``store.toon_rows``
(the strict decoder's answer, faster); any other text by the official strict
decoder. ``toon_format`` is imported lazily: the read path served from the cache
never pays for it.
No file I/O here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toon_memory.errors import CorruptFileError, NewerFormatError
from toon_memory.model.entry import FIELDS, Entry, Summary, entry_from_row

FORMAT_VERSION = 1
_OUR_HEADER = "{" + "|".join(FIELDS) + "}:"


@dataclass
class Document:
    """What one .toon file holds."""

    entries: list[Entry] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    migrated_from_ts: bool = False


def encode_document(entries: list[Entry], summaries: list[Summary]) -> str:
    """Spec TOON text for a memory file (ends with a newline)."""
    from toon_memory.store.toon_table import encode_entries

    return encode_entries(entries, summaries, FORMAT_VERSION)


def decode_document(text: str, path: Path) -> Document:
    """Parse a memory file; a TypeScript toon-memory file is read tolerantly.

    Raises ``CorruptFileError`` (naming the file and line) when the text is
    neither our TOON nor a readable TypeScript file.
    """
    if not text.strip():
        return Document()
    from toon_memory.store.toon_rows import decode_ours

    data = decode_ours(text)
    if data is None:  # not our exact shape: the official strict decoder decides
        import toon_format

        try:
            data = toon_format.loads(text, strict=True)
        except toon_format.ToonDecodeError as exc:
            return _decode_foreign(text, path, exc.line, exc.msg)
        except RecursionError:
            raise CorruptFileError(path, None, "nested too deeply") from None
    check_version(data, path)
    if _is_our_layout(data):
        return _document_from_data(data, path)
    return _decode_foreign(text, path, 1, "not a toon-memory file (no entries table of ours)")


def _is_our_layout(data: Any) -> bool:
    if not isinstance(data, dict) or "entries" not in data:
        return False
    rows = data["entries"]
    if not isinstance(rows, list):
        return False
    return all(isinstance(row, dict) and "content" in row and "key" in row for row in rows) and (
        not rows or set(FIELDS) <= set(rows[0])
    )


def check_version(data: Any, path: Path) -> None:
    """Refuse a file written by a newer toon-memory (its ``version`` above ours)."""
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, bool) or not isinstance(version, (int, float)):
        return
    if version > FORMAT_VERSION:
        raise NewerFormatError(path, version, FORMAT_VERSION)


def _document_from_data(data: dict[str, Any], path: Path) -> Document:
    doc = Document()
    for number, row in enumerate(data.get("entries") or [], start=1):
        try:
            doc.entries.append(entry_from_row(row))
        except ValueError as exc:
            raise CorruptFileError(path, None, f"entry {number}: {exc}") from None
    doc.summaries = summaries_from_rows(data.get("summaries") or [])
    return doc


def summaries_from_rows(rows: list[Any]) -> list[Summary]:
    """The summaries of a decoded ``summaries`` table (rows that are not objects skipped)."""
    return [Summary(str(row.get("file", "")), str(row.get("summary", "")), str(row.get("date", "")))
            for row in rows if isinstance(row, dict)]  # fmt: skip


def _decode_foreign(text: str, path: Path, line: int | None, problem: str) -> Document:
    from toon_memory.store import ts_reader

    if _OUR_HEADER in text or not ts_reader.looks_like_ts_toon(text):
        raise CorruptFileError(path, line, problem)
    result = ts_reader.read_ts_toon(text, source=str(path))
    doc = Document(migrated_from_ts=True)
    for row in result.rows:
        try:
            doc.entries.append(entry_from_row(row))
        except ValueError as exc:
            doc.repairs.append(f"kept as text: {exc}")
            doc.entries.append(
                entry_from_row(
                    {k: v for k, v in row.items() if k in ("id", "key", "category", "content")}
                )
            )
    doc.summaries = [
        Summary(r.get("file", ""), r.get("summary", ""), r.get("date", ""))
        for r in result.summaries
    ]
    doc.repairs.extend(result.repairs)
    doc.repairs.extend(f"skipped {line}" for line in result.skipped)
    return doc
