"""Observations about one file, gathered from session notes and the captured log."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from toon_memory.store import captured as C
from toon_memory.store import heartbeats as S
from toon_memory.store.observations import file_observations

NOW = datetime(2026, 7, 15, 12, 0, 0, tzinfo=timezone.utc)


def test_notes_and_captured_events_about_a_file(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    S.beat(
        folder,
        "a",
        agent="claude",
        branch="feat/a",
        notes=[("src/db.py", "pool size must stay at 10"), ("src/other.py", "unrelated")],
        now=NOW,
    )
    S.beat(
        folder,
        "b",
        agent="codex",
        branch="feat/b",
        notes=[("./src/db.py", "the pool size has to stay 10")],
        now=NOW + timedelta(minutes=2),
    )
    S.end_session(folder, "b", now=NOW + timedelta(minutes=3))  # ended: its notes still count
    C.capture(
        folder,
        {
            "ts": "2026-07-15T12:01:00Z",
            "session": "c",
            "agent": "gemini",
            "tool": "Edit",
            "file": "/repo/src/db.py",
            "summary": "added retry",
        },
    )
    C.capture(folder, {"ts": "2026-07-15T12:05:00Z", "session": "c", "file": "src/db.py"})
    C.capture(
        folder,
        {"ts": "2026-07-15T12:06:00Z", "session": "c", "file": "src/x.py", "summary": "elsewhere"},
    )
    found = file_observations(folder, "src/db.py")
    assert [(o.session, o.text, o.source) for o in found] == [
        ("a", "pool size must stay at 10", "session"),
        ("c", "added retry", "captured"),
        ("b", "the pool size has to stay 10", "session"),
    ]
    assert found[0].agent == "claude" and found[0].branch == "feat/a"
    assert found[1].agent == "gemini"
    assert found[1].to_dict()["source"] == "captured"


def test_no_sources_no_observations(tmp_path: Path) -> None:
    assert file_observations(tmp_path / "memory", "a.py") == []
