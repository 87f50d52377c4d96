"""Conflict detection reads terms with the search tokenizer (one tokenizer, one stopword set)."""

from __future__ import annotations

from toon_memory.model.entry import Entry
from toon_memory.rules.scoring import CONFLICT_OVERLAP, content_terms, find_conflicts, overlap
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
