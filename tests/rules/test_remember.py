"""The remember rules called directly: field checks, the draft an entry becomes, merges and
the versions a key keeps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.entry import REMEMBER_ORIGINS, Entry
from toon_memory.model.settings import Limits
from toon_memory.rules import remember as rules

SMALL = Limits(content_bytes=100, key_chars=20, tags=3, tag_chars=10)


def _refused(call: object, *args: object, **kwargs: object) -> InputError:
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value


def test_draft_builds_the_entry() -> None:
    draft = rules.draft_entry("Decision", "use-zod", "Validate with zod [[schema]]", tags="a;b",
                              confidence="0.5", importance="HIGH")  # fmt: skip
    entry = draft.entry
    assert (entry.category, entry.key, entry.tags, entry.importance) == (
        "decision", "use-zod", ["a", "b"], "high")  # fmt: skip
    assert entry.confidence == 0.5 and "schema" in entry.links
    assert draft.explicit_tags and draft.explicit_confidence


@pytest.mark.parametrize("origin", REMEMBER_ORIGINS)
def test_remember_takes_the_published_origins(origin: str) -> None:
    assert rules.draft_entry("bug", "k", "c", origin=origin).entry.origin == origin


def test_import_is_not_an_origin_a_caller_may_give() -> None:
    error = _refused(rules.draft_entry, "bug", "k", "c", origin="import")
    assert error.field == "origin"
    assert error.problem == f"must be one of {', '.join(REMEMBER_ORIGINS)}; got 'import'"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"category": "nope"}, "category"),
        ({"key": "has space"}, "key"),
        ({"key": ""}, "key"),
        ({"content": "   "}, "content"),
        ({"confidence": 1.5}, "confidence"),
        ({"confidence": True}, "confidence"),
        ({"importance": "extreme"}, "importance"),
        ({"links": "bogus:target"}, "links"),
        ({"content": "x" * 101}, "content"),
        ({"tags": "a;b;c;d"}, "tags"),
    ],
)
def test_each_bad_field_is_named(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"category": "bug", "key": "k", "content": "c", **kwargs}
    error = _refused(rules.draft_entry, limits=SMALL, **args)
    assert error.field == field


def test_a_lone_surrogate_is_refused() -> None:
    assert _refused(rules.check_unicode, "a\ud800", "content").field == "content"


@given(st.text(min_size=1, max_size=30))
def test_check_text_never_returns_more_than_the_limit(text: str) -> None:
    try:
        kept = rules.check_text(text, "content", SMALL)
    except InputError as error:
        assert error.field == "content"
    else:
        assert kept == text and len(kept.encode("utf-8")) <= SMALL.content_bytes


@given(st.sampled_from(["e\u0301", "\u00e9"]))
def test_keys_are_nfc(key: str) -> None:
    assert rules.check_key(key) == "\u00e9"


def test_importance_and_confidence_may_be_left_out() -> None:
    assert rules.check_importance("") == "" and rules.check_importance(None) == ""
    assert rules.check_confidence(None) is None and rules.check_confidence("") is None


def test_merge_keeps_the_old_text_as_history() -> None:
    old = Entry(id="a", category="bug", key="k", content="old", tags=["x"], confidence=0.4)
    new = Entry(id="", category="bug", key="k", content="new", tags=["y"], confidence=0.9)
    merged, history = rules.merge_entries(old, new, keep_first=False, history_id="h")
    assert merged.content == "new" and merged.tags == ["x", "y"] and merged.confidence == 0.9
    assert history is not None and history.content == "old" and history.status == "superseded"
    kept, none = rules.merge_entries(old, new, keep_first=True, history_id="h")
    assert kept.content == "old" and none is None


def test_versions_to_drop_keeps_the_newest() -> None:
    history = [Entry(id=str(n), category="bug", key="k", content=str(n), status="superseded",
                     superseded_on=f"2026-01-0{n}") for n in (3, 1, 2)]  # fmt: skip
    assert [e.id for e in rules.versions_to_drop(history, 1)] == ["1", "2"]
    assert rules.versions_to_drop(history, 5) == []


def test_new_id_is_fresh() -> None:
    taken = {f"{n:08x}" for n in range(50)}
    found = rules.new_id(taken)
    assert len(found) == 8 and found not in taken


def test_a_key_with_any_whitespace_or_control_character_is_refused() -> None:
    """Every character ``str.isspace`` calls whitespace (Unicode's too), every control
    character and '|' is refused inside a key; other characters are kept."""
    refused = [c for c in map(chr, range(0x3100)) if c.isspace() or c < " " or c == "|"]
    assert "\u00a0" in refused and "\u3000" in refused and "\x1c" in refused
    for ch in refused:
        with pytest.raises(InputError, match="key"):
            rules.check_key(f"a{ch}b")
    for ch in "-_.:/é漢\u200b\u00ad":
        assert rules.check_key(f"a{ch}b") == f"a{ch}b"
