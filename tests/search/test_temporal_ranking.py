"""Temporal intent acting on rankings of small hand-built memories."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry, recall

from toon_memory.model.entry import Entry
from toon_memory.search import Engine
from toon_memory.search.options import RecallOptions
from toon_memory.search.signals import eligible


def keys(engine: Engine, query: str, **options: Any) -> list[str]:
    return recall(engine, query, **options).keys


def dated(key: str, content: str, day: str, **fields: Any) -> Entry:
    return entry(key, content, date=day, created=f"{day}T09:00:00Z", **fields)


def _releases() -> Engine:
    return Engine.build([
        dated("release-2026-03", "Release notes: webhooks.", "2026-03-16"),
        dated("release-2026-05", "Release notes: maps and bulk labels.", "2026-05-18"),
        dated("release-2026-07", "Release notes: SSO, faster search and Correos webhooks.",
              "2026-07-13"),
    ])  # fmt: skip


def test_latest_prefers_the_newest_of_near_equal_matches() -> None:
    engine = _releases()
    assert keys(engine, "release notes")[0] == "release-2026-03"  # shortest text wins plainly
    assert keys(engine, "latest release notes")[0] == "release-2026-07"
    assert keys(engine, "release notes", intent=False)[0] == "release-2026-03"
    assert keys(engine, "latest release notes", intent=False)[0] == "release-2026-03"


def test_latest_does_not_override_a_clear_relevance_gap() -> None:
    engine = Engine.build([
        dated("webhook-retries", "Release notes: webhook retries use exponential backoff "
              "with jitter; webhook retries stop after eight attempts.", "2026-02-01"),
        dated("release-2026-07", "Release notes: SSO.", "2026-07-13"),
    ])  # fmt: skip
    assert keys(engine, "latest webhook retries")[0] == "webhook-retries"


def test_latest_with_a_named_period_prefers_the_newest_up_to_it() -> None:
    engine = _releases()
    assert keys(engine, "latest release notes in May 2026")[0] == "release-2026-05"


def _maps() -> Engine:
    return Engine.build([
        dated("map-provider-v1", "Maps on the tracking page use Google Maps.", "2026-01-16",
              status="superseded", superseded_on="2026-05-02"),
        dated("map-provider", "Maps switched to MapLibre with OpenStreetMap tiles.",
              "2026-05-02", links=["supersedes:map-provider-v1"]),
        dated("map-legend", "The tracking page map legend shows carrier colours.", "2026-06-01"),
    ])  # fmt: skip


_MAPS = _maps()


def test_history_brings_the_replaced_version_first() -> None:
    engine = _maps()
    assert "map-provider-v1" not in keys(engine, "which maps provider")
    found = recall(engine, "which maps provider did we use before MapLibre")
    assert found.keys[:2] == ["map-provider-v1", "map-provider"]
    older = found.hits[0]
    assert older.entry.status == "superseded"
    assert keys(engine, "maps provider previously")[0] == "map-provider-v1"
    assert "map-provider-v1" not in keys(engine, "maps provider previously", intent=False)


def test_history_finds_versions_under_the_same_key() -> None:
    engine = Engine.build([
        dated("ci-runner", "CI runs on Jenkins.", "2026-01-05", status="superseded",
              superseded_on="2026-04-01", id="0000000a"),
        dated("ci-runner", "CI runs on GitHub Actions.", "2026-04-01", id="0000000b"),
    ])  # fmt: skip
    assert [h.entry.id for h in recall(engine, "CI runs").hits] == ["0000000b"]
    ids = [h.entry.id for h in recall(engine, "what CI did we use previously").hits]
    assert ids == ["0000000a", "0000000b"]


def test_a_named_day_picks_the_version_valid_then() -> None:
    engine = _maps()
    assert keys(engine, "maps provider on 2026-03-01")[0] == "map-provider-v1"
    assert keys(engine, "maps provider in March 2026")[0] == "map-provider-v1"
    assert keys(engine, "maps provider in June 2026")[0] == "map-provider"
    # an entry written after the day without an older version is not hidden
    assert "map-legend" in keys(engine, "tracking page map on 2026-03-01")


def test_before_a_month_picks_the_version_valid_the_day_before() -> None:
    engine = _maps()
    assert keys(engine, "maps provider in May 2026")[0] == "map-provider"
    assert keys(engine, "maps provider before May 2026")[0] == "map-provider-v1"
    assert keys(engine, "proveedor de mapas antes de mayo de 2026", intent=True)[0] == (
        "map-provider-v1"
    )


def test_earliest_prefers_the_oldest_of_near_equal_matches() -> None:
    engine = _releases()
    newest_first = Engine.build([
        dated("audit-july", "Security audit findings: one high.", "2026-07-21"),
        dated("audit-march", "Security audit findings: two medium ones.", "2026-03-27"),
    ])  # fmt: skip
    assert keys(newest_first, "security audit findings")[0] == "audit-july"  # shorter wins
    assert keys(newest_first, "first security audit findings")[0] == "audit-march"
    assert keys(newest_first, "earliest security audit findings", intent=False)[0] == ("audit-july")
    assert keys(engine, "oldest release notes")[0] == "release-2026-03"


def test_as_of_in_the_query_is_a_hard_as_of() -> None:
    engine = _maps()
    found = recall(engine, "tracking page maps as of March 2026")
    assert found.keys == ["map-provider-v1"]
    assert found.options.as_of == "2026-03-31"


def test_the_callers_as_of_wins_over_a_day_in_the_query() -> None:
    engine = _maps()
    found = recall(engine, "tracking page maps as of March 2026", as_of="2026-06-15")
    assert found.options.as_of == "2026-06-15"
    assert "map-provider" in found.keys and "map-provider-v1" not in found.keys
    # with another intent word, or "before", the query's period still yields to the caller's
    for query in ("latest maps provider in May 2026", "maps provider before May 2026"):
        found = recall(engine, query, as_of="2026-06-15")
        assert found.keys[0] == "map-provider" and "map-provider-v1" not in found.keys


def test_a_named_period_favours_entries_dated_in_it() -> None:
    text = "Incident: the poller stopped and events were delayed."
    engine = Engine.build([
        dated("incident-a", text, "2026-04-22"),
        dated("incident-b", text, "2026-06-03"),
    ])  # fmt: skip
    assert keys(engine, "poller incident in June")[0] == "incident-b"
    assert keys(engine, "poller incident in April")[0] == "incident-a"


def test_history_admission_in_eligibility() -> None:
    old = dated("k", "c", "2026-01-01", status="superseded", superseded_on="2026-03-01")
    opts = RecallOptions().validated()
    assert not eligible(old, opts, TODAY)
    assert eligible(old, opts, TODAY, history="all")
    assert eligible(old, opts, TODAY, history="2026-02-01")
    assert not eligible(old, opts, TODAY, history="2026-03-02")  # already replaced then
    assert not eligible(old, opts, TODAY, history="2025-12-01")  # not written yet
    obsolete = dated("o", "c", "2026-01-01", status="obsolete")
    assert not eligible(obsolete, opts, TODAY, history="all")


def test_suggest_reads_no_intent_from_a_context() -> None:
    engine = _maps()
    related = [e.key for e in engine.suggest("maps provider used before", today=TODAY)]
    assert "map-provider-v1" not in related and "map-provider" in related


def test_history_never_brings_an_entry_written_after_as_of() -> None:
    old = dated("k", "c", "2026-05-01", status="superseded", superseded_on="2026-06-01")
    opts = RecallOptions(as_of="2026-04-01").validated()
    assert not eligible(old, opts, TODAY, history="all")
    assert eligible(old, RecallOptions(as_of="2026-05-15").validated(), TODAY, history="all")


_WORDS = ["latest", "first", "before", "previously", "at", "most", "recent", "as", "of", "in",
          "May", "June", "2026", "2026-03-01", "22", "de", "abril", "antes", "maps", "provider",
          "the", "release", "oldest", "used", "to", "did", "vor", "Juni"]  # fmt: skip


@given(words=st.lists(st.sampled_from(_WORDS), max_size=8),
       as_of=st.sampled_from(["", "2026-02-01", "2026-06-15"]))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_any_mix_of_time_words_ranks_without_error(words: list[str], as_of: str) -> None:
    found = recall(_MAPS, " ".join(words), as_of=as_of)
    if as_of:
        assert found.options.as_of == as_of
    assert len(found.keys) == len(set(found.keys))
