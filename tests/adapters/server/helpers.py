"""Shared helpers for the MCP server tests: spawn parameters, snapshots, text of results."""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters
from tests.conftest import ROOT

INSPECTOR = ROOT / ".ci" / "tools" / "bin" / "mcp-inspector"
TODAY = "2026-07-15"
SERVER_CMD = [sys.executable, "-m", "toon_memory", "mcp"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(port: int, proc: subprocess.Popen[Any], timeout: float = 60) -> None:
    """Wait until ``proc`` accepts connections on ``port``; fail naming why it did not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited early: {proc.communicate()[1]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("server did not start listening")


def make_project(base: Path) -> tuple[Path, Path]:
    """A fresh (project root, home) pair under ``base``."""
    project, home = base / "mcp-project", base / "mcp-home"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    home.mkdir(exist_ok=True)
    return project, home


def server_env(project: Path, home: Path) -> dict[str, str]:
    return {
        "TOON_MEMORY_PROJECT": str(project),
        "TOON_MEMORY_HOME": str(home),
        "TOON_MEMORY_TODAY": TODAY,
    }


def stdio_params(
    project: Path, home: Path, extra: dict[str, str] | None = None
) -> StdioServerParameters:
    prefixes = ("PATH", "PYTHON", "LANG", "LC_", "TOON_MEMORY_DATABASE_URL")
    env = {k: v for k, v in os.environ.items() if k.startswith(prefixes)}
    env.update(server_env(project, home))
    env.update(extra or {})
    return StdioServerParameters(command=SERVER_CMD[0], args=SERVER_CMD[1:], env=env)


def snapshot(*roots: Path) -> dict[str, str]:
    """Every file under ``roots`` -> sha256 of its bytes, but the lock file and the
    session heartbeats (presence, written whenever the server opens the memory, not data)."""
    found: dict[str, str] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.name != ".lock" and "sessions" not in path.parts:
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def text_of(result: Any) -> str:
    """The text of a tool result's content blocks."""
    return "\n".join(block.text for block in result.content if block.type == "text")
