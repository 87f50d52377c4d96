"""The team store over a real PostgreSQL cluster: schema, isolation, concurrency, crashes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from tests.postgres import Cluster

from toon_memory import DatabaseError, InputError, Memory
from toon_memory.store.team.database import close_pool, run
from toon_memory.store.team.schema import SCHEMA_VERSION, current_version, migrate


def _keys(url: str, project: str) -> list[str]:
    """The keys of the project's active entries, the archived ones included (the default
    cap of 100 entries moves the oldest to the archive)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT row->>'key' FROM entries WHERE project = %s AND row IS NOT NULL "
            "AND row->>'status' = 'active' UNION ALL "
            "SELECT row->>'key' FROM archive WHERE project = %s",
            (project, project),
        ).fetchall()
    return [str(row[0]) for row in rows]


def _count(url: str, project: str) -> int:
    return len(_keys(url, project))


def test_init_is_idempotent_and_a_newer_schema_is_refused_untouched(database: str) -> None:
    assert run(database, migrate) == (0, SCHEMA_VERSION)
    assert run(database, migrate) == (SCHEMA_VERSION, SCHEMA_VERSION)
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("INSERT INTO toon_schema (version) VALUES (99)")
    with pytest.raises(DatabaseError, match="newer than this toon-memory"):
        run(database, migrate)
    assert run(database, current_version) == 99
    close_pool(database)


def test_a_database_never_initialised_says_to_run_team_init(database: str, project: Path) -> None:
    memory = Memory(project, database=database, name="acme")
    with pytest.raises(DatabaseError, match="team init"):
        memory.remember("decision", "k", "content")
    close_pool(database)


def test_bad_project_name_and_url_name_the_field(team_database: str, project: Path) -> None:
    with pytest.raises(InputError) as caught:
        Memory(project, database=team_database, name="no spaces/here")
    assert caught.value.field == "project"
    with pytest.raises(InputError) as bad_url:
        Memory(project, database="mysql://x")
    assert bad_url.value.field == "database"


def test_two_projects_are_kept_apart_and_a_write_is_seen_at_once(
    team_database: str, tmp_path: Path
) -> None:
    a = Memory(tmp_path, database=team_database, name="alpha")
    b = Memory(tmp_path, database=team_database, name="beta")
    a_again = Memory(tmp_path, database=team_database, name="alpha")
    a.remember("decision", "db", "Postgres holds the team memory")
    assert a_again.recall("postgres team").keys == ["db"]  # another server's view, no wait
    assert b.recall("postgres team").keys == []
    b.remember("decision", "db", "Beta keeps its own answer")
    assert a_again.get("db").content == "Postgres holds the team memory"
    a_again.remember("decision", "db", "Postgres 15 holds the team memory")
    assert next(e.content for e in a.history("db")) == "Postgres 15 holds the team memory"
    assert len(a.history("db")) == 2 and len(b.history("db")) == 1
    a_again.forget("db")
    assert a.recall("postgres").keys == [] and b.get("db").content == "Beta keeps its own answer"


_WRITER = """
import sys
from toon_memory import Memory
url, name, worker, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
memory = Memory(sys.argv[5], database=url, name=name)
for i in range(count):
    memory.remember("knowledge", f"w{worker}-{i}", f"worker {worker} wrote note {i}")
    print(f"w{worker}-{i}", flush=True)
"""


def test_concurrent_writers_in_many_processes_lose_nothing(
    team_database: str, tmp_path: Path
) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, team_database, "crowd", str(w), "30", str(tmp_path)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(6)
    ]
    acked = [line.strip() for p in procs for line in p.communicate(timeout=300)[0].splitlines()]
    assert all(p.returncode == 0 for p in procs)
    assert len(acked) == 180
    keys = _keys(team_database, "crowd")
    assert len(keys) == 180 and set(keys) == set(acked)


