"""Which entries an archive takes (``rules.archiving``), called directly."""

from __future__ import annotations

from datetime import date

from toon_memory.model.entry import Entry
from toon_memory.model.settings import Config
from toon_memory.rules.archiving import select_for_archive

TODAY = date(2026, 7, 1)


def _entry(key: str, **fields: object) -> Entry:
    base: dict[str, object] = {"date": "2026-06-30", "quality": 0.5}
    return Entry(id=key, category="knowledge", key=key, content=key, **{**base, **fields})  # type: ignore[arg-type]


ENTRIES = [
    _entry("fresh"),
    _entry("expired", ttl="2026-06-01"),
    _entry("stale", date="2026-05-01"),
    _entry("stale-but-recalled", date="2026-05-01", last_accessed="2026-06-28"),
    _entry("pinned-stale", date="2026-01-01", priority=1),
    _entry("gone", date="2026-01-01", status="obsolete"),
]


def test_a_manual_archive_takes_expired_and_stale_entries() -> None:
    moved = select_for_archive(ENTRIES, Config(), TODAY, auto=False)
    assert [e.key for e in moved] == ["expired", "stale"]


def test_automatic_archiving_follows_the_config_only() -> None:
    assert [e.key for e in select_for_archive(ENTRIES, Config(), TODAY, auto=True)] == ["expired"]
    quiet = Config(archive_expired=False)
    assert select_for_archive(ENTRIES, quiet, TODAY, auto=True) == []
    aged = Config(archive_expired=False, archive_after_days=10)
    assert [e.key for e in select_for_archive(ENTRIES, aged, TODAY, auto=True)] == ["stale"]


def test_the_cap_moves_the_least_useful_first() -> None:
    entries = [_entry(f"k{n}", quality=q) for n, q in enumerate((0.9, 0.1, 0.5, 0.3))]
    moved = select_for_archive(
        entries, Config(archive_expired=False, archive_max_entries=2), TODAY, auto=True
    )
    assert sorted(e.key for e in moved) == ["k1", "k3"]


def test_the_choice_is_deterministic_and_never_takes_pinned_or_inactive() -> None:
    first = select_for_archive(ENTRIES, Config(archive_max_entries=1), TODAY, auto=False)
    again = select_for_archive(
        list(reversed(ENTRIES)), Config(archive_max_entries=1), TODAY, auto=False
    )
    assert {e.key for e in first} == {e.key for e in again}
    assert not {"pinned-stale", "gone"} & {e.key for e in first}
