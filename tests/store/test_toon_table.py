"""``store.toon_table.encode_entries`` (``codec.encode_document``) writes the official
encoder's text byte for byte, and the strict decoder reads every row of it back."""

from __future__ import annotations

import toon_format
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry, Summary
from toon_memory.store.codec import encode_document
from toon_memory.store.toon_table import encode_cell, encode_entries

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
