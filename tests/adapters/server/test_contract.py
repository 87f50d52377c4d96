"""Contract: the published surface of every registered tool.

A change to a tool's name, parameters, required set or annotations must
change this file. Checked through a real client (in-process transport).
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp_types import ListToolsResult
from tests.adapters.server import contract_context as context
from tests.adapters.server import contract_core as core
from tests.adapters.server import contract_curation as curation
from tests.adapters.server import contract_security as security
from tests.adapters.server import contract_sessions as sessions
from tests.adapters.server import contract_sharing as sharing
from tests.adapters.server import contract_viewer as viewer
from tests.adapters.server.contract_core import D, I, R, W

from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.adapters.server.specs import camel
from toon_memory.adapters.server.tools import TOOLS

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    **core.CONTRACT,
    **context.CONTRACT,
    **sessions.CONTRACT,
    **curation.CONTRACT,
    **sharing.CONTRACT,
    **security.CONTRACT,
    **viewer.CONTRACT,
}
DATA_TOOLS = (
    core.DATA_TOOLS
    | context.DATA_TOOLS
    | sessions.DATA_TOOLS
    | curation.DATA_TOOLS
    | sharing.DATA_TOOLS
    | security.DATA_TOOLS
    | viewer.DATA_TOOLS
)
#: Tools the seeds' list does not have (not counted in its tools/list budget).
BEYOND_SEEDS = {"memory_state"}


@pytest.fixture(scope="module")
def listing() -> list[Any]:
    async def fetch() -> list[Any]:
        async with Client(ToonMemoryServer()) as client:
            return list((await client.list_tools()).tools)

    return anyio.run(fetch)


def test_exactly_the_contracted_tools_in_order(listing: list[Any]) -> None:
    assert [t.name for t in listing] == list(CONTRACT)


@pytest.mark.parametrize("name", list(CONTRACT))
def test_tool_surface(listing: list[Any], name: str) -> None:
    tool = next(t for t in listing if t.name == name)
    params, required, hints = CONTRACT[name]
    schema = tool.input_schema
    assert schema["type"] == "object"
    assert list(schema["properties"]) == params
    assert schema.get("required", []) == required
    a = tool.annotations
    assert (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint) == (
        R in hints, D in hints, I in hints, W in hints,
    )  # fmt: skip
    assert (tool.output_schema is not None) == (name in DATA_TOOLS)
    assert tool.title is None and a.title is None
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


def _size(tools: list[Any]) -> int:
    return len(
        ListToolsResult(tools=tools).model_dump_json(by_alias=True, exclude_none=True).encode()
    )


def test_tools_list_stays_small(listing: list[Any]) -> None:
    """Budget: <= 20,000 bytes for the seeds' 38 tools. The first 16 (the largest schemas)
    take <= 9,000; every tool added since takes <= 520, so the 38 fit."""
    seeds = [tool for tool in listing if tool.name not in BEYOND_SEEDS]
    assert _size(seeds) <= 20_000
    assert _size([t for t in seeds if t.name in core.CONTRACT]) <= 9_000
    for tool in seeds:
        if tool.name not in core.CONTRACT:
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
