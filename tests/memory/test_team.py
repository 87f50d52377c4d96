"""``Team`` over a real PostgreSQL cluster: schema init, tokens and roles, projects, authors.

And the ``team`` CLI commands over the same cluster (in-process, ``tests.clirunner``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import psycopg
import pytest
from tests.clirunner import invoke

from toon_memory.errors import AccessDeniedError, DatabaseError, InputError
from toon_memory.memory.team import Grant, Team
from toon_memory.store.team.schema import SCHEMA_VERSION


@pytest.fixture
def team(team_database: str, tmp_path: Path) -> Team:
    return Team(team_database, tmp_path / "team-home")


def test_init_migrates_once_and_is_idempotent(database: str) -> None:
    team = Team(database)
    first = team.init()
    assert (first.before, first.after) == (0, SCHEMA_VERSION) and first.changed
    again = team.init()
    assert (again.before, again.after) == (SCHEMA_VERSION, SCHEMA_VERSION) and not again.changed


def test_a_database_url_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOON_MEMORY_DATABASE_URL", raising=False)
    with pytest.raises(InputError) as caught:
        Team()
    assert caught.value.field == "database"
    with pytest.raises(InputError, match="postgresql://"):
        Team("mysql://nope")


def test_tokens_before_init_say_to_run_team_init(database: str) -> None:
    with pytest.raises(DatabaseError, match="team init"):
        Team(database).tokens()


def test_a_token_is_stored_as_its_digest_only(team: Team, team_database: str) -> None:
    made = team.create_token("alice", "write")
    assert len(made.token) >= 40
    with psycopg.connect(team_database) as conn:
        rows = conn.execute("SELECT * FROM tokens").fetchall()
    assert len(rows) == 1
    assert made.token not in repr(rows)
    assert hashlib.sha256(made.token.encode()).hexdigest() in repr(rows)
    assert made.token not in repr(team.tokens())


def test_authenticate_gives_the_grant_of_a_live_token(team: Team) -> None:
    made = team.create_token("ci-bot", "read", project="acme")
    assert team.authenticate(made.token) == Grant("ci-bot", "read", "acme")
    assert team.authenticate(made.token + "x") is None
    assert team.authenticate("") is None
    team.revoke_token("ci-bot")
    assert team.authenticate(made.token) is None


def test_list_shows_name_role_project_created_and_revoked(team: Team) -> None:
    team.create_token("alice", "admin")
    team.create_token("bob", "read", project="web")
    team.revoke_token("bob")
    listed = {t.name: t for t in team.tokens()}
    assert listed["alice"].role == "admin" and listed["alice"].project is None
    assert listed["alice"].live and listed["alice"].created
    assert listed["bob"].project == "web" and listed["bob"].revoked is not None
    assert set(listed["bob"].to_dict()) == {"name", "role", "project", "created", "revoked"}


def test_a_live_name_is_refused_until_revoked(team: Team) -> None:
    old = team.create_token("alice", "write")
    with pytest.raises(InputError) as caught:
        team.create_token("alice", "read")
    assert caught.value.field == "name" and "revoke" in caught.value.problem
    team.revoke_token("alice")
    new = team.create_token("alice", "read")
    assert team.authenticate(new.token) == Grant("alice", "read")
    assert team.authenticate(old.token) is None
    assert [t.live for t in team.tokens()] == [False, True]


@pytest.mark.parametrize(
    ("name", "role", "project", "field"),
    [
        ("alice", "owner", None, "role"),
        ("alice", "", None, "role"),
        ("", "read", None, "name"),
        ("a b", "read", None, "name"),
        ("alice", "read", "../etc", "project"),
    ],
)
def test_bad_token_input_names_the_field(
    team: Team, name: str, role: str, project: str | None, field: str
) -> None:
    with pytest.raises(InputError) as caught:
        team.create_token(name, role, project)
    assert caught.value.field == field
    assert team.tokens() == []


def test_revoking_an_unknown_name_is_refused(team: Team) -> None:
    with pytest.raises(InputError) as caught:
        team.revoke_token("nobody")
    assert caught.value.field == "name" and "nobody" in caught.value.problem


def test_grant_rules() -> None:
    reader, writer = Grant("r", "read", "acme"), Grant("w", "write")
    assert reader.reaches("acme") and not reader.reaches("web")
    assert writer.reaches("acme") and writer.reaches("web")
    reader.check_call("memory_recall", read_only=True)
    writer.check_call("memory_remember", read_only=False)
    with pytest.raises(AccessDeniedError, match=r"role read.*memory_remember"):
        reader.check_call("memory_remember", read_only=False)


def test_projects_are_kept_apart_and_side_files_are_local(team: Team, tmp_path: Path) -> None:
    acme, web = team.memory("acme"), team.memory("web")
    assert team.memory("acme") is acme
    acme.remember("decision", "acme-db", "acme uses postgres")
    web.remember("decision", "web-db", "web uses sqlite")
    assert [e.key for e in acme.entries()] == ["acme-db"]
    assert [e.key for e in web.entries()] == ["web-db"]
    assert acme.root == tmp_path / "team-home" / "acme"
    assert not (acme.root / ".toon-memory" / "memory" / "data.toon").exists()
    with pytest.raises(InputError) as caught:
        team.memory("no/such")
    assert caught.value.field == "project"


def test_the_author_is_stamped_on_every_kind_of_write(team: Team) -> None:
    memory = team.memory("acme")
    memory.author = "alice"
    memory.remember("decision", "db", "postgres", meta={"author": "mallory"})
    assert memory.get("db").meta["author"] == "alice"
    memory.author = "bob"
    memory.tag("db", "add", "storage")
    assert memory.get("db").meta["author"] == "bob"
    memory.author = "carol"
    memory.pin("db")
    assert memory.get("db").meta["author"] == "carol"
    memory.author = "dave"
    memory.forget("db")
    assert memory.get("db").meta["author"] == "dave"
    memory.author = ""
    memory.remember("pattern", "plain", "no author here")
    assert "author" not in memory.get("plain").meta


def test_the_author_is_stamped_on_what_a_curation_plan_applies(team: Team) -> None:
    memory = team.memory("acme")
    memory.remember("pattern", "deploy-main", "deploy from the main branch with the ci job")
    memory.remember("pattern", "deploy-copy", "deploy from the main branch with the ci job")
    memory.remember("knowledge", "draft", "the staging database is rebuilt nightly",
                    confidence=0.5)  # fmt: skip
    memory.author = "erin"
    applied = memory.curation.consolidate("identical", dry_run=False).plan
    touched = {r.entry.key for r in applied.removals} | {r.keep.key for r in applied.removals
                                                        if r.keep}  # fmt: skip
    assert touched == {"deploy-main", "deploy-copy"}
    for entry in memory.entries(include_inactive=True):
        if entry.key in touched:
            assert entry.meta.get("author") == "erin", entry.key
    memory.author = "frank"
    memory.curation.promote(dry_run=False)
    assert memory.get("draft").meta.get("author") == "frank"


def test_the_author_is_seen_through_another_team_object(team: Team, team_database: str,
                                                        tmp_path: Path) -> None:  # fmt: skip
    memory = team.memory("acme")
    memory.author = "alice"
    memory.remember("decision", "db", "postgres for the team")
    other = Team(team_database, tmp_path / "elsewhere").memory("acme")
    diff = other.diff("7d")
    assert [(e.key, e.meta.get("author")) for e in diff.created] == [("db", "alice")]


# -- the CLI ------------------------------------------------------------------------------
def test_cli_team_init_prints_before_and_after(database: str) -> None:
    first = invoke("team", "init", "--database", database)
    assert first.returncode == 0, first.stderr
    assert f"0 -> {SCHEMA_VERSION}" in first.stdout
    again = invoke("team", "init", env={"TOON_MEMORY_DATABASE_URL": database})
    assert again.returncode == 0 and f"version {SCHEMA_VERSION}, already current" in again.stdout


def test_cli_token_create_list_revoke(team: Team, team_database: str) -> None:
    db = ("--database", team_database)
    made = invoke("team", "token", "create", "alice", "--role", "write", "--project", "acme", *db)
    assert made.returncode == 0, made.stderr
    token = made.stdout.rstrip("\n").splitlines()[-1]
    assert team.authenticate(token) == Grant("alice", "write", "acme")
    listed = invoke("team", "token", "list", *db)
    assert "alice\twrite\tacme\t" in listed.stdout and "live" in listed.stdout
    assert token not in listed.stdout + listed.stderr
    as_json = invoke("team", "token", "list", "--json", *db)
    assert '"name": "alice"' in as_json.stdout and token not in as_json.stdout
    gone = invoke("team", "token", "revoke", "alice", *db)
    assert gone.returncode == 0 and "revoked" in gone.stdout
    assert team.authenticate(token) is None


def test_cli_errors_name_the_field(team: Team, team_database: str) -> None:
    db = ("--database", team_database)
    bad = invoke("team", "token", "create", "alice", "--role", "owner", *db)
    assert bad.returncode == 2 and "role:" in bad.stderr and bad.stdout == ""
    unknown = invoke("team", "token", "revoke", "nobody", *db)
    assert unknown.returncode == 2 and "name:" in unknown.stderr
    invoke("team", "token", "create", "alice", "--role", "read", *db)
    twice = invoke("team", "token", "create", "alice", "--role", "read", *db)
    assert twice.returncode == 2 and "live token named 'alice'" in twice.stderr


def test_cli_unreachable_database_names_the_server_not_the_password(tmp_path: Path) -> None:
    url = f"postgresql://bob:s3cret-pw@/nodb?host={tmp_path}&connect_timeout=1"
    done = invoke("team", "token", "list", "--database", url)
    assert done.returncode == 1
    assert "nodb" in done.stderr and "s3cret-pw" not in done.stderr
