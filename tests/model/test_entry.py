"""``model.entry``: ``to_row`` and ``entry_from_row`` are exact inverses for every valid entry,
unknown columns land in meta, and a typed cell that does not parse names its field."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toon_memory.model.entry import (
    ATTRIBUTES,
    CATEGORIES,
    FIELDS,
    ORIGINS,
    STATUSES,
    Entry,
    EntryMap,
    entry_from_row,
    is_valid_id,
    split_link,
    split_list,
)

#: A list item as the file can hold it: no separator, no surrounding space, not empty.
ITEM = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters=";"),
    min_size=1,
    max_size=8,
).filter(lambda s: s.strip() == s)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
META = st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5) | st.booleans(),
                       max_size=3)  # fmt: skip


@st.composite
def entries(draw: st.DrawFn) -> Entry:
    return Entry(
        id=draw(st.from_regex(r"\A[0-9a-f]{8}\Z")), category=draw(st.sampled_from(CATEGORIES)),
        key=draw(TEXT), content=draw(TEXT), file=draw(TEXT),
        tags=draw(st.lists(ITEM, unique=True, max_size=4)), date=draw(TEXT), ttl=draw(TEXT),
        accessed=draw(st.integers(0, 10**6)), links=draw(st.lists(ITEM, unique=True, max_size=4)),
        quality=draw(st.integers(0, 100)) / 100, confidence=draw(st.integers(0, 100)) / 100,
        last_accessed=draw(TEXT), priority=draw(st.integers(-100, 100)), path_scope=draw(TEXT),
        origin=draw(st.sampled_from(ORIGINS)), status=draw(st.sampled_from(STATUSES)),
        superseded_on=draw(TEXT), importance=draw(TEXT), evidence=draw(TEXT),
        created=draw(TEXT), updated=draw(TEXT), meta=draw(META),
    )  # fmt: skip


@given(entries())
def test_row_round_trip_is_exact(entry: Entry) -> None:
    row = entry.to_row()
    assert tuple(row) == FIELDS
    assert entry_from_row(row) == entry


@given(entries())
def test_dict_round_trip_is_exact_and_keeps_lists(entry: Entry) -> None:
    data = entry.to_dict()
    assert data["tags"] == entry.tags and data["meta"] == entry.meta
    assert entry_from_row(data) == entry


def test_attribute_names_are_read_as_well_as_file_names() -> None:
    row = {"id": "0123abcd", "key": "k", "content": "c", "last_accessed": "2026-07-01",
           "lastAccessed": "", "superseded_on": "2026-07-02"}  # fmt: skip
    entry = entry_from_row(row)
    assert entry.superseded_on == "2026-07-02" and entry.meta == {}


def test_unknown_columns_are_kept_in_meta_and_empties_are_defaults() -> None:
    entry = entry_from_row({"id": "0123abcd", "key": "k", "content": "c", "owner": "ana",
                            "blank": "", "meta": '{"a": 1}', "origin": "", "status": None,
                            "confidence": "", "accessed": ""})  # fmt: skip
    assert entry.meta == {"a": 1, "owner": "ana"}
    assert (entry.origin, entry.status, entry.confidence, entry.accessed) == (
        "agent",
        "active",
        1.0,
        0,
    )


@pytest.mark.parametrize(("meta", "expected"),
                         [("not json", {"raw": "not json"}), ("[1, 2]", {"raw": [1, 2]}),
                          ({"x": 1}, {"x": 1})])  # fmt: skip
def test_meta_that_is_not_an_object_is_kept_raw(meta: object, expected: dict[str, Any]) -> None:
    assert entry_from_row({"id": "0123abcd", "meta": meta}).meta == expected


@pytest.mark.parametrize(
    ("field", "value"),
    [("accessed", "many"), ("priority", "high"), ("quality", "good"), ("confidence", "nan"),
     ("confidence", "inf"), ("quality", [1])],
)  # fmt: skip
def test_a_typed_cell_that_does_not_parse_names_its_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=rf"^{field}: expected a"):
        entry_from_row({"id": "0123abcd", field: value})


def test_split_list_splits_strips_and_dedupes_in_order() -> None:
    assert split_list("b; a;;b ; c", ";") == ["b", "a", "c"]
    assert split_list(["x", " x ", "", "y"], ";") == ["x", "y"]
    assert split_list("p q;r", " ;") == ["p", "q", "r"]
    assert split_list(None, ";") == [] and split_list("", ";") == []


@given(st.lists(ITEM, max_size=6))
def test_split_list_of_a_joined_list_is_the_list_deduplicated(items: list[str]) -> None:
    assert split_list(";".join(items), ";") == list(dict.fromkeys(items))


def test_split_link_types_only_known_kinds() -> None:
    assert split_link("supersedes:old") == ("supersedes", "old")
    assert split_link("superseded_by:new") == ("superseded_by", "new")
    assert split_link("relates:x") == ("relates", "x")
    assert split_link("http://host") == ("relates", "http://host")
    assert split_link("plain-key") == ("relates", "plain-key")
    entry = Entry(id="0123abcd", category="bug", key="k", content="c",
                  links=["supersedes:a", "b"])  # fmt: skip
    assert entry.link_targets() == [("supersedes", "a"), ("relates", "b")]


def test_copy_is_deep_for_lists_and_meta() -> None:
    entry = Entry(id="0123abcd", category="bug", key="k", content="c", tags=["t"],
                  meta={"m": 1})  # fmt: skip
    clone = entry.copy()
    clone.tags.append("u")
    clone.meta["n"] = 2
    assert entry.tags == ["t"] and entry.meta == {"m": 1}
    assert entry.copy(status="obsolete").active is False and entry.active


@pytest.mark.parametrize(("value", "valid"),
                         [("0123abcd", True), ("0123ABCD", False), ("0123abc", False),
                          ("0123abcde", False), ("0123abcg", False), ("", False)])  # fmt: skip
def test_is_valid_id(value: str, valid: bool) -> None:
    assert is_valid_id(value) is valid


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(entries(), max_size=3, unique_by=lambda e: e.id))
def test_entry_map_survives_pickling_in_order(items: list[Entry]) -> None:
    mapping = EntryMap({e.id: e for e in items})
    clone = pickle.loads(pickle.dumps(mapping))
    assert list(clone) == [e.id for e in items] and len(clone) == len(items)
    assert [clone[e.id] for e in items] == items
    assert all(e.id in clone for e in items) and "zzzzzzzz" not in clone


def test_entry_map_is_a_mutable_mapping() -> None:
    one = Entry(id="00000001", category="bug", key="a", content="x")
    two = Entry(id="00000002", category="bug", key="b", content="y")
    mapping = EntryMap()
    mapping[one.id], mapping[two.id] = one, two
    del mapping[one.id]
    assert list(mapping.items()) == [(two.id, two)]
    with pytest.raises(KeyError):
        mapping[one.id]


def test_fields_and_attributes_pair_up() -> None:
    assert len(FIELDS) == len(ATTRIBUTES) == len(set(FIELDS))


@given(st.one_of(st.text(alphabet=" ;,ab\t\n", max_size=20),
                 st.lists(st.text(alphabet=" ;ab", max_size=4), max_size=5)),
       st.sampled_from([";", " ;", ";,", " "]))  # fmt: skip
def test_split_list_splits_on_any_separator_whatever_the_path(value: object, seps: str) -> None:
    """One separator splits with ``str.split``, several with a cached pattern: both as a
    plain regex split would, stripped, without empties or repeats, first seen first."""
    import re

    items = list(value) if isinstance(value, list) else re.split(f"[{re.escape(seps)}]", value)
    want: list[str] = []
    for item in items:
        if item.strip() and item.strip() not in want:
            want.append(item.strip())
    assert split_list(value, seps) == want


def test_repeated_short_values_are_one_string_and_equal() -> None:
    """Rows read from a file share each repeated enum, day, file and tag (less memory for
    100,000 entries); a long value is kept as it came; every value reads back equal."""
    rows = [{"id": f"0000000{n}", "category": "decision", "key": f"k{n}", "content": "same",
             "file": "src/app.py", "tags": "db;cache", "date": "".join(["2026-", "07-15"]),
             "created": "".join(["x" * 40, "x" * 40]), "origin": "", "status": ""} for n in range(2)]  # fmt: skip
    a, b = (entry_from_row(dict(row)) for row in rows)
    for attr in ("category", "file", "date", "origin", "status"):
        assert getattr(a, attr) is getattr(b, attr)
    assert a.tags == b.tags == ["db", "cache"] and all(
        x is y for x, y in zip(a.tags, b.tags, strict=True)
    )
    assert a.created == b.created == "x" * 80 and a.created is not b.created
    assert (a.origin, a.status) == ("agent", "active")
    assert [a.to_row()[k] for k in ("category", "file", "tags", "date")] == [
        "decision",
        "src/app.py",
        "db;cache",
        "2026-07-15",
    ]


@pytest.mark.parametrize("value", [-0.0, 0.0, 0.25, -0.25, "0.5", "-0.0"])
def test_numbers_read_from_rows_keep_value_and_sign(value: object) -> None:
    """Repeated numbers share one float object, and a negative zero stays negative."""
    import math

    read = [entry_from_row({"id": f"{n:08x}", "quality": value}).quality for n in range(3)]
    expected = float(value)  # type: ignore[arg-type]
    assert all(q == expected and math.copysign(1, q) == math.copysign(1, expected) for q in read)


def test_updated_equal_to_created_is_read_as_the_same_value() -> None:
    row = {"id": "0000000a", "created": "2026-07-01T10:11:12Z", "updated": "2026-07-01T10:11:12Z"}
    read = entry_from_row(row)
    assert read.updated == read.created == "2026-07-01T10:11:12Z"
    later = entry_from_row({**row, "updated": "2026-08-01T00:00:00Z"})
    assert (later.created, later.updated) == ("2026-07-01T10:11:12Z", "2026-08-01T00:00:00Z")
