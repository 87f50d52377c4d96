"""Temporal intent read from a query: word lists per language and named periods."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.search.intent import NONE, Intent, detect

TODAY = date(2026, 8, 1)


@pytest.mark.parametrize(
    "query",
    [
        "latest release",
        "what is the current staging URL",
        "how does the importer work now",
        "¿cuál es la versión actual?",
        "qual é a versão atual do Python",
        "dernière version publiée",
        "aktuelle Version der Datenbank",
        "most recent design review",
        "la revisión más reciente",
    ],
)
def test_latest_words_in_each_language(query: str) -> None:
    found = detect(query, TODAY)
    assert found.latest and not found.history


@pytest.mark.parametrize(
    "query",
    [
        "which maps provider did we use before MapLibre",
        "what was the pool size previously",
        "which Python version did the services use to run",
        "the library we used to call",
        "¿qué usábamos antes?",
        "qual era a versão anterior",
        "quel fournisseur utilisions-nous auparavant",
        "welchen Anbieter hatten wir früher",
        "what was the poll interval at first",
        "¿qué proveedor usábamos al principio?",
    ],
)
def test_history_words_in_each_language(query: str) -> None:
    found = detect(query, TODAY)
    assert found.history and not found.latest


@pytest.mark.parametrize(
    "query",
    [
        "what to check before deploying",
        "run the linter before each commit",
        "what did we do two weeks before August 3",
        "what do we use to build images",
        "may I drop old partitions",
        "what was the focus of his recent research",
    ],
)
def test_words_that_only_look_temporal(query: str) -> None:
    found = detect(query, TODAY)
    assert not found.history and not found.latest


@pytest.mark.parametrize(
    ("query", "since", "day", "strict"),
    [
        ("enterprise support SLA as of April 2026", "2026-04-01", "2026-04-30", True),
        ("staging URL on 2026-03-01", "2026-03-01", "2026-03-01", False),
        ("maps provider in March 2026", "2026-03-01", "2026-03-31", False),
        ("what happened in the April 22 incident", "2026-04-22", "2026-04-22", False),
        ("the 22 de abril incident", "2026-04-22", "2026-04-22", False),
        ("what did Tim recommend on 8th December, 2023", "2023-12-08", "2023-12-08", False),
        ("SLA a fecha de 1 de marzo de 2026", "2026-03-01", "2026-03-01", True),
        ("Stand 1. März", "2026-03-01", "2026-03-01", True),
        ("le rapport de juin", "2026-06-01", "2026-06-30", False),
        ("2026-02 report", "2026-02-01", "2026-02-28", False),
        ("what shipped in September", "2025-09-01", "2025-09-30", False),  # last September
        ("incidents this August", "2026-08-01", "2026-08-01", False),  # clamped to today
    ],
)
def test_named_periods(query: str, since: str, day: str, strict: bool) -> None:
    found = detect(query, TODAY)
    assert (found.since, found.day, found.strict) == (since, day, strict)


@pytest.mark.parametrize(
    "query", ["may I drop old partitions", "Marco Lógico", "the August committee", "2026-13-45"]
)
def test_ambiguous_or_invalid_dates_are_not_periods(query: str) -> None:
    assert detect(query, TODAY).day == ""


def test_no_intent_is_falsy() -> None:
    assert detect("redis cache eviction", TODAY) == NONE
    assert not NONE and bool(Intent(latest=True))


@given(st.text())
def test_detect_never_raises(text: str) -> None:
    found = detect(text, TODAY)
    assert isinstance(found, Intent)
    assert not (found.latest and found.history)
    if found.day:
        assert found.since <= found.day <= TODAY.isoformat()


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ("what was the enterprise SLA before June", "2026-05-31"),
        ("maps provider prior to 2026-05-02", "2026-05-01"),
        ("which release came before the July release", "2026-06-30"),
        ("¿qué SLA teníamos antes de junio?", "2026-05-31"),
        ("le fournisseur de cartes avant mars 2026", "2026-02-28"),
        ("Kartenanbieter vor Juni", "2026-05-31"),
    ],
)
def test_a_period_after_before_names_the_day_before_it(query: str, day: str) -> None:
    found = detect(query, TODAY)
    assert (found.since, found.day, found.strict, found.history) == ("", day, False, False)
    assert found.before and not found.latest


@pytest.mark.parametrize(
    "query",
    [
        "first security audit",
        "the first release",
        "earliest incident",
        "oldest design review",
        "¿cuál fue la primera auditoría?",
        "a primeira versão",
        "le premier audit",
        "das erste Release",
    ],
)
def test_earliest_words_in_each_language(query: str) -> None:
    found = detect(query, TODAY)
    assert found.earliest and not found.latest and not found.history


@pytest.mark.parametrize(
    "query", ["enterprise support SLA first answer", "run the linter first", "latest and oldest"]
)
def test_first_inside_a_phrase_is_not_earliest(query: str) -> None:
    assert not detect(query, TODAY).earliest
