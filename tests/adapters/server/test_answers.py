"""Every request gets an answer, over real stdio and HTTP alike (issue 14, item 5).

Valid JSON that the SDK's own parser refuses (a lone surrogate, nesting past
~200 levels, a 5000-digit integer) or bytes that are not UTF-8 used to be
dropped without an answer. Each case here is sent as raw text; the answer is
a tool error naming the argument, short and encodable; the server answers a
ping afterwards and no memory file changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.adapters.server.helpers import make_project, snapshot
from tests.adapters.server.rawhttp import HttpServer, HttpSession
from tests.adapters.server.rawstdio import RawServer

from toon_memory import Memory

DEEP = "[" * 250 + "]" * 250
VERY_DEEP = "[" * 100_000 + "]" * 100_000


def _call(id_: int, name: str, arguments: bytes) -> bytes:
    head = f'{{"jsonrpc":"2.0","id":{id_},"method":"tools/call","params":{{"name":"{name}",'
    return head.encode() + b'"arguments":' + arguments + b"}}"


REMEMBER = '"category":"bug","key":"k","content":"c"'
#: (name, raw arguments object, parameter named, words in the error)
CASES: list[tuple[str, bytes, str, str]] = [
    ("memory_recall", rb'{"query":"\ud800"}', "query", "invalid Unicode"),
    ("memory_remember", rb'{"category":"bug","key":"a\udc00b","content":"c"}', "key",
     "invalid Unicode"),
    ("memory_remember", b'{"category":"bug","key":"k","content":"caf\xe9"}', "content",
     "invalid Unicode"),  # Latin-1, not UTF-8
    ("memory_remember", b'{"category":"bug","key":"k","content":' + DEEP.encode() + b"}",
     "content", "nested too deep"),
    ("memory_search", b'{"tags":' + VERY_DEEP.encode() + b"}", "tags", "nested too deep"),
    ("memory_recall", b'{"limit":' + b"9" * 5000 + b"}", "limit", "longer than 4000 digits"),
    ("memory_remember", b'{' + REMEMBER.encode() + b',"confidence":NaN}', "confidence",
     "finite number"),
    ("memory_remember", b'{"category":"' + b"x" * 1_000_000 + b'","key":"k","content":"c"}',
     "category", "must be one of"),
    ("memory_recall", rb'{"q\ud800":1}', "q\ufffd", "invalid Unicode"),
]  # fmt: skip
IDS = [f"{name}-{field}-{words.split()[0]}" for name, _, field, words in CASES]


def _check_tool_error(reply: dict[str, Any], field: str, words: str) -> None:
    result = reply["result"]
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert text.startswith(f"Invalid argument '{field}': ") and words in text
    assert len(text) < 300


@pytest.fixture(scope="module")
def stdio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawServer, Path]]:
    project, home = make_project(tmp_path_factory.mktemp("answers-stdio"))
    Memory(project).remember("bug", "pool-leak", "The worker pool leaks connections")
    with RawServer(project, home) as server:
        yield server, project
        assert server.close() == 0


@pytest.mark.parametrize(("name", "arguments", "field", "words"), CASES, ids=IDS)
def test_stdio_answers_with_a_tool_error(
    stdio: tuple[RawServer, Path], name: str, arguments: bytes, field: str, words: str
) -> None:
    server, project = stdio
    before = snapshot(project)
    _check_tool_error(server.call_raw(_call(7, name, arguments), 7), field, words)
    server.ping()
    assert snapshot(project) == before


def test_stdio_other_requests_are_answered_too(stdio: tuple[RawServer, Path]) -> None:
    server, _ = stdio
    read = server.call_raw(
        rb'{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"\udc00"}}', 8
    )
    assert read["error"]["code"] < 0
    prompt = server.call_raw(
        rb'{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":'
        rb'{"name":"summarize_project_context","arguments":{"intent":"\ud800"}}}', 9)  # fmt: skip
    assert "result" in prompt or "error" in prompt
    server.ping()


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpSession, Path]]:
    project, home = make_project(tmp_path_factory.mktemp("answers-http"))
    Memory(project).remember("bug", "pool-leak", "The worker pool leaks connections")
    with HttpServer(project, home) as server:
        yield server.session(), project
        assert server.terminate(20) == 0


@pytest.mark.parametrize(("name", "arguments", "field", "words"), CASES, ids=IDS)
def test_http_gives_the_same_answers(
    http: tuple[HttpSession, Path], name: str, arguments: bytes, field: str, words: str
) -> None:
    session, project = http
    before = snapshot(project)
    _check_tool_error(session.message(_call(7, name, arguments)), field, words)
    assert session.message({"jsonrpc": "2.0", "id": 8, "method": "ping"})["result"] == {}
    assert snapshot(project) == before
