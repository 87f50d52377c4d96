"""An import's JSON read an entry at a time: the same items and members as ``json.loads``,
or ``NotStreamed`` (read whole) for any other text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.rules import import_json
from toon_memory.rules.import_json import NotStreamed, scan
from toon_memory.rules.imports import deeper_than

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
rows = st.lists(
    st.dictionaries(st.sampled_from(["key", "content", "tags", "date", "x"]), values, max_size=4)
    | values,
    max_size=6,
)


def _read(text: str, depth: int = 64) -> tuple[list[Any], list[Any], dict[str, Any] | None]:
    """(items visited, items read again, head) of a text ``scan`` reads."""
    seen: list[Any] = []
    found = scan(text, seen.append, depth)
    return seen, list(found.items()), found.head


@settings(max_examples=300, deadline=None)
@given(rows, st.sampled_from([None, 0, 2]), st.sampled_from([(",", ":"), (" , ", " :\n ")]))
def test_a_list_reads_as_json_loads_reads_it(
    items: list[Any], indent: int | None, separators: tuple[str, str]
) -> None:
    text = f"\n {json.dumps(items, indent=indent, separators=separators)} \r\n"
    seen, again, head = _read(text)
    assert seen == again == json.loads(text)
    assert head is None


@settings(max_examples=300, deadline=None)
@given(rows, st.dictionaries(st.text(max_size=6).filter(lambda k: k != "entries"), values,
                             max_size=3), st.integers(0, 3), st.sampled_from([None, 1]))  # fmt: skip
def test_an_export_reads_as_json_loads_reads_it(
    items: list[Any], others: dict[str, Any], at: int, indent: int | None
) -> None:
    """``entries`` anywhere among the other members (summaries after it, as an export
    writes them); every other member as ``json.loads`` gives it."""
    members = list(others.items())
    members.insert(min(at, len(members)), ("entries", items))
    text = json.dumps(dict(members), indent=indent)
    whole = json.loads(text)
    seen, again, head = _read(text)
    assert seen == again == whole["entries"]
    assert head == {k: v for k, v in whole.items() if k != "entries"}


@pytest.mark.parametrize(
    "text",
    [
        "", "  ", "{}", '{"version": 1}', '{"entries": {}}', '{"entries": 5}', "5", '"a"',
        '{"entries": [], "entries": []}', "[1,]", "[1 2]", "[1]]", "[1] x", '{"entries": [1],}',
        '{"entries": [1] "a": 2}', '{"a" 1, "entries": []}', "[", '{"entries": [', "[1, {]",
        "[NaN", '{"entries": [{"key": "k"}], "summaries": [}',
    ],
)  # fmt: skip
def test_any_other_text_is_not_streamed(text: str) -> None:
    """A text of another shape, or not JSON at all, is left to the whole parse."""
    with pytest.raises(NotStreamed):
        scan(text, lambda item: None, 64)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='[]{},:" \n0123456789aentris\\', max_size=30))
def test_random_text_is_either_read_as_json_loads_reads_it_or_not_streamed(text: str) -> None:
    try:
        seen, again, head = _read(text)
    except NotStreamed:
        return
    whole = json.loads(text)
    if head is None:
        assert seen == again == whole
    else:
        assert seen == again == whole["entries"]
        assert head == {k: v for k, v in whole.items() if k != "entries"}


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(import_json, "CHUNK", 2)  # a list of 6 items is checked in 3 slices


@settings(max_examples=300, deadline=None)
@given(rows, st.integers(0, 6), st.booleans())
def test_a_text_nested_too_deep_is_not_streamed(items: list[Any], depth: int, export: bool) -> None:
    """A text nested deeper than ``depth`` (as ``deeper_than`` counts the whole text) is
    left to the whole parse, which names the limit; one within it reads (chunks of
    items checked one at a time: ``CHUNK`` made small enough to split these)."""
    text = json.dumps({"a": [[1]], "entries": items} if export else items)
    try:
        seen, _again, _head = _read(text, depth)
    except NotStreamed:
        assert deeper_than(text, depth)
    else:
        assert not deeper_than(text, depth)
        assert seen == (json.loads(text)["entries"] if export else json.loads(text))
