"""A stand-in model on 127.0.0.1 for the real-agent tests, in four wire protocols.

Invariant: whatever the protocol, the model does one thing: it calls the offered
tool whose name ends with ``memory_remember`` (with ``ARGS``), first asking the
agent's tool-search tool for it when the agent defers MCP tools behind one; once
it has called it, it answers ``done``. The request path picks the protocol:
``…/chat/completions`` OpenAI chat completions (Qwen, OpenCode, Kilo, Copilot CLI),
``…/messages`` Anthropic Messages (Claude Code), ``…/responses`` OpenAI Responses
(Codex), ``…:generateContent`` / ``…:streamGenerateContent`` Google GenAI (Gemini).
Each protocol is one small class: ``turn`` reads the offered tools and the calls
already made from a request body, ``reply`` writes the decision back (SSE when
the request streams). Every request is kept as (path, body).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ARGS = {"category": "decision", "key": "standin-model-call",
        "content": "Written by a real agent through its MCP client"}  # fmt: skip
USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
SEARCH_TOOLS = ("tool_search", "ToolSearch", "search_tools")


@dataclass(frozen=True)
class Turn:
    """What one request shows: offered tool -> its parameter schema; tools already called;
    the namespace a tool is offered in (the Responses API's ``namespace`` tools)."""

    tools: dict[str, dict[str, Any]]
    called: list[str]
    namespaces: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Call:
    name: str
    args: dict[str, Any]
    number: int
    namespace: str = ""


def decide(turn: Turn) -> Call | str:
    """Call memory_remember once (after tool search when the agent defers MCP tools)."""
    if any(name.endswith("memory_remember") for name in turn.called):
        return "done"
    number = len(turn.called) + 1
    remember = next((n for n in turn.tools if n.endswith("memory_remember")), None)
    if remember is not None:
        return Call(remember, ARGS, number, turn.namespaces.get(remember, ""))
    search = next((n for n in SEARCH_TOOLS if n in turn.tools and n not in turn.called), None)
    if search is not None:
        schema = turn.tools[search]
        fields = schema.get("required") or list(schema.get("properties") or {})
        name = "query" if "query" in fields or not fields else fields[0]
        return Call(search, {name: "memory_remember"}, number)
    return "no memory_remember tool offered"


def _sse(events: list[tuple[str, dict[str, Any]]]) -> Iterator[bytes]:
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        yield f"{head}data: {json.dumps(data)}\n\n".encode()


class Chat:
    """OpenAI chat completions: ``tools[].function``, assistant ``tool_calls``."""

    @staticmethod
    def turn(body: dict[str, Any]) -> Turn:
        tools = {t.get("function", {}).get("name", ""): t.get("function", {}).get("parameters") or {}
                 for t in body.get("tools") or []}  # fmt: skip
        called = [c.get("function", {}).get("name", "")
                  for m in body.get("messages") or [] if m.get("role") == "assistant"
                  for c in m.get("tool_calls") or []]  # fmt: skip
        return Turn(tools, called)

    @staticmethod
    def reply(answer: Call | str, stream: bool) -> Iterator[bytes] | dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": answer}
        reason = "stop"
        if isinstance(answer, Call):
            call = {"id": f"call_{answer.number}", "type": "function",
                    "function": {"name": answer.name, "arguments": json.dumps(answer.args)}}  # fmt: skip
            message, reason = (
                {"role": "assistant", "content": None, "tool_calls": [call]},
                "tool_calls",
            )
        head = {"id": "c1", "created": 0, "model": "stand-in"}
        if not stream:
            choice = {"index": 0, "message": message, "finish_reason": reason}
            return {**head, "object": "chat.completion", "choices": [choice], "usage": USAGE}
        if message.get("tool_calls"):
            message["tool_calls"] = [{"index": 0, **message["tool_calls"][0]}]
        chunk = {**head, "object": "chat.completion.chunk"}
        last = {"index": 0, "delta": {}, "finish_reason": reason}
        events = [("", {**chunk, "choices": [{"index": 0, "delta": message, "finish_reason": None}]}),
                  ("", {**chunk, "choices": [last], "usage": USAGE})]  # fmt: skip
        return iter([*_sse(events), b"data: [DONE]\n\n"])


class Messages:
    """Anthropic Messages: ``tools[].input_schema``, assistant ``tool_use`` blocks."""

    @staticmethod
    def turn(body: dict[str, Any]) -> Turn:
        tools = {t.get("name", ""): t.get("input_schema") or {} for t in body.get("tools") or []}
        called = [b.get("name", "")
                  for m in body.get("messages") or [] if m.get("role") == "assistant"
                  and isinstance(m.get("content"), list)
                  for b in m["content"] if b.get("type") == "tool_use"]  # fmt: skip
        return Turn(tools, called)

    @staticmethod
    def reply(answer: Call | str, stream: bool) -> Iterator[bytes] | dict[str, Any]:
        usage = {"input_tokens": 1, "output_tokens": 1}
        if isinstance(answer, Call):
            block = {"type": "tool_use", "id": f"toolu_{answer.number}", "name": answer.name,
                     "input": answer.args}  # fmt: skip
            delta = {"type": "input_json_delta", "partial_json": json.dumps(answer.args)}
            start, reason = {**block, "input": {}}, "tool_use"
        else:
            block = {"type": "text", "text": answer}
            delta, start, reason = (
                {"type": "text_delta", "text": answer},
                {**block, "text": ""},
                "end_turn",
            )
        message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "stand-in",
                   "stop_sequence": None, "usage": usage}  # fmt: skip
        if not stream:
            return {**message, "content": [block], "stop_reason": reason}
        return _sse([
            ("message_start", {"type": "message_start",
                               "message": {**message, "content": [], "stop_reason": None}}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "usage": {"output_tokens": 1},
                               "delta": {"stop_reason": reason, "stop_sequence": None}}),
            ("message_stop", {"type": "message_stop"}),
        ])  # fmt: skip


