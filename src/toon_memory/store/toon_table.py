"""A fast encoder for the one TOON shape a memory file has: ``version``, the entries table,
the summaries table.

Invariant: ``encode_entries`` writes, for any entries and summaries, the official
``toon-format`` encoder's text of that document byte for byte (its quoting of
§7.2, its escapes of §7.1, its canonical numbers), checked by a property test
against that encoder; ``codec.encode_document`` is this function. It exists because a
big import writes its file in one go and the general encoder spends most of its
time finding the shape this module knows already. ``encode_streamed`` yields the
same text a chunk of entries at a time (checked by property tests against
``encode_entries``), or raises ``Unproven`` when a cell's text could depend on the
cells of other chunks. No I/O.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any

from toon_memory.model.entry import FIELDS, Entry, Summary

DELIMITER = "|"
INDENT = "  "
_UNQUOTED_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMERIC_LIKE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
#: Structural characters, the delimiter, and control characters force quotes anywhere.
_FORCES_QUOTES = re.compile(r'[:"\\\[\]{}|\x00-\x1f]')
_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f]')
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: Bare words TOON reads as a boolean or null: a string cell spelled so is quoted.
_LITERALS = frozenset({"true", "false", "null"})
_CANONICAL_MIN = Decimal("1e-6")
_CANONICAL_MAX = Decimal("1e21")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _quoted_token(value: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape, value) + '"'


def encode_text(value: str) -> str:
    """A string cell: bare unless it would read as something else (§7.2)."""
    if (
        not value
        or value[0] in " \t-#"
        or value[-1] in " \t"
        or value in _LITERALS
        or _FORCES_QUOTES.search(value) is not None
        or _NUMERIC_LIKE.fullmatch(value) is not None
    ):
        return _quoted_token(value)
    return value


def _decimal(value: Decimal) -> str:
    if not value:
        return "0"
    if _CANONICAL_MIN <= abs(value) < _CANONICAL_MAX:
        text = f"{value:f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    mantissa = "".join(map(str, digits)).rstrip("0")
    exponent += len(digits) - 1
    if len(mantissa) > 1:
        mantissa = f"{mantissa[0]}.{mantissa[1:]}"
    return f"{'-' if sign else ''}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def encode_number(value: float) -> str:
    """A finite float in the canonical form of §2 (non-finite: ``null``, as normalised)."""
    if value != value or value in (float("inf"), float("-inf")):
        return "null"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return _decimal(Decimal(repr(value)))


def encode_cell(value: Any) -> str:
    """Any cell a row holds: text, whole number, number, boolean or nothing."""
    if isinstance(value, str):
        return encode_text(value)
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return encode_number(float(value))


class _Memo(dict[Any, str]):
    """One column's encoded cells by value, filled on first sight (dates, enums, tags repeat
    from row to row, so most cells are one dictionary look-up)."""

    def __missing__(self, value: Any) -> str:
        encoded = self[value] = encode_cell(value)
        return encoded


#: Columns encoded directly: cells that rarely repeat, and numbers (1 and 1.0 are one
#: dictionary key, and a big int and a float equal to it are not written alike).
_DIRECT = frozenset({"id", "key", "content", "links", "meta", "summary",
                     "accessed", "quality", "confidence", "priority"})  # fmt: skip


def _encoder(column: str, values: tuple[Any, ...]) -> Callable[[Any], str]:
    """How to encode one column's cells: whole numbers by ``str`` when all are, else each
    cell directly or through a memo (see ``_DIRECT``)."""
    if all(type(value) is int for value in values):
        return str
    return encode_cell if column in _DIRECT else _Memo().__getitem__


class Unproven(Exception):
    """``encode_streamed`` met what it cannot prove it writes as ``encode_entries`` would
    (another entry count than announced, a cell that is not a text in a memoised column):
    the caller encodes the whole document instead. Never leaves the store."""


class _Texts(dict[str, str]):
    """A memoised column's cells by value, kept across chunks. Texts only: a text equals
    no cell of another type, so its encoding does not depend on the cells seen before it
    (``_Memo`` keys ``True``, ``1`` and ``1.0`` alike: the first one seen decides)."""

    def __missing__(self, value: Any) -> str:
        if type(value) is not str:
            raise Unproven(f"a {type(value).__name__} cell in a text column")
        encoded = self[value] = encode_text(value)
        return encoded


def _key(name: str) -> str:
    return name if _UNQUOTED_KEY.fullmatch(name) else _quoted_token(name)


def _table(name: str, columns: tuple[str, ...], rows: list[list[Any]]) -> list[str]:
    """A table's lines, encoded a column at a time (each column holds one type of cell)."""
    if not rows:
        return [f"{name}: []"]
    cells = [list(map(_encoder(column, values), values))
             for column, values in zip(columns, zip(*rows, strict=True), strict=True)]  # fmt: skip
    return [_header(name, columns, len(rows)),
            *(INDENT + DELIMITER.join(line) for line in zip(*cells, strict=True))]  # fmt: skip


def encode_entries(entries: list[Entry], summaries: list[Summary], version: int = 1) -> str:
    """A memory file's text (ends with a newline), as ``toon_format.encode`` writes
    ``{"version": version, "entries": [rows], "summaries": [rows]}`` with ``|``."""
    rows = [list(entry.to_row().values()) for entry in entries]
    lines = [f"version: {version}", *_table("entries", FIELDS, rows)]
    lines += _table("summaries", ("file", "summary", "date"),
                    [[s.file, s.summary, s.date] for s in summaries])  # fmt: skip
    return "\n".join(lines) + "\n"


def _header(name: str, columns: tuple[str, ...], count: int) -> str:
    return f"{name}[{count}{DELIMITER}]{{{DELIMITER.join(map(_key, columns))}}}:"


def encode_streamed(
    count: int, entries: Iterable[Entry], summaries: list[Summary], chunk: int, version: int = 1
) -> Iterator[str]:
    """``encode_entries(list(entries), summaries, version)``, ``chunk`` entries at a time, for
    ``count`` entries; ``Unproven`` (after some text) when the entries are not ``count``
    or a cell's text could depend on another chunk's cells (see ``_Texts``)."""
    yield f"version: {version}\n" + (_header("entries", FIELDS, count) if count else "entries: []")
    memos = [None if column in _DIRECT else _Texts().__getitem__ for column in FIELDS]
    seen, items = 0, iter(entries)
    while part := list(itertools.islice(items, chunk)):
        seen += len(part)
        if seen > count:
            raise Unproven(f"more than the {count} entries announced")
        rows = [list(entry.to_row().values()) for entry in part]
        cells = [list(map(memo or _direct(values), values))
                 for memo, values in zip(memos, zip(*rows, strict=True), strict=True)]  # fmt: skip
        yield "".join("\n" + INDENT + DELIMITER.join(line) for line in zip(*cells, strict=True))
    if seen != count:
        raise Unproven(f"{seen} entries, not the {count} announced")
    lines = _table("summaries", ("file", "summary", "date"),
                   [[s.file, s.summary, s.date] for s in summaries])  # fmt: skip
    yield "\n" + "\n".join(lines) + "\n"


def _direct(values: tuple[Any, ...]) -> Callable[[Any], str]:
    """A direct column's encoder for one chunk: ``str`` for whole numbers, as ``_encoder``
    (``encode_cell`` writes each of them so too: the choice never changes a cell's text)."""
    return str if all(type(value) is int for value in values) else encode_cell
