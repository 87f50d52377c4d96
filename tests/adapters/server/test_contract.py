"""Contract: the published surface of every registered tool and declared CLI command.

``surface.json`` is the contract (``tests/adapters/server/surface.py`` writes it:
``python -m tests.adapters.server.surface``). A change to a tool's name,
parameters, types, enums, required set, annotations or output schema, or to a
declared command's flags, defaults or help, changes that file. Checked through
a real client (in-process transport) and the real click group.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp_types import ListToolsResult, Tool
from tests.adapters.server.surface import SNAPSHOT, declared_commands, listed_tools, render

from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.adapters.server.specs import camel
from toon_memory.adapters.server.tools import TOOLS
from toon_memory.adapters.server.tools.core import CORE

#: The contract as checked in.
EXPECTED: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
CONTRACT: list[str] = [tool["name"] for tool in EXPECTED["tools"]]
#: Tools the seeds' list does not have (not counted in its tools/list budget).
BEYOND_SEEDS = {"memory_state", "memory_hook"}
REGENERATE = "intended? run: python -m tests.adapters.server.surface, and review the diff"


@pytest.fixture(scope="module")
def listing() -> list[Any]:
    async def fetch() -> list[Any]:
        async with Client(ToonMemoryServer()) as client:
            return list((await client.list_tools()).tools)

    return anyio.run(fetch)


def test_exactly_the_contracted_tools_in_order(listing: list[Any]) -> None:
    assert [t.name for t in listing] == CONTRACT
    assert len(CONTRACT) == 40


def test_snapshot_is_current() -> None:
    """What the server lists and the CLI builds is, byte for byte, the checked-in contract."""
    found = {"tools": listed_tools(), "commands": declared_commands()}
    for name, tool in zip(CONTRACT, found["tools"], strict=True):
        wanted = next(t for t in EXPECTED["tools"] if t["name"] == name)
        assert tool == wanted, f"{name}: tools/list differs from surface.json ({REGENERATE})"
    assert found["commands"] == EXPECTED["commands"], REGENERATE
    assert render(found) == SNAPSHOT.read_text(encoding="utf-8"), REGENERATE


@pytest.mark.parametrize("name", CONTRACT)
def test_tool_surface(listing: list[Any], name: str) -> None:
    tool = next(t for t in listing if t.name == name)
    spec = next(s for s in TOOLS if s.name == name)
    assert tool.input_schema["type"] == "object"
    assert list(tool.input_schema["properties"]) == [p.name for p in spec.published]
    assert tool.input_schema.get("required", []) == list(spec.required)
    assert (tool.output_schema is not None) == (spec.output is not None)
    assert tool.title is None and tool.annotations.title is None
    assert tool.description and len(tool.description) <= 200


def test_one_spelling_no_titles_every_property_typed(listing: list[Any]) -> None:
    for tool in listing:
        for name, prop in tool.input_schema["properties"].items():
            assert name == name.lower(), f"{tool.name}.{name} is not snake_case"
            assert "title" not in prop and prop["type"] in (
                "string",
                "integer",
                "number",
                "boolean",
            )
        assert "title" not in tool.input_schema


def _size(tools: list[Tool]) -> int:
    return len(
        ListToolsResult(tools=tools).model_dump_json(by_alias=True, exclude_none=True).encode()
    )


def test_tools_list_stays_small(listing: list[Any]) -> None:
    """Budget: <= 20,000 bytes for the seeds' 38 tools. The first 16 (the largest schemas)
    take <= 9,000; every tool added since takes <= 520, so the 38 fit."""
    seeds = [tool for tool in listing if tool.name not in BEYOND_SEEDS]
    assert len(seeds) == 38
    core = {spec.name for spec in CORE} - {"memory_primer"}
    assert _size(seeds) <= 20_000
    assert _size([t for t in seeds if t.name in core]) <= 9_000
    for tool in seeds:
        if tool.name not in core:
            assert _size([tool]) <= 520, f"{tool.name}: {_size([tool])} bytes"


def test_camel_case_aliases() -> None:
    assert camel("budget_tokens") == "budgetTokens"
    recall = next(s for s in TOOLS if s.name == "memory_recall")
    spellings = {s for p in recall.params for s in p.spellings}
    assert {"sessionBias", "pathScope", "asOf", "fromDate", "budgetTokens"} <= spellings


def test_unknown_tool_is_a_protocol_error() -> None:
    from mcp.shared.exceptions import MCPError

    async def call() -> str:
        async with Client(ToonMemoryServer()) as client:
            try:
                await client.call_tool("memory_teleport", {})
            except MCPError as exc:
                return str(exc)
        return "no error"

    assert "Unknown tool: memory_teleport" in anyio.run(call)
