"""With a client no one here wrote: the MCP Inspector CLI (installed by .ci/install-inspector.sh)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.server.helpers import INSPECTOR, SERVER_CMD, make_project, server_env
from tests.adapters.server.test_contract import CONTRACT

pytestmark = pytest.mark.skipif(
    not INSPECTOR.exists(),
    reason=f"MCP Inspector CLI not installed at {INSPECTOR} (run: bash .ci/install-inspector.sh)",
)


def inspect(tmp_path: Path, *args: str) -> tuple[int, Any, str]:
    project, home = make_project(tmp_path)
    env = {**os.environ, "HOME": str(tmp_path), "MCP_CATALOG_PATH": str(tmp_path / "mcp.json")}
    server = [arg for k, v in server_env(project, home).items() for arg in ("-e", f"{k}={v}")]
    cmd = [str(INSPECTOR), "--cli", *server, *SERVER_CMD, *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=False)
    try:
        payload = json.loads(done.stdout)
    except json.JSONDecodeError:
        payload = None
    return done.returncode, payload, done.stderr


def test_tools_list_is_portable(tmp_path: Path) -> None:
    code, payload, err = inspect(tmp_path, "--method", "tools/list", "--strict")
    assert code == 0, err
    assert [t["name"] for t in payload["tools"]] == list(CONTRACT)


def test_tools_call_valid_then_invalid(tmp_path: Path) -> None:
    code, payload, err = inspect(
        tmp_path, "--method", "tools/call", "--tool-name", "memory_remember",
        "--tool-arg", "category=decision", "key=use-zod", "content=Use Zod for validation",
    )  # fmt: skip
    assert code == 0, err
    assert payload["isError"] is False
    assert "Saved: decision/use-zod" in payload["content"][0]["text"]
    code, payload, err = inspect(
        tmp_path, "--method", "tools/call", "--tool-name", "memory_remember",
        "--tool-arg", "category=opinion", "key=k", "content=c",
    )  # fmt: skip
    assert code != 0 and payload["isError"] is True
    assert "'category'" in payload["content"][0]["text"]


def test_resource_and_prompt(tmp_path: Path) -> None:
    code, payload, err = inspect(
        tmp_path, "--method", "resources/read", "--uri", "toon://memory/stats"
    )
    assert code == 0, err
    assert "active" in payload["contents"][0]["text"]
    code, payload, err = inspect(
        tmp_path, "--method", "prompts/get", "--prompt-name", "summarize_project_context",
        "--prompt-args", "intent=testing",
    )  # fmt: skip
    assert code == 0, err
    assert "Focus on: testing." in payload["messages"][0]["content"]["text"]
