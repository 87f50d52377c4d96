"""An export file (``toon-memory export``), written a chunk at a time.

Invariant: ``write_export`` writes exactly the bytes of
``json.dumps({"version": 1, "entries": [e.to_dict() ...], "summaries": [s.to_row()
...]}, ensure_ascii=False, indent=2) + "\\n"`` (checked by property tests against
``json.dumps``), with only one chunk of entries in memory at a time, into a temp
file renamed over the target at the end (``system.atomic.write_atomic_chunks``): a
failure leaves the target as it was. ``export_from_index`` takes the entries, in
file order, from one read snapshot of the on-disk index (``store.index_view``) and
the summaries from data.toon's summaries table and the journal's ``sum`` lines up
to the position that snapshot records; it answers None (nothing written, the
caller reads the state) when the files moved away from that position or are not in
the shape ``store.toon_table`` writes, or the index cannot be read.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from toon_memory.errors import ToonMemoryError
from toon_memory.model.entry import Entry, Summary
from toon_memory.store import journal
from toon_memory.store.cache import FileId, Position
from toon_memory.store.codec import decode_document
from toon_memory.store.index_anchor import decode_position
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_view import IndexView
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.state import State
from toon_memory.store.toon_rows import entry_rows
from toon_memory.system.atomic import write_atomic_chunks

#: Entries encoded and written together (one chunk in memory at a time).
CHUNK = 1_000
#: The indentation of an entry's fields (an entry is an item of the top object's list).
_FIELD_PAD = " " * 6


def _float(value: float) -> str:
    """A float as ``json`` writes it (``allow_nan``: NaN and the infinities by name)."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


class _Floats(dict[float, str]):
    """Floats' texts by value, filled on first sight (qualities repeat from row to row);
    zeros are never kept (0.0 and -0.0 are one key but two texts)."""

    def __missing__(self, value: float) -> str:
        text = _float(value)
        if value:
            self[value] = text
        return text


_SCALARS: dict[type, Callable[[Any], str]] = {
    str: encode_basestring, int: int.__repr__, float: _Floats().__getitem__,
    bool: lambda value: "true" if value else "false", type(None): lambda _value: "null",
}  # fmt: skip


#: An empty list or object, as ``json`` writes it at any indentation.
_EMPTY: dict[type, str] = {list: "[]", dict: "{}"}


def _value(value: Any, pad: str) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it nested at indentation ``pad``:
    scalars and lists of texts directly, anything else by ``json.dumps`` itself."""
    scalar = _SCALARS.get(type(value))
    if scalar is not None:
        return scalar(value)
    if not value and type(value) in _EMPTY:
        return _EMPTY[type(value)]
    if type(value) is list:
        inner = "\n" + pad + "  "
        try:  # (every item a text: ``encode_basestring`` refuses anything else)
            items = ("," + inner).join(map(encode_basestring, value))
        except TypeError:
            pass
        else:
            return "[" + inner + items + "\n" + pad + "]"
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return text.replace("\n", "\n" + pad)  # every newline of indented JSON is a layout one


#: The ``%`` template of an object by its keys (None: a key is not a text).
_TEMPLATES: dict[tuple[Any, ...], str | None] = {}


def _template(keys: tuple[Any, ...]) -> str | None:
    """The ``%`` template of an object with these keys, an item of the top object's list."""
    if not all(type(k) is str for k in keys):
        found = None
    else:
        fields = ("\n" + _FIELD_PAD + encode_basestring(k).replace("%", "%%") + ": %s"
                  for k in keys)  # fmt: skip
        found = "{" + ",".join(fields) + "\n    }" if keys else "{}"
    _TEMPLATES[keys] = found
    return found


def object_text(row: dict[Any, Any]) -> str:
    """One object of the export's lists (an entry, a summary) as ``json.dumps`` indents it."""
    return objects_text([row])[0]


def objects_text(rows: list[dict[Any, Any]]) -> list[str]:
    """``object_text`` of each row, encoded a column at a time when the rows share one key
    order (entries do): a column of one type is one ``map`` of its encoder."""
    keys = tuple(rows[0]) if rows else ()
    template = _TEMPLATES[keys] if keys in _TEMPLATES else _template(keys)
    if template is None or any(tuple(row) != keys for row in rows):
        if len(rows) > 1:
            return [text for row in rows for text in objects_text([row])]
        return [_value(row, "    ") for row in rows]  # (a key that is not a text)
    columns = [_column(values) for values in zip(*(row.values() for row in rows), strict=True)]
    if not columns:
        return [template] * len(rows)
    return list(map(template.__mod__, zip(*columns, strict=True)))


