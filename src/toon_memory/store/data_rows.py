"""data.toon's entries read one row at a time (an index rebuild, a full load, ``doctor``).

Invariant: iterating ``DataRows`` yields exactly the entries ``codec.decode_document``
gives for data.toon, in file order, with one row in memory at a time, then holds its
summaries, and records the identity (``cache.file_id``) of the file it read, taken
from the open handle, so a data.toon swapped meanwhile is never mixed in (a missing
file: no entries, None). ``read_data`` is the whole document that way (a full load
holds the entries, never the file's text or a table of decoded rows beside them), and
``count_rows`` its entries counted, none kept (``doctor``).
At the first thing it cannot prove alike it raises ``NotOurs``: a file not in the
shape ``store.toon_table`` writes (``toon_rows``), text that is not UTF-8, a row
``entry_from_row`` refuses; the caller then reads the whole file, which answers or
names the error. An id seen twice (a whole read keeps the last row at the first's
place) is the caller's to catch: its index refuses a second row with one id. No writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from toon_memory.model.entry import Entry, Summary, entry_from_row
from toon_memory.store.cache import FileId
from toon_memory.store.codec import Document, summaries_from_rows
from toon_memory.store.toon_rows import NotOurs, decode_ours, entry_row, entry_rows

_FIRST = b"version: 1\n"


class DataRows:
    """The entries of one data.toon, read as they are iterated (once)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: What was read: (inode, mtime ns, size), None for no file (set when read).
        self.identity: FileId | None = None
        #: The summaries table (set once every row was read).
        self.summaries: list[Summary] = []

    def __iter__(self) -> Iterator[Entry]:
        try:
            handle = self.path.open("rb")
        except FileNotFoundError:
            return
        with handle:
            st = os.fstat(handle.fileno())
            self.identity = (st.st_ino, st.st_mtime_ns, st.st_size)
            if st.st_size:
                yield from _entries(handle, self.summaries)


def read_data(path: Path) -> tuple[Document, FileId | None] | None:
    """data.toon's document and the identity of the file read, row by row; None when it
    is not a file ``DataRows`` reads (the caller reads it whole)."""
    rows = DataRows(path)
    try:
        entries = list(rows)
    except NotOurs:
        return None
    return Document(entries, rows.summaries), rows.identity


def count_rows(path: Path) -> int | None:
    """How many entries data.toon (or archive.toon) holds, read row by row and none kept;
    None when it is not a file ``DataRows`` reads, or not one it can open (the caller reads
    it whole, and names what is wrong)."""
    try:
        return sum(1 for _entry in DataRows(path))
    except (NotOurs, OSError):
        return None


def _entries(handle: BinaryIO, summaries: list[Summary]) -> Iterator[Entry]:
    if handle.readline() != _FIRST:
        raise NotOurs
    count = entry_rows(_line(handle.readline()))
    if count is None:
        raise NotOurs
    for _row in range(count):
        row = entry_row(_line(handle.readline()))
        try:
            entry = entry_from_row(row)
        except ValueError:
            raise NotOurs from None
        yield entry
    try:
        rest = handle.read().decode("utf-8")
    except UnicodeDecodeError:
        raise NotOurs from None
    tail = decode_ours(f"{_FIRST.decode()}entries: []\n{rest}")  # the summaries, the end
    if tail is None:
        raise NotOurs
    summaries.extend(summaries_from_rows(tail["summaries"]))


def _line(raw: bytes) -> str:
    """One whole line's text, without its newline."""
    if raw[-1:] != b"\n":
        raise NotOurs
    try:
        return raw[:-1].decode("utf-8")
    except UnicodeDecodeError:
        raise NotOurs from None
