"""An import file's JSON read an entry at a time: its entries list decoded item by item,
never held whole (100,000 rows parsed at once took 317 MB).

Invariant: for a text that ``json.loads`` reads as a list, or as an object with one
``entries`` member that is a list, nested at most ``depth`` levels (``imports.deeper_than``,
asked of one chunk of items at a time), ``scan`` calls ``visit`` with each item of that
list in order, equal to what ``json.loads`` decodes, and returns ``Entries``: the object's
other members as ``json.loads`` gives them (``head``; None for a list), and ``spans``:
the list's items in chunks of ``CHUNK``, each (start, end) from its first item's start to
its last item's end, so that ``chunk_items`` of each span's text, in order, gives the
same items again (``items()``: from the text; a caller may read the spans from the file
instead). Any other text, valid JSON or not, raises ``NotStreamed`` and the caller reads
it whole (which answers it, or names its error, as before). Pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toon_memory.rules.imports import deeper_than

#: Items whose nesting is checked, and that are read again, together (one span).
CHUNK = 1000
#: JSON's whitespace (the four characters ``json.loads`` skips between values).
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_decode = json.JSONDecoder().raw_decode


def _space(text: str, at: int) -> int:
    """Where the whitespace starting at ``at`` ends."""
    found = _WHITESPACE.match(text, at)
    return at if found is None else found.end()


class NotStreamed(Exception):
    """The text is not one ``scan`` reads an item at a time (the caller reads it whole)."""


@dataclass(frozen=True)
class Entries:
    """Where a scanned text's entries list is, and the rest of its top-level object."""

    text: str
    head: dict[str, Any] | None
    spans: tuple[tuple[int, int], ...]

    def items(self) -> Iterator[Any]:
        """The entries list's items again, in order, one at a time."""
        for start, end in self.spans:
            yield from chunk_items(self.text[start:end])


def chunk_items(chunk: str) -> Iterator[Any]:
    """The items of one span's text (items and the commas between them, as ``scan`` found
    them), decoded one at a time."""
    at = 0
    while True:
        item, at = _decode(chunk, at)
        yield item
        at = _space(chunk, at)
        if at >= len(chunk):
            return
        at = _space(chunk, at + 1)  # past the comma


def scan(text: str, visit: Callable[[Any], None], depth: int) -> Entries:
    """Check ``text`` is a list or an object with one ``entries`` list, nested at most
    ``depth`` levels, calling ``visit`` with each of its items; ``NotStreamed`` for any
    other text (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    try:
        at = _space(text, 0)
        if text[at] == "[":
            head, end = None, _skip(text, at, visit, depth - 1, spans)
        elif text[at] == "{":
            head, end = _members(text, at, visit, depth - 1, spans)
        else:
            raise NotStreamed
        if _space(text, end) != len(text):
            raise NotStreamed
    except (ValueError, IndexError, RecursionError):  # JSONDecodeError is a ValueError
        raise NotStreamed from None
    return Entries(text, head, tuple(spans))


def _members(
    text: str, at: int, visit: Callable[[Any], None], room: int, spans: list[tuple[int, int]]
) -> tuple[dict[str, Any], int]:
    """The members of the object opening at ``at`` but ``entries`` (whose list ``_skip``
    reads), and the end of the object (``room``: the levels a member's value may nest)."""
    head: dict[str, Any] = {}
    start = -1
    at = _space(text, at + 1)
    while text[at] == '"':
        name, at = _decode(text, at)
        at = _space(text, at)
        if text[at] != ":":
            raise NotStreamed
        at = _space(text, at + 1)
        if name == "entries":
            if start >= 0 or text[at] != "[":
                raise NotStreamed  # twice, or not a list: read whole
            start, at = at, _skip(text, at, visit, room - 1, spans)
        else:
            value_at = at
            head[name], at = _decode(text, at)
            _within(text[value_at:at], room)
        at = _space(text, at)
        if text[at] == "}" and start >= 0:
            return head, at + 1
        if text[at] != ",":
            raise NotStreamed
        at = _space(text, at + 1)
    raise NotStreamed


def _skip(
    text: str, start: int, visit: Callable[[Any], None], room: int, spans: list[tuple[int, int]]
) -> int:
    """Visit each item of the list opening at ``start``, each nested at most ``room``
    levels, its items' spans appended to ``spans``; where the list ends."""
    end, first, last = [0], -1, -1
    for count, (item, begin, last) in enumerate(_items(text, start, end), start=1):
        visit(item)
        first = begin if first < 0 else first
        if count % CHUNK == 0:
            _within(text[first:last], room)
            spans.append((first, last))
            first = -1
    _within(text[first:last] if first >= 0 else "", room)
    if first >= 0:
        spans.append((first, last))
    return end[0]


def _within(part: str, room: int) -> None:
    """``part`` (whole values, commas and spaces) nests at most ``room`` levels."""
    if room < 0 or deeper_than(part, room):
        raise NotStreamed


def _items(text: str, start: int, end: list[int]) -> Iterator[tuple[Any, int, int]]:
    """The items of the list opening at ``start``, each with where it starts and ends;
    ``end[0]`` is set past the list's ``]``."""
    at = _space(text, start + 1)
    if text[at] == "]":
        end[0] = at + 1
        return
    while True:
        item, after = _decode(text, at)
        yield item, at, after
        at = _space(text, after)
        if text[at] == "]":
            end[0] = at + 1
            return
        if text[at] != ",":
            raise NotStreamed
        at = _space(text, at + 1)
