"""A fast decoder for the one TOON shape a memory file has (``store.toon_table`` writes it).

Invariant: ``decode_ours(text)`` is either None or exactly what the official
``toon_format.loads(text, strict=True)`` returns for ``text``; it is None for
anything but the shape ``encode_entries`` writes (``version: 1``, the entries
table with ``model.FIELDS``, the summaries table, one row per line, two-space
rows, a final newline) and for anything the strict decoder would refuse, so
``codec.decode_document`` falls back to the official decoder there (its errors
name the line). Checked by property tests against that decoder, over our own
text and over mutations of it. It exists because a cold full load of a big
memory spent most of its time in the general decoder. No I/O.
"""

from __future__ import annotations

import math
import re
from typing import Any

from toon_memory.model.entry import FIELDS

_VERSION = "version: 1"
_SUMMARY_FIELDS = ("file", "summary", "date")
_ENTRIES = re.compile(r"entries\[([1-9][0-9]*)\|\]\{" + re.escape("|".join(FIELDS)) + r"\}:")
_SUMMARIES = re.compile(r"summaries\[([1-9][0-9]*)\|\]\{file\|summary\|date\}:")
#: One cell: a quoted token, or unquoted text holding no quote and no delimiter.
_CELL = re.compile(r'"((?:[^"\\]|\\.)*)"|([^|"]*)', re.DOTALL)
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_START = frozenset("-0123456789")
_ESCAPE = re.compile(r"\\(?:([\\\"nrt])|u([0-9A-Fa-f]{4}))")
_SIMPLE = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
_WORDS: dict[str, Any] = {"": "", "true": True, "false": False, "null": None}


class NotOurs(Exception):
    """Not our shape, or not valid: the official decoder decides."""


def decode_ours(text: str) -> dict[str, Any] | None:
    """The strict decoder's answer for a memory file in our shape; None for any other text."""
    lines = text.split("\n")
    if len(lines) < 4 or lines[0] != _VERSION or lines[-1] != "":
        return None
    try:
        at, entries = _table(lines, 1, "entries", _ENTRIES, FIELDS)
        at, summaries = _table(lines, at, "summaries", _SUMMARIES, _SUMMARY_FIELDS)
    except NotOurs:
        return None
    if at != len(lines) - 1:
        return None
    return {"version": 1, "entries": entries, "summaries": summaries}


def entry_row(line: str) -> dict[str, Any]:
    """One line of the entries table (no newline) as the strict decoder reads it;
    ``NotOurs`` when the decoder might read it otherwise."""
    return dict(zip(FIELDS, _cells(line, len(FIELDS)), strict=True))


def entry_rows(header: str) -> int | None:
    """How many rows follow ``header`` when it is the entries table's header line of our
    shape (``entries: []``: 0); None for any other line."""
    if header == "entries: []":
        return 0
    found = _ENTRIES.fullmatch(header)
    return None if found is None else int(found.group(1))


def _table(
    lines: list[str], at: int, name: str, header: re.Pattern[str], fields: tuple[str, ...]
) -> tuple[int, list[dict[str, Any]]]:
    """The rows of the table whose header is ``lines[at]``, and the line after them."""
    if lines[at] == f"{name}: []":
        return at + 1, []
    found = header.fullmatch(lines[at])
    if found is None:
        raise NotOurs
    count = int(found.group(1))
    rows = lines[at + 1 : at + 1 + count]
    if len(rows) != count:
        raise NotOurs
    return at + 1 + count, [
        dict(zip(fields, _cells(row, len(fields)), strict=True)) for row in rows
    ]


def _cells(line: str, width: int) -> list[Any]:
    """One row's values (``width`` of them) as the strict decoder reads them."""
    if not line.startswith("  ") or line[2:3] in (" ", "#", "\t", "") or line[-1] in " \r":
        raise NotOurs
    body = line[2:]
    cells = _plain_cells(body) if "\\" not in body else None
    if cells is None:
        cells = _quoted_cells(body)
    if len(cells) != width:
        raise NotOurs
    return cells


def _plain_cells(body: str) -> list[Any] | None:
    """The cells of a row with no escape and no delimiter inside quotes (most rows);
    None when a token is not one whole quoted or unquoted cell."""
    out: list[Any] = []
    for token in body.split("|"):
        if token[:1] == '"':
            inner = token[1:-1]
            if len(token) < 2 or token[-1] != '"' or '"' in inner:
                return None
            out.append(inner)
        elif '"' in token:
            return None
        else:
            out.append(_bare(token))
    return out


def _quoted_cells(body: str) -> list[Any]:
    out: list[Any] = []
    at, end = 0, len(body)
    while True:
        found = _CELL.match(body, at)
        assert found is not None  # the unquoted branch matches the empty string
        quoted, bare = found.groups()
        out.append(_unescape(quoted) if quoted is not None else _bare(bare))
        at = found.end()
        if at == end:
            return out
        if body[at] != "|":  # a quote inside unquoted text, or text after a closing quote
            raise NotOurs
        at += 1


def _bare(token: str) -> Any:
    """An unquoted cell: a keyword, a number or the text itself."""
    if token in _WORDS:
        return _WORDS[token]
    if token[0] == " " or token[-1] == " " or ":" in token:  # trimmed, or a key: not ours
        raise NotOurs
    if token[0] not in _NUMBER_START or _NUMBER.fullmatch(token) is None:
        return token
    if "." not in token and "e" not in token and "E" not in token:
        return int(token)
    value = float(token)
    if math.isinf(value):
        raise NotOurs
    return value or 0.0


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    parts: list[str] = []
    at = 0
    for found in _ESCAPE.finditer(body):
        if found.start() != at and "\\" in body[at : found.start()]:
            raise NotOurs  # a backslash that starts no valid escape
        parts.append(body[at : found.start()])
        simple, code = found.groups()
        if simple is not None:
            parts.append(_SIMPLE[simple])
        else:
            point = int(code, 16)
            if 0xD800 <= point <= 0xDFFF:
                raise NotOurs
            parts.append(chr(point))
        at = found.end()
    if "\\" in body[at:]:
        raise NotOurs
    parts.append(body[at:])
    return "".join(parts)
