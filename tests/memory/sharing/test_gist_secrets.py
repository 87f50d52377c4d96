"""A Gist import (local fake GitHub API) skips and reports entries holding credentials, unless
allowed; the report never shows the secret. Nothing touches the network."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import run_cli
from tests.memory.sharing.fakegithub import GOOD_TOKEN, FakeGitHub
from tests.memory.sharing.test_gist import github, other_project  # noqa: F401  (the fixture)
from tests.rules.secrets_scan.fixtures import HARMLESS, SECRETS

from toon_memory import Memory


def test_gist_import_skips_credentials(
    project: Path,
    github: FakeGitHub,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    text, secret, kind = SECRETS["github"]
    source = Memory(project)
    source.remember("knowledge", "release-token", text, allow_secrets=True)
    source.remember("knowledge", "commit", HARMLESS["git-hash"])
    gist_id = source.sharing.export_gist().id
    other = other_project(project)
    report = other.sharing.import_gist(gist_id)
    messages = "\n".join(report.messages)
    assert report.added == 1 and report.skipped == 1
    assert "release-token" in messages and kind in messages and secret not in messages
    assert [e.key for e in other.entries()] == ["commit"]
    done = run_cli("gist", "import", gist_id, "--allow-secrets", "--json",
                   project=other.root, env={"GITHUB_TOKEN": GOOD_TOKEN})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert Memory(other.root).get("release-token").content == text
