"""``team push`` and ``team pull``: a project's files and a team database, both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toon_memory import EncryptionError, InputError, Memory
from toon_memory.memory.team import Team


def _project(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    (root / ".git").mkdir(parents=True)
    return root


def test_push_then_pull_round_trips_and_twice_changes_nothing(
    team_database: str, tmp_path: Path
) -> None:
    alice = Memory(_project(tmp_path, "alice"))
    alice.remember("decision", "db", "Postgres holds the team memory", tags="infra")
    alice.remember("decision", "db", "Postgres 15 holds the team memory")
    alice.summary("src/app.py", "Entry point; wires routes")
    first = Team(team_database).push(alice.root, "acme")
    assert (first.added, first.history, first.summaries) == (2, 0, 1)
    assert not Team(team_database).push(alice.root, "acme").changed
    team = Memory(tmp_path / "alice", database=team_database, name="acme")
    assert team.get("db").content == "Postgres 15 holds the team memory"
    assert len(team.history("db")) == 2 and team.summary("src/app.py") is not None

    bob = Memory(_project(tmp_path, "bob"))
    pulled = Team(team_database).pull(bob.root, "acme")
    assert pulled.changed and bob.paths.data.exists()
    assert not bob.paths.journal.exists()  # folded into data.toon at once
    before = bob.paths.data.read_bytes()
    assert not Team(team_database).pull(bob.root, "acme").changed
    assert bob.paths.data.read_bytes() == before  # byte-stable
    assert {e.key for e in bob.entries()} == {"db"} and len(bob.history("db")) == 2


def test_a_team_edit_comes_back_merged_with_a_local_one(team_database: str, tmp_path: Path) -> None:
    local = Memory(_project(tmp_path, "proj"))
    local.remember("pattern", "retry", "Retry with backoff")
    Team(team_database).push(local.root)  # project name: the folder's ("proj")
    team = Memory(tmp_path / "proj", database=team_database, name="proj")
    team.remember("warning", "flaky-ci", "CI flakes on the ARM runner")
    local.remember("bug", "leak", "Leak in the pool fixed")
    Team(team_database).pull(local.root)
    assert {e.key for e in local.entries()} == {"retry", "flaky-ci", "leak"}
    Team(team_database).push(local.root)
    assert {e.key for e in team.entries()} == {"retry", "flaky-ci", "leak"}


def test_refusals_name_what_is_wrong(
    team_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = Memory(_project(tmp_path, "p"))
    monkeypatch.delenv("TOON_MEMORY_DATABASE_URL", raising=False)
    with pytest.raises(InputError) as caught:
        Team(None).push(local.root)
    assert caught.value.field == "database"
    with pytest.raises(InputError) as bad_name:
        Team(team_database).push(local.root, "no spaces")
    assert bad_name.value.field == "project"
    monkeypatch.setenv("TOON_MEMORY_DATABASE_URL", team_database)  # push still reads the files
    local.remember("decision", "only-local", "in the files")
    assert Team(None).push(local.root).added == 1
    monkeypatch.delenv("TOON_MEMORY_DATABASE_URL")
    local.remember("decision", "k", "secret-free content")
    monkeypatch.setenv("TOON_MEMORY_KEY", "a long enough passphrase for the test")
    local.security.encrypt()
    with pytest.raises(EncryptionError):
        Team(team_database).push(local.root)


def test_a_credential_stays_behind_unless_allowed(team_database: str, tmp_path: Path) -> None:
    local = Memory(_project(tmp_path, "s"))
    local.remember("knowledge", "aws", "key AKIAIOSFODNN7EXAMPLE for deploys", allow_secrets=True)
    report = Team(team_database).push(local.root)
    assert report.skipped == 1 and report.added == 0
    team = Memory(tmp_path / "s", database=team_database, name="s")
    assert team.entries() == []


def test_the_cli_pushes_and_pulls(team_database: str, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    alice = _project(tmp_path, "alice")
    run_cli("remember", "-c", "decision", "-k", "db", "-m", "Postgres holds the team memory",
            project=alice, check=True)  # fmt: skip
    pushed = run_cli("team", "push", "--database", team_database, "--project", "acme",
                     project=alice, check=True)  # fmt: skip
    assert "pushed to the team database" in pushed.stdout and "1 entry added" in pushed.stdout
    again = run_cli("team", "push", "--json", "--project", "acme", project=alice, check=True,
                    env={"TOON_MEMORY_DATABASE_URL": team_database})  # fmt: skip
    data = json.loads(again.stdout)
    assert (data["added"], data["updated"], data["unchanged"]) == (0, 0, 1)
    bob = _project(tmp_path, "bob")
    pulled = run_cli("team", "pull", "--database", team_database, "--project", "acme",
                     project=bob, check=True)  # fmt: skip
    assert "pulled from" in pulled.stdout and "1 entry added" in pulled.stdout
    assert Memory(bob).get("db").content == "Postgres holds the team memory"
    bad = run_cli("team", "pull", "--database", team_database, "--project", "no way",
                  project=bob)  # fmt: skip
    assert bad.returncode == 2 and "project" in bad.stderr
