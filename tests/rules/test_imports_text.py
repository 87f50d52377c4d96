"""The whole-file checks of an import's JSON text: ``deeper_than`` counts nesting as a walk over
the parsed values would, and ``surrogate_free`` is never true of a text holding a lone surrogate."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.settings import Limits
from toon_memory.rules.imports import admit_row, deeper_than, surrogate_free

TEXT = st.text(alphabet=st.sampled_from('ab"\\[]{}:,é\ud800\n'), max_size=8)
JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), TEXT),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(TEXT, inner, max_size=3), max_leaves=20)  # fmt: skip


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


@given(JSON, st.integers(0, 6), st.booleans())
def test_nesting_is_counted_as_the_values_nest(value: Any, depth: int, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=None if ascii_only else 1)
    assert deeper_than(text, depth) == (_depth(value) > depth)


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [*value, *(s for v in value.values() for s in _strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@given(JSON)
def test_a_text_said_surrogate_free_parses_to_valid_unicode(value: Any) -> None:
    text = json.dumps(value)  # ASCII: a lone surrogate is a \\udXXX escape
    if surrogate_free(text):
        for string in _strings(json.loads(text)):
            string.encode("utf-8")
    else:
        assert "\\ud" in text.lower()


@given(st.dictionaries(st.sampled_from(["key", "content", "tags", "file", "meta", "x"]),
                       st.one_of(TEXT, st.lists(TEXT, max_size=2),
                                 st.dictionaries(TEXT, TEXT, max_size=2))))  # fmt: skip
def test_admitting_a_plain_row_is_the_same_with_or_without_the_hint(row: dict[str, Any]) -> None:
    row = {"key": "k", "content": "c", **row}
    text = json.dumps(row)
    if surrogate_free(text):
        clock = ("2026-07-15", "2026-07-15T10:00:00Z")
        hinted = admit_row(json.loads(text), Limits(), clock, plain=True)
        checked = admit_row(row, Limits(), clock)
        assert (hinted.entry, hinted.problem, hinted.repairs) == (
            checked.entry, checked.problem, checked.repairs)  # fmt: skip
