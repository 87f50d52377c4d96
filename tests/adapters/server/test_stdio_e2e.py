"""End to end over real stdio: ``python -m toon_memory mcp`` driven by the SDK's own client.

One server process serves the whole tool script (module fixture); each tool
is called with invalid arguments (tool error naming the parameter, no file
changed) and then with valid ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

# tool -> (invalid arguments, parameter the error must name, valid arguments)
from tests.adapters.server.helpers import make_project, snapshot, stdio_params, text_of
from tests.adapters.server.test_curation_tools import E2E_ROWS as CURATION_ROWS
from tests.memory.sharing.fakegithub import FakeGitHub
from tests.memory.sharing.test_sharing_tools import E2E_ROWS as SHARING_ROWS

from toon_memory.adapters.server.tools.context import CONTEXT
from toon_memory.adapters.server.tools.security import SECURITY

SCRIPT: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    ("memory_remember", {"category": "opinion", "key": "x", "content": "y"}, "category",
     {"category": "decision", "key": "use-zod", "file": "src/types.ts", "tags": "validation;types",
      "content": "Use Zod for validation, shared schemas in [[zod-schemas]]"}),
    ("memory_recall", {"query": "zod", "mode": "fuzzy"}, "mode",
     {"query": "zod", "explain": True, "budgetTokens": 500, "pathScope": "src/"}),
    ("memory_smart_recall", {"intent": "  "}, "intent", {"intent": "validation schemas"}),
    ("memory_search", {"query": "zod", "from_date": "yesterday"}, "from_date",
     {"query": "zod", "category": "decision", "tags": "validation;types"}),
    ("memory_suggest", {"context": "zod", "limit": 0}, "limit", {"context": "zod validation"}),
    ("memory_forget", {"key": "redis-timeout", "action": "supersede"}, "new_key",
     {"key": "redis-timeout"}),
    ("memory_stats", {"verbose": True}, "verbose", {}),
    ("memory_summary", {"file": "src/a.ts", "summary": "   "}, "summary",
     {"file": "src/types.ts", "summary": "Zod schemas for every API payload"}),
    ("memory_archive", {"force": True}, "force", {}),
    ("memory_diff", {"since": "last tuesday"}, "since", {"since": "7d", "type": "created"}),
    ("memory_pin", {"key": "use-zod", "priority": 9}, "priority", {"key": "use-zod", "priority": 2}),
    ("memory_unpin", {"key": "no-such-key"}, "key", {"key": "use-zod"}),
    ("memory_tag", {"keys": "use-zod", "action": "toggle", "tags": "x"}, "action",
     {"keys": ["use-zod", "zod-schemas"], "action": "add", "tags": "reviewed"}),
    ("memory_graph_path", {"from_key": "use-zod"}, "to_key", {"from": "use-zod", "to": "zod-schemas"}),
    ("memory_backup", {"path": "/tmp/elsewhere"}, "path", {}),
    ("memory_checkpoint", {"note": ["not", "text"]}, "note", {"note": "before refactor"}),
    ("memory_state", {"action": "add", "field": "key_context"}, "value",
     {"action": "add", "field": "key_context", "value": ["user prefers pnpm"]}),
    ("memory_visualize", {"query": True}, "query", {"query": "zod"}),
]  # fmt: skip
#: The sessions tools' rows; they run after the core rows, on the same server.
SESSIONS_ROWS: list[tuple[str, dict[str, object], str, dict[str, object]]] = [
    ("memory_sessions", {"conflicts_only": "maybe"}, "conflicts_only", {"conflictsOnly": False}),
    ("memory_merge_sessions", {"file": "  "}, "file", {"file": "src/types.ts"}),
    ("memory_captured", {"action": "purge"}, "action", {"action": "list", "limit": 5}),
    ("memory_hook", {"action": "post-tool", "session_id": "../x"}, "session_id",
     {"action": "post-tool", "session_id": "hook-1", "tool": "Edit", "files": ["src/types.ts"]}),
]  # fmt: skip
SCRIPT += CURATION_ROWS + SESSIONS_ROWS + SHARING_ROWS
TOOLS = [row[0] for row in SCRIPT]


async def _seed(client: Client) -> None:
    for key, category, content in (
        ("zod-schemas", "pattern", "Shared Zod schemas live in src/schemas, one per payload"),
        ("redis-timeout", "bug", "Redis connection timeout in production, pool size raised"),
    ):
        result = await client.call_tool(
            "memory_remember", {"category": category, "key": key, "content": content}
        )
        assert not result.is_error, text_of(result)


async def _play(project: Path, home: Path, extra: dict[str, str]) -> dict[str, Any]:
    log: dict[str, Any] = {}
    store = project / ".toon-memory"
    async with Client(stdio_params(project, home, extra)) as client:
        log["tools"] = (await client.list_tools()).tools
        await _seed(client)
        for name, bad, _field, good in SCRIPT:
            before = snapshot(store, home)
            log[name, "invalid"] = await client.call_tool(name, bad)
            log[name, "unchanged"] = snapshot(store, home) == before
            log[name, "valid"] = await client.call_tool(name, good)
        log["summary_get"] = await client.call_tool("memory_summary", {"file": "src/types.ts"})
        log["resources"] = (await client.list_resources()).resources
        for uri in ("entries", "current", "stats", "summaries"):
            log[uri] = (await client.read_resource(f"toon://memory/{uri}")).contents
        log["viewer"] = (await client.read_resource("ui://toon-memory/viewer")).contents
        log["prompts"] = (await client.list_prompts()).prompts
        log["prompt"] = await client.get_prompt("summarize_project_context", {"intent": "zod"})
        log["prompt_bare"] = await client.get_prompt("summarize_project_context")
    return log


@pytest.fixture(scope="module")
def transcript(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    project, home = make_project(tmp_path_factory.mktemp("e2e"))
    github = FakeGitHub().start()  # the Gist tools talk to a local GitHub API
    github.seed_public_gist()

    async def play() -> dict[str, Any]:
        return await _play(project, home, github.environment())

    try:
        return anyio.run(play)
    finally:
        github.stop()


#: Tools whose stdio end-to-end run lives with their area (tests/memory/briefs/test_tools.py,
#: memory_primer's too; tests/memory/security/test_security_tools.py: its server needs
#: TOON_MEMORY_KEY).
ELSEWHERE = {spec.name for spec in (*CONTEXT, *SECURITY)} | {"memory_primer"}


def test_every_registered_tool_is_scripted(transcript: dict[str, Any]) -> None:
    """Each tool runs over stdio here or in its area's e2e test (ELSEWHERE)."""
    assert sorted(t.name for t in transcript["tools"]) == sorted(set(TOOLS) | ELSEWHERE)


