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

import pytest
import toon_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toon_memory import Memory
from toon_memory.errors import ImportFormatError, ToonMemoryError

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


_MIXED = st.lists(
    st.fixed_dictionaries({"key": st.sampled_from(["a", "b", "c key", ""]),
                           "content": st.sampled_from(["x", "same text", ""])},
                          optional={"status": st.sampled_from(["active", "superseded", ""]),
                                    "date": st.sampled_from(["2026-07-01", "", "soon"]),
                                    "category": st.sampled_from(["bug", "idea"])})
    | st.integers() | st.text(max_size=3),
    max_size=8,
)  # fmt: skip


def test_a_file_read_a_row_at_a_time_imports_as_the_same_rows_in_memory(tmp_path: Path) -> None:
    """An export's JSON is decoded a row at a time; its report and its entries equal those
    of the same rows handed over as a list (items that are not objects, repeated keys,
    summaries after the entries, members we do not know)."""
    count = iter(range(10**6))

    @given(rows=_MIXED, indent=st.sampled_from([None, 2]), ascii_only=st.booleans(),
           bom=st.sampled_from(["", "\ufeff"]))  # fmt: skip
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    def run(rows: list[Any], indent: int | None, ascii_only: bool, bom: str) -> None:
        """(An ASCII file is read back from disk a span at a time, with or without a byte
        order mark; any other from its text kept in memory.)"""
        n = next(count)
        if rows and not any(isinstance(r, dict) for r in rows):
            rows = [*rows, {"key": "k", "content": "c"}]
        rows = [*rows, {"key": "naïve-ключ", "content": "café 数据"}]
        text = json.dumps({"version": 1, "note": [1], "entries": rows,
                           "summaries": [{"file": "a.py", "summary": "s"}]},
                          indent=indent, ensure_ascii=ascii_only)  # fmt: skip
        (tmp_path / f"{n}.json").write_text(bom + text, encoding="utf-8")
        streamed, listed = (Memory(_project(tmp_path / f"{side}{n}")) for side in "sl")
        got = streamed.import_(tmp_path / f"{n}.json").to_dict()
        want = listed.import_rows(json.loads(text)["entries"],
                                  notes=[]).to_dict()  # fmt: skip
        assert got == want
        assert _stored(streamed) == _stored(listed)

    run()


def _stored(memory: Memory) -> list[dict[str, Any]]:
    """The entries as dicts, without what differs between two imports of the same rows: the
    ids made for them and the second of the import's clock (``created``, ``updated``: the
    rows give none; ``meta.imported``)."""
    rows = [e.to_dict() | {"id": "", "created": "", "updated": ""}
            for e in memory.store.state().entries.values()]  # fmt: skip
    for row in rows:
        row["meta"].pop("imported", None)
    return rows


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    return root


def test_a_file_changed_while_it_is_imported_is_refused_whole(
    project: Path, tmp_path: Path
) -> None:
    """The rows are read twice (a survey, then the checks, a span at a time from the file):
    a file rewritten between the two is refused with a clear error and nothing comes in."""
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate input with zod.")
    rows = [{"key": f"k-{i}", "content": f"row {i}"} for i in range(1500)]
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"version": 1, "entries": rows}), encoding="utf-8")
    calls: list[int] = []

    def progress(done: int, _total: int) -> None:
        calls.append(done)
        if len(calls) == 1:  # the first 1,000 rows are checked: the rest is read after this
            path.write_text(json.dumps({"version": 1, "entries": rows[::-1]}), encoding="utf-8")

    with pytest.raises(ImportFormatError, match="changed while it was imported"):
        memory.import_(path, progress=progress)
    assert calls == [1000]
    assert [e.key for e in Memory(project).store.state().entries.values()] == ["use-zod"]
