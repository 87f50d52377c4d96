"""The sessions tools through the real MCP client, and the server's own session heartbeat.

In-process (``Client(ToonMemoryServer(project))``) for the tools' valid and
invalid arguments; over real stdio for what only separate processes show:
a server's heartbeat seen from a second client, the soft conflict between
two agents' servers, and the session ended when a server exits.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import Implementation
from tests.adapters.server.helpers import server_env, snapshot, text_of

from toon_memory import Memory
from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.store.config import update_config

# tool -> (invalid arguments, parameter the error must name)
INVALID: list[tuple[str, dict[str, Any], str]] = [
    ("memory_sessions", {"conflicts_only": "maybe"}, "conflicts_only"),
    ("memory_sessions", {"window": 5}, "window"),
    ("memory_merge_sessions", {"promote": True}, "file"),
    ("memory_merge_sessions", {"file": "   ", "promote": True}, "file"),
    ("memory_merge_sessions", {"file": "src/a.py", "promote": "often"}, "promote"),
    ("memory_captured", {"action": "purge"}, "action"),
    ("memory_captured", {"action": "clear", "limit": 0}, "limit"),
    ("memory_captured", {"limit": "ten"}, "limit"),
    ("memory_hook", {"action": "begin", "session_id": "h-1"}, "action"),
    ("memory_hook", {"action": "stop"}, "session_id"),
    ("memory_hook", {"action": "post-tool", "session_id": "a b"}, "session_id"),
    ("memory_hook", {"action": "post-tool", "session_id": "h-1", "files": ["f"] * 101}, "files"),
]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return Path(os.environ["TOON_MEMORY_HOME"])


@pytest.fixture
def seeded(project: Path) -> Path:
    memory = Memory(project)
    memory.init()
    memory.sessions.beat("other-agent", agent="codex", pid=4101, files=["src/types.ts"],
                         notes=[("src/types.ts", "Types are generated from the OpenAPI schema")])  # fmt: skip
    update_config(memory.paths.config, {"capture": True})
    memory.sessions.tool_used("other-agent", agent=None, files=["src/types.ts"], tool="Edit",
                              summary="Edit src/types.ts")  # fmt: skip
    return project


def test_every_sessions_tool_in_process(seeded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOON_MEMORY_SESSION", "me-1")
    store = seeded / ".toon-memory"

    async def play() -> dict[str, Any]:
        log: dict[str, Any] = {}
        info = Implementation(name="claude-code", version="2.0")
        async with Client(ToonMemoryServer(seeded), client_info=info) as client:
            log["first"] = await client.call_tool("memory_sessions", {})  # starts the session
            for n, (name, bad, _) in enumerate(INVALID):
                before = snapshot(store)
                log["invalid", n] = await client.call_tool(name, bad)
                log["unchanged", n] = snapshot(store) == before
            remember = {"category": "knowledge", "key": "types-generated", "file": "src/types.ts:3",
                        "content": "Types are generated from the OpenAPI schema by make types"}  # fmt: skip
            log["remember"] = await client.call_tool("memory_remember", remember)
            log["sessions"] = await client.call_tool("memory_sessions", {"conflictsOnly": False})
            log["conflicts"] = await client.call_tool("memory_sessions", {"conflicts_only": True})
            log["merge"] = await client.call_tool("memory_merge_sessions", {"file": "src/types.ts"})
            log["promote"] = await client.call_tool(
                "memory_merge_sessions", {"file": "src/types.ts", "promote": True}
            )
            log["listed"] = await client.call_tool("memory_captured", {"limit": 5})
            log["cleared"] = await client.call_tool("memory_captured", {"action": "clear"})
            log["empty"] = await client.call_tool("memory_captured", {})
        return log

    log = anyio.run(play)
    for n, (_, _, field) in enumerate(INVALID):
        assert log["invalid", n].is_error and f"'{field}'" in text_of(log["invalid", n]), n
        assert log["unchanged", n], f"invalid call {n} changed a file"
    me = json.loads((store / "memory/sessions/me-1.json").read_text())
    assert (me["agent"], me["files"]) == ("claude-code", ["src/types.ts"])
    assert me["notes"][0]["text"].startswith("Types are generated")
    listed = text_of(log["sessions"])
    assert "🧭 Active sessions (2)" in listed and "• claude-code (you)" in listed
    assert "• codex" in listed and "id: other-agent" in listed
    assert "⚠️ src/types.ts" in text_of(log["conflicts"]) and "Active" not in text_of(
        log["conflicts"]
    )
    merged = text_of(log["merge"])
    assert merged.startswith("🔀 src/types.ts: 3 observations from 2 sessions → 2 merged")
    promoted = text_of(log["promote"])  # the remembered observation is not promoted again
    assert "✅ Promoted 1" in promoted and "not promoted again): types-generated" in promoted
    assert "📋 Captured activity" in text_of(log["listed"]) and "Edit src/types.ts" in text_of(
        log["listed"]
    )
    assert text_of(log["cleared"]) == "🧹 Cleared 1 captured event."
    assert text_of(log["empty"]).startswith("No captured activity. Capture is on")


def test_memory_hook_beats_records_and_ends_the_session_it_names(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a hook sends a server: session-start's context once, post-tool's files touched
    (a reading tool's not), the summary redacted, stop ending it."""
    monkeypatch.setenv("TOON_MEMORY_SESSION", "server-own")
    folder = seeded / ".toon-memory/memory/sessions"
    start = {"action": "session-start", "session_id": "h-1", "agent": "Claude",
             "event": "SessionStart"}  # fmt: skip
    edit = {"action": "post-tool", "session_id": "h-1", "tool": "Edit", "files": "src/a.py;b.py",
            "summary": "Edit src/a.py: token=abcdef123456"}  # fmt: skip
    read = {"action": "post-tool", "session_id": "h-1", "tool": "Read", "files": ["c.py"]}

    async def play() -> list[str]:
        async with Client(ToonMemoryServer(seeded)) as client:
            calls = [start, {**start, "event": "PreToolUse"}, edit, read]
            texts = [text_of(await client.call_tool("memory_hook", args)) for args in calls]
            texts.append(text_of(await client.call_tool("memory_sessions", {})))
            texts.append(text_of(await client.call_tool("memory_hook", {**read, "action": "stop"})))
            return texts

    told, again, recorded, _, listed, stopped = anyio.run(play)
    assert "this session claude (h-1)" in told and "codex (other-agent)" in told, told
    assert again == "Session h-1: session-start beaten."
    assert (recorded, stopped) == (
        "Session h-1: post-tool recorded.",
        "Session h-1: stop ended (if known).",
    )
    assert "id: h-1" in listed and "src/a.py" in listed and "c.py" not in listed
    hook = json.loads((folder / "h-1.json").read_text())
    assert hook["files"] == [] and hook["ended"] and hook["pid"] == 0
    captured = (seeded / ".toon-memory/memory").glob("captured*")
    log = "".join(p.read_text() for p in captured)
    assert "abcdef123456" not in log and "token=<redacted>" in log, log


