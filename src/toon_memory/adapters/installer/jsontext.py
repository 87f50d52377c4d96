"""A span-keeping reader for JSON, JSONC and JSON5 config files.

Invariant: ``parse`` either returns a tree whose every node records the exact
character span of its text (so an edit can splice the source and leave every
other byte alone) or raises ``JsonSyntaxError`` with the offset of the first
problem. It never changes the text. Dialects: ``json`` (strict), ``jsonc``
(comments and trailing commas), ``json5`` (also single quotes, unquoted keys,
hex numbers, ``Infinity``/``NaN``, a leading ``+``).

Why our own and not a library: the comment-keeping JSON5 library on PyPI
(json-five) installs under the import name ``json5``, which collides with the
widely used ``json5`` package; the JSONC readers (commentjson,
json-with-comments, jsonc-parser) drop comments when they write. Edits here
are text splices (see ``jsonedit``), so comments and layout survive.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from toon_memory.errors import quote

DIALECTS = ("json", "jsonc", "json5")

_TOKEN = re.compile(
    r"""(?P<ws>[ \t\r\n\ufeff\u00a0\u2028\u2029]+)
      |(?P<line>//[^\n]*)
      |(?P<block>/\*.*?\*/)
      |(?P<dq>"(?:[^"\\\n]|\\.)*")
      |(?P<sq>'(?:[^'\\\n]|\\.)*')
      |(?P<punct>[{}\[\]:,])
      |(?P<num>[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity|NaN))
      |(?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)""",
    re.VERBOSE | re.DOTALL,
)
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\Z")
_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}


class JsonSyntaxError(ValueError):
    """The text is not valid in its dialect; ``offset`` is where it goes wrong."""

    def __init__(self, offset: int, problem: str) -> None:
        super().__init__(problem)
        self.offset = offset
        self.problem = problem


@dataclass
class Node:
    """A value: ``kind`` is object, array or scalar; ``start``/``end`` bound its text."""

    kind: str
    start: int
    end: int
    children: list[Child] = field(default_factory=list)
    value: Any = None


@dataclass
class Child:
    """A member (``key`` set) or an array item (``key`` None) and the comma after it."""

    key: str | None
    start: int
    node: Node
    comma: int | None = None


@dataclass
class Parsed:
    """A parsed document: ``root`` is None for an empty (whitespace or comment only) text."""

    text: str
    dialect: str
    root: Node | None


def _tokens(text: str, dialect: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    pos, size = 0, len(text)
    while pos < size:
        match = _TOKEN.match(text, pos)
        if match is None:
            if text.startswith("/*", pos):
                raise JsonSyntaxError(pos, "unterminated /* comment")
            if text[pos] in "\"'":
                raise JsonSyntaxError(pos, "unterminated string")
            raise JsonSyntaxError(pos, f"unexpected character {quote(text[pos])}")
        kind = match.lastgroup or ""
        _check_dialect(kind, match.group(), pos, dialect)
        if kind not in ("ws", "line", "block"):
            out.append((kind, pos, match.end()))
        pos = match.end()
    return out


def _check_dialect(kind: str, token: str, pos: int, dialect: str) -> None:
    if dialect == "json5":
        return
    if kind in ("line", "block") and dialect == "json":
        raise JsonSyntaxError(pos, "comments are not allowed in JSON")
    if kind == "sq":
        raise JsonSyntaxError(pos, "single-quoted strings are not allowed here")
    if kind == "num" and not _STRICT_NUMBER.match(token):
        raise JsonSyntaxError(pos, f"invalid number {quote(token)}")
    if kind == "ident" and token not in _LITERALS:
        raise JsonSyntaxError(pos, f"unexpected word {quote(token)}")


def _decode_string(token: str, pos: int) -> str:
    if token[0] == '"':
        try:
            return str(json.loads(token))
        except json.JSONDecodeError:
            pass
    body = token[1:-1].replace("\\\n", "").replace("\\'", "'").replace('"', '\\"')
    try:
        return str(json.loads('"' + body + '"'))
    except json.JSONDecodeError as exc:
        raise JsonSyntaxError(pos, f"invalid string escape ({exc.msg})") from None


def _decode_number(token: str) -> int | float:
    sign = -1 if token.startswith("-") else 1
    bare = token.lstrip("+-")
    if bare[:2] in ("0x", "0X"):
        return sign * int(bare, 16)
    if bare in ("Infinity", "NaN"):
        return sign * float(bare.lower().replace("infinity", "inf"))
    number = float(token) if any(c in bare for c in ".eE") else int(token)
    return number


class _Parser:
    def __init__(self, text: str, dialect: str) -> None:
        self.text = text
        self.dialect = dialect
        self.toks = _tokens(text, dialect)
        self.i = 0

    def _peek(self) -> tuple[str, int, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def _next(self, what: str) -> tuple[str, int, int]:
        tok = self._peek()
        if tok is None:
            raise JsonSyntaxError(len(self.text), f"unexpected end of file, expected {what}")
        self.i += 1
        return tok

    def _tok_text(self, tok: tuple[str, int, int]) -> str:
        return self.text[tok[1] : tok[2]]

    def value(self) -> Node:
        tok = self._next("a value")
        kind, start, end = tok
        token = self._tok_text(tok)
        if kind == "punct" and token in "{[":
            return self._container(token, start)
        if kind in ("dq", "sq"):
            return Node("scalar", start, end, value=_decode_string(token, start))
        if kind == "num":
            return Node("scalar", start, end, value=_decode_number(token))
        if kind == "ident" and token in _LITERALS:
            return Node("scalar", start, end, value=_LITERALS[token])
        raise JsonSyntaxError(start, f"unexpected {quote(token)}, expected a value")

    def _key(self) -> str:
        tok = self._next("a key")
        token = self._tok_text(tok)
        if tok[0] in ("dq", "sq"):
            return _decode_string(token, tok[1])
        if tok[0] == "ident" and self.dialect == "json5":
            return token
        raise JsonSyntaxError(tok[1], f"unexpected {quote(token)}, expected a key")

    def _container(self, opener: str, start: int) -> Node:
        closer = "}" if opener == "{" else "]"
        node = Node("object" if opener == "{" else "array", start, start)
        while True:
            tok = self._peek()
            if tok is not None and self._tok_text(tok) == closer:
                if node.children and node.children[-1].comma is not None and self.dialect == "json":
                    raise JsonSyntaxError(node.children[-1].comma or 0, "trailing comma")
                self.i += 1
                node.end = tok[2]
                return node
            if node.children and node.children[-1].comma is None:
                where = tok[1] if tok else len(self.text)
                raise JsonSyntaxError(where, f"expected ',' or '{closer}'")
            node.children.append(self._child(opener))

    def _child(self, opener: str) -> Child:
        first = self._peek()
        child_start = first[1] if first else len(self.text)
        key: str | None = None
        if opener == "{":
            key = self._key()
            colon = self._next("':'")
            if self._tok_text(colon) != ":":
                raise JsonSyntaxError(colon[1], "expected ':' after the key")
        child = Child(key, child_start, self.value())
        tok = self._peek()
        if tok is not None and self._tok_text(tok) == ",":
            child.comma = tok[1]
            self.i += 1
        return child


def parse(text: str, dialect: str = "jsonc") -> Parsed:
    """Parse ``text``; JsonSyntaxError on the first problem."""
    parser = _Parser(text, dialect)
    if not parser.toks:
        return Parsed(text, dialect, None)
    try:
        root = parser.value()
    except RecursionError:
        raise JsonSyntaxError(0, "nested too deeply") from None
    extra = parser._peek()
    if extra is not None:
        raise JsonSyntaxError(extra[1], "unexpected text after the end of the document")
    return Parsed(text, dialect, root)


def to_python(node: Node | None) -> Any:
    """The plain Python value of ``node`` (later duplicate keys win, as in ``json``)."""
    if node is None:
        return None
    if node.kind == "object":
        return {child.key: to_python(child.node) for child in node.children}
    if node.kind == "array":
        return [to_python(child.node) for child in node.children]
    return node.value


def find(node: Node | None, path: tuple[str | int, ...]) -> Node | None:
    """The node at ``path`` (keys and indexes), or None."""
    for step in path:
        if node is None:
            return None
        node = child_at(node, step)
    return node


def child_at(node: Node, step: str | int) -> Node | None:
    """The value under one key (last duplicate wins) or index."""
    index = child_index(node, step)
    return None if index is None else node.children[index].node


def child_index(node: Node, step: str | int) -> int | None:
    """Position in ``children`` of a key (last duplicate) or an index."""
    if isinstance(step, int):
        return step if node.kind == "array" and 0 <= step < len(node.children) else None
    if node.kind != "object":
        return None
    for index in range(len(node.children) - 1, -1, -1):
        if node.children[index].key == step:
            return index
    return None


def line_of(text: str, offset: int) -> int:
    """1-based line number of ``offset``."""
    return text.count("\n", 0, offset) + 1
