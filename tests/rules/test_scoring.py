"""Conflict detection reads terms with the search tokenizer (one tokenizer, one stopword set)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry
from toon_memory.rules.scoring import (
    CONFLICT_OVERLAP,
    SPECIFIC_CAP,
    content_terms,
    evidence_level,
    find_conflicts,
    overlap,
    quality_score,
    specific_count,
)
from toon_memory.search.stopwords import STOPWORDS
from toon_memory.search.tokenize import document_terms


def _entry(key: str, category: str, content: str, importance: str = "") -> Entry:
    return Entry(id=f"{abs(hash(key)) % 0xFFFFFFFF:08x}", key=key, category=category,
                 content=content, importance=importance)  # fmt: skip


def test_terms_are_the_search_index_terms() -> None:
    text = "Never build SQL queries with string concatenation in the UserRepository"
    assert content_terms(text) == set(document_terms(text))
    assert not content_terms(text) & STOPWORDS["en"]
    assert {"queri", "concaten", "user", "repositori"} <= content_terms(text)


def test_inflected_words_overlap_like_recall_matches_them() -> None:
    a = content_terms("Caching the sessions in Redis")
    b = content_terms("Redis caches sessions")
    assert overlap(a, b) == 1.0


def test_stopwords_of_the_texts_language_do_not_make_a_conflict() -> None:
    # Only "usar" is shared; "para", "la", "del", "los", "con", "una" are Spanish stopwords
    # (an English-only list kept them and flagged this pair as a contradiction).
    warning = _entry("no-eval", "warning", "Nunca usar eval para la entrada del usuario")
    draft = _entry("draft", "pattern", "Para la API usar una caché con los datos del día")
    terms = content_terms(draft.content)
    assert overlap(terms, content_terms(warning.content)) < CONFLICT_OVERLAP
    assert find_conflicts(draft, [warning]) == []


def test_guarded_entries_that_overlap_conflict() -> None:
    warning = _entry("no-raw-sql", "warning", "Never build SQL queries with string concatenation")
    low = _entry("low-decision", "decision", "Build SQL queries with string concatenation", "low")
    high = _entry("high-decision", "decision", "SQL queries are built by concatenating strings",
                  "high")  # fmt: skip
    draft = _entry("sql-concat", "pattern", "Build SQL queries with string concatenation for speed")
    assert [e.key for e in find_conflicts(draft, [warning, low, high])] == [
        "no-raw-sql",
        "high-decision",
    ]


TODAY = date(2026, 7, 15)


@pytest.mark.parametrize(("text", "count"),
                         [("plain words only here", 0), ("see config.py", 1), ("call run()", 1),
                          ("the parseHeader helper", 1), ("max_retries", 1), ("port 8080", 1),
                          ("`x`", 1), ("() alone", 0), ("a.py b.py c.py", SPECIFIC_CAP),
                          ("set v2 in app.ts and run()", 2)])  # fmt: skip
def test_specific_count(text: str, count: int) -> None:
    assert specific_count(text) == count
    assert specific_count("a.py b.py c.py d.py", cap=10) == 4


def test_quality_weights_and_origin() -> None:
    bare = Entry(id="00000001", category="knowledge", key="k", content="x", date="2020-01-01")
    assert quality_score(bare, TODAY) == 0.0
    assert quality_score(bare.copy(origin="human"), TODAY) == 0.1
    assert quality_score(bare.copy(origin="inferred"), TODAY) == 0.0  # never below 0
    full = bare.copy(tags=["a", "b", "c"], links=["l1", "l2"], content="x" * 200 + " a.py b.py",
                     date="2026-07-15", file="src/a.py", origin="human")  # fmt: skip
    assert quality_score(full, TODAY) == 1.0
    assert quality_score(bare.copy(tags=["a", "b", "c"]), TODAY) == 0.3
    assert quality_score(bare.copy(date="2026-07-15"), TODAY) == 0.15
    half_life = bare.copy(date="2026-05-31")  # 45 days old: half the recency credit
    assert quality_score(half_life, TODAY) == round(0.15 * 0.5 + 0.2 * 1 / 200, 2)


@given(st.lists(st.text(max_size=5), max_size=6), st.lists(st.text(max_size=5), max_size=4),
       st.text(max_size=300), st.sampled_from(["", "2026-07-15", "2025-01-01", "junk"]),
       st.sampled_from(["human", "agent", "inferred", "import"]), st.text(max_size=10))  # fmt: skip
def test_quality_is_a_fraction_of_two_places(tags: list[str], links: list[str], content: str,
                                             day: str, origin: str, file: str) -> None:  # fmt: skip
    entry = Entry(id="00000001", category="bug", key="k", content=content, tags=tags,
                  links=links, date=day, origin=origin, file=file)  # fmt: skip
    score = quality_score(entry, TODAY)
    assert 0.0 <= score <= 1.0 and round(score, 2) == score
    assert quality_score(entry, TODAY) == score


def test_evidence_level() -> None:
    entry = Entry(id="00000001", category="bug", key="k", content="c", file="src/a.py:10-20")
    seen: list[str] = []

    def exists(path: str) -> bool:
        seen.append(path)
        return path == "src/a.py"

    assert evidence_level(entry, [], exists) == "verified" and seen == ["src/a.py"]
    assert evidence_level(entry.copy(file="src/b.py"), [], exists) == "unverified"
    assert evidence_level(entry.copy(file=""), [], exists) == "unverified"
    assert evidence_level(entry, [entry], exists) == "conflict"
