"""``store.toon_table.encode_entries`` (``codec.encode_document``) writes the official
encoder's text byte for byte, and the strict decoder reads every row of it back;
``encode_streamed`` writes the same text a chunk at a time, or refuses (``Unproven``)
a cell whose text could depend on other chunks, and any other count of entries."""

from __future__ import annotations

import pytest
import toon_format
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry, Summary
from toon_memory.store.codec import encode_document
from toon_memory.store.toon_table import Unproven, encode_cell, encode_entries, encode_streamed

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
#: Texts that look like what the quoting rules care about: numbers, keywords, edges.
TRICKY = st.sampled_from(["", " ", "-1", "05", "+1", "1e5", "1.5", "true", "null", "a|b",
                          "a:b", '"q"', "x\\y", "[1]", "{a}", "#tag", "- item", "tab\tx",
                          "line\nbreak", "\x01", "\u2028", "é", "  lead", "trail "])  # fmt: skip
WORDS = st.one_of(TEXT, TRICKY)
NUMBER = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**22, 10**22),
                   st.sampled_from([0.0, -0.0, 1e-7, 1e21, 2.0**60, 0.1, 1e-6]))  # fmt: skip


@st.composite
def entries(draw: st.DrawFn) -> Entry:
    tag = st.one_of(TRICKY, st.text(alphabet="abc-_:|", max_size=6)).filter(
        lambda t: t.strip() != "" and ";" not in t)  # fmt: skip
    return Entry(
        id=draw(WORDS), category=draw(WORDS), key=draw(WORDS), content=draw(WORDS),
        file=draw(WORDS), tags=draw(st.lists(tag, max_size=3, unique=True)),
        date=draw(WORDS), ttl=draw(WORDS), accessed=draw(st.integers(-5, 10**12)),
        quality=draw(st.floats(0, 1)), confidence=draw(st.floats(allow_nan=False)),
        last_accessed=draw(WORDS), priority=draw(st.integers(0, 5)), origin=draw(WORDS),
        status=draw(WORDS), created=draw(WORDS), updated=draw(WORDS),
        meta=draw(st.dictionaries(TEXT, st.one_of(TEXT, st.integers()), max_size=2)),
    )  # fmt: skip


@given(st.lists(entries(), max_size=6),
       st.lists(st.builds(Summary, WORDS, WORDS, WORDS), max_size=3))  # fmt: skip
def test_the_text_is_the_official_encoders(rows: list[Entry], summaries: list[Summary]) -> None:
    payload = {"version": 1, "entries": [e.to_row() for e in rows],
               "summaries": [s.to_row() for s in summaries]}  # fmt: skip
    official = toon_format.encode(payload, delimiter="|") + "\n"
    assert encode_entries(rows, summaries) == official == encode_document(rows, summaries)


@given(st.lists(entries(), min_size=1, max_size=4))
def test_the_strict_decoder_reads_every_row_back(rows: list[Entry]) -> None:
    data = toon_format.loads(encode_entries(rows, []), strict=True)
    assert [row["key"] for row in data["entries"]] == [e.key for e in rows]
    assert [row["content"] for row in data["entries"]] == [e.content for e in rows]


@given(st.one_of(WORDS, NUMBER, st.booleans(), st.none()))
def test_each_cell_is_encoded_as_the_official_encoder_does(value: object) -> None:
    official = toon_format.encode({"x": [{"a": value, "b": 1}]}, delimiter="|").split("\n")[1]
    assert "  " + encode_cell(value) + "|1" == official


SUMMARIES = st.lists(st.builds(Summary, WORDS, WORDS, WORDS), max_size=3)


@given(st.lists(entries(), max_size=7), SUMMARIES, st.integers(1, 4))
def test_the_streamed_text_is_the_whole_ones(
    rows: list[Entry], summaries: list[Summary], chunk: int
) -> None:
    streamed = "".join(encode_streamed(len(rows), iter(rows), summaries, chunk))
    assert streamed == encode_entries(rows, summaries)


#: Cells of any type a row could carry, set on attributes the file writes as they are.
ODD = st.one_of(st.booleans(), st.integers(-2, 2), st.floats(-2, 2), st.none(), TRICKY,
                st.integers(10**21, 10**22), st.sampled_from([1e21, 1e22]))  # fmt: skip
NUMBERS = st.one_of(st.booleans(), st.integers(-2, 2), st.floats(-2, 2))
_TEXT_ATTRS = ["id", "category", "key", "content", "file", "date", "ttl", "last_accessed",
               "path_scope", "origin", "status", "superseded_on", "importance", "evidence",
               "created", "updated", "accessed", "priority"]  # fmt: skip
#: The attributes whose file columns hold texts (every memoised column is one of them).
_TEXTS = _TEXT_ATTRS[:-2]


@st.composite
def odd_entries(draw: st.DrawFn) -> Entry:
    """An entry some of whose cells are of another type than the file's (a bool in a text
    column, a float among whole numbers...): what a streamed table must never guess."""
    entry = draw(entries())
    for name in draw(st.lists(st.sampled_from(_TEXT_ATTRS), max_size=3)):
        setattr(entry, name, draw(ODD))
    for name in draw(st.lists(st.sampled_from(["quality", "confidence"]), max_size=2)):
        setattr(entry, name, draw(NUMBERS))
    return entry


@given(st.lists(odd_entries(), max_size=7), SUMMARIES, st.integers(1, 3))
def test_a_streamed_table_writes_any_cell_as_the_whole_one_or_refuses(
    rows: list[Entry], summaries: list[Summary], chunk: int
) -> None:
    try:
        streamed = "".join(encode_streamed(len(rows), iter(rows), summaries, chunk))
    except Unproven:
        assert any(type(getattr(e, name)) is not str for e in rows for name in _TEXTS)
    else:
        assert streamed == encode_entries(rows, summaries)


@given(st.lists(entries(), min_size=1, max_size=4), st.sampled_from([-1, 1]))
def test_another_count_of_entries_is_refused(rows: list[Entry], off: int) -> None:
    with pytest.raises(Unproven):
        "".join(encode_streamed(len(rows) + off, iter(rows), [], 2))
