"""The sharing tools through the real MCP client: in process, and one stdio end-to-end run
against the local GitHub API. Invalid arguments are tool errors naming the parameter and
change no file; no answer ever holds the token."""

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
from tests.memory.sharing.fakegithub import GOOD_TOKEN, SEEDED_GIST, FakeGitHub
from tests.memory.sharing.test_gist import fake_gh

from toon_memory import Memory
from toon_memory.adapters.server.app import ToonMemoryServer

# tool -> (invalid arguments, parameter the error must name, valid arguments)
SCRIPT: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    ("memory_export_global", {"force": True}, "force", {}),
    ("memory_import_global", {"merge": "sometimes"}, "merge", {"merge": True}),
    ("memory_export_gist", {"public": "maybe"}, "public", {}),
    ("memory_import_gist", {"id": "not a gist!"}, "id", {"id": "GIST"}),
    ("memory_import_gist", {}, "id", {"id": "https://gist.github.com/ada/GIST"}),
    ("memory_import_global", {"merge": False, "extra": 1}, "extra", {"merge": False}),
]  # fmt: skip
#: Rows for the shared stdio script of test_stdio_e2e.py (its server talks to a FakeGitHub
#: holding the seeded public gist).
E2E_ROWS: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    *SCRIPT[:3],
    ("memory_import_gist", {"id": "not a gist!"}, "id", {"id": SEEDED_GIST}),
]


@pytest.fixture
def github(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    fake = FakeGitHub().start()
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", fake.url)
    monkeypatch.setenv("GITHUB_TOKEN", GOOD_TOKEN)
    fake_gh(tmp_path / "bin", "")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    yield fake
    fake.stop()


def seed(memory: Memory) -> None:
    memory.remember("decision", "use-zod", "Validate payloads with Zod", tags="validation")
    memory.remember("warning", "no-sudo-npm", "Never run npm with sudo")


async def play(client: Client, roots: list[Path]) -> list[tuple[str, Any, bool, Any]]:
    """(tool, invalid result, nothing changed?, valid result) for every SCRIPT row."""
    log = []
    gist = ""
    for name, bad, _field, good in SCRIPT:
        before = snapshot(*roots)
        invalid = await client.call_tool(name, bad)
        unchanged = snapshot(*roots) == before
        args = {k: v.replace("GIST", gist) if isinstance(v, str) else v for k, v in good.items()}
        valid = await client.call_tool(name, args)
        if name == "memory_export_gist" and not valid.is_error:
            gist = text_of(valid).split("gist ", 1)[1].split(":", 1)[0]
        log.append((name, invalid, unchanged, valid))
    return log


def check(log: list[tuple[str, Any, bool, Any]]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for (name, invalid, unchanged, valid), row in zip(log, SCRIPT, strict=True):
        assert invalid.is_error and f"'{row[2]}'" in text_of(invalid), (name, text_of(invalid))
        assert unchanged, f"{name}: an invalid call changed a file"
        assert not valid.is_error, (name, text_of(valid))
        for result in (invalid, valid):
            assert GOOD_TOKEN not in text_of(result) + str(result.structured_content)
        texts.setdefault(name, text_of(valid))
    return texts


def test_in_process(project: Path, github: FakeGitHub) -> None:
    seed(Memory(project))
    Memory(global_store=True).remember("pattern", "commit-style", "Conventional commits")
    home = Path(os.environ["TOON_MEMORY_HOME"])

    async def run() -> list[tuple[str, Any, bool, Any]]:
        async with Client(ToonMemoryServer(project)) as client:
            return await play(client, [project / ".toon-memory", home / ".toon-memory/memory"])

    texts = check(anyio.run(run))
    assert "exported to the global memory" in texts["memory_export_global"]
    assert "1 entry added" in texts["memory_import_global"]
    assert "created secret gist" in texts["memory_export_gist"]
    assert "0 entries added" in texts["memory_import_gist"]  # the same memory: nothing new
    assert {e.key for e in Memory(project).entries()} == {"commit-style", "use-zod", "no-sudo-npm"}


def test_stdio_end_to_end(tmp_path: Path, github: FakeGitHub,
                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    project, home = make_project(tmp_path)
    env = {k: v for k, v in os.environ.items() if k.startswith(("PATH", "PYTHON", "LANG", "LC_"))}
    env.update(server_env(project, home))
    env.update(TOON_MEMORY_GITHUB_API=github.url, GITHUB_TOKEN=GOOD_TOKEN)
    params = StdioServerParameters(command=SERVER_CMD[0], args=SERVER_CMD[1:], env=env)
    monkeypatch.setenv("TOON_MEMORY_HOME", str(home))  # seed the home the server uses
    seed(Memory(project))
    Memory(global_store=True).remember("pattern", "commit-style", "Conventional commits")

    async def run() -> tuple[set[str], list[tuple[str, Any, bool, Any]]]:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            return names, await play(
                client, [project / ".toon-memory", home / ".toon-memory/memory"]
            )

    names, log = anyio.run(run)
    assert {"memory_export_global", "memory_import_global", "memory_export_gist",
            "memory_import_gist"} <= names  # fmt: skip
    texts = check(log)
    assert "1 entry added" in texts["memory_import_global"]
    assert [s.method for s in github.seen] == ["POST", "GET", "GET"]
