"""Gist sync against a local GitHub API (tests/memory/sharing/fakegithub.py, a real HTTP server on
127.0.0.1): create, update, get; 401/404/403/rate-limit answers become clear errors; the
token never appears in output, errors or files. Nothing touches the network."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conftest import run_cli
from tests.memory.sharing.fakegithub import GOOD_TOKEN, NO_SCOPE_TOKEN, FakeGitHub

from toon_memory import InputError, Memory
from toon_memory.errors import SyncError


@pytest.fixture
def github(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    """The fake API, pointed at by TOON_MEMORY_GITHUB_API; a `gh` on PATH that knows no token."""
    fake = FakeGitHub().start()
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", fake.url)
    fake_gh(tmp_path / "bin", "")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    yield fake
    fake.stop()


def fake_gh(folder: Path, token: str) -> None:
    """A `gh` that prints ``token`` for `gh auth token` (exit 1 when empty)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "gh"
    body = f'echo "{token}"' if token else 'echo "not logged in" >&2; exit 1'
    script.write_text(f'#!/bin/sh\n[ "$1 $2" = "auth token" ] || exit 2\n{body}\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


def seeded(project: Path) -> Memory:
    memory = Memory(project)
    memory.remember("decision", "use-zod", "Validate payloads with Zod", tags="validation")
    memory.remember("warning", "no-sudo-npm", "Never run npm with sudo")
    memory.summary("src/a.ts", "Entry point")
    return memory


def other_project(project: Path) -> Memory:
    root = project.parent / "other"
    (root / ".git").mkdir(parents=True, exist_ok=True)
    return Memory(root)


def test_export_creates_then_updates_the_same_gist(
    project: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    memory = seeded(project)
    first = memory.sharing.export_gist()
    assert first.created and not first.public and first.entries == 2 and first.summaries == 1
    config = json.loads(memory.paths.config.read_text())
    assert config["gistId"] == first.id
    memory.remember("bug", "flaky-sync", "test_sync fails under load")
    second = memory.sharing.export_gist(public=True)
    assert second.id == first.id and not second.created and second.messages
    assert [s.method for s in github.seen] == ["POST", "PATCH"]
    assert all(s.authorization == f"Bearer {GOOD_TOKEN}" for s in github.seen)
    stored = github.gists[first.id]["files"]["toon-memory.toon"]["content"]
    assert "flaky-sync" in stored and stored.startswith("version: 1")
    assert github.gists[first.id]["public"] is False
    assert GOOD_TOKEN not in memory.paths.config.read_text()


def test_import_merges_and_a_second_import_changes_nothing(
    project: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    gist_id = seeded(project).sharing.export_gist().id
    other = other_project(project)
    other.remember("decision", "use-zod", "Use Zod and share schemas", tags="types")
    report = other.sharing.import_gist(f"https://gist.github.com/ada/{gist_id}")
    assert report.source == f"gist {gist_id}" and report.added >= 1 and report.summaries == 1
    assert other.get("no-sudo-npm").content == "Never run npm with sudo"
    assert {"validation", "types"} <= set(other.get("use-zod").tags)
    assert len(other.history("use-zod")) == 2  # the other text is kept as history
    assert not other.sharing.import_gist(gist_id).changed


def test_a_public_gist_imports_without_a_token_and_a_truncated_one_is_read_whole(
    project: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    gist_id = seeded(project).sharing.export_gist(public=True).id
    monkeypatch.delenv("GITHUB_TOKEN")
    github.truncate = True
    other = other_project(project)
    assert other.sharing.import_gist(gist_id).added == 2
    assert github.seen[-1].path == f"/raw/{gist_id}" and github.seen[-1].authorization == ""


def test_token_from_gh_auth_token(project: Path, github: FakeGitHub, tmp_path: Path) -> None:
    fake_gh(tmp_path / "bin", GOOD_TOKEN)
    assert seeded(project).sharing.export_gist().created
    assert github.seen[-1].authorization == f"Bearer {GOOD_TOKEN}"


def test_no_token_is_a_clear_error(project: Path, github: FakeGitHub) -> None:
    with pytest.raises(SyncError, match=r"no GitHub token: set GITHUB_TOKEN .*gh auth login"):
        seeded(project).sharing.export_gist()
    assert not github.seen


@pytest.mark.parametrize(
    ("token", "rate_limited", "expected"),
    [
        ("ghp_wrongTOKENwrongTOKENwrong000", False, "the token was refused; set GITHUB_TOKEN"),
        (NO_SCOPE_TOKEN, False, "needs the 'gist' scope"),
        (GOOD_TOKEN, True, "rate limit is used up; try again after 17:46 UTC"),
    ],
)
def test_refusals_are_clear_and_never_show_the_token(
    project: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, token: str,
    rate_limited: bool, expected: str,
) -> None:  # fmt: skip
    monkeypatch.setenv("GITHUB_TOKEN", token)
    github.rate_limited = rate_limited
    memory = seeded(project)
    with pytest.raises(SyncError) as caught:
        memory.sharing.export_gist()
    assert expected in str(caught.value) and token not in str(caught.value)
    assert not memory.paths.config.exists()  # no gist id remembered
    done = run_cli("gist", "export", project=project, env={"GITHUB_TOKEN": token})
    assert done.returncode == 1 and expected in done.stderr
    assert token not in done.stdout + done.stderr


def test_unknown_gists(project: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    memory = seeded(project)
    with pytest.raises(SyncError, match="gist does not exist"):
        memory.sharing.import_gist("0123abcd")
    from toon_memory.store.config import update_config

    update_config(memory.paths.config, {"gistId": "deadbeef"})  # e.g. a teammate's gist
    with pytest.raises(SyncError, match=r"or is not yours.*remove \"gistId\""):
        memory.sharing.export_gist()
    for bad in ("", "not a gist!", "https://gist.github.com/ada/../x y"):
        with pytest.raises(InputError) as caught:
            memory.sharing.import_gist(bad)
        assert caught.value.field == "gist_id"


def test_gists_that_hold_no_memory(project: Path, github: FakeGitHub,
                                   monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    memory = seeded(project)
    github.gists["abc1"] = {"owner": GOOD_TOKEN, "public": True, "description": "",
                            "files": {"notes.md": {"content": "# hi"}}}  # fmt: skip
    github.gists["abc2"] = {"owner": GOOD_TOKEN, "public": True, "description": "",
                            "files": {"toon-memory.toon": {"content": "just words"}}}  # fmt: skip
    before = memory.paths.data.read_bytes()
    with pytest.raises(SyncError, match=r"holds no toon-memory\.toon"):
        memory.sharing.import_gist("abc1")
    with pytest.raises(SyncError, match="not a toon-memory document; nothing imported"):
        memory.sharing.import_gist("abc2")
    assert memory.paths.data.read_bytes() == before


def test_base_url_settings(project: Path, github: FakeGitHub, tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    memory = seeded(project)
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", "http://gist-api.example.com")
    with pytest.raises(SyncError, match="never sent over plain http"):
        memory.sharing.export_gist()
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", "ftp://x")
    with pytest.raises(SyncError, match="expected an http"):
        memory.sharing.export_gist()
    monkeypatch.delenv("TOON_MEMORY_GITHUB_API")
    from toon_memory.store.config import update_config

    # A project's (committed) config.json cannot send the token elsewhere: it is not asked.
    update_config(memory.paths.config, {"githubApi": "http://127.0.0.1:9"})
    home_config = Path(os.environ["TOON_MEMORY_HOME"]) / ".toon-memory/memory/config.json"
    update_config(home_config, {"githubApi": github.url})
    assert memory.sharing.export_gist().created
    update_config(home_config, {"githubApi": "http://127.0.0.1:9"})  # nothing listens there
    with pytest.raises(SyncError, match="did not answer") as caught:
        memory.sharing.export_gist()
    assert GOOD_TOKEN not in str(caught.value)


def test_cli_export_and_import(project: Path, github: FakeGitHub) -> None:
    seeded(project)
    env = {"GITHUB_TOKEN": GOOD_TOKEN}
    made = run_cli("gist", "export", "--json", project=project, env=env, check=True)
    data = json.loads(made.stdout)
    assert data["created"] is True and data["entries"] == 2
    text = run_cli("gist", "export", project=project, env=env, check=True).stdout
    assert f"updated gist {data['id']}" in text
    other = other_project(project).root
    merged = run_cli("gist", "import", data["id"], project=other, env=env, check=True).stdout
    assert f"merged in gist {data['id']}" in merged and "2 entries added" in merged
    for out in (made, text, merged):
        assert GOOD_TOKEN not in str(out)
    bad = run_cli("gist", "import", "no such id!", project=other)
    assert bad.returncode == 2 and "gist_id" in bad.stderr


def test_the_token_is_written_nowhere(project: Path, github: FakeGitHub, tmp_path: Path) -> None:
    """After exports, an import and a refused call, no file under the test's folders (project,
    home, caches, backups) holds the token."""
    memory = seeded(project)
    env = {"GITHUB_TOKEN": GOOD_TOKEN}
    for args in (("gist", "export"), ("gist", "export"), ("backup",)):
        run_cli(*args, project=project, env=env, check=True)
    gist_id = json.loads(memory.paths.config.read_text())["gistId"]
    run_cli("gist", "import", gist_id, project=other_project(project).root, env=env, check=True)
    github.rate_limited = True
    assert run_cli("gist", "export", project=project, env=env).returncode == 1
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert GOOD_TOKEN.encode() not in path.read_bytes(), path
