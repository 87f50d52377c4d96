"""Cells of a TypeScript toon-memory row: splitting, unescaping, and placing shifted cells.

Invariant: pure string work, no I/O. ``split_cells`` never drops a character
(joining its cells with the delimiter gives the input back), and ``place``
returns the first reading of a row whose typed cells (dates, numbers,
statuses…) all make sense, joining the fewest surplus cells back into
``content``.
"""

from __future__ import annotations

import re

from toon_memory.model import entry as model

_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)
TS_PIPE_ESCAPE_RE = re.compile(r"(?<!\\)(?:\\\\)*\\\|")
_UNESCAPE = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "|": "|", ",": ","}


def split_cells(text: str, delim: str) -> list[str]:
    """Split on unescaped delimiters; a cell that is a whole quoted string stays whole."""
    cells: list[str] = []
    pos, size = 0, len(text)
    while True:
        end = quoted_end(text, pos, delim) if text.startswith('"', pos) else -1
        if end < 0:
            end = pos
            while end < size and text[end] != delim:
                end += 2 if text[end] == "\\" else 1
            end = min(end, size)
        cells.append(text[pos:end])
        if end >= size:
            return cells
        pos = end + 1


def quoted_end(text: str, pos: int, delim: str) -> int:
    """End of a quoted cell starting at ``pos`` if it closes right before a delimiter."""
    i = pos + 1
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == '"':
            after = i + 1
            return after if after == len(text) or text[after] == delim else -1
        i += 1
    return -1


def _unescape(text: str) -> str:
    return _ESCAPE_RE.sub(lambda m: _UNESCAPE.get(m[1], m[0]), text)


def decode(raw: str) -> str:
    """A whole quoted string reads as TOON quoted (unless it holds a TS ``\\|``)."""
    quoted = raw.startswith('"') and quoted_end(raw, 0, "|") == len(raw) > 1
    if quoted and not TS_PIPE_ESCAPE_RE.search(raw):
        return _unescape(raw[1:-1])
    return _unescape(raw)


_D = r"\d{4}-\d{2}-\d{2}(?:[T ][0-9:.+\-]*Z?)?"
_NUM, _INT = r"(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)?", r"(?:-?\d+)?"
_CELL_PATTERNS: dict[str, str] = {
    "date": _D, "ttl": rf"(?:{_D}|\d+ ?[A-Za-z]*|null|never|none|permanent)?",
    "accessed": _INT, "priority": _INT, "quality": _NUM, "confidence": _NUM,
    **{name: f"(?:{_D})?" for name in ("lastAccessed", "supersededOn", "created", "updated")},
    **{name: "(?:" + "|".join(values) + ")?" for name, values in (
        ("status", model.STATUSES), ("origin", model.ORIGINS),
        ("importance", model.IMPORTANCE_LEVELS), ("evidence", model.EVIDENCE_LEVELS))},
}  # fmt: skip
#: What a typed cell must look like; a shifted row puts text where these fail.
_CELL_RES = {name: re.compile(p, re.IGNORECASE) for name, p in _CELL_PATTERNS.items()}


def _spans(names: list[str], ci: int, surplus: int) -> list[tuple[str, int, int]]:
    """(field, first cell, end cell) when ``surplus`` extra cells belong to content."""
    out: list[tuple[str, int, int]] = []
    for i, name in enumerate(names):
        start = i + surplus if i > ci else i
        out.append((name, start, start + 1 + (surplus if i == ci else 0)))
    return out


def _fits(spans: list[tuple[str, int, int]], raw: list[str], ci: int) -> bool:
    for i, (name, start, _end) in enumerate(spans):
        if i == ci:
            continue
        if "\n" in raw[start]:
            return False
        check = _CELL_RES.get(name)
        if check is not None and not check.fullmatch(decode(raw[start]).strip()):
            return False
    return True


def _build(spans: list[tuple[str, int, int]], raw: list[str], delim: str) -> dict[str, str]:
    return {
        name: decode(raw[start]) if end - start == 1 else _unescape(delim.join(raw[start:end]))
        for name, start, end in spans
    }


Placed = tuple[dict[str, str], int, int]


def place(raw: list[str], fields: list[str], delim: str, ext: list[str]) -> Placed | None:
    """The first reading of ``raw`` whose typed cells make sense: (row, surplus, extra fields).

    Fewest cells joined back into content first; the rest read as the TypeScript
    fields that follow the header's last one.
    """
    names, extra = fields, len(raw) - len(fields)
    if extra < 0:
        return None
    ci = names.index("content") if "content" in names else -1
    lowest, highest = max(0, extra - len(ext)), extra if ci >= 0 else 0
    for surplus in range(lowest, highest + 1):
        used = extra - surplus
        spans = _spans(names + ext[:used], ci, surplus)
        if _fits(spans, raw, ci):
            return _build(spans, raw, delim), surplus, used
    return None
