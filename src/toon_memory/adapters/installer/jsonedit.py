"""Minimal text splices on JSON/JSONC/JSON5: add, replace and remove one value.

Invariant: every edit touches only the bytes of the value it adds, replaces
or removes (plus the one comma and line break that separate it); comments,
other members, indentation and line endings stay as they were. Removing a
member added by ``set_value`` gives back the text it was added to (an
emptied ``{ }`` or ``{\\n}`` comes back as ``{}``). New values are written in
the file's own indentation unit and newline style.
"""

from __future__ import annotations

import json
from typing import Any

from toon_memory.adapters.installer.jsontext import (
    Child,
    Node,
    Parsed,
    child_index,
    find,
    parse,
    to_python,
)

PathT = tuple[str | int, ...]


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _indent_unit(parsed: Parsed) -> str:
    """The file's indentation step: that of the root's first member line, else two spaces."""
    root = parsed.root
    if root is not None and root.children and _own_line(parsed.text, root.children[0].start):
        unit = _line_indent(parsed.text, root.children[0].start)
        if unit:
            return unit
    return "  "


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_indent(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


def _own_line(text: str, pos: int) -> bool:
    """True when only spaces or tabs stand between the line start and ``pos``."""
    return text[_line_start(text, pos) : pos].strip(" \t") == ""


def _skip_same_line(text: str, pos: int, limit: int) -> int:
    """Skip spaces and same-line comments after ``pos``; stop at a line break or a token."""
    while pos < limit:
        if text[pos] in " \t":
            pos += 1
        elif text.startswith("//", pos):
            end = text.find("\n", pos)
            end = limit if end < 0 or end > limit else end
            return end - 1 if end > 0 and text[end - 1] == "\r" else end
        elif text.startswith("/*", pos):
            end = text.find("*/", pos) + 2
            if "\n" in text[pos:end]:
                return pos
            pos = end
        else:
            break
    return pos


def render(value: Any, unit: str, indent: str, newline: str) -> str:
    """``value`` as JSON: objects one member a line (``unit`` steps from ``indent``),
    arrays of plain values on one line."""
    if isinstance(value, dict) and value:
        inner = indent + unit
        members = [
            newline
            + inner
            + json.dumps(k, ensure_ascii=False)
            + ": "
            + render(v, unit, inner, newline)
            for k, v in value.items()
        ]
        return "{" + ",".join(members) + newline + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        inner = indent + unit
        items = [newline + inner + render(v, unit, inner, newline) for v in value]
        return "[" + ",".join(items) + newline + indent + "]"
    return _compact(value)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _member(key: str | int | None, body: str) -> str:
    return (
        body
        if key is None or isinstance(key, int)
        else json.dumps(key, ensure_ascii=False) + ": " + body
    )


def _insert(parsed: Parsed, node: Node, key: str | None, value: Any) -> str:
    text, nl, unit = parsed.text, _newline(parsed.text), _indent_unit(parsed)
    kids = node.children
    if not kids:
        base = _line_indent(text, node.start)
        ind = base + unit
        piece = nl + ind + _member(key, render(value, unit, ind, nl))
        inner = text[node.start + 1 : node.end - 1]
        tail = "" if "\n" in inner else nl + base
        return text[: node.start + 1] + piece + tail + text[node.start + 1 :]
    last = kids[-1]
    after = last.comma + 1 if last.comma is not None else last.node.end
    if not _own_line(text, kids[0].start):
        piece = _member(key, _compact(value))
        if last.comma is not None:
            return text[:after] + " " + piece + "," + text[after:]
        return text[: last.node.end] + ", " + piece + text[last.node.end :]
    stop = _skip_same_line(text, after, node.end - 1)
    ind = _line_indent(text, last.start)
    piece = nl + ind + _member(key, render(value, unit, ind, nl))
    if last.comma is not None:
        return text[:stop] + piece + "," + text[stop:]
    end = last.node.end
    return text[:end] + "," + text[end:stop] + piece + text[stop:]


def _collapse(text: str, dialect: str, path: PathT) -> str:
    """Turn an emptied container whose inside is blank (one line break at most) into ``{}``/``[]``."""
    node = find(parse(text, dialect).root, path)
    if node is None or node.children:
        return text
    inner = text[node.start + 1 : node.end - 1]
    if inner.strip() == "" and inner.count("\n") <= 1:
        return text[: node.start + 1] + text[node.end - 1 :]
    return text


def _remove(parsed: Parsed, node: Node, index: int) -> str:
    text, kids = parsed.text, node.children
    kid: Child = kids[index]
    end = kid.comma + 1 if kid.comma is not None else kid.node.end
    if _own_line(text, kid.start):
        start = _line_start(text, kid.start) - 1
        if start > 0 and text[start - 1] == "\r":
            start -= 1
        start = max(start, node.start + 1)
        out = text[:start] + text[end:]
        if index > 0 and index == len(kids) - 1 and kid.comma is None:
            comma = kids[index - 1].comma or 0
            out = out[:comma] + out[comma + 1 :]
        return out
    if index > 0:
        return text[: kids[index - 1].node.end] + text[kid.node.end :]
    if len(kids) > 1:
        return text[: kid.start] + text[kids[1].start :]
    return text[: kid.start] + text[end:]


def _container(parsed: Parsed, path: PathT, kind: str) -> Node | None:
    node = find(parsed.root, path)
    if node is not None and node.kind != kind:
        where = ".".join(str(p) for p in path) or "the top level"
        raise TypeError(f"{where} is not a JSON {kind}")
    return node


def set_value(text: str, dialect: str, path: PathT, value: Any) -> str:
    """Set the value at ``path`` (creating missing objects on the way); no-op when equal."""
    parsed = parse(text, dialect)
    if parsed.root is None:
        nested = value
        for step in reversed(path):
            nested = {step: nested}
        return render(nested, "  ", "", "\n") + "\n"
    node: Node = parsed.root
    for depth, step in enumerate(path):
        kind = "array" if isinstance(step, int) else "object"
        if node.kind != kind:
            where = ".".join(str(p) for p in path[:depth]) or "the top level"
            raise TypeError(f"{where} is not a JSON {kind}")
        index = child_index(node, step)
        if index is None:
            nested = value
            for later in reversed(path[depth + 1 :]):
                nested = {later: nested}
            return _insert(parsed, node, None if isinstance(step, int) else step, nested)
        node = node.children[index].node
    if to_python(node) == value:
        return text
    nl, unit = _newline(text), _indent_unit(parsed)
    ind = _line_indent(text, node.start)
    return text[: node.start] + render(value, unit, ind, nl) + text[node.end :]


def append_item(text: str, dialect: str, path: PathT, value: Any) -> str:
    """Append ``value`` to the array at ``path`` (created when missing)."""
    parsed = parse(text, dialect)
    node = _container(parsed, path, "array")
    if node is None:
        return set_value(text, dialect, path, [value])
    return _insert(parsed, node, None, value)


def delete(text: str, dialect: str, path: PathT) -> str:
    """Remove the member or item at ``path``; no-op when absent."""
    if not path:
        raise ValueError("cannot delete the document itself")
    parsed = parse(text, dialect)
    parent = find(parsed.root, path[:-1])
    if parent is None:
        return text
    index = child_index(parent, path[-1])
    if index is None:
        return text
    return _collapse(_remove(parsed, parent, index), dialect, path[:-1])