def _params(project: Path, home: Path, wrap: bool = False, **env: str) -> StdioServerParameters:
    """The server over stdio; ``wrap`` puts an "agent" process between the client and it."""
    base = {k: v for k, v in os.environ.items() if k.startswith(("PATH", "PYTHON", "LANG", "LC_"))}
    base.update(server_env(project, home), **env)
    serve = [sys.executable, "-m", "toon_memory", "mcp"]
    if not wrap:
        return StdioServerParameters(command=serve[0], args=serve[1:], env=base)
    code = f"import subprocess, sys; sys.exit(subprocess.run({serve!r}).returncode)"
    return StdioServerParameters(command=sys.executable, args=["-c", code], env=base)


async def _until(client: Client, check: Any, seconds: float = 30) -> Any:
    """Call memory_sessions until ``check(data)`` holds (or time runs out): heartbeats are async."""
    deadline = time.monotonic() + seconds
    while True:
        text = text_of(await client.call_tool("memory_sessions", {}))
        if check(text) or time.monotonic() > deadline:
            return text
        await anyio.sleep(0.2)


def test_a_servers_heartbeat_is_seen_from_a_second_client(project: Path, home: Path) -> None:
    Memory(project).init()

    async def play() -> tuple[str, str, dict[str, Any]]:
        first = _params(project, home, TOON_MEMORY_SESSION="server-a", TOON_MEMORY_AGENT="opencode")
        async with Client(first) as a:
            await a.call_tool("memory_stats", {})  # the first use of the memory starts it
            async with Client(_params(project, home)) as b:
                seen = await _until(b, lambda text: "id: server-a" in text)
        async with Client(_params(project, home)) as c:
            after = await _until(c, lambda text: "id: server-a" not in text)
        recorded = json.loads((project / ".toon-memory/memory/sessions/server-a.json").read_text())
        return seen, after, recorded

    seen, after, recorded = anyio.run(play)
    assert "• opencode" in seen and "id: server-a" in seen
    assert "id: server-a" not in after  # ended when its server exited
    assert recorded["ended"] is True and recorded["agent"] == "opencode"


def test_two_agents_servers_touching_one_file_conflict(project: Path, home: Path) -> None:
    remember = {
        "category": "decision",
        "content": "Keep one schema per payload",
        "file": "src/schemas.ts",
    }

    async def play() -> tuple[str, str]:
        one = _params(project, home, wrap=True, TOON_MEMORY_SESSION="agent-one")
        two = _params(project, home, wrap=True, TOON_MEMORY_SESSION="agent-two")
        async with Client(one) as a, Client(two) as b:
            await a.call_tool("memory_remember", {**remember, "key": "one-schema"})
            await b.call_tool("memory_remember", {**remember, "key": "schema-per-payload"})
            conflicts = text_of(await b.call_tool("memory_sessions", {"conflicts_only": True}))
        async with Client(_params(project, home)) as c:
            merged = text_of(await c.call_tool("memory_merge_sessions", {"file": "src/schemas.ts"}))
        return conflicts, merged

    conflicts, merged = anyio.run(play)
    assert conflicts.startswith("🔥 Soft conflicts (1):")
    assert (
        "src/schemas.ts" in conflicts and "(agent-one)" in conflicts and "(agent-two)" in conflicts
    )
    assert "2 observations from 2 sessions → 1 merged" in merged


def test_no_memory_folder_is_created_by_the_server_heartbeat(project: Path) -> None:
    async def play() -> list[Any]:
        async with Client(ToonMemoryServer(project)) as client:
            return [await client.call_tool("memory_captured", {}),
                    await client.call_tool("memory_merge_sessions", {"file": "a.py", "promote": True}),
                    await client.call_tool("memory_sessions", {})]  # fmt: skip

    captured, merged, listed = anyio.run(play)
    assert text_of(captured).startswith("No captured activity. Capture is off")
    assert text_of(merged) == "No observations about a.py from any session."
    assert text_of(listed) == "No active sessions (window 10 min)."
    assert not (project / ".toon-memory").exists()
