"""``curation.compress``: the prompt holds everything an agent needs to summarise the entry,
and a summary is accepted only non-blank and within ``MAX_SUMMARY_CHARS``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.entry import Entry
from toon_memory.rules.curation.compress import (
    DEFAULT_WORDS,
    MAX_SUMMARY_CHARS,
    check_summary,
    compress_prompt,
)


def test_the_prompt_holds_category_key_tags_file_and_whole_content() -> None:
    content = "Line one.\nLine two with `code` and v1.2.3."
    entry = Entry(id="0123abcd", category="decision", key="db-choice", content=content,
                  tags=["db", "infra"], file="src/db.py")  # fmt: skip
    prompt = compress_prompt(entry, 25)
    assert "at most 25 words" in prompt and "summary text only" in prompt
    for line in ("Category: decision", "Key: db-choice", "Tags: db, infra", "File: src/db.py"):
        assert line in prompt.splitlines()
    assert prompt.endswith("Content:\n" + content)


def test_no_tags_or_file_lines_when_there_are_none() -> None:
    prompt = compress_prompt(Entry(id="0123abcd", category="bug", key="k", content="c"))
    assert f"at most {DEFAULT_WORDS} words" in prompt
    assert "Tags:" not in prompt and "File:" not in prompt


@given(st.text(max_size=300))
def test_the_whole_content_is_always_in_the_prompt(content: str) -> None:
    entry = Entry(id="0123abcd", category="bug", key="k", content=content)
    assert compress_prompt(entry).endswith("\nContent:\n" + content)


def test_check_summary_trims() -> None:
    assert check_summary("  short summary \n") == "short summary"
    assert check_summary("x" * MAX_SUMMARY_CHARS) == "x" * MAX_SUMMARY_CHARS


@pytest.mark.parametrize(("summary", "needle"),
                         [("", "empty"), ("   \n", "empty"), (None, "empty"),
                          ("x" * (MAX_SUMMARY_CHARS + 1), f"at most {MAX_SUMMARY_CHARS}")])  # fmt: skip
def test_check_summary_refuses_naming_the_field(summary: object, needle: str) -> None:
    with pytest.raises(InputError) as caught:
        check_summary(summary)
    assert caught.value.field == "summary" and needle in caught.value.problem
