"""``TeamHeartbeats``: a team project's sessions in the database's ``sessions`` table.

Two ``Team`` objects with their own side folders stand for two servers on two hosts.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from toon_memory.errors import DatabaseError
from toon_memory.memory.team import Team
from toon_memory.model.heartbeat import clock_now
from toon_memory.store.team.database import run
from toon_memory.store.team.schema import MIGRATIONS, SCHEMA_VERSION, current_version
from toon_memory.store.team.sessions import TeamHeartbeats


def _servers(url: str, tmp_path: Path) -> tuple[Team, Team]:
    return Team(url, tmp_path / "host-a"), Team(url, tmp_path / "host-b")


def test_two_servers_see_each_others_sessions_and_an_end(
    team_database: str, tmp_path: Path
) -> None:
    a, b = (team.memory("acme") for team in _servers(team_database, tmp_path))
    a.sessions.beat("claude-1", agent="claude", files=["src/auth.py"], pid=4001)
    b.sessions.beat("codex-1", agent="codex", files=["src/auth.py"], pid=4002)
    for memory in (a, b):
        report = memory.sessions.list()
        assert {s.id for s in report.sessions} == {"claude-1", "codex-1"}
        assert report.conflicts == {"src/auth.py": ("claude-1", "codex-1")}
        assert not (memory.paths.folder / "sessions").exists()  # no heartbeat file anywhere
    assert {s.id for s in a.context.brief().sessions.sessions} == {"claude-1", "codex-1"}
    b.sessions.end("claude-1")  # ended through the other server
    for memory in (a, b):
        assert [s.id for s in memory.sessions.list().sessions] == ["codex-1"]
        assert memory.sessions.get("claude-1").ended  # type: ignore[union-attr]
    with psycopg.connect(team_database) as conn:
        rows = conn.execute("SELECT project, id FROM sessions ORDER BY id").fetchall()
    assert rows == [("acme", "claude-1"), ("acme", "codex-1")]


def test_projects_keep_their_sessions_apart(team_database: str, tmp_path: Path) -> None:
    team = Team(team_database, tmp_path / "host")
    team.memory("acme").sessions.beat("s", agent="x", pid=1)
    assert team.memory("web").sessions.list().sessions == ()
    assert [s.id for s in team.memory("acme").sessions.list().sessions] == ["s"]


def test_concurrent_beats_of_one_session_lose_no_file(team_database: str) -> None:
    def beater(n: int) -> None:
        beats = TeamHeartbeats(team_database, "acme")  # a server of its own
        for i in range(5):
            beats.beat("shared", agent="claude", files=[f"f{n}-{i}.py"], pid=1)

    threads = [threading.Thread(target=beater, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    session = TeamHeartbeats(team_database, "acme").get("shared")
    assert session is not None
    assert sorted(session.files) == sorted(f"f{n}-{i}.py" for n in range(8) for i in range(5))


def test_a_team_session_goes_once_past_the_window(team_database: str) -> None:
    beats = TeamHeartbeats(team_database, "acme")
    now = clock_now()
    beats.beat("old", agent="x", pid=1, now=now - timedelta(minutes=11))  # pid 1 lives: no matter
    beats.beat("new", agent="y", pid=1, now=now - timedelta(minutes=9))
    assert [s.id for s in beats.active(10, now, prune=False)] == ["new"]
    assert [s.id for s in beats.read()] == ["new", "old"]  # newest first
    assert beats.prune(10, now) == ["old"]
    beats.beat("new", agent=None, now=now)  # revived meanwhile: stays
    assert beats.prune(10, now + timedelta(minutes=10)) == []
    assert [s.id for s in beats.read()] == ["new"]


def test_readers_skip_bad_records(team_database: str) -> None:
    beats = TeamHeartbeats(team_database, "acme")
    beats.beat("good", agent="x", pid=1)
    with psycopg.connect(team_database) as conn:
        conn.execute(
            "INSERT INTO sessions (project, id, record, last_beat) VALUES "
            "('acme', 'junk', '\"junk\"', now()), ('acme', 'other', '{\"id\": \"good\"}', now()),"
            ' (\'acme\', \'badpid\', \'{"id": "badpid", "pid": "x"}\', now())'
        )
    assert [s.id for s in beats.read()] == ["good"]
    assert beats.get("junk") is None and beats.end("other") is None
    assert beats.beat("junk", agent="z", pid=2).agent == "z"  # a beat repairs its record


def test_init_upgrades_a_version_1_database(database: str, tmp_path: Path) -> None:
    def version_1(conn: psycopg.Connection) -> None:  # type: ignore[type-arg]
        with conn.transaction():
            conn.execute(MIGRATIONS[0].encode())
            conn.execute("INSERT INTO toon_schema (version) VALUES (1)")

    run(database, version_1)
    with pytest.raises(DatabaseError, match="team init"):
        TeamHeartbeats(database, "acme").read()
    result = Team(database, tmp_path / "host").init()
    assert (result.before, result.after) == (1, SCHEMA_VERSION) == (1, 2)
    assert run(database, current_version) == SCHEMA_VERSION
    memory = Team(database, tmp_path / "host").memory("acme")
    memory.sessions.beat("s", agent="x", pid=1)
    assert [s.id for s in memory.sessions.list().sessions] == ["s"]
    again = Team(database, tmp_path / "host").init()
    assert (again.before, again.after) == (SCHEMA_VERSION, SCHEMA_VERSION)