def _column(values: tuple[Any, ...]) -> Iterable[str]:
    """One field's texts, of a chunk of objects (nested at ``_FIELD_PAD``)."""
    kinds = set(map(type, values))
    scalar = _SCALARS.get(kinds.pop()) if len(kinds) == 1 else None
    if scalar is not None:
        return map(scalar, values)
    return [_EMPTY[type(value)] if not value and type(value) in _EMPTY
            else _value(value, _FIELD_PAD) for value in values]  # fmt: skip


def _list(
    name: str, rows: Iterable[dict[str, Any]], counted: list[int], chunk: int
) -> Iterator[bytes]:
    """The ``"name": [...]`` member of the top object, ``chunk`` objects at a time."""
    yield f'  "{name}": ['.encode()
    count = 0
    items = iter(rows)
    while part := list(itertools.islice(items, chunk)):
        lead = ",\n    " if count else "\n    "
        yield (lead + ",\n    ".join(objects_text(part))).encode()
        count += len(part)
    yield b"\n  ]" if count else b"]"
    counted.append(count)


def export_chunks(
    entries: Iterable[Entry], summaries: Iterable[Summary], counted: list[int], chunk: int = CHUNK
) -> Iterator[bytes]:
    """The export file's bytes, ``chunk`` entries at a time; the entry count goes to
    ``counted``."""
    yield b'{\n  "version": 1,\n'
    yield from _list("entries", (entry.to_dict() for entry in entries), counted, chunk)
    yield b",\n"
    yield from _list("summaries", (summary.to_row() for summary in summaries), [], chunk)
    yield b"\n}\n"


def write_export(target: Path, entries: Iterable[Entry], summaries: Iterable[Summary]) -> int:
    """Replace ``target`` by the export of ``entries`` and ``summaries``; the entry count."""
    counted: list[int] = []
    write_atomic_chunks(target, export_chunks(entries, summaries, counted))
    return counted[0]


def export_from_index(paths: MemoryPaths, db: IndexDb, target: Path) -> int | None:
    """``write_export`` of the memory as ``db`` (current with the files) describes it;
    None, with nothing written, when the index and the files do not tell one state."""
    try:
        with db.reading():
            position = decode_position(db.position())
            summaries = None if position is None else summaries_at(paths, position)
            if position is None or summaries is None:
                return None
            return write_export(target, IndexView(db, position).each(), summaries)
    except (sqlite3.Error, ValueError, TypeError, EOFError):  # (a row marshal cannot read)
        return None


def summaries_at(paths: MemoryPaths, position: Position) -> list[Summary] | None:
    """The summaries of the memory at ``position`` (data.toon's, then the journal's ``sum``
    lines), in the state's order; None when the files are no longer at ``position``."""
    stored = _data_summaries(paths.data, position.data)
    ops = _journal_summaries(paths.journal, position)
    if stored is None or ops is None:
        return None
    state = State()
    state.summaries = {s.file: s for s in stored}
    state.apply(ops)
    return list(state.summaries.values())


def _data_summaries(path: Path, data: FileId | None) -> list[Summary] | None:
    """The summaries table of data.toon when it is still ``data`` and in our shape (its
    entry rows skipped, not decoded)."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        return [] if data is None else None
    with handle:
        st = os.fstat(handle.fileno())
        if (st.st_ino, st.st_mtime_ns, st.st_size) != data:
            return None
        first, header = handle.readline(), handle.readline()
        rows = entry_rows(header[:-1].decode("utf-8", "replace")) if header[-1:] == b"\n" else None
        if first != b"version: 1\n" or rows is None:
            return None
        for _row in range(rows):
            if not handle.readline().startswith(b"  "):
                return None
        rest = handle.read()
    try:
        doc = decode_document("version: 1\nentries: []\n" + rest.decode("utf-8"), path)
    except (UnicodeDecodeError, ToonMemoryError):
        return None
    return None if doc.migrated_from_ts else doc.summaries


def _journal_summaries(path: Path, position: Position) -> list[journal.Op] | None:
    """The ``sum`` operations of the journal's first ``position.journal_offset`` bytes, when
    it is still the journal ``position`` names."""
    if not position.journal_offset:
        return []
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_ino != position.journal_ino:
                return None
            raw = handle.read(position.journal_offset)
    except FileNotFoundError:
        return None
    if len(raw) != position.journal_offset:
        return None
    ops = (journal.parse_line(line) for line in raw.split(b"\n") if b'"sum"' in line)
    return [op for op in ops if op is not None and op.kind == "sum"]
