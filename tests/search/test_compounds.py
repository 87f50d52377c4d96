"""German compound splitting on the index side (``search.compounds``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import entry, recall

from toon_memory.search import Engine
from toon_memory.search.compounds import LINKS, MIN_PART, parts
from toon_memory.search.tokenize import document_terms


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("speicherlimit", ("speicher", "limit")),  # a known head
        ("kundenschlussel", ("kunde", "schlussel")),  # both known, linking n
        ("sendungsnummer", ("sendung", "nummer")),  # a known tail, linking s
        ("fehlermeldung", ("fehler", "meldung")),
    ],
)
def test_compounds_split_into_two_parts(word: str, expected: tuple[str, str]) -> None:
    assert parts(word) == expected


@pytest.mark.parametrize("word", ["datenbank", "verbindung", "aufbewahrt", "abfragen", "api"])
def test_known_or_opaque_words_stay_whole(word: str) -> None:
    assert parts(word) == ()


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß", max_size=30))
def test_parts_rebuild_the_word(word: str) -> None:
    found = parts(word)
    assert found == () or len(found) == 2
    if found:
        head, tail = found
        assert len(head) >= MIN_PART and len(tail) >= MIN_PART
        assert word.endswith(tail)
        link = word[len(head) : len(word) - len(tail)]
        assert word.startswith(head) and link in ("", *LINKS)


def test_only_german_text_indexes_the_parts() -> None:
    german = document_terms("Das Speicherlimit der Worker wurde erhöht.", "de")
    assert "speicherlimit" in german and "limit" in german and "speich" in german
    english = document_terms("The speicherlimit setting.", "en")
    assert "limit" not in english


def test_an_english_query_reaches_a_german_compound() -> None:
    engine = Engine.build([
        entry("oom", "Die Worker-Pods wurden beendet; Speicherlimit auf 1 GiB erhöht."),
        entry("pods", "Die Worker-Pods laufen in drei Zonen."),
    ])  # fmt: skip
    assert recall(engine, "memory limit of the worker pods").keys[0] == "oom"


def test_a_german_query_compound_asks_for_its_parts() -> None:
    engine = Engine.build([
        entry("token-lifetime", "Access tokens live 15 minutes, refresh tokens 8 hours."),
        entry("token-bucket", "We use a library for token buckets."),
    ])  # fmt: skip
    assert recall(engine, "Wie lange leben Zugriffstoken?").keys[0] == "token-lifetime"


def test_overlong_words_are_not_split() -> None:
    assert parts("speicher" * 8 + "limit") == ()
    assert "limit" not in document_terms("Das " + "speicher" * 8 + "limit ist hoch.", "de")
