"""Merging what parallel sessions observed about one file (Jaccard > 0.5), and drafts from it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from toon_memory.rules.curation import merge_observations, observation_draft
from toon_memory.rules.curation.observations import observation_key
from toon_memory.store import captured as C
from toon_memory.store import heartbeats as S
from toon_memory.store.observations import Observation, file_observations

NOW = datetime(2026, 7, 15, 12, 0, 0, tzinfo=timezone.utc)


def obs(session: str, text: str, at: str, agent: str = "", branch: str = "") -> Observation:
    return Observation(session, "src/db.py", text, at, agent, branch)


def test_similar_observations_merge_and_keep_every_session() -> None:
    merged = merge_observations(
        [
            obs(
                "b", "the pool size has to stay at 10 connections", "2026-07-15T12:02:00Z", "codex"
            ),
            obs(
                "a", "pool size must stay at 10 connections", "2026-07-15T12:00:00Z", "claude", "x"
            ),
            obs("c", "added a retry around connect", "2026-07-15T12:01:00Z", "gemini"),
            obs("a", "Pool size must stay at 10 connections", "2026-07-15T12:03:00Z", "claude"),
            obs("d", "   ", "2026-07-15T12:04:00Z"),
        ]
    )
    assert [(m.text, m.sessions, m.count) for m in merged] == [
        ("the pool size has to stay at 10 connections", ("a", "b"), 3),
        ("added a retry around connect", ("c",), 1),
    ]
    assert merged[0].agents == ("claude", "codex")
    assert merged[0].branches == ("x",)
    assert merged[0].first_at == "2026-07-15T12:00:00Z"
    assert merged[0].last_at == "2026-07-15T12:03:00Z"
    assert merge_observations([]) == []


def test_texts_without_words_merge_only_when_equal() -> None:
    merged = merge_observations([obs("a", "!!", "1"), obs("b", "!!", "2"), obs("c", "??", "3")])
    assert [(m.text, m.count) for m in merged] == [("!!", 2), ("??", 1)]


def test_from_real_session_files_and_log_to_drafts(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    S.beat(folder, "a", agent="claude", notes=[("src/db.py", "pool size must stay at 10")], now=NOW)
    S.beat(
        folder,
        "b",
        agent="codex",
        notes=[("src/db.py", "Pool size must stay at 10!")],
        now=NOW + timedelta(minutes=1),
    )
    C.capture(
        folder,
        {
            "ts": "2026-07-15T12:05:00Z",
            "session": "c",
            "file": "src/db.py",
            "summary": "switched the driver to asyncpg",
        },
    )
    merged = merge_observations(file_observations(folder, "src/db.py"))
    assert [m.sessions for m in merged] == [("a", "b"), ("c",)]
    draft = observation_draft("src/db.py", merged[0])
    assert draft == {
        "category": "knowledge",
        "key": "db-pool-size-must-stay-at-10",
        "content": "Pool size must stay at 10!",
        "file": "src/db.py",
        "tags": ["session-merge"],
        "origin": "inferred",
        "confidence": 0.75,
    }
    assert observation_draft("src/db.py", merged[1])["confidence"] == 0.65


def test_observation_keys() -> None:
    assert observation_key("src/Auth.ts", "JWT expires after 1h") == "auth-jwt-expires-after-1h"
    assert observation_key("", "!!!") == "session-observation"
    assert len(observation_key("a.py", "word " * 40)) <= 60
