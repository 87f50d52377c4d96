"""The context tools and memory_primer through the real MCP client (in-process and over
stdio) and through the CLI: valid calls answer within budget, invalid ones name the parameter
and change nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from tests.adapters.server.helpers import snapshot, stdio_params, text_of
from tests.conftest import TODAY, run_cli
from tests.memory.briefs.helpers import ago, spawn_sessions

from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.memory.api import Memory
from toon_memory.search.budget import estimate_tokens

# tool -> (valid arguments, what the text must hold)
VALID: dict[str, tuple[dict[str, Any], str]] = {
    "memory_primer": ({"limit": 3, "budgetTokens": 400}, "## Top entries"),
    "context_brief": ({}, "## Health"),
    "context_generate": ({"budget_tokens": 2000}, "- Name: orders"),
    "context_diff": ({"since": "7d"}, "## Commits (4)"),
    "context_focus": ({"query": "load_order in src/orders/service.py"},
                      "- tests/test_service.py (tests src/orders/service.py)"),
    "context_health": ({"budget_tokens": 0}, "# Memory health (score: "),
    "context_export": ({"compact": True, "budget_tokens": 60}, "left out to fit the 60-token"),
}  # fmt: skip
# tool -> (invalid arguments, the parameter the error must name)
INVALID: list[tuple[str, dict[str, Any], str]] = [
    ("memory_primer", {"limit": 0}, "limit"),
    ("memory_primer", {"budget_tokens": 20}, "budget_tokens"),
    ("context_brief", {"budget_tokens": 10}, "budget_tokens"),
    ("context_generate", {"budget_tokens": -1}, "budget_tokens"),
    ("context_generate", {"budget_tokens": "plenty"}, "budget_tokens"),
    ("context_diff", {"since": "last tuesday"}, "since"),
    ("context_focus", {}, "query"),
    ("context_focus", {"query": "   "}, "query"),
    ("context_health", {"verbose": True}, "verbose"),
    ("context_export", {"compact": "maybe"}, "compact"),
]


def _dead_session(memory: Memory) -> None:
    """A crashed session (its process is gone, its heartbeat old): any valid read prunes it."""
    spawn_sessions(memory.paths.folder, {"id": "crashed", "agent": "aider", "seen": ago(hours=3)},
                   {"id": "live", "agent": "codex", "files": ["src/orders/api.py"],
                    "pid": os.getppid()})  # fmt: skip


def _call_all(project: Path, home: Path, client_for: Any) -> dict[Any, Any]:
    async def play() -> dict[Any, Any]:
        log: dict[Any, Any] = {}
        async with client_for() as client:
            for n, (name, bad, _) in enumerate(INVALID):
                before = snapshot(project / ".toon-memory", home)
                log[n] = await client.call_tool(name, bad)
                log[n, "unchanged"] = snapshot(project / ".toon-memory", home) == before
            for name, (good, _) in VALID.items():
                log[name] = await client.call_tool(name, good)
        return log

    return anyio.run(play)


def _check(log: dict[Any, Any]) -> None:
    for n, (name, _, field) in enumerate(INVALID):
        assert log[n].is_error, name
        assert f"'{field}'" in text_of(log[n]), (name, text_of(log[n]))
        assert log[n, "unchanged"], f"{name}: an invalid call changed a file"
    for name, (good, expected) in VALID.items():
        result = log[name]
        assert not result.is_error, text_of(result)
        assert expected in text_of(result), (name, text_of(result))
        assert result.structured_content is None  # markdown answers, no output schema
        budget = good.get("budget_tokens", good.get("budgetTokens", 1500))
        assert budget == 0 or estimate_tokens(text_of(result)) <= budget


def test_every_tool_through_the_in_process_client(memory: Memory, repo: Path) -> None:
    _dead_session(memory)
    home = Path(os.environ["TOON_MEMORY_HOME"])
    log = _call_all(repo, home, lambda: Client(ToonMemoryServer(repo)))
    _check(log)
    sessions = {s.id for s in memory.store.sessions().read()}
    ours = {s for s in sessions if s.startswith("mcp-")}  # the server's own heartbeat
    assert len(ours) <= 1
    assert sessions - ours == {"live"}  # the valid calls pruned the crashed session
    brief = text_of(log["context_brief"])
    assert "codex" in brief and "- Score" in brief


def test_every_tool_over_stdio(memory: Memory, repo: Path) -> None:
    _dead_session(memory)
    home = Path(os.environ["TOON_MEMORY_HOME"])
    _check(_call_all(repo, home, lambda: Client(stdio_params(repo, home))))


# -- the CLI ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["context", "brief"], "# Context brief"),
        (["context", "generate", "--budget-tokens", "0"], "- Package manager: uv"),
        (["context", "diff", "--since", "7d"], "## Commits (4)"),
        (["context", "focus", "load_order", "src/orders/service.py"], "## Callers of load_order"),
        (["context", "health", "--budget-tokens", "60"], "# Memory health (score: "),
        (["context", "export", "--compact"], "- cache-ttl: Cached orders expire"),
        (["primer", "--budget-tokens", "60", "-n", "3"], "# Project memory"),
    ],
)
def test_cli_commands(memory: Memory, repo: Path, args: list[str], expected: str) -> None:
    done = run_cli(*args, project=repo, check=True, env={"TOON_MEMORY_TODAY": TODAY})
    assert expected in done.stdout
    if "--budget-tokens" in args:
        budget = int(args[args.index("--budget-tokens") + 1])
        assert budget == 0 or estimate_tokens(done.stdout.rstrip("\n")) <= budget
    data = json.loads(run_cli(*args, "--json", project=repo, check=True).stdout)
    assert set(data) >= {"left_out", "budget_tokens"}


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["context", "generate", "--budget-tokens", "10"], "budget_tokens"),
        (["context", "diff", "--since", "soonish"], "since"),
        (["context", "focus", " "], "query"),
        (["primer", "-n", "0"], "limit"),
    ],
)
def test_cli_refuses_bad_input_and_writes_nothing(
    memory: Memory, repo: Path, args: list[str], field: str
) -> None:
    _dead_session(memory)
    home = Path(os.environ["TOON_MEMORY_HOME"])
    before = snapshot(repo / ".toon-memory", home)
    done = run_cli(*args, project=repo)
    assert done.returncode == 2 and f"error: {field}:" in done.stderr
    assert snapshot(repo / ".toon-memory", home) == before
