"""A settings file that holds one JSON object (config.json, SESSION-STATE.json).

Invariant: reading never fails on a missing or empty file (``{}``) and never
guesses on a malformed one: it raises ``CorruptFileError`` naming the file
and line, and leaves the file untouched.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toon_memory.errors import FIX_ADVICE, CorruptFileError


def read_json_object(path: Path) -> dict[str, Any]:
    """A JSON object file ({} when missing); CorruptFileError naming file and line otherwise."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise CorruptFileError(path, None, "not UTF-8 text", FIX_ADVICE) from None
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise CorruptFileError(path, exc.lineno, f"invalid JSON: {exc.msg}", FIX_ADVICE) from None
    except RecursionError:
        raise CorruptFileError(path, None, "JSON nested too deeply", FIX_ADVICE) from None
    if not isinstance(data, dict):
        raise CorruptFileError(path, 1, "expected a JSON object", FIX_ADVICE)
    return data