class Responses:
    """OpenAI Responses: ``tools[]`` of type function (or in a ``namespace``), ``function_call``
    input items. Codex defers MCP tools behind a client ``tool_search`` tool: the model sends a
    ``tool_search_call``, Codex answers with a ``tool_search_output`` item holding the found
    tools (in a namespace, which the model's ``function_call`` then names)."""

    @staticmethod
    def turn(body: dict[str, Any]) -> Turn:
        items = body.get("input") if isinstance(body.get("input"), list) else []
        offered = list(body.get("tools") or [])
        offered += [
            t for i in items if i.get("type") == "tool_search_output" for t in i.get("tools") or []
        ]
        tools: dict[str, dict[str, Any]] = {}
        namespaces: dict[str, str] = {}
        for tool in offered:
            space = tool.get("name", "") if tool.get("type") == "namespace" else ""
            for t in tool.get("tools") or [] if space else [tool]:
                if t.get("type") in ("function", "tool_search"):
                    name = t.get("name") or "tool_search"
                    tools[name], namespaces[name] = t.get("parameters") or {}, space
        called = [i.get("name") or "tool_search" for i in items
                  if i.get("type") in ("function_call", "tool_search_call")]  # fmt: skip
        return Turn(tools, called, namespaces)

    @staticmethod
    def reply(answer: Call | str, stream: bool) -> Iterator[bytes] | dict[str, Any]:
        if isinstance(answer, Call) and answer.name == "tool_search":
            item: dict[str, Any] = {"type": "tool_search_call", "id": f"ts_{answer.number}",
                                    "call_id": f"call_{answer.number}", "execution": "client",
                                    "arguments": answer.args, "status": "completed"}  # fmt: skip
        elif isinstance(answer, Call):
            item = {"type": "function_call", "id": f"fc_{answer.number}",
                    "call_id": f"call_{answer.number}", "name": answer.name,
                    "arguments": json.dumps(answer.args), "status": "completed"}  # fmt: skip
            if answer.namespace:
                item["namespace"] = answer.namespace
        else:
            item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": answer, "annotations": []}]}  # fmt: skip
        usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}  # fmt: skip
        response = {"id": "resp_1", "object": "response", "model": "stand-in", "status": "completed",
                    "output": [item], "usage": usage}  # fmt: skip
        if not stream:
            return response
        return _sse([
            ("response.created", {"type": "response.created",
                                  "response": {**response, "status": "in_progress", "output": []}}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                           "item": item}),
            ("response.completed", {"type": "response.completed", "response": response}),
        ])  # fmt: skip


class GenAI:
    """Google GenAI: ``tools[].functionDeclarations``, model ``functionCall`` parts."""

    @staticmethod
    def turn(body: dict[str, Any]) -> Turn:
        tools = {d.get("name", ""): d.get("parametersJsonSchema") or d.get("parameters") or {}
                 for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []}  # fmt: skip
        called = [p["functionCall"].get("name", "")
                  for c in body.get("contents") or [] if c.get("role") == "model"
                  for p in c.get("parts") or [] if "functionCall" in p]  # fmt: skip
        return Turn(tools, called)

    @staticmethod
    def reply(answer: Call | str, stream: bool) -> Iterator[bytes] | dict[str, Any]:
        part: dict[str, Any] = {"text": answer}
        if isinstance(answer, Call):
            part = {
                "functionCall": {
                    "name": answer.name,
                    "args": answer.args,
                    "id": f"call_{answer.number}",
                }
            }
        data = {"candidates": [{"index": 0, "finishReason": "STOP",
                                "content": {"role": "model", "parts": [part]}}],
                "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                                  "totalTokenCount": 2},
                "modelVersion": "stand-in"}  # fmt: skip
        return _sse([("", data)]) if stream else data


def protocol(path: str) -> type[Chat] | type[Messages] | type[Responses] | type[GenAI] | None:
    """The protocol a request path speaks (its query string ignored)."""
    path = path.split("?")[0]
    if path.endswith("/chat/completions"):
        return Chat
    if path.endswith("/messages"):
        return Messages
    if path.endswith("/responses"):
        return Responses
    if path.lower().endswith("generatecontent"):
        return GenAI
    return None


class _Handler(BaseHTTPRequestHandler):
    server: StandIn

    def log_message(self, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        models = [{"id": "stand-in", "object": "model", "name": "models/stand-in"}]
        self._json(200, {"object": "list", "data": models, "models": models})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        self.server.requests.append((self.path, body))
        if self.path.split("?")[0].endswith("count_tokens") or ":countTokens" in self.path:
            self._json(200, {"input_tokens": 1, "totalTokens": 1})
            return
        speaks = protocol(self.path)
        if speaks is None:
            self._json(404, {"error": {"message": f"the stand-in does not serve {self.path}"}})
            return
        stream = bool(body.get("stream")) or "streamGenerateContent" in self.path
        out = speaks.reply(decide(speaks.turn(body)), stream)
        if isinstance(out, dict):
            self._json(200, out)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for chunk in out:
            self.wfile.write(chunk)

    def _json(self, code: int, data: dict[str, Any]) -> None:
        raw = json.dumps(data).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


class StandIn(ThreadingHTTPServer):
    """``with StandIn() as model: model.url``: serves in a thread until the block ends."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    @property
    def url(self) -> str:
        return self.root + "/v1"

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
