"""Instruction blocks between markers in Markdown files (AGENTS.md, CLAUDE.md, GEMINI.md…).

Invariant: ``add_block`` appends one marked block (or rewrites the one that
is there) and ``remove_block`` takes out exactly what ``add_block`` added —
the block and the line break that separated it — so the text around it comes
back byte for byte.
"""

from __future__ import annotations

import re

START = "<!-- toon-memory:start -->"
END = "<!-- toon-memory:end -->"
_BLOCK = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)


def wrap(body: str, newline: str = "\n") -> str:
    """``body`` between the markers (no trailing line break)."""
    inner = body.strip("\n").replace("\n", newline)
    return START + newline + inner + newline + END


def has_block(text: str) -> bool:
    return _BLOCK.search(text) is not None


def block_of(text: str) -> str | None:
    found = _BLOCK.search(text)
    return found.group(0) if found else None


def _newline_of(text: str, found: re.Match[str] | None) -> str:
    """The block's own line break when there is a block, else the file's."""
    if found is not None:
        return "\r\n" if found.group(0)[len(START) :].startswith("\r\n") else "\n"
    return "\r\n" if "\r\n" in text else "\n"


def add_block(text: str, body: str) -> str:
    """``text`` with our block: rewritten in place when present, else appended."""
    found = _BLOCK.search(text)
    newline = _newline_of(text, found)
    block = wrap(body, newline)
    if found is not None:
        return text[: found.start()] + block + text[found.end() :]
    if not text:
        return block + newline
    if text.endswith(newline):
        return text + newline + block + newline
    return text + newline + newline + block


def remove_block(text: str) -> str:
    """``text`` without our block and the separator ``add_block`` put before it."""
    found = _BLOCK.search(text)
    if found is None:
        return text
    newline = _newline_of(text, found)
    head, tail = text[: found.start()], text[found.end() :]
    if tail.startswith(newline):
        tail = tail[len(newline) :]
        if head.endswith(newline + newline):
            head = head[: -len(newline)]
    elif tail == "" and head.endswith(newline + newline):
        head = head[: -2 * len(newline)]
    return head + tail
