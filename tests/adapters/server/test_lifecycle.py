"""Process life: stdout is protocol only; closing stdin or SIGTERM compacts and exits."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.server.helpers import SERVER_CMD, make_project, server_env

MESSAGES = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
     "params": {"name": "memory_remember",
                "arguments": {"category": "bug", "key": "pool-leak", "content": "Pool leaks"}}},
]  # fmt: skip


def _start(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    project, home = make_project(tmp_path)
    env = {**os.environ, **server_env(project, home)}
    proc = subprocess.Popen(SERVER_CMD, env=env, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    return proc, project / ".toon-memory" / "memory"


def _converse(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    assert proc.stdin is not None and proc.stdout is not None
    for message in MESSAGES:
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
    replies = []
    while len(replies) < 2:
        line = proc.stdout.readline()
        assert line, "server closed stdout early"
        replies.append(json.loads(line))
    return replies


def _finish(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None and proc.stderr is not None
    proc.wait(timeout=20)
    if proc.stdin is not None and not proc.stdin.closed:
        proc.stdin.close()
    proc.stderr.close()
    with proc.stdout:
        return proc.stdout.read()


@pytest.mark.parametrize("how", ["close-stdin", "sigterm"])
def test_exit_compacts_and_stdout_is_protocol(tmp_path: Path, how: str) -> None:
    proc, folder = _start(tmp_path)
    try:
        replies = _converse(proc)
        assert replies[1]["id"] == 2 and not replies[1]["result"].get("isError")
        started = time.monotonic()
        if how == "sigterm":
            proc.send_signal(signal.SIGTERM)
        else:
            assert proc.stdin is not None
            proc.stdin.close()
        rest = _finish(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert time.monotonic() - started < 10
    for line in rest.splitlines():
        assert json.loads(line)["jsonrpc"] == "2.0"
    journal = folder / "journal.jsonl"
    assert not journal.exists() or journal.stat().st_size == 0
    assert "pool-leak" in (folder / "data.toon").read_text(encoding="utf-8")


def test_no_work_before_the_first_call(tmp_path: Path) -> None:
    """Listing tools must not open (or create) the memory."""
    proc, folder = _start(tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for message in (*MESSAGES[:2], {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}):
            proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        proc.stdout.readline()
        assert len(json.loads(proc.stdout.readline())["result"]["tools"]) >= 16
        assert not folder.exists()
        proc.stdin.close()
        _finish(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and not folder.exists()


def test_a_call_piped_in_before_stdin_closes_is_answered_and_kept(tmp_path: Path) -> None:
    """``printf '<handshake>\\n<call>\\n' | toon-memory mcp``: the call runs, answers, persists."""
    project, home = make_project(tmp_path)
    env = {**os.environ, **server_env(project, home)}
    piped = "".join(json.dumps(message) + "\n" for message in MESSAGES)
    done = subprocess.run(SERVER_CMD, env=env, input=piped, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0
    replies = {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines())}
    assert "result" in replies[2] and not replies[2]["result"]["isError"], replies[2]
    data = project / ".toon-memory" / "memory" / "data.toon"
    assert "pool-leak" in data.read_text(encoding="utf-8")
