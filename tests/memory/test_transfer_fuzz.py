"""Import of any file never crashes and never breaks the memory (a property test).

Files are JSON exports, bare JSON lists, TOON tables and free text with rows
of any field mix and value type (NULs, huge strings, numbers for dates, bad
links). Each import either succeeds or raises a ``ToonMemoryError``; after
all of them the memory still recalls and its compacted data.toon decodes with
the strict ``toon-format`` decoder.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import toon_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toon_memory import Memory
from toon_memory.errors import ToonMemoryError

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=20)
    | st.sampled_from(["decision", "knowledge", "2026-07-01", "2026-13-45", "supersedes:x", "a|b",
                       "\x00", "x" * 5_000]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)  # fmt: skip
_KEYS = st.sampled_from(["id", "key", "category", "content", "tags", "links", "date", "created",
                         "updated", "status", "importance", "file", "ttl", "confidence", "quality",
                         "lastAccessed", "accessCount", "supersededOn", "meta", "evidence",
                         "origin", "pathScope"])  # fmt: skip
_ROWS = st.lists(st.dictionaries(_KEYS, _VALUES, max_size=10), max_size=5)


def _table(rows: list[dict[str, Any]]) -> str:
    cells = ("id", "key", "category", "content")
    body = "".join("  " + "|".join(str(r.get(c, ""))[:20] for c in cells) + "\n" for r in rows)
    return f"version: 1\nentries[{len(rows)}]{{id|key|category|content}}:\n{body}"


_FILES = st.one_of(
    _ROWS.map(lambda rows: json.dumps({"version": 1, "entries": rows})),
    _ROWS.map(json.dumps),
    _ROWS.map(_table),
    st.text(max_size=300),
)


def test_any_file_imports_or_is_refused_and_the_memory_stays_whole(
    project: Path, tmp_path: Path
) -> None:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate input with zod.")

    @given(text=_FILES, suffix=st.sampled_from([".json", ".toon", ".md", ""]))
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    def run(text: str, suffix: str) -> None:
        source = tmp_path / f"in{suffix}"
        source.write_bytes(text.encode("utf-8", "surrogatepass"))
        with contextlib.suppress(ToonMemoryError):  # refused is fine; crashing is not
            memory.import_(source)
        assert memory.recall("zod").entries[0].key == "use-zod"

    run()
    memory.compact()
    decoded = toon_format.decode((project / ".toon-memory/memory/data.toon").read_text())
    assert any(row["key"] == "use-zod" for row in decoded["entries"])
