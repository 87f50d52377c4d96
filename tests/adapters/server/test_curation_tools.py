"""The curation tools through the real MCP client: in process, and one stdio end-to-end run.

Invalid arguments are tool errors naming the parameter; neither they nor dry
runs change data.toon or the journal (compared byte for byte). ``compress``
without a summary runs a fake ``claude`` put first on PATH (never a real
one: folders holding a real ``claude`` or ``llm`` are left out).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from tests.adapters.server.helpers import SERVER_CMD, make_project, server_env, text_of
from tests.memory.curation.curating_helpers import (
    echo_summary,
    fake_llm,
    path_without_llms,
    seed,
    store_bytes,
)

from toon_memory import Memory
from toon_memory.adapters.server.app import ToonMemoryServer

SUMMARY = "API on 8080 behind nginx."
# tool -> (invalid arguments, parameter the error must name, valid arguments that write nothing)
SCRIPT: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    ("memory_consolidate", {"mode": "fuzzy", "dry_run": False}, "mode", {"mode": "similar"}),
    ("memory_consolidate", {"mode": "low-quality", "dry_run": False, "min_quality": 1.5},
     "min_quality", {"mode": "low-quality", "minQuality": 0.2}),
    ("memory_consolidate", {"dry_run": "later"}, "dry_run", {"mode": "versions", "dry_run": True}),
    ("memory_reflect", {"limit": 0}, "limit", {"limit": 5}),
    ("memory_reflect", {"since": "7d"}, "since", {}),
    ("memory_promote", {"dry_run": "soon"}, "dry_run", {}),
    ("memory_compress", {"summary": "short"}, "key", {"key": "api-port"}),
    ("memory_compress", {"key": "api-port", "summary": "   "}, "summary", {"key": "redis-pool"}),
    ("memory_compress", {"key": "no-such-key", "summary": "x"}, "key", {"key": "deploy-main"}),
]  # fmt: skip
#: Rows for the shared stdio script of test_stdio_e2e.py (its seeded entries; write nothing bad).
E2E_ROWS: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    ("memory_consolidate", {"mode": "fuzzy"}, "mode", {"mode": "identical"}),
    ("memory_reflect", {"limit": 0}, "limit", {"limit": 5}),
    ("memory_promote", {"dry_run": "soon"}, "dry_run", {}),
    ("memory_compress", {"key": "zod-schemas", "summary": " "}, "summary",
     {"key": "zod-schemas", "summary": "Zod schemas: src/schemas, one per payload"}),
]  # fmt: skip


async def _play_script(client: Client, project: Path) -> list[tuple[str, Any, bool, Any, bool]]:
    """(tool, invalid result, unchanged?, valid result, unchanged?) for every SCRIPT row."""
    log = []
    for name, bad, _field, good in SCRIPT:
        before = store_bytes(project)
        invalid = await client.call_tool(name, bad)
        same_after_invalid = store_bytes(project) == before
        valid = await client.call_tool(name, good)
        log.append((name, invalid, same_after_invalid, valid, store_bytes(project) == before))
    return log


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "fake-bin"
    fake_llm(folder, "claude", echo_summary(SUMMARY))
    monkeypatch.setenv("PATH", path_without_llms(folder))
    return folder


def _check_script(log: list[tuple[str, Any, bool, Any, bool]]) -> None:
    for (name, invalid, same_invalid, valid, same_valid), row in zip(log, SCRIPT, strict=True):
        assert invalid.is_error, (name, text_of(invalid))
        assert f"'{row[2]}'" in text_of(invalid), (name, text_of(invalid))
        assert same_invalid, f"{name}: an invalid call changed data.toon or the journal"
        assert not valid.is_error, (name, text_of(valid))
        assert same_valid, f"{name}: a dry run or suggestion changed data.toon or the journal"


def test_in_process_valid_and_invalid_calls(project: Path, fake_bin: Path) -> None:
    seed(Memory(project))

    async def play() -> list[tuple[str, Any, bool, Any, bool]]:
        async with Client(ToonMemoryServer(project)) as client:
            return await _play_script(client, project)

    log = anyio.run(play)
    _check_script(log)
    texts = {name: text_of(valid) for name, _, _, valid, _ in log}
    assert "(dry run)" in texts["memory_consolidate"]
    assert "🪞 Reflection" in texts["memory_reflect"]
    suggested = next(text_of(v) for n, _, _, v, _ in log if n == "memory_compress")
    assert SUMMARY in suggested and "by claude (not applied yet" in suggested
    reflect = next(v for n, _, _, v, _ in log if n == "memory_reflect")
    assert isinstance(reflect.structured_content["attention"], list)


def test_apply_restore_promote_and_compress(project: Path, fake_bin: Path) -> None:
    memory = Memory(project)
    seed(memory)
    memory.remember("knowledge", "ttl-guess", "Session cache TTL is probably five minutes",
                    confidence=0.5)  # fmt: skip

    async def play() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(ToonMemoryServer(project)) as client:
            call = client.call_tool
            out["versions"] = await call(
                "memory_consolidate", {"mode": "versions", "dryRun": False}
            )
            out["restore"] = await call(
                "memory_forget", {"key": "react-setup", "action": "restore"}
            )
            out["promote"] = await call("memory_promote", {"dry_run": False})
            out["compress"] = await call("memory_compress", {"key": "api-port", "summary": SUMMARY})
        return out

    out = anyio.run(play)
    assert not any(r.is_error for r in out.values()), {k: text_of(v) for k, v in out.items()}
    assert "react-setup → react-upgrade" in text_of(out["versions"])
    fresh = Memory(project)
    assert fresh.get("react-setup").active
    assert fresh.get("ttl-guess").confidence == 0.75
    assert [v.content for v in fresh.history("api-port")] == [
        SUMMARY,
        "The API listens on port 8080 behind nginx",
    ]


def test_stdio_end_to_end(tmp_path: Path) -> None:
    project, home = make_project(tmp_path)
    folder = tmp_path / "fake-bin"
    fake_llm(folder, "claude", echo_summary(SUMMARY))
    env = {"PATH": path_without_llms(folder), **server_env(project, home)}
    params = StdioServerParameters(command=SERVER_CMD[0], args=SERVER_CMD[1:], env=env)
    seed(Memory(project))

    async def play() -> tuple[list[Any], list[tuple[str, Any, bool, Any, bool]], Any]:
        async with Client(params) as client:
            tools = (await client.list_tools()).tools
            log = await _play_script(client, project)
            applied = await client.call_tool("memory_consolidate", {"dry_run": False})
        return tools, log, applied

    tools, log, applied = anyio.run(play)
    names = {t.name for t in tools}
    assert {"memory_consolidate", "memory_reflect", "memory_promote", "memory_compress"} <= names
    _check_script(log)
    assert "consolidate identical: 1 entry was removed (soft)" in text_of(applied)
    assert len([e for e in Memory(project).entries() if e.key.startswith("deploy-")]) == 1


def test_the_rows_offered_to_the_shared_stdio_script_work(project: Path) -> None:
    """E2E_ROWS on test_stdio_e2e.py's seed: each invalid call fails cleanly, each valid one works."""
    memory = Memory(project)
    memory.remember(
        "pattern", "zod-schemas", "Shared Zod schemas live in src/schemas, one per payload"
    )
    memory.remember(
        "decision", "use-zod", "Use Zod for validation, shared schemas in [[zod-schemas]]"
    )

    async def play() -> list[tuple[Any, bool, Any]]:
        log = []
        async with Client(ToonMemoryServer(project)) as client:
            for name, bad, _field, good in E2E_ROWS:
                before = store_bytes(project)
                invalid = await client.call_tool(name, bad)
                log.append(
                    (invalid, store_bytes(project) == before, await client.call_tool(name, good))
                )
        return log

    for (invalid, unchanged, valid), row in zip(anyio.run(play), E2E_ROWS, strict=True):
        assert invalid.is_error and f"'{row[2]}'" in text_of(invalid) and unchanged, row[0]
        assert not valid.is_error, (row[0], text_of(valid))
    assert Memory(project).get("zod-schemas").content == "Zod schemas: src/schemas, one per payload"
