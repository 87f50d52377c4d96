"""A real ``toon-memory mcp --http`` process and an MCP session spoken to as raw JSON-RPC.

As in ``rawstdio``: the SDK's client cannot send what these tests need (lone
surrogates, deep nesting, bytes that are not UTF-8), so bodies are posted as
given.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx2
from tests.adapters.server.helpers import SERVER_CMD, server_env

TOKEN = "raw-http-token-0123456789"
#: Seconds any one HTTP exchange may take.
HTTP_WAIT = 30.0
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "0"}}}  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class HttpServer:
    """``toon-memory mcp --http`` on a free loopback port (a context manager that kills it)."""

    def __init__(self, project: Path, home: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        full = {
            **os.environ,
            **server_env(project, home),
            **(env or {}),
            "TOON_MEMORY_TOKEN": TOKEN,
        }
        cmd = [*SERVER_CMD, "--http", "--host", "127.0.0.1", "--port", str(self.port)]
        self.proc = subprocess.Popen(cmd, env=full, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)  # fmt: skip
        for _ in range(400):  # bounded: 20 s
            assert self.proc.poll() is None, "the HTTP server exited at start"
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            time.sleep(0.05)
        raise AssertionError("the HTTP server never listened")

    def session(self) -> HttpSession:
        return HttpSession(self.port)

    def terminate(self, timeout: float) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def __enter__(self) -> HttpServer:
        return self

    def __exit__(self, *_: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class HttpSession:
    """An initialized MCP session over Streamable HTTP."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.headers = {"Accept": "application/json, text/event-stream",
                        "Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"}  # fmt: skip
        with httpx2.Client(timeout=HTTP_WAIT) as client:
            init = client.post(self.url, headers=self.headers, json=INIT)
            self.headers["mcp-session-id"] = init.headers["mcp-session-id"]
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, body: dict[str, Any] | bytes) -> str:
        """The response text (an SSE event or JSON) to one message."""
        with httpx2.Client(timeout=HTTP_WAIT) as client:
            if isinstance(body, bytes):
                return client.post(self.url, headers=self.headers, content=body).text
            return client.post(self.url, headers=self.headers, json=body).text

    def message(self, body: dict[str, Any] | bytes) -> dict[str, Any]:
        """The JSON-RPC message answering ``body`` (from an SSE ``data:`` line, or plain JSON)."""
        text = self.post(body)
        for line in text.splitlines():
            if line.startswith("data:"):
                found: dict[str, Any] = json.loads(line[5:])
                return found
        found = json.loads(text)
        return found

    def post_quietly(self, body: dict[str, Any]) -> None:
        """A call whose connection a stop cuts, which is all the caller expects."""
        with contextlib.suppress(httpx2.HTTPError):
            self.post(body)