def test_sigkill_loses_no_acknowledged_write(team_database: str, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, team_database, "killed", "0", "100000", str(tmp_path)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    acked = [proc.stdout.readline().strip() for _ in range(25)]
    proc.send_signal(signal.SIGKILL)
    rest, _ = proc.communicate(timeout=60)
    acked += [line.strip() for line in rest.splitlines() if line.strip()]
    keys = set(_keys(team_database, "killed"))
    assert set(acked) <= keys
    assert len(keys) - len(acked) <= 1  # at most the write in flight, committed unacknowledged


_IMPORTER = """
import sys
from toon_memory import Memory
memory = Memory(sys.argv[2], database=sys.argv[1], name="bulk")
rows = [{"key": f"row-{i}", "content": f"imported row number {i} of the batch"}
        for i in range(3000)]
print("start", flush=True)
memory.import_rows(rows)
print("done", flush=True)
"""


def test_a_write_killed_midway_is_all_or_nothing(team_database: str, tmp_path: Path) -> None:
    Memory(tmp_path, database=team_database, name="bulk").remember("decision", "kept", "before")
    proc = subprocess.Popen(
        [sys.executable, "-c", _IMPORTER, team_database, str(tmp_path)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "start"
    time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    count = _count(team_database, "bulk")
    assert count in (1, 3001)
    with psycopg.connect(team_database) as conn:
        rev = conn.execute("SELECT rev FROM projects WHERE name = 'bulk'").fetchone()
        revs = conn.execute(
            "SELECT count(DISTINCT rev) FROM entries WHERE project = 'bulk'"
        ).fetchone()
    assert rev is not None and revs is not None and rev[0] == revs[0] == (1 if count == 1 else 2)
    memory = Memory(tmp_path, database=team_database, name="bulk")
    memory.remember("decision", "after", "written after the kill")
    assert {"kept", "after"} <= {e.key for e in memory.entries()}


def test_accesses_count_across_servers(team_database: str, tmp_path: Path) -> None:
    a = Memory(tmp_path, database=team_database, name="counts")
    b = Memory(tmp_path, database=team_database, name="counts")
    a.remember("decision", "cache", "Use Redis for the cache")
    assert b.get("cache").accessed == 0
    assert b.recall("redis cache").keys == ["cache"]
    assert a.get("cache").accessed == 1
    a.remember("decision", "cache", "Use Redis 7 for the cache")  # a write keeps the count
    assert Memory(tmp_path, database=team_database, name="counts").get("cache").accessed == 1


def test_the_database_going_away_gives_a_clear_error_then_works_again(tmp_path: Path) -> None:
    from tests.postgres import Cluster, start_cluster

    cluster = start_cluster()
    if isinstance(cluster, str):
        pytest.skip(cluster)
    assert isinstance(cluster, Cluster)
    url = cluster.url()
    try:
        run(url, migrate)
        memory = Memory(tmp_path, database=url, name="flaky")
        memory.remember("decision", "first", "Written before the outage")
        cluster.pause()
        with pytest.raises(DatabaseError) as caught:
            memory.remember("decision", "during", "Never acknowledged")
        assert "team database" in str(caught.value) and "password" not in str(caught.value)
        with pytest.raises(DatabaseError):
            memory.recall("outage")
        cluster.resume()
        memory.remember("decision", "second", "Written after the outage")
        fresh = Memory(tmp_path, database=url, name="flaky")
        assert {e.key for e in fresh.entries()} == {"first", "second"}
    finally:
        close_pool(url)
        cluster.stop()


def test_every_row_is_a_whole_entry(team_database: str, tmp_path: Path) -> None:
    memory = Memory(tmp_path, database=team_database, name="rows")
    memory.remember("bug", "k", 'a | pipe, a comma and a "quote"\nand a newline', tags="a;b")
    with psycopg.connect(team_database) as conn:
        found = conn.execute(
            "SELECT row, key, category FROM entries WHERE project = 'rows'"
        ).fetchone()
    assert found is not None
    row, key, category = found
    assert (key, category) == ("k", "bug") and row["tags"] == "a;b"
    assert json.loads(json.dumps(row))["content"].endswith("and a newline")
    assert os.environ.get("TOON_MEMORY_DATABASE_URL") is None


def test_doctor_reports_the_database_and_its_errors(
    team_database: str, postgres: Cluster, tmp_path: Path
) -> None:
    memory = Memory(tmp_path, database=team_database, name="doc")
    memory.remember("decision", "k", "content")
    report = memory.doctor()
    assert (report[1][0], report[1][1][:15]) == ("ok", "entries live in")
    assert "1 entries" in report[1][1]
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE bare{os.getpid()}")
    bare = postgres.url(f"bare{os.getpid()}")  # never initialised
    other = Memory(tmp_path / "x", database=bare, name="doc")
    assert any(level == "error" and "team init" in text for level, text in other.doctor())
    close_pool(bare)


def test_the_cli_keeps_entries_in_the_database_it_is_given(
    team_database: str, project: Path
) -> None:
    from tests.conftest import run_cli

    run_cli("--database", team_database, "remember", "-c", "decision", "-k", "db",
            "-m", "Postgres holds it", project=project, check=True)  # fmt: skip
    assert not Memory(project, database="").paths.data.exists()  # nothing in the files
    team = Memory(project, database=team_database)  # the project folder's name
    assert team.get("db").content == "Postgres holds it"
    found = run_cli("--database", team_database, "recall", "postgres", project=project,
                    check=True)  # fmt: skip
    assert "db" in found.stdout
    bad = run_cli("--database", "mysql://x", "recall", "x", project=project)
    assert bad.returncode == 2 and "database" in bad.stderr


def test_without_the_driver_the_error_says_what_to_install(tmp_path: Path) -> None:
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('psycopg', 'psycopg_pool'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from toon_memory.adapters.cli.main import main\n"
        "sys.argv = ['toon-memory', 'team', 'init', '--database', 'postgresql://x@/db']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "pip install 'toon-memory[team]'" in done.stderr and "Traceback" not in done.stderr
