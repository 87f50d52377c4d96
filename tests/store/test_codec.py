"""data.toon is spec TOON and any content round-trips exactly."""

from __future__ import annotations

from pathlib import Path

import toon_format
from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.model.entry import FIELDS, Entry, Summary
from toon_memory.store.codec import decode_document, encode_document

TRICKY = [
    "a | b", "key: value", 'say "hi"', "back\\slash", "line1\nline2", "tab\there",
    "[[other-key]]", "emoji 🧠🔥", "中文内容测试", "עברית RTL", "  padded  ", "42", "3.14",
    "true", "false", "null", "-", "", " ", "x" * 100_000, "- item", "[1|]{a}:", "#", "\r\n",
]  # fmt: skip


def _entry(content: str, **extra: object) -> Entry:
    return Entry(id="0123abcd", category="decision", key="k", content=content, **extra)  # type: ignore[arg-type]


def test_header_and_layout() -> None:
    text = encode_document([_entry("hello")], [Summary("a.py", "sum", "2026-01-01")])
    lines = text.splitlines()
    assert lines[0] == "version: 1"
    assert lines[1] == "entries[1|]{" + "|".join(FIELDS) + "}:"
    assert any(line.startswith("summaries[1|]") for line in lines)
    assert toon_format.loads(text, strict=True)["entries"][0]["content"] == "hello"


def test_tricky_contents_round_trip() -> None:
    entries = [
        _entry(text, tags=["a", "b c"], links=["x", "supersedes:y"], meta={"why": text}).copy(
            id=f"{i:08x}"
        )
        for i, text in enumerate(TRICKY)
    ]
    entries = [e for e in entries if e.content]  # empty content cannot be remembered
    text = encode_document(entries, [])
    toon_format.loads(text, strict=True)
    assert decode_document(text, Path("data.toon")).entries == entries


@settings(max_examples=200, deadline=None)
@given(
    content=st.text(min_size=1, max_size=300),
    key=st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != ""),
    tag=st.lists(st.text(alphabet=st.characters(blacklist_characters=";", blacklist_categories=("Cs",)),
                         min_size=1, max_size=10).map(str.strip).filter(bool), max_size=3, unique=True),
    meta=st.dictionaries(st.text(max_size=8), st.text(max_size=20), max_size=3),
    quality=st.floats(min_value=0, max_value=1).map(lambda q: round(q, 2)),
)  # fmt: skip
def test_any_entry_round_trips(
    content: str, key: str, tag: list[str], meta: dict[str, str], quality: float
) -> None:
    entry = _entry(content, tags=tag, meta=meta, quality=quality).copy(key=key)
    text = encode_document([entry], [Summary("f|ile", content, "2026-01-01")])
    assert toon_format.loads(text, strict=True)["version"] == 1
    doc = decode_document(text, Path("data.toon"))
    assert doc.entries == [entry]
    assert doc.summaries[0].summary == content
