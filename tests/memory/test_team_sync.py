"""``team push`` and ``team pull``: a project's files and a team database, both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from toon_memory import EncryptionError, InputError, Memory


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
    first = alice.sharing.push_team(team_database, "acme")
    assert (first.added, first.history, first.summaries) == (2, 0, 1)
    assert not alice.sharing.push_team(team_database, "acme").changed
    team = Memory(tmp_path / "alice", database=team_database, name="acme")
    assert team.get("db").content == "Postgres 15 holds the team memory"
    assert len(team.history("db")) == 2 and team.summary("src/app.py") is not None

    bob = Memory(_project(tmp_path, "bob"))
    pulled = bob.sharing.pull_team(team_database, "acme")
    assert pulled.changed and bob.paths.data.exists()
    assert not bob.paths.journal.exists()  # folded into data.toon at once
    before = bob.paths.data.read_bytes()
    assert not bob.sharing.pull_team(team_database, "acme").changed
    assert bob.paths.data.read_bytes() == before  # byte-stable
    assert {e.key for e in bob.entries()} == {"db"} and len(bob.history("db")) == 2


def test_a_team_edit_comes_back_merged_with_a_local_one(team_database: str, tmp_path: Path) -> None:
    local = Memory(_project(tmp_path, "proj"))
    local.remember("pattern", "retry", "Retry with backoff")
    local.sharing.push_team(team_database)  # project name: the folder's ("proj")
    team = Memory(tmp_path / "proj", database=team_database, name="proj")
    team.remember("warning", "flaky-ci", "CI flakes on the ARM runner")
    local.remember("bug", "leak", "Leak in the pool fixed")
    local.sharing.pull_team(team_database)
    assert {e.key for e in local.entries()} == {"retry", "flaky-ci", "leak"}
    local.sharing.push_team(team_database)
    assert {e.key for e in team.entries()} == {"retry", "flaky-ci", "leak"}


def test_refusals_name_what_is_wrong(
    team_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = Memory(_project(tmp_path, "p"))
    with pytest.raises(InputError) as caught:
        local.sharing.push_team(None)
    assert caught.value.field == "database"
    team = Memory(tmp_path / "p", database=team_database, name="p")
    with pytest.raises(InputError, match="team memory already"):
        team.sharing.push_team(team_database)
    local.remember("decision", "k", "secret-free content")
    monkeypatch.setenv("TOON_MEMORY_KEY", "a long enough passphrase for the test")
    local.security.encrypt()
    with pytest.raises(EncryptionError):
        local.sharing.push_team(team_database)


def test_a_credential_stays_behind_unless_allowed(team_database: str, tmp_path: Path) -> None:
    local = Memory(_project(tmp_path, "s"))
    local.remember("knowledge", "aws", "key AKIAIOSFODNN7EXAMPLE for deploys", allow_secrets=True)
    report = local.sharing.push_team(team_database)
    assert report.skipped == 1 and report.added == 0
    team = Memory(tmp_path / "s", database=team_database, name="s")
    assert team.entries() == []
