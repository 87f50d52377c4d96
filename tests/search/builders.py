"""Small builders shared by the search tests: entries with stable ids, a recall shortcut."""

from __future__ import annotations

from datetime import date
from typing import Any

from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions, RecallResult

TODAY = date(2026, 7, 15)


def entry(key: str, content: str, **fields: Any) -> Entry:
    """An entry whose id is derived from its key (8 hex digits, stable)."""
    number = sum((i + 1) * ord(c) for i, c in enumerate(key)) % 0xFFFFFFFF
    values: dict[str, Any] = {"id": f"{number:08x}", "category": "knowledge", "date": "2026-07-01"}
    values.update(fields)
    return Entry(key=key, content=content, **values)


def recall(engine: Engine, query: str = "", **options: Any) -> RecallResult:
    return engine.recall(RecallOptions(query=query, **options), today=TODAY)
