"""A stand-in model on 127.0.0.1 for the real-agent tests: OpenAI chat completions.

It calls the offered tool whose name ends with ``memory_remember`` (with
``ARGS``), first asking ``tool_search`` for it when the agent defers MCP tools
behind that tool; once it has called it, it answers ``done``. Streams (SSE) when asked to. Every request body is kept.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ARGS = {"category": "decision", "key": "standin-model-call",
        "content": "Written by a real agent through its MCP client"}  # fmt: skip


def _called(messages: list[Any]) -> list[str]:
    """Names of the tools the assistant already called in this conversation."""
    return [call.get("function", {}).get("name", "")
            for m in messages if isinstance(m, dict) and m.get("role") == "assistant"
            for call in m.get("tool_calls") or []]  # fmt: skip


def _call(name: str, args: dict[str, Any], number: int) -> dict[str, Any]:
    call = {"id": f"call_{number}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}  # fmt: skip
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    """Call memory_remember once (after ``tool_search`` when the agent defers MCP tools)."""
    called = _called(body.get("messages") or [])
    tools = {t.get("function", {}).get("name", ""): t for t in body.get("tools") or []}
    if any(name.endswith("memory_remember") for name in called):
        return {"role": "assistant", "content": "done"}
    remember = next((n for n in tools if n.endswith("memory_remember")), None)
    if remember is not None:
        return _call(remember, ARGS, len(called) + 1)
    if "tool_search" in tools and "tool_search" not in called:
        schema = tools["tool_search"].get("function", {}).get("parameters", {})
        field = next(iter(schema.get("required") or schema.get("properties") or ["query"]))
        return _call("tool_search", {field: "memory_remember"}, len(called) + 1)
    return {"role": "assistant", "content": "no memory_remember tool offered"}


class _Handler(BaseHTTPRequestHandler):
    server: StandIn

    def log_message(self, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._json({"object": "list", "data": [{"id": "stand-in", "object": "model"}]})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        self.server.requests.append(body)
        message = _answer(body)
        reason = "tool_calls" if message.get("tool_calls") else "stop"
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if not body.get("stream"):
            choice = {"index": 0, "message": message, "finish_reason": reason}
            self._json({"id": "c1", "object": "chat.completion", "created": 0, "model": "stand-in",
                        "choices": [choice], "usage": usage})  # fmt: skip
            return
        delta = dict(message)
        if delta.get("tool_calls"):
            delta["tool_calls"] = [{"index": 0, **delta["tool_calls"][0]}]
        chunks = [{"index": 0, "delta": delta, "finish_reason": None},
                  {"index": 0, "delta": {}, "finish_reason": reason}]  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for choice in chunks:
            event = {"id": "c1", "object": "chat.completion.chunk", "created": 0,
                     "model": "stand-in", "choices": [choice]}  # fmt: skip
            if choice["finish_reason"]:
                event["usage"] = usage
            self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def _json(self, data: dict[str, Any]) -> None:
        raw = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


class StandIn(ThreadingHTTPServer):
    """``with StandIn() as model: model.url``: serves in a thread until the block ends."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
