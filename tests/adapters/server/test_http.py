"""HTTP mode against a real server on 127.0.0.1: token (401), Origin (403), success, refusal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from tests.adapters.server.helpers import (
    SERVER_CMD,
    free_port,
    make_project,
    server_env,
    text_of,
    wait_listening,
)

TOKEN = "test-token-0123456789"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}}}  # fmt: skip
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _spawn(
    tmp: Path, port: int, token: str | None, host: str = "127.0.0.1"
) -> subprocess.Popen[str]:
    project, home = make_project(tmp)
    env = {**os.environ, **server_env(project, home)}
    env.pop("TOON_MEMORY_TOKEN", None)
    if token:
        env["TOON_MEMORY_TOKEN"] = token
    cmd = [*SERVER_CMD, "--http", "--host", host, "--port", str(port)]
    return subprocess.Popen(cmd, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=15)
    return out, err


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    port = free_port()
    proc = _spawn(tmp_path, port, TOKEN)
    try:
        wait_listening(port, proc)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=15)


def _post(port: int, headers: dict[str, str]) -> httpx2.Response:
    return httpx2.post(f"http://127.0.0.1:{port}/mcp", json=INIT, headers={**ACCEPT, **headers})


def test_token_and_origin_are_enforced(server: tuple[int, subprocess.Popen[str]]) -> None:
    port, proc = server
    assert _post(port, {}).status_code == 401
    assert _post(port, {"Authorization": "Bearer wrong"}).status_code == 401
    assert _post(port, {"Authorization": TOKEN}).status_code == 401
    evil = {"Origin": "http://evil.example"}
    assert _post(port, {**evil, "Authorization": f"Bearer {TOKEN}"}).status_code == 403
    assert _post(port, evil).status_code == 403
    local = {"Origin": f"http://localhost:{port}", "Authorization": f"Bearer {TOKEN}"}
    assert _post(port, local).status_code == 200
    out, _ = _stop(proc)
    assert proc.returncode == 0 and out == ""


def test_sdk_client_with_the_token(
    server: tuple[int, subprocess.Popen[str]], tmp_path: Path
) -> None:
    port, proc = server

    async def play() -> list[Any]:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx2.AsyncClient(headers=headers) as http:
            transport = streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http)
            async with Client(transport) as client:
                tools = await client.list_tools()
                saved = await client.call_tool(
                    "memory_remember",
                    {"category": "decision", "key": "team-db", "content": "Postgres for the team"},
                )
                found = await client.call_tool("memory_recall", {"query": "postgres"})
                return [tools, saved, found]

    tools, saved, found = anyio.run(play)
    assert any(t.name == "memory_recall" for t in tools.tools)
    assert not saved.is_error, text_of(saved)
    assert found.structured_content["results"][0]["key"] == "team-db"
    _stop(proc)
    assert proc.returncode == 0
    folder = tmp_path / "mcp-project" / ".toon-memory" / "memory"
    assert not (folder / "journal.jsonl").exists(), "not compacted on exit"
    assert "team-db" in (folder / "data.toon").read_text(encoding="utf-8")


def test_loopback_without_token_generates_one(tmp_path: Path) -> None:
    port = free_port()
    proc = _spawn(tmp_path, port, None)
    try:
        wait_listening(port, proc)
    finally:
        _, err = _stop(proc)
    token = next(line.rsplit(" ", 1)[1] for line in err.splitlines() if "bearer token" in line)
    assert len(token) >= 32


def test_refuses_a_public_host_without_token(tmp_path: Path) -> None:
    proc = _spawn(tmp_path, free_port(), None, host="0.0.0.0")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "TOON_MEMORY_TOKEN" in err and out == ""


def test_loopback_generated_token_is_accepted(tmp_path: Path) -> None:
    port = free_port()
    proc = _spawn(tmp_path, port, None)
    try:
        wait_listening(port, proc)
        assert proc.stderr is not None
        line = ""
        while "bearer token" not in line:
            line = proc.stderr.readline()
        token = line.strip().rsplit(" ", 1)[1]
        assert _post(port, {"Authorization": f"Bearer {token}"}).status_code == 200
        assert _post(port, {}).status_code == 401
    finally:
        _stop(proc)
    assert sys.platform != "win32" or proc.returncode is not None