@pytest.mark.parametrize("name", TOOLS)
def test_invalid_call_is_a_tool_error_naming_the_parameter(
    transcript: dict[str, Any], name: str
) -> None:
    field = next(row[2] for row in SCRIPT if row[0] == name)
    result = transcript[name, "invalid"]
    assert result.is_error
    assert f"'{field}'" in text_of(result)
    assert transcript[name, "unchanged"], "an invalid call changed a file"


@pytest.mark.parametrize("name", TOOLS)
def test_valid_call_succeeds(transcript: dict[str, Any], name: str) -> None:
    result = transcript[name, "valid"]
    assert not result.is_error, text_of(result)
    assert text_of(result).strip()
    spec = next(t for t in transcript["tools"] if t.name == name)
    if spec.output_schema is not None:
        assert isinstance(result.structured_content, dict)


def test_outputs_carry_the_data(transcript: dict[str, Any]) -> None:
    recall = transcript["memory_recall", "valid"]
    assert recall.structured_content["results"][0]["key"] == "use-zod"
    assert "↳" in text_of(recall)
    search = transcript["memory_search", "valid"].structured_content
    assert [r["key"] for r in search["results"]] == ["use-zod"]
    assert transcript["memory_graph_path", "valid"].structured_content == {
        "path": ["use-zod", "zod-schemas"]
    }
    assert "obsolete" not in text_of(transcript["memory_forget", "invalid"])
    assert text_of(transcript["memory_forget", "valid"]).startswith("🗑️ soft: redis-timeout")
    assert "Zod schemas for every API payload" in text_of(transcript["summary_get"])
    assert "reviewed" in text_of(transcript["memory_tag", "valid"])
    assert "checkpoint-" in text_of(transcript["memory_checkpoint", "valid"])
    state = transcript["memory_state", "valid"].structured_content
    assert state["key_context"] == ["user prefers pnpm"] and state["last_updated"]


def test_resources(transcript: dict[str, Any]) -> None:
    uris = sorted(str(r.uri) for r in transcript["resources"])
    assert uris == [
        *(f"toon://memory/{n}" for n in ("current", "entries", "stats", "summaries")),
        "ui://toon-memory/viewer",
    ]
    (viewer,) = transcript["viewer"]
    assert viewer.mime_type == "text/html;profile=mcp-app" and '"key":"use-zod"' in viewer.text
    assert "use-zod" in transcript["entries"][0].text
    assert "use-zod" in transcript["current"][0].text
    assert "active" in transcript["stats"][0].text
    primer = transcript["summaries"][0].text
    assert "Top entries" in primer and "use-zod" in primer


def test_prompt(transcript: dict[str, Any]) -> None:
    (prompt,) = transcript["prompts"]
    assert prompt.name == "summarize_project_context"
    assert [(a.name, a.required) for a in prompt.arguments or []] == [("intent", False)]
    focused = transcript["prompt"].messages[0].content.text
    assert "Focus on: zod." in focused and "use-zod" in focused
    assert "Focus on" not in transcript["prompt_bare"].messages[0].content.text


def test_round_trip_remember_recall_forget_stats(tmp_path: Path) -> None:
    project, home = make_project(tmp_path)

    async def play() -> list[Any]:
        async with Client(stdio_params(project, home)) as client:
            saved = await client.call_tool(
                "memory_remember",
                {"category": "bug", "key": "pool-leak", "content": "Redis pool leaks on reconnect"},
            )
            found = await client.call_tool("memory_recall", {"query": "redis pool"})
            gone = await client.call_tool("memory_forget", {"key": "pool-leak", "action": "hard"})
            again = await client.call_tool("memory_recall", {"query": "redis pool"})
            stats = await client.call_tool("memory_stats", {})
            return [saved, found, gone, again, stats]

    saved, found, gone, again, stats = anyio.run(play)
    assert "Saved: bug/pool-leak" in text_of(saved)
    assert found.structured_content["results"][0]["key"] == "pool-leak"
    assert not gone.is_error
    assert again.structured_content["results"] == []
    assert stats.structured_content["active"] == 0
