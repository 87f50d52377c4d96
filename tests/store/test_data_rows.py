"""``store.data_rows.DataRows`` yields data.toon's entries as the whole read does, or declines.

Properties: for any entries and summaries it yields exactly the entries
``codec.decode_document`` reads, in order, and records the identity of the file it
read; for any mutation of such a file it either raises ``NotOurs`` or yields
exactly what the whole read gives, and it raises ``NotOurs`` whenever the whole read
refuses the file or reads it as a TypeScript file. A data.toon swapped while it is
read is never mixed in: the rows and the identity are the first file's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tests.store.test_toon_rows import _SUMMARIES, _mutated
from tests.store.test_toon_table import entries

from toon_memory.errors import ToonMemoryError
from toon_memory.model.entry import Entry, Summary
from toon_memory.store.cache import file_id
from toon_memory.store.codec import decode_document, encode_document
from toon_memory.store.data_rows import DataRows, count_rows, read_data

Read = tuple[list[dict[str, object]], list[Summary]] | str


def _streamed(path: Path) -> Read:
    found = read_data(path)
    if found is None:
        return "declined"
    return [e.to_row() for e in found[0].entries], found[0].summaries


def _whole(path: Path) -> Read:
    try:
        doc = decode_document(path.read_bytes().decode("utf-8"), path)
    except (UnicodeDecodeError, ToonMemoryError):
        return "refused"
    return (
        "typescript" if doc.migrated_from_ts else ([e.to_row() for e in doc.entries], doc.summaries)
    )


def _file(tmp: Path, data: bytes) -> Path:
    path = tmp / "data.toon"
    path.write_bytes(data)
    return path


@given(st.lists(entries(), max_size=6), _SUMMARIES)
def test_our_file_is_read_row_by_row_as_the_whole_read_reads_it(
    tmp_path_factory: pytest.TempPathFactory, rows: list[Entry], summaries: list[Summary]
) -> None:
    path = _file(tmp_path_factory.mktemp("d"), encode_document(rows, summaries).encode())
    reader = DataRows(path)
    assert ([e.to_row() for e in reader], reader.summaries) == _whole(path)
    assert reader.identity == file_id(path)
    assert _streamed(path) == _whole(path)


@given(_mutated())
@example("version: 1\nentries: []\nsummaries: []\n\n")
@example("version: 1\r\nentries: []\nsummaries: []\n")
@example(" \n")
def test_any_other_file_is_declined_or_read_the_same(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    path = _file(tmp_path_factory.mktemp("d"), text.encode("utf-8", "surrogatepass"))
    streamed, whole = _streamed(path), _whole(path)
    counted = count_rows(path)
    if whole in ("refused", "typescript"):
        assert streamed == "declined" and counted is None
    elif streamed != "declined":
        assert streamed == whole and counted == len(whole[0])


def test_bytes_that_are_not_utf8_are_declined(tmp_path: Path) -> None:
    text = encode_document([Entry(id="00000001", category="bug", key="k", content="café")], [])
    for broken in (text.encode().replace("é".encode(), b"\xe9"), text.encode()[:-1] + b"\xff\n"):
        path = _file(tmp_path, broken)
        assert _whole(path) == "refused" and _streamed(path) == "declined"


def test_a_row_the_entry_model_refuses_is_declined(tmp_path: Path) -> None:
    text = encode_document([Entry(id="00000001", category="bug", key="k", content="c",
                                  accessed=3)], [])  # fmt: skip
    path = _file(tmp_path, text.replace("|3|", "|three|", 1).encode())
    assert "three" in path.read_text()
    assert _whole(path) == "refused" and _streamed(path) == "declined"


def test_no_file_and_an_empty_file_hold_no_entries(tmp_path: Path) -> None:
    missing = DataRows(tmp_path / "data.toon")
    assert list(missing) == [] and missing.identity is None
    empty = DataRows(_file(tmp_path, b""))
    assert list(empty) == [] and empty.identity == file_id(tmp_path / "data.toon")


def test_a_file_swapped_while_it_is_read_is_never_mixed_in(tmp_path: Path) -> None:
    first = [Entry(id=f"{i:08x}", category="bug", key=f"old-{i}", content="old") for i in range(5)]
    path = _file(tmp_path, encode_document(first, []).encode())
    before = file_id(path)
    reader = DataRows(path)
    rows = iter(reader)
    seen = [next(rows)]
    swapped = tmp_path / "swap.tmp"
    swapped.write_text(encode_document([first[0].copy(key="new-0")], []))
    os.replace(swapped, path)  # as a compaction or a git checkout swaps the file
    seen.extend(rows)
    assert [e.key for e in seen] == [e.key for e in first]
    assert reader.identity == before != file_id(path)
