"""``rules.since``: a moment is a day or a UTC stamp that compares correctly with the entries'
stamps, and an entry is in at most one of new, updated, forgotten."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.entry import STATUSES, Entry
from toon_memory.model.heartbeat import Session
from toon_memory.rules.since import FALLBACK, from_argument, from_session, memory_changes


def entry(key: str, created: str, updated: str, status: str = "active",
          superseded_on: str = "") -> Entry:  # fmt: skip
    return Entry(id=f"{abs(hash(key)) % 16**8:08x}", category="knowledge", key=key,
                 content=key, created=created, updated=updated, status=status,
                 superseded_on=superseded_on)  # fmt: skip


@pytest.mark.parametrize(("since", "stamp"),
                         [("24h", "2026-07-14"), ("7d", "2026-07-08"),
                          (" 2026-07-01 ", "2026-07-01")])  # fmt: skip
def test_from_argument_is_the_first_day_included(since: str, stamp: str) -> None:
    moment = from_argument(since)
    assert moment.stamp == stamp and moment.git == date.fromisoformat(stamp)
    assert moment.basis == since.strip()


@pytest.mark.parametrize("since", ["last week", "2026-02-31", "99999999y"])
def test_a_bad_since_names_the_field(since: str) -> None:
    with pytest.raises(InputError) as caught:
        from_argument(since)
    assert caught.value.field == "since"


def test_from_session_starts_at_its_last_heartbeat() -> None:
    session = Session(id="codex-1", agent="codex", last_seen="2026-07-15T08:30:00Z", ended=True)
    moment = from_session(session)
    assert moment.stamp == "2026-07-15T08:30:00Z"
    assert moment.git == datetime(2026, 7, 15, 8, 30, tzinfo=timezone.utc)
    assert "codex-1, codex" in moment.basis and "ended" in moment.basis


@pytest.mark.parametrize("session", [None, Session(id="s", last_seen="garbage")])
def test_no_readable_session_falls_back(session: Session | None) -> None:
    moment = from_session(session)
    assert moment.stamp == from_argument(FALLBACK).stamp == "2026-07-14"
    assert moment.basis.startswith(FALLBACK) and "no earlier session" in moment.basis


def test_memory_changes_against_a_stamp() -> None:
    entries = [
        entry("new", "2026-07-15T09:00:00Z", "2026-07-15T09:00:00Z"),
        entry("before-stamp", "2026-07-15T07:00:00Z", "2026-07-15T07:30:00Z"),
        entry("edited-today", "2026-07-15T07:00:00Z", "2026-07-15T10:00:00Z"),
        entry("edited", "2026-07-01T00:00:00Z", "2026-07-15T11:00:00Z"),
        entry("old", "2026-07-01T00:00:00Z", "2026-07-02T00:00:00Z"),
        entry("forgot", "2026-07-01T00:00:00Z", "2026-07-15T09:00:00Z", "obsolete"),
        entry("forgot-long-ago", "2026-07-01T00:00:00Z", "2026-07-03T00:00:00Z", "obsolete"),
        entry("superseded", "2026-07-01T00:00:00Z", "", "superseded", "2026-07-15"),
    ]
    changes = memory_changes(entries, "2026-07-15T08:00:00Z")
    assert [e.key for e in changes.created] == ["new"]
    assert [e.key for e in changes.updated] == ["edited", "edited-today"]  # newest first
    assert [e.key for e in changes.forgotten] == ["forgot", "superseded"]


STAMPS = st.sampled_from(["", "2026-07-14T23:00:00Z", "2026-07-15T08:00:00Z",
                          "2026-07-15T12:00:00Z", "2026-07-16T00:00:00Z"])  # fmt: skip


@given(
    st.lists(st.tuples(STAMPS, STAMPS, st.sampled_from(STATUSES)), max_size=8),
    st.sampled_from(["2026-07-15", "2026-07-15T08:00:00Z", "2026-07-14T23:00:00Z"]),
)
def test_an_entry_is_in_at_most_one_list(rows: list[tuple[str, str, str]], stamp: str) -> None:
    entries = [entry(f"k{i}", c, u, s) for i, (c, u, s) in enumerate(rows)]
    changes = memory_changes(entries, stamp)
    keys = [e.key for part in (changes.created, changes.updated, changes.forgotten) for e in part]
    assert len(keys) == len(set(keys))
    for e in changes.created:
        assert e.active and e.created >= stamp
    for e in changes.updated:
        assert e.active and e.updated >= stamp and e.created < stamp
    assert all(not e.active for e in changes.forgotten)
