"""Inbound JSON-RPC text the SDK would drop unanswered, made answerable.

Invariant: pure (no I/O, no ``mcp``). ``repair(text)`` is None for a message
the SDK parses as it is (decided by a cheap scan, then the SDK's own JSON
parser only for suspicious text) and for text that is not JSON at all.
Otherwise it is the same message as JSON that parses, where every string
holding a lone surrogate has it replaced by U+FFFD, every value nested deeper
than ``MAX_DEPTH`` and every integer too long to convert is replaced by
null; for a ``tools/call`` the refused arguments are also listed under
``params._meta[INVALID]`` (argument name -> problem), so the tool answers
with an error naming them instead of the request going unanswered.
``repair`` never raises.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

log = logging.getLogger("toon_memory.adapters.server")
#: ``params._meta`` key listing the arguments refused on the wire (name -> problem).
INVALID = "toon-memory/invalid"
#: Deepest nesting kept in a repaired message (the SDK's parser stops near 200).
MAX_DEPTH = 64
#: Longest integer literal kept (Python refuses to convert more than 4300 digits).
MAX_DIGITS = 4000

UNICODE = "invalid Unicode (a lone surrogate, or bytes that are not UTF-8)"
TOO_DEEP = f"nested too deep (more than {MAX_DEPTH} levels)"
TOO_LONG = f"a number longer than {MAX_DIGITS} digits"

# Patterns, compiled on first use (``re`` caches them): nothing is compiled at start-up.
_ESCAPED_SURROGATE = r"\\u[dD][89a-fA-F]"
_SURROGATE = "[\ud800-\udfff]"
_LONG_NUMBER = r"(?<![0-9])[0-9]{%d}" % (MAX_DIGITS + 1)  # noqa: UP031
_TOKENS = r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]'
#: Stands in for a cut-off value in the text; read back as ``_Cut``.
_CUT_LITERAL = "-0.0e-7346"


class _Cut:
    """A value replaced before parsing; ``problem`` says why."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def suspicious(text: str) -> bool:
    """Whether ``text`` may hold what the SDK's parser refuses (cheap, no parsing)."""
    if "\\u" in text and re.search(_ESCAPED_SURROGATE, text):
        return True
    if not text.isascii() and re.search(_SURROGATE, text):
        return True
    if text.count("[") + text.count("{") > MAX_DEPTH:
        return True
    return len(text) > MAX_DIGITS and re.search(_LONG_NUMBER, text) is not None


def repair(text: str) -> str | None:
    """The message made parseable and answerable, or None (fine as it is, or not JSON).

    Never raises: a failure here would cost the whole connection, not one message.
    """
    try:
        return _repair(text)
    except Exception:  # pragma: no cover - a bug; the message goes on as it came
        log.exception("message left unrepaired")
        return None


def _repair(text: str) -> str | None:
    if not suspicious(text) or _parses(text):
        return None
    message = _loads(_cut_deep(text))
    if message is None:
        return None
    problems: dict[tuple[Any, ...], str] = {}
    cleaned = _clean(message, (), problems)
    if not problems:
        return None
    _note_arguments(cleaned, problems)
    return json.dumps(cleaned, ensure_ascii=False)


def _parses(text: str) -> bool:
    import pydantic_core

    try:
        pydantic_core.from_json(text)
    except (ValueError, TypeError):  # TypeError: text holding lone surrogates
        return False
    return True


def _cut_deep(text: str) -> str:
    """``text`` with each value that opens below ``MAX_DEPTH`` replaced by ``_CUT_LITERAL``."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return text
    out: list[str] = []
    depth, kept_to, cut_at = 0, 0, -1
    for token in re.finditer(_TOKENS, text):
        mark = token.group()[0]
        if mark in "[{":
            depth += 1
            if depth == MAX_DEPTH + 1:
                cut_at = token.start()
        elif mark in "]}":
            if depth == MAX_DEPTH + 1 and cut_at >= 0:
                out += [text[kept_to:cut_at], _CUT_LITERAL]
                kept_to, cut_at = token.end(), -1
            depth -= 1
    out.append(text[kept_to:])
    return "".join(out)


def _number(literal: str) -> Any:
    return _Cut(TOO_DEEP) if literal == _CUT_LITERAL else float(literal)


def _integer(literal: str) -> Any:
    return _Cut(TOO_LONG) if len(literal.lstrip("-")) > MAX_DIGITS else int(literal)


def _loads(text: str) -> Any:
    try:
        return json.loads(text, parse_float=_number, parse_int=_integer)
    except (ValueError, RecursionError):
        return None


def _clean(value: Any, path: tuple[Any, ...], problems: dict[tuple[Any, ...], str]) -> Any:
    """``value`` with the refused parts replaced; each problem recorded under its path."""
    if isinstance(value, _Cut):
        problems.setdefault(path, value.problem)
        return None
    if isinstance(value, str):
        if not value.isascii() and re.search(_SURROGATE, value):
            problems.setdefault(path, UNICODE)
            return re.sub(_SURROGATE, "\ufffd", value)
        return value
    if isinstance(value, list):
        return [_clean(item, (*path, index), problems) for index, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = re.sub(_SURROGATE, "\ufffd", key)
            if name != key:
                problems.setdefault((*path, name), UNICODE)
            out[name] = _clean(item, (*path, name), problems)
        return out
    return value


def _note_arguments(message: Any, problems: dict[tuple[Any, ...], str]) -> None:
    """For a ``tools/call``: null each refused argument and list it in ``params._meta``."""
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return
    params = message.get("params")
    if not isinstance(params, dict):
        return
    arguments = params.get("arguments")
    if not isinstance(arguments, dict):
        return
    refused: dict[str, str] = {}
    for path, problem in problems.items():
        if len(path) >= 3 and path[:2] == ("params", "arguments"):
            refused.setdefault(str(path[2]), problem)
    if not refused:
        return
    for name in refused:
        if name in arguments:
            arguments[name] = None
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        meta = params["_meta"] = {}
    meta[INVALID] = refused
