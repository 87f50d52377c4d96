"""An import file's JSON read an entry at a time: its entries list decoded item by item,
never held whole (100,000 rows parsed at once took 317 MB).

Invariant: for a text that ``json.loads`` reads as a list, or as an object with one
``entries`` member that is a list, nested at most ``depth`` levels (``imports.deeper_than``,
asked of one chunk of items at a time), ``scan`` calls ``visit`` with each item of that
list in order, equal to what ``json.loads`` decodes, and returns ``Entries``: the object's
other members as ``json.loads`` gives them (``head``; None for a list), and ``items()``,
the same items decoded again. Any other text, valid JSON or not, raises ``NotStreamed``
and the caller reads it whole (which answers it, or names its error, as before). Pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toon_memory.rules.imports import deeper_than

#: Items whose nesting is checked together (one slice of the text at a time).
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
    start: int

    def items(self) -> Iterator[Any]:
        """The entries list's items again, in order, one at a time."""
        return (item for item, _end in _items(self.text, self.start, [0]))


def scan(text: str, visit: Callable[[Any], None], depth: int) -> Entries:
    """Check ``text`` is a list or an object with one ``entries`` list, nested at most
    ``depth`` levels, calling ``visit`` with each of its items; ``NotStreamed`` for any
    other text (see the module docstring)."""
    try:
        at = _space(text, 0)
        if text[at] == "[":
            head, start, end = None, at, _skip(text, at, visit, depth - 1)
        elif text[at] == "{":
            head, start, end = _members(text, at, visit, depth - 1)
        else:
            raise NotStreamed
        if _space(text, end) != len(text):
            raise NotStreamed
    except (ValueError, IndexError, RecursionError):  # JSONDecodeError is a ValueError
        raise NotStreamed from None
    return Entries(text, head, start)


def _members(
    text: str, at: int, visit: Callable[[Any], None], room: int
) -> tuple[dict[str, Any], int, int]:
    """The members of the object opening at ``at`` but ``entries``, where that list opens,
    and the end of the object (``room``: the levels a member's value may nest)."""
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
            start, at = at, _skip(text, at, visit, room - 1)
        else:
            value_at = at
            head[name], at = _decode(text, at)
            _within(text[value_at:at], room)
        at = _space(text, at)
        if text[at] == "}" and start >= 0:
            return head, start, at + 1
        if text[at] != ",":
            raise NotStreamed
        at = _space(text, at + 1)
    raise NotStreamed


def _skip(text: str, start: int, visit: Callable[[Any], None], room: int) -> int:
    """Visit each item of the list opening at ``start``, each nested at most ``room``
    levels; where the list ends."""
    end, first = [0], start + 1
    for count, (item, at) in enumerate(_items(text, start, end), start=1):
        visit(item)
        if count % CHUNK == 0:
            _within(text[first:at], room)
            first = at
    _within(text[first : end[0] - 1], room)
    return end[0]


def _within(part: str, room: int) -> None:
    """``part`` (whole values, commas and spaces) nests at most ``room`` levels."""
    if room < 0 or deeper_than(part, room):
        raise NotStreamed


def _items(text: str, start: int, end: list[int]) -> Iterator[tuple[Any, int]]:
    """The items of the list opening at ``start``, each with where it ends; ``end[0]`` is
    set past the list's ``]``."""
    at = _space(text, start + 1)
    if text[at] == "]":
        end[0] = at + 1
        return
    while True:
        item, at = _decode(text, at)
        yield item, at
        at = _space(text, at)
        if text[at] == "]":
            end[0] = at + 1
            return
        if text[at] != ",":
            raise NotStreamed
        at = _space(text, at + 1)
