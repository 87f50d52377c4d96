"""allow_secrets on the sharing tools, through the real MCP stdio client.

memory_export_global, memory_import_global and memory_import_gist skip (and
report) entries holding a credential unless ``allow_secrets`` is true, like
the CLI's ``--allow-secrets``; the answer never shows the secret, and a
non-boolean ``allow_secrets`` is a tool error naming it that changes no file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from tests.adapters.server.helpers import SERVER_CMD, make_project, server_env, snapshot, text_of
from tests.memory.sharing.fakegithub import GOOD_TOKEN, FakeGitHub
from tests.memory.sharing.test_gist import fake_gh
from tests.rules.secrets_scan.fixtures import SECRETS

from toon_memory import Memory

TEXT, SECRET, KIND = SECRETS["aws-key-id"]


@pytest.fixture
def github(tmp_path: Path) -> Iterator[FakeGitHub]:
    fake = FakeGitHub().start()
    fake_gh(tmp_path / "bin", "")
    yield fake
    fake.stop()


def _params(project: Path, home: Path, github: FakeGitHub, bin_dir: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k.startswith(("PATH", "PYTHON", "LANG", "LC_"))}
    env.update(server_env(project, home))
    env.update(TOON_MEMORY_GITHUB_API=github.url, GITHUB_TOKEN=GOOD_TOKEN,
               PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")  # fmt: skip
    return StdioServerParameters(command=SERVER_CMD[0], args=SERVER_CMD[1:], env=env)


def _calls(params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def run() -> list[Any]:
        async with Client(params) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(run)


def test_global_export_and_import_keep_credentials_only_when_allowed(
    tmp_path: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home = make_project(tmp_path)
    monkeypatch.setenv("TOON_MEMORY_HOME", str(home))
    Memory(project).remember("knowledge", "deploy-key", TEXT, allow_secrets=True)
    Memory(project).remember("decision", "use-zod", "Validate payloads with Zod")
    params = _params(project, home, github, tmp_path / "bin")
    refused, allowed = _calls(params, [("memory_export_global", {}),
                                       ("memory_export_global", {"allow_secrets": True})])  # fmt: skip
    for result in (refused, allowed):
        assert not result.is_error, text_of(result)
        assert SECRET not in text_of(result) + str(result.structured_content)
    assert "deploy-key" in text_of(refused) and KIND in text_of(refused)
    assert Memory(global_store=True).get("deploy-key").content == TEXT  # the allowed call

    other, _ = make_project(tmp_path / "other")
    params = _params(other, home, github, tmp_path / "bin")
    before = snapshot(other)
    (bad,) = _calls(params, [("memory_import_global", {"allow_secrets": "sometimes"})])
    assert bad.is_error and "'allow_secrets'" in text_of(bad) and snapshot(other) == before
    skipped, kept = _calls(params, [("memory_import_global", {}),
                                    ("memory_import_global", {"allow_secrets": True})])  # fmt: skip
    assert not skipped.is_error and "deploy-key" in text_of(skipped)
    assert SECRET not in text_of(skipped) and not kept.is_error
    assert {e.key for e in Memory(other).entries()} == {"use-zod", "deploy-key"}


def test_gist_import_keeps_credentials_only_when_allowed(
    tmp_path: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home = make_project(tmp_path)
    monkeypatch.setenv("TOON_MEMORY_HOME", str(home))
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", github.url)
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    source = Memory(project)
    source.remember("knowledge", "deploy-key", TEXT, allow_secrets=True)
    source.remember("decision", "use-zod", "Validate payloads with Zod")
    gist = source.sharing.export_gist().id
    other, _ = make_project(tmp_path / "other")
    params = _params(other, home, github, tmp_path / "bin")
    (skipped,) = _calls(params, [("memory_import_gist", {"id": gist})])
    assert not skipped.is_error and "deploy-key" in text_of(skipped) and KIND in text_of(skipped)
    assert SECRET not in text_of(skipped) + str(skipped.structured_content)
    assert {e.key for e in Memory(other).entries()} == {"use-zod"}
    (kept,) = _calls(params, [("memory_import_gist", {"id": gist, "allow_secrets": True})])
    assert not kept.is_error, text_of(kept)
    assert Memory(other).get("deploy-key").content == TEXT
