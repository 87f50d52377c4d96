"""``store.toon_rows.decode_ours`` answers as the official strict decoder, or declines.

Properties: for any entries and summaries, it reads our own text exactly as
``toon_format.loads(strict=True)`` does; for any mutation of such text (a
character put in, a span cut out, a line doubled or dropped), it either
declines (None) or gives that decoder's answer, and it declines whenever that
decoder refuses the text.
"""

from __future__ import annotations

from typing import Any

import toon_format
from hypothesis import example, given
from hypothesis import strategies as st
from tests.store.test_toon_table import WORDS, entries

from toon_memory.model.entry import Entry, Summary
from toon_memory.store.codec import decode_document, encode_document
from toon_memory.store.toon_rows import decode_ours

_SUMMARIES = st.lists(st.builds(Summary, WORDS, WORDS, WORDS), max_size=3)
#: What a mutation puts in: the characters the grammar cares about.
_INSERTS = st.sampled_from(['"', "\\", "|", ":", " ", "#", "\n", "\r", "\t", "-", "0", "1e5",
                            "e", ".", "\\u00e9", "\\ud800", "\\x", "[", "]", "{", "}",
                            "\n\n", "\ufeff", "true", "  ", "\n  "])  # fmt: skip


def _official(text: str) -> Any:
    try:
        return toon_format.loads(text, strict=True)
    except (toon_format.ToonDecodeError, RecursionError):
        return "refused"


@given(st.lists(entries(), max_size=6), _SUMMARIES)
def test_our_text_is_read_as_the_strict_decoder_reads_it(
    rows: list[Entry], summaries: list[Summary]
) -> None:
    text = encode_document(rows, summaries)
    ours = decode_ours(text)
    assert ours is not None, "our own text is always in our shape"
    assert ours == toon_format.loads(text, strict=True)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = encode_document(draw(st.lists(entries(), min_size=1, max_size=3)), draw(_SUMMARIES))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "cut", "double", "drop"]))
        if kind == "insert":
            text = text[:at] + draw(_INSERTS) + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        else:
            lines = text.split("\n")
            line = draw(st.integers(0, len(lines) - 1))
            lines[line : line + 1] = [lines[line]] * (2 if kind == "double" else 0)
            text = "\n".join(lines)
    return text


@given(_mutated())
@example("version: 1\nentries: []\nsummaries: []\n")
@example("version: 1\nentries: []\nsummaries: []\n\n")
@example("version: 1\nentries: []\n# note\nsummaries: []\n")
def test_any_other_text_is_declined_or_read_the_same(text: str) -> None:
    ours, official = decode_ours(text), _official(text)
    if official == "refused":
        assert ours is None
    elif ours is not None:
        assert ours == official


def _row(old: str, new: str) -> str:
    """A one-entry file whose row has ``old`` replaced by ``new``."""
    text = encode_document([Entry(id="00000001", category="bug", key="k", content="c")], [])
    lines = text.split("\n")
    lines[2] = lines[2].replace(old, new, 1)
    return "\n".join(lines)


def test_rows_the_grammar_reads_otherwise_are_declined() -> None:
    """A colon before the first delimiter makes a key-value line, not a row; an escape we
    do not know, a trailing space, a number too big: the official decoder decides."""
    for text in (_row("bug", "x:y"), _row("bug", '"a\\qb"'), _row("bug", "bug "),
                 _row("bug", "1e999"), _row("bug", 'a"b')):  # fmt: skip
        assert decode_ours(text) is None
    key_value = _row('"00000001"', "x:y")  # a colon before the first delimiter: not a row
    assert _official(key_value) == "refused" and decode_ours(key_value) is None


def test_the_document_decoder_gives_the_same_entries_either_way(tmp_path: Any) -> None:
    rows = [Entry(id=f"{i:08x}", category="decision", key=f"k-{i}", content=f'say "hi" | {i}: ok',
                  tags=["a", "b c"], meta={"n": i}) for i in range(40)]  # fmt: skip
    text = encode_document(rows, [Summary("src/a.py", "a: b", "2026-01-01")])
    fast = decode_document(text, tmp_path / "data.toon")
    slow = decode_document(text.replace("version: 1\n", "# a comment\nversion: 1\n"),
                           tmp_path / "data.toon")  # fmt: skip
    assert [e.to_row() for e in fast.entries] == [e.to_row() for e in slow.entries]
    assert [e.to_row() for e in fast.entries] == [e.to_row() for e in rows]
    assert fast.summaries == slow.summaries
