"""TOML config edits: tomlkit reads and checks, our tables go in and out as whole blocks.

Invariant: a table we add (``[mcp_servers.toon-memory]``) is appended at the
end of the file as one block rendered by tomlkit, and removing it gives back
the exact text it was appended to; every other byte stays. Each splice is
checked by parsing the result with tomlkit and comparing it with the intended
data; when the check fails (an inline ``mcp_servers = {…}`` table, dotted
keys), the edit falls back to tomlkit's own document model, which keeps
comments but may move whitespace.
"""

from __future__ import annotations

import re
from typing import Any

MISSING: Any = object()


class TomlSyntaxError(ValueError):
    """The text is not TOML; ``line`` is 1-based (0 when unknown)."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(problem)
        self.line = line
        self.problem = problem


def parse(text: str) -> Any:
    """A tomlkit document of ``text``; TomlSyntaxError naming the line."""
    import tomlkit
    from tomlkit.exceptions import ParseError

    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        raise TomlSyntaxError(exc.line, str(exc)) from None


def plain(value: Any) -> Any:
    """A tomlkit value as plain dicts, lists and scalars."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def lookup(data: Any, path: tuple[str, ...]) -> Any:
    for step in path:
        if not isinstance(data, dict) or step not in data:
            return MISSING
        data = data[step]
    return data


def _key_pattern(step: str) -> str:
    quoted = re.escape(step)
    return (
        rf"""(?:{quoted}|"{quoted}"|'{quoted}')"""
        if re.fullmatch(r"[A-Za-z0-9_-]+", step)
        else rf"""(?:"{quoted}"|'{quoted}')"""
    )


_HEADER = re.compile(r"^[ \t]*\[\[?[^\[\]\n]+\]\]?[ \t]*(?:#[^\n]*)?\r?$", re.MULTILINE)


def _block_span(text: str, path: tuple[str, ...]) -> tuple[int, int] | None:
    """Start and end (next foreign header or EOF) of the ``[path]`` table block."""
    keys = r"\s*\.\s*".join(_key_pattern(step) for step in path)
    own = re.compile(rf"^[ \t]*\[\s*{keys}\s*\][ \t]*(?:#[^\n]*)?\r?$", re.MULTILINE)
    sub = re.compile(rf"^[ \t]*\[\[?\s*{keys}\s*\.", re.MULTILINE)
    found = own.search(text)
    if found is None:
        return None
    start = found.start()
    for header in _HEADER.finditer(text, found.end()):
        if not sub.match(text, header.start()):
            return start, header.start()
    return start, len(text)


def render_block(path: tuple[str, ...], value: dict[str, Any], newline: str = "\n") -> str:
    """``[path]`` and its keys as tomlkit writes them (sub-dicts as inline tables)."""
    import tomlkit

    table = tomlkit.table()
    for key, item in value.items():
        if isinstance(item, dict):
            inline = tomlkit.inline_table()
            inline.update(item)
            table.add(key, inline)
        else:
            table.add(key, item)
    doc = tomlkit.document()
    holder: Any = doc
    for step in path[:-1]:
        parent = tomlkit.table(is_super_table=True)
        holder.add(step, parent)
        holder = parent
    holder.add(path[-1], table)
    return tomlkit.dumps(doc).replace("\n", newline)


def _pruned(data: Any) -> Any:
    """``data`` without empty tables (an implicit ``[a]`` of ``[a.b]`` vanishes with ``b``)."""
    if not isinstance(data, dict):
        return data
    out = {k: _pruned(v) for k, v in data.items()}
    return {k: v for k, v in out.items() if v != {} or not isinstance(v, dict)}


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _appended(text: str, block: str, nl: str) -> str:
    if not text:
        return block
    if text.endswith(nl):
        return text + nl + block
    return text + nl + nl + block[: -len(nl)] if block.endswith(nl) else text + nl + nl + block


def _cut(text: str, span: tuple[int, int], nl: str) -> str:
    start, end = span
    if end < len(text):
        return text[:start] + text[end:]
    head = text[:start]
    if text[start:end].endswith(nl):
        return head[: -len(nl)] if head.endswith(nl + nl) else head
    return head[: -2 * len(nl)] if head.endswith(nl + nl) else head


def _content_end(text: str, span: tuple[int, int]) -> int:
    """End of the block's last non-blank line (trailing blank lines stay)."""
    body = text[span[0] : span[1]]
    stripped = body.rstrip("\r\n \t")
    line_end = body.find("\n", len(stripped))
    return span[0] + (len(body) if line_end < 0 else line_end + 1)


class TomlDocument:
    """A TOML file being edited; ``text`` is the current content."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._data = plain(parse(text))

    def get(self, path: tuple[str | int, ...]) -> Any:
        return lookup(self._data, tuple(str(p) for p in path))

    def _commit(self, new_text: str, expect: Any, fallback: Any) -> None:
        try:
            got = plain(parse(new_text))
        except TomlSyntaxError:
            got = MISSING
        if got is MISSING or _pruned(got) != expect:
            new_text = fallback()
        self.text = new_text
        self._data = plain(parse(new_text))

    def _expected(self, path: tuple[str, ...], value: Any) -> Any:
        import copy

        data = copy.deepcopy(self._data)
        holder = data
        for step in path[:-1]:
            holder = holder.setdefault(step, {})
        if value is MISSING:
            holder.pop(path[-1], None)
        else:
            holder[path[-1]] = value
        return _pruned(data)

    def set(self, path: tuple[str | int, ...], value: Any) -> None:
        keys = tuple(str(p) for p in path)
        if self.get(keys) == value:
            return
        nl = _newline(self.text)
        block = render_block(keys, value, nl)
        span = _block_span(self.text, keys)
        if span is not None:
            end = _content_end(self.text, span)
            new_text = self.text[: span[0]] + block + self.text[end:]
        else:
            new_text = _appended(self.text, block, nl)

        def fallback() -> str:
            doc = parse(self.text)
            holder = doc
            for step in keys[:-1]:
                holder = holder.setdefault(step, {})
            holder[keys[-1]] = value
            return str(doc.as_string())

        self._commit(new_text, self._expected(keys, value), fallback)

    def delete(self, path: tuple[str | int, ...]) -> None:
        keys = tuple(str(p) for p in path)
        if self.get(keys) is MISSING:
            return
        span = _block_span(self.text, keys)
        new_text = _cut(self.text, span, _newline(self.text)) if span else self.text

        def fallback() -> str:
            doc = parse(self.text)
            holder = doc
            for step in keys[:-1]:
                holder = holder[step]
            del holder[keys[-1]]
            return str(doc.as_string())

        self._commit(new_text, self._expected(keys, MISSING), fallback)
