"""Fuzz: every MCP tool, generated arguments, the real MCP client (issue 14, "a fuzz test that stays").

Arguments mix well-typed values with wrong types, missing and unknown names,
huge and odd strings, lone surrogates, NaN/Infinity, nested objects and (over
stdio) nesting hundreds of levels deep. Every call must get an answer (a
result or a tool error, never a dropped request), the server must answer a
ping after it, and a refused call (a tool error) must leave data.toon and the
journal byte for byte as they were.

In process (``Client(ToonMemoryServer)``) for speed, plus a short run over
real stdio. Each example calls every tool once. ``TOON_MEMORY_FUZZ_EXAMPLES``
sets the number of examples (default small, for CI); e.g.
``TOON_MEMORY_FUZZ_EXAMPLES=200 pytest tests/adapters/server/test_fuzz.py``.
No network (the GitHub API points at a closed loopback port, no ``gh`` on
PATH) and no LLM CLI (PATH is an empty folder).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client import Client
from mcp_types import CallToolResult
from tests.adapters.server.helpers import make_project
from tests.adapters.server.rawstdio import RawServer
from tests.memory.curation.curating_helpers import seed, store_bytes

from toon_memory import Memory
from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.adapters.server.specs import Param, ToolSpec, camel
from toon_memory.adapters.server.tools import TOOLS

#: The in-process client speaks the legacy protocol, where ``ping`` still exists.
pytestmark = pytest.mark.filterwarnings("ignore:ping is removed")
EXAMPLES = int(os.environ.get("TOON_MEMORY_FUZZ_EXAMPLES", "4"))
#: Seconds an answer may take before it counts as never coming.
ANSWER_WAIT = 60.0
#: Stands for a value nested ``DEPTHS`` levels deep in the raw stdio text.
DEEP_MARK = "<<deep>>"

SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
WITH_SURROGATE = st.builds(lambda a, s, b: a + s + b, st.text(max_size=6), SURROGATES,
                           st.text(max_size=6))  # fmt: skip
HUGE = st.sampled_from(["a " * 50_000, "9" * 5_000, "x" * 2_000, "\u00e9" * 3_000,
                        "\U0001f600" * 1_000, "[[" * 500, "\x00" * 64])  # fmt: skip
WORDS = st.sampled_from(["", " ", "..", "../../etc/passwd", "[[pool-leak]]", "NaN", "Infinity",
                         "-1", "0", "1e999", "true", "7d", "9999999d", "99999999999999999999d",
                         "2026-01-01", "20260101", "*", "%s%n", "\n\t", "pool-leak",
                         "redis-pool", "api-port", DEEP_MARK])  # fmt: skip
STRINGS = st.text(max_size=40) | WITH_SURROGATE | HUGE | WORDS
NUMBERS = (st.integers(-(2**70), 2**70) | st.integers(-3, 30)
           | st.floats(allow_nan=True, allow_infinity=True))  # fmt: skip
SCALARS = st.none() | st.booleans() | NUMBERS | STRINGS


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


def _nested_lists(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


# Up to 150 levels: the in-process client cannot serialize more (stdio goes deeper: DEPTHS).
NESTED = st.recursive(SCALARS, _containers, max_leaves=10) | st.integers(60, 150).map(_nested_lists)
NAMES = st.text(max_size=10) | WITH_SURROGATE


def _well_typed(param: Param) -> st.SearchStrategy[Any]:
    if param.enum:
        return st.sampled_from(param.enum)
    kinds: dict[str, st.SearchStrategy[Any]] = {
        "string": st.text(max_size=30) | WORDS | HUGE,
        "integer": st.integers(-2, 50),
        "number": st.floats(0, 1),
        "boolean": st.booleans(),
    }
    found = kinds[param.kind]
    return found | st.lists(found, max_size=3) if param.many else found


def _mostly_valid(spec: ToolSpec) -> st.SearchStrategy[dict[str, Any]]:
    """Every required parameter and some optional ones, well typed; maybe one odd value."""
    required = {p.name: _well_typed(p) for p in spec.params if p.name in spec.required}
    optional = {p.name: _well_typed(p) for p in spec.params if p.name not in spec.required}
    base = st.fixed_dictionaries(required, optional=optional)  # type: ignore[arg-type]
    if not spec.params:
        return base
    odd = st.none() | st.tuples(st.sampled_from([p.name for p in spec.params]), NESTED)
    return st.builds(lambda given, one: {**given, **dict([one] if one else [])}, base, odd)


def _hostile(spec: ToolSpec) -> st.SearchStrategy[dict[str, Any]]:
    """Published and camelCase names with well-typed or odd values, plus unknown names."""
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for param in spec.params:
        value = _well_typed(param) | NESTED
        optional[param.name] = value
        if camel(param.name) != param.name:
            optional[camel(param.name)] = value
    known = st.fixed_dictionaries({}, optional=optional)  # type: ignore[arg-type]
    unknown = st.dictionaries(NAMES, NESTED, max_size=2)
    return st.builds(lambda extra, given: {**extra, **given}, unknown, known)


def arguments_for(spec: ToolSpec) -> st.SearchStrategy[dict[str, Any]]:
    return _mostly_valid(spec) | _hostile(spec)


ALL_CALLS = st.tuples(*(arguments_for(spec) for spec in TOOLS))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large, HealthCheck.large_base_example],
)  # fmt: skip


@pytest.fixture
def quiet_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No LLM CLI, no ``gh``, no git on PATH; the GitHub API on a closed loopback port."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("TOON_MEMORY_GITHUB_API", "http://127.0.0.1:9")
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)


@pytest.fixture
def fuzz_project(project: Path, quiet_env: None) -> Path:
    seed(Memory(project))
    return project


def _check(spec: ToolSpec, result: Any, before: tuple[bytes, bytes], project: Path) -> None:
    assert isinstance(result, CallToolResult), f"{spec.name}: no tool result: {result!r}"
    texts = [block.text for block in result.content if block.type == "text"]
    assert texts, f"{spec.name}: an answer without text"
    if result.is_error:
        assert len(texts[0]) <= 600, f"{spec.name}: an error of {len(texts[0])} characters"
        texts[0].encode("utf-8")
        assert store_bytes(project) == before, f"{spec.name} refused the call but wrote"


async def _play(project: Path, calls: tuple[dict[str, Any], ...]) -> None:
    async with Client(ToonMemoryServer(project), mode="legacy") as client:
        for spec, arguments in zip(TOOLS, calls, strict=True):
            before = store_bytes(project)
            with anyio.fail_after(ANSWER_WAIT):
                result = await client.call_tool(spec.name, arguments)
                _check(spec, result, before, project)
                await client.send_ping()


@FUZZ
@given(calls=ALL_CALLS)
def test_every_tool_answers_generated_arguments(
    fuzz_project: Path, calls: tuple[dict[str, Any], ...]
) -> None:
    anyio.run(_play, fuzz_project, calls)


# -- over real stdio ------------------------------------------------------------------
DEPTHS = (250, 5_000)


@pytest.fixture(scope="module")
def stdio_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawServer, Path]]:
    base = tmp_path_factory.mktemp("fuzz-stdio")
    project, home = make_project(base)
    empty = base / "empty-bin"
    empty.mkdir()
    previous = os.environ.get("TOON_MEMORY_HOME")
    os.environ["TOON_MEMORY_HOME"] = str(home)
    try:
        seed(Memory(project))
    finally:
        if previous is not None:
            os.environ["TOON_MEMORY_HOME"] = previous
    env = {"PATH": str(empty), "TOON_MEMORY_GITHUB_API": "http://127.0.0.1:9", "GITHUB_TOKEN": ""}
    with RawServer(project, home, env) as server:
        yield server, project
        assert server.close() == 0


def _raw_call(id_: int, spec: ToolSpec, arguments: dict[str, Any], depth: int) -> str:
    """The request as JSON text (lone surrogates escaped), the deep mark made ``depth`` deep."""
    text = json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": spec.name, "arguments": arguments}})  # fmt: skip
    return text.replace(json.dumps(DEEP_MARK), "[" * depth + "]" * depth)


@settings(FUZZ, max_examples=max(1, EXAMPLES // 2))
@given(calls=ALL_CALLS, depth=st.sampled_from(DEPTHS))
def test_stdio_answers_every_generated_call(
    stdio_server: tuple[RawServer, Path], calls: tuple[dict[str, Any], ...], depth: int
) -> None:
    server, project = stdio_server
    for index, (spec, arguments) in enumerate(zip(TOOLS, calls, strict=True)):
        before = store_bytes(project)
        reply = server.call_raw(_raw_call(index, spec, arguments, depth), index)
        assert "result" in reply, f"{spec.name}: {reply}"
        result = CallToolResult.model_validate(reply["result"])
        _check(spec, result, before, project)
        server.ping()
