"""Start a written server command the way an agent would and ask it for its tools.

Invariant: speaks plain newline-delimited JSON-RPC over the child's stdio
(``initialize``, ``notifications/initialized``, ``tools/list``) without the
``mcp`` package (only ``server/`` imports it); the child is always ended, and
the result says why a probe failed instead of raising.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROTOCOL = "2025-06-18"


@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    tools: int = 0
    problem: str = ""


def _read_replies(
    proc: subprocess.Popen[bytes], out: list[dict[str, Any]], done: threading.Event
) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and "id" in message:
            out.append(message)
            if message.get("id") == 2:
                break
    done.set()


def _send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def probe(argv: list[str], cwd: Path, env: Mapping[str, str] | None = None,
          timeout: float = 20.0) -> ProbeResult:  # fmt: skip
    """Run ``argv`` in ``cwd`` with ``env`` added to ours; ok when ``tools/list`` answers."""
    full_env = {**os.environ, **(env or {})}
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=full_env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    except OSError as exc:
        return ProbeResult(False, problem=f"cannot start {argv[0]}: {exc.strerror or exc}")
    replies: list[dict[str, Any]] = []
    done = threading.Event()
    reader = threading.Thread(target=_read_replies, args=(proc, replies, done), daemon=True)
    reader.start()
    try:
        client = {"name": "toon-memory-status", "version": "1"}
        params = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": client}
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        done.wait(timeout)
    except OSError as exc:
        return ProbeResult(False, problem=f"server closed its input: {exc}")
    finally:
        _stop(proc)
    listed = next((r for r in replies if r.get("id") == 2), None)
    if listed is None:
        return ProbeResult(False, problem="no answer to tools/list")
    tools = (listed.get("result") or {}).get("tools")
    if not isinstance(tools, list):
        return ProbeResult(False, problem=f"tools/list failed: {listed.get('error')}")
    return ProbeResult(True, len(tools))


def _stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
