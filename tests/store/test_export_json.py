"""``store.export_json`` writes ``json.dumps(payload, ensure_ascii=False, indent=2)`` byte
for byte, a chunk at a time, and reads a memory's summaries at an index's position
without decoding its entries (None when the files are not at that position)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.store.test_toon_table import WORDS, entries

from toon_memory.model.entry import Entry, Summary
from toon_memory.store import journal
from toon_memory.store.cache import Position, file_id
from toon_memory.store.codec import encode_document
from toon_memory.store.export_json import (
    export_chunks,
    object_text,
    objects_text,
    summaries_at,
    write_export,
)
from toon_memory.store.paths import MemoryPaths

#: Any JSON value (dicts with text keys, as JSON has them, and with the keys ``json``
#: turns into text: numbers, booleans, None).
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), WORDS)
KEY = st.one_of(WORDS, st.integers(), st.floats(allow_nan=False), st.booleans(), st.none())
JSON = st.recursive(SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(KEY, inner, max_size=3)), max_leaves=8)  # fmt: skip


def reference(entries: list[Entry], summaries: list[Summary]) -> bytes:
    """The export as ``Transfer.export`` wrote it before it streamed."""
    payload = {"version": 1, "entries": [e.to_dict() for e in entries],
               "summaries": [s.to_row() for s in summaries]}  # fmt: skip
    return (json.dumps(payload, ensure_ascii=False, indent=2) + "\n").encode()


def _streamed(entries: list[Entry], summaries: list[Summary], chunk: int) -> bytes:
    counted: list[int] = []
    text = b"".join(export_chunks(entries, summaries, counted, chunk))
    assert counted == [len(entries)]
    return text


@given(st.lists(entries(), max_size=7), st.lists(st.builds(Summary, WORDS, WORDS, WORDS),
       max_size=3), st.integers(1, 4))  # fmt: skip
def test_the_export_is_json_dumps_byte_for_byte(
    rows: list[Entry], summaries: list[Summary], chunk: int
) -> None:
    assert _streamed(rows, summaries, chunk) == reference(rows, summaries)


@given(st.lists(st.dictionaries(KEY, JSON, max_size=4), max_size=4), st.integers(1, 3))
def test_any_objects_are_indented_as_json_does(rows: list[dict[Any, Any]], chunk: int) -> None:
    """Objects of several shapes in one list (the column path and the one-by-one path)."""
    want = json.dumps({"entries": rows}, ensure_ascii=False, indent=2)
    texts = [text for i in range(0, len(rows), chunk) for text in objects_text(rows[i : i + chunk])]
    got = '{\n  "entries": [' + ",".join("\n    " + t for t in texts)
    assert got + ("\n  ]\n}" if rows else "]\n}") == want


@given(st.dictionaries(KEY, JSON, max_size=5))
def test_one_object_is_indented_as_json_does(row: dict[Any, Any]) -> None:
    want = json.dumps({"entries": [row]}, ensure_ascii=False, indent=2)
    assert '{\n  "entries": [\n    ' + object_text(row) + "\n  ]\n}" == want


def test_a_failing_source_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "export.json"
    target.write_text("old", encoding="utf-8")

    def broken() -> Any:
        yield Entry(id="00000001", category="bug", key="k", content="c")
        raise OSError("the source went away")

    with pytest.raises(OSError, match="went away"):
        write_export(target, broken(), [])
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in target.parent.iterdir()) == ["export.json"]


def _memory_files(tmp_path: Path, summaries: list[Summary]) -> tuple[MemoryPaths, Position]:
    paths = MemoryPaths.for_project(tmp_path)
    paths.folder.mkdir(parents=True)
    rows = [Entry(id=f"{i:08x}", category="bug", key=f"k{i}", content=f"line\n{i} | x")
            for i in range(3)]  # fmt: skip
    paths.data.write_text(encode_document(rows, summaries), encoding="utf-8")
    end = journal.append_ops(paths.journal, [
        journal.put_summary("b.py", "b again", "2026-07-02"),
        journal.put(rows[0].to_row()),
        journal.put_summary("c.py", "new", "2026-07-03"),
    ])  # fmt: skip
    ino = os.stat(paths.journal).st_ino
    return paths, Position(file_id(paths.data), ino, end, None, 0)


def test_summaries_come_from_data_toon_then_the_journal(tmp_path: Path) -> None:
    stored = [Summary("a.py", "a", "2026-07-01"), Summary("b.py", 'b|:"x"', "2026-07-01")]
    paths, position = _memory_files(tmp_path, stored)
    assert summaries_at(paths, position) == [
        Summary("a.py", "a", "2026-07-01"), Summary("b.py", "b again", "2026-07-02"),
        Summary("c.py", "new", "2026-07-03")]  # fmt: skip
    journal.append_ops(paths.journal, [journal.put_summary("d.py", "later", "2026-07-04")])
    assert len(summaries_at(paths, position) or []) == 3, "only the journal up to the position"


def test_files_moved_away_from_the_position_give_none(tmp_path: Path) -> None:
    paths, position = _memory_files(tmp_path, [])
    text = paths.data.read_text(encoding="utf-8")
    paths.data.write_text(text.replace("version: 1", "version: 1\n"), encoding="utf-8")
    assert summaries_at(paths, position) is None  # another data.toon (and not our shape)
    paths.data.unlink()
    assert summaries_at(paths, position) is None
    paths, position = _memory_files(tmp_path / "other", [])
    paths.journal.unlink()
    assert summaries_at(paths, position) is None


def test_a_data_toon_not_in_our_shape_gives_none(tmp_path: Path) -> None:
    """The strict decoder reads it, but its rows cannot be skipped line by line."""
    paths, _position = _memory_files(tmp_path, [Summary("a.py", "a", "2026-07-01")])
    text = paths.data.read_text(encoding="utf-8")
    paths.data.write_text(text.replace("\nentries", "\n\nentries", 1), encoding="utf-8")
    position = Position(file_id(paths.data), None, 0, None, 0)
    assert summaries_at(paths, position) is None
