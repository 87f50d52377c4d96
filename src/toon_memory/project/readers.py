"""Bounded, tolerant reads of the small files that describe a project.

Invariant: never raises and never writes. A missing, unreadable, oversized
or malformed file reads as ``None`` (text) or an empty dict (TOML, JSON).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

MAX_BYTES = 1_000_000


def read_text(path: Path, limit: int = MAX_BYTES) -> str | None:
    """The text of a regular file of at most ``limit`` bytes, else ``None``."""
    try:
        if not path.is_file() or path.stat().st_size > limit:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML table from ``path``; ``{}`` when absent or not valid TOML."""
    text = read_text(path)
    if text is None:
        return {}
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, TypeError, RecursionError):
        return {}


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from ``path``; ``{}`` when absent, not JSON, or not an object."""
    text = read_text(path)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    """``data[k1][k2]...`` when every step is a table, else ``{}``."""
    for key in keys:
        value = data.get(key)
        if not isinstance(value, dict):
            return {}
        data = value
    return data


def text_at(data: dict[str, Any], *keys: str) -> str | None:
    """The string at ``data[k1]...[kn]``, stripped, or ``None`` when absent or not a string."""
    value = table(data, *keys[:-1]).get(keys[-1]) if keys else None
    return value.strip() or None if isinstance(value, str) else None
