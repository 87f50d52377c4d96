"""``Listener`` over a real PostgreSQL cluster: notices reach the callback, a dropped
connection is re-made (and what it may have missed is told again), ``stop`` is prompt, and
nothing escapes its thread or names a password."""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path

import psycopg
import pytest

from toon_memory.memory.api import Memory
from toon_memory.store.team.listener import APPLICATION, Listener

#: Bounded wait (s) for an event that should come at once.
WITHIN = 10.0


def _notify(url: str, project: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_notify('toon_memory', %s)", (project,))


def _terminate(url: str) -> int:
    """End every listener's backend of this database; how many were ended."""
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            (APPLICATION,),
        ).fetchone()
    return int(found[0]) if found else 0


def _heard(notices: queue.Queue[str]) -> str:
    return notices.get(timeout=WITHIN)


def _wait(event: threading.Event, what: str) -> None:
    assert event.wait(WITHIN), what


def _listener_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "toon-memory-listener"]


def test_a_notice_arrives_and_survives_a_terminated_connection(team_database: str) -> None:
    notices: queue.Queue[str] = queue.Queue()
    listener = Listener(team_database, notices.put).start()
    try:
        _wait(listener.listening, "the listener never listened")
        _notify(team_database, "acme")
        assert _heard(notices) == "acme"
        assert _terminate(team_database) == 1
        # It reconnects and tells every project it heard of again (one may have been missed).
        assert _heard(notices) == "acme"
        assert listener.connections >= 2
        _wait(listener.listening, "the listener never listened again")
        _notify(team_database, "web")
        assert _heard(notices) == "web"
    finally:
        assert listener.stop(timeout=5.0)
    assert not listener.alive() and _listener_threads() == []
    with psycopg.connect(team_database) as conn:  # and its connection is closed
        left = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (APPLICATION,)
        ).fetchone()
    assert left == (0,)


def test_a_write_through_a_team_memory_is_heard(team_database: str, tmp_path: Path) -> None:
    notices: queue.Queue[str] = queue.Queue()
    with Listener(team_database, notices.put) as listener:
        _wait(listener.listening, "the listener never listened")
        (tmp_path / "p").mkdir()
        Memory(tmp_path / "p", database=team_database, name="acme").remember(
            "decision", "db", "postgres for the team"
        )
        assert _heard(notices) == "acme"
    assert not listener.alive()


def test_a_failing_callback_does_not_end_the_listening(
    team_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    notices: queue.Queue[str] = queue.Queue()

    def picky(project: str) -> None:
        if project == "bad":
            raise RuntimeError("callback broke")
        notices.put(project)

    with Listener(team_database, picky) as listener, caplog.at_level(logging.WARNING):
        _wait(listener.listening, "the listener never listened")
        _notify(team_database, "bad")
        _notify(team_database, "good")
        assert _heard(notices) == "good"
        assert listener.alive()
    assert "callback broke" in caplog.text and "'bad'" in caplog.text


def test_an_unreachable_database_is_retried_quietly_and_stops_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"postgresql://alice:s3cret-pw@/nowhere?host={tmp_path}"  # no server on that socket
    with caplog.at_level(logging.WARNING):
        listener = Listener(url, lambda project: None).start()
        try:
            for _ in range(100):  # bounded: the first failure is logged at once
                if "listening to the team database" in caplog.text:
                    break
                time.sleep(0.05)
            assert not listener.listening.is_set()
        finally:
            assert listener.stop(timeout=5.0)
    assert "alice@" in caplog.text and "/nowhere" in caplog.text
    assert "s3cret-pw" not in caplog.text
