"""``rules.imports.admit_row``: an admitted entry passes every check of ``remember``; each
repair is listed naming the field; what cannot be repaired without guessing is refused with
the reason; a credential is refused by kind, never quoted."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.rules.secrets_scan.fixtures import SECRETS

from toon_memory.model.entry import (
    CATEGORIES,
    EVIDENCE_LEVELS,
    IMPORTANCE_LEVELS,
    ORIGINS,
    STATUSES,
    Entry,
)
from toon_memory.model.settings import Limits
from toon_memory.rules.imports import MAX_PRIORITY, admit_row, secret_problem, source_time
from toon_memory.rules.remember import check_key, check_text

LIMITS = Limits()


def admitted(row: dict[str, Any], limits: Limits = LIMITS) -> tuple[Entry, list[str]]:
    verdict = admit_row(row, limits)
    assert verdict.entry is not None, verdict.problem
    return verdict.entry, list(verdict.repairs)


def test_a_clean_row_comes_in_unchanged_without_repairs() -> None:
    entry, repairs = admitted({"id": "0123abcd", "category": "bug", "key": "k", "content": "c",
                               "date": "2026-07-01", "created": "2026-07-01T10:00:00Z",
                               "updated": "2026-07-02T10:00:00Z"})  # fmt: skip
    assert repairs == []
    assert (entry.category, entry.created, entry.updated, entry.date) == (
        "bug",
        "2026-07-01T10:00:00Z",
        "2026-07-02T10:00:00Z",
        "2026-07-01",
    )


def test_a_bad_key_is_repaired_and_the_repair_named() -> None:
    entry, repairs = admitted({"key": " my key|with\x01junk ", "content": "c"})
    assert entry.key == "my-keywithjunk"
    assert any(r.startswith("key ") and "'my-keywithjunk'" in r for r in repairs)


@pytest.mark.parametrize(("row", "needle"),
                         [({"key": "", "content": "c"}, "key and content are required"),
                          ({"key": "k", "content": "   "}, "key and content are required"),
                          ({"key": "k", "content": "c", "accessed": "lots"}, "accessed:"),
                          ({"key": "k", "content": "c", "confidence": "nan"}, "confidence:"),
                          ({"key": "k" * 201, "content": "c"}, "key"),
                          ({"key": "k", "content": "x" * 70_000}, "content"),
                          ({"key": "k", "content": "c", "file": "f" * 2000}, "file")])  # fmt: skip
def test_what_cannot_be_repaired_is_refused_with_the_reason(row: dict[str, Any],
                                                            needle: str) -> None:  # fmt: skip
    verdict = admit_row(row, LIMITS)
    assert verdict.entry is None and needle in verdict.problem


def test_a_foreign_category_becomes_knowledge_kept_as_tag_and_meta() -> None:
    verdict = admit_row({"key": "k", "content": "c", "category": "Team Rule; Infra"}, LIMITS)
    assert verdict.entry is not None and verdict.foreign == "Team Rule; Infra"
    assert verdict.entry.category == "knowledge"
    assert "team-rule-infra" in verdict.entry.tags
    assert verdict.entry.meta["category"] == "Team Rule; Infra"
    own = admit_row({"key": "k", "content": "c", "category": " BUG "}, LIMITS)
    assert own.entry is not None and own.entry.category == "bug" and own.foreign == ""


def test_enums_numbers_and_dates_out_of_range_are_repaired_and_listed() -> None:
    entry, repairs = admitted({
        "key": "k", "content": "c", "importance": "URGENT", "origin": "robot", "status": "gone",
        "evidence": "maybe", "confidence": 7, "quality": -1, "priority": 99, "accessed": -3,
        "date": "yesterday", "ttl": "soon", "created": "2026-07-01T00:00:00Z",
    })  # fmt: skip
    assert (entry.importance, entry.origin, entry.status, entry.evidence) == ("", "import",
                                                                             "active", "")  # fmt: skip
    assert (entry.confidence, entry.quality, entry.priority, entry.accessed) == (1.0, 0.0, 0, 0)
    assert entry.date == "2026-07-15" and entry.ttl == ""
    for name in ("importance", "origin", "status", "evidence", "confidence", "quality",
                 "priority", "accessed", "date", "ttl"):  # fmt: skip
        assert any(r.startswith(name + " ") for r in repairs), name


def test_importance_is_case_folded_silently() -> None:
    entry, repairs = admitted({"key": "k", "content": "c", "importance": " High "})
    assert entry.importance == "high" and repairs == []


def test_invalid_unicode_is_replaced_and_named() -> None:
    entry, repairs = admitted({"key": "k", "content": "bad \ud800 text"})
    assert entry.content == "bad \ufffd text"
    assert repairs == ["'content' held invalid Unicode, replaced by U+FFFD"]


def test_extra_tags_and_long_tags_are_dropped_and_counted() -> None:
    limits = Limits(tags=2, tag_chars=3)
    entry, repairs = admitted({"key": "k", "content": "c", "tags": "a;bb;toolong;ccc"}, limits)
    assert entry.tags == ["a", "bb"]
    assert any("2 of 4 tags dropped" in r for r in repairs)


def test_without_created_the_source_time_is_used_and_import_time_kept_in_meta() -> None:
    entry, _ = admitted({"key": "k", "content": "c", "date": "2026-03-04"})
    assert entry.created == "2026-03-04T00:00:00Z" and entry.updated == entry.created
    assert entry.meta["imported"].startswith("2026-07-15T")
    bare, _ = admitted({"key": "k", "content": "c"})
    assert bare.created.startswith("2026-07-15T") and bare.date == "2026-07-15"


@pytest.mark.parametrize(("date", "created", "expected"),
                         [("2026-03-04", "", "2026-03-04T00:00:00Z"),
                          ("2026-03-04T10:00:00+02:00", "", "2026-03-04T08:00:00Z"),
                          ("2026-03-04T10:00:00z", "", "2026-03-04T10:00:00Z"),
                          ("2026-03-04T10:00:00", "", "2026-03-04T10:00:00Z"),
                          ("2026-02-30", "", ""), ("whenever", "", ""),
                          ("2026-03-04", "2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z")])  # fmt: skip
def test_source_time(date: str, created: str, expected: str) -> None:
    entry = Entry(id="0123abcd", category="bug", key="k", content="c", date=date, created=created)
    assert source_time(entry) == expected


def test_secret_problem_names_kind_never_the_value() -> None:
    text, secret, kind = SECRETS["github"]
    problem = secret_problem(Entry(id="0123abcd", category="bug", key="k", content=text))
    assert kind in problem and "content" in problem and "allow_secrets" in problem
    assert secret not in problem
    assert secret_problem(Entry(id="0123abcd", category="bug", key="k", content="fine")) == ""


CELL = st.one_of(st.none(), st.text(max_size=12), st.integers(-10, 10),
                 st.floats(allow_nan=True), st.booleans(),
                 st.lists(st.text(max_size=4), max_size=3))  # fmt: skip
COLUMNS = ["id", "category", "key", "content", "tags", "date", "ttl", "accessed", "links",
           "quality", "confidence", "priority", "origin", "status", "importance", "evidence",
           "created", "updated", "meta", "lastAccessed", "supersededOn", "extra"]  # fmt: skip


@given(st.dictionaries(st.sampled_from(COLUMNS), CELL),
       st.text(min_size=1, max_size=10), st.text(min_size=1, max_size=20))  # fmt: skip
def test_an_admitted_entry_passes_what_remember_checks(row: dict[str, Any], key: str,
                                                       content: str) -> None:  # fmt: skip
    row = {"key": key, "content": content, **row}
    verdict = admit_row(row, LIMITS)
    if verdict.entry is None:
        assert verdict.problem
        return
    entry = verdict.entry
    assert check_key(entry.key, LIMITS) == entry.key
    assert entry.content.strip() and check_text(entry.content, "content", LIMITS)
    assert entry.category in CATEGORIES and entry.origin in ORIGINS
    assert entry.status in STATUSES and entry.evidence in EVIDENCE_LEVELS
    assert entry.importance in ("", *IMPORTANCE_LEVELS)
    assert 0 <= entry.confidence <= 1 and 0 <= entry.quality <= 1
    assert 0 <= entry.priority <= MAX_PRIORITY and entry.accessed >= 0
    assert entry.created and entry.updated and entry.date
    assert len(entry.tags) <= LIMITS.tags and all(len(t) <= LIMITS.tag_chars for t in entry.tags)
