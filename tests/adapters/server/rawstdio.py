"""A real ``toon-memory mcp`` process spoken to line by line (raw JSON-RPC over its pipes).

The SDK's client cannot send what these tests need (a lone surrogate, 5000
nested lists, bytes that are not UTF-8), so messages are written as text;
replies are read by a thread, so a missing answer is a timeout, not a hang;
stderr is drained by another (a full stderr pipe would block the server),
its tail kept in ``log``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

from tests.adapters.server.helpers import SERVER_CMD, server_env

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "0"}}}  # fmt: skip
#: Bytes of the server's stderr kept.
LOG_TAIL = 20_000
#: Seconds to wait for an answer that must come (generous: a missing one is the failure).
ANSWER_WAIT = 30.0


class RawServer:
    """One server process; ``call`` writes a request and returns its reply (by id)."""

    def __init__(self, project: Path, home: Path, env: dict[str, str] | None = None) -> None:
        full = {**os.environ, **server_env(project, home), **(env or {})}
        self.proc = subprocess.Popen(SERVER_CMD, env=full, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        self._replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._early: dict[Any, dict[str, Any]] = {}
        self._next_id = 100
        self.log = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        self.call_raw(json.dumps(INIT), 0)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._replies.put(json.loads(line))
        except (OSError, ValueError):  # closed under us by __exit__
            pass
        self._replies.put(None)

    def _drain(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(65536):
                self.log = (self.log + chunk)[-LOG_TAIL:]

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Write one message (an object, JSON text, or raw bytes) and a newline."""
        assert self.proc.stdin is not None
        if isinstance(message, dict):
            message = json.dumps(message)
        data = message if isinstance(message, bytes) else message.encode("utf-8")
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def reply(self, wanted: Any, timeout: float = ANSWER_WAIT) -> dict[str, Any]:
        """The reply with id ``wanted``; AssertionError when none comes in ``timeout`` s."""
        if wanted in self._early:
            return self._early.pop(wanted)
        while True:
            try:
                message = self._replies.get(timeout=timeout)
            except queue.Empty:
                tail = self.log.decode("utf-8", "replace")[-2000:]
                raise AssertionError(f"no answer to request {wanted!r}; stderr:\n{tail}") from None
            assert message is not None, f"server closed stdout before answering {wanted!r}"
            if message.get("id") == wanted:
                return message
            self._early[message.get("id")] = message

    def call_raw(self, text: str | bytes, wanted: Any) -> dict[str, Any]:
        self.send(text)
        return self.reply(wanted)

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.reply(self._next_id)

    def tool(self, name: str, arguments: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def ping(self) -> None:
        assert self.request("ping")["result"] == {}

    def close(self, timeout: float = 20) -> int:
        """Close stdin, wait for the exit; kill (and fail) if it does not come."""
        assert self.proc.stdin is not None
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        return self.wait(timeout)

    def terminate(self, timeout: float = 20) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.wait(timeout)

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the server did not exit within {timeout} s") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *_: object) -> None:
        """Kill the process if it still runs; close every pipe."""
        self.kill()
        self._reader.join(timeout=5)
        self._drainer.join(timeout=5)
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
