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

from toon_memory.server.app import ToonMemoryServer
from toon_memory.server.specs import TOOLS, camel

R, D, I = "readOnly", "destructive", "idempotent"  # noqa: E741
RECALL = ["query", "mode", "hops", "limit", "ids", "budget", "compact", "budget_tokens",
          "explain", "rrf", "session_bias", "path_scope", "as_of", "from_date", "to_date"]  # fmt: skip
# name -> (parameters in order, required, hints that are true)
CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_remember": (["category", "key", "content", "file", "tags", "links", "ttl",
                         "importance", "confidence", "origin", "path_scope"],
                        ["category", "key", "content"], set()),
    "memory_recall": (RECALL, [], {R, I}),
    "memory_smart_recall": (["intent", "hops", "explain", "budget_tokens", "session_bias", "limit"],
                            ["intent"], {R, I}),
    "memory_search": (["query", "category", "tags", "from_date", "to_date", "path_scope", "budget",
                       "session_bias", "limit"], [], {R, I}),
    "memory_suggest": (["context", "limit"], ["context"], {R, I}),
    "memory_forget": (["key", "action", "new_key"], ["key"], {D}),
    "memory_stats": ([], [], {R, I}),
    "memory_summary": (["file", "summary"], ["file"], {D, I}),
    "memory_archive": ([], [], {D, I}),
    "memory_diff": (["since", "type"], [], {R, I}),
    "memory_pin": (["key", "priority"], ["key"], {I}),
    "memory_unpin": (["key"], ["key"], {I}),
    "memory_tag": (["keys", "action", "tags"], ["keys", "action", "tags"], {D, I}),
    "memory_graph_path": (["from_key", "to_key"], ["from_key", "to_key"], {R, I}),
    "memory_backup": ([], [], set()),
    "memory_checkpoint": (["note"], [], set()),
    "memory_state": (["action", "field", "value"], [], {D}),
}  # fmt: skip
DATA_TOOLS = {"memory_recall", "memory_smart_recall", "memory_search", "memory_suggest",
              "memory_stats", "memory_diff", "memory_graph_path", "memory_state"}  # fmt: skip


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
        R in hints, D in hints, I in hints, False,
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


def test_tools_list_stays_small(listing: list[Any]) -> None:
    """Budget: <= 20,000 bytes for the seeds' 38 tools; these 16 carry the largest schemas.

    memory_state (simple-local-memory's hot tier) is beyond the seeds' list and not counted.
    """
    seeds = [tool for tool in listing if tool.name != "memory_state"]
    payload = ListToolsResult(tools=seeds).model_dump_json(by_alias=True, exclude_none=True)
    assert len(payload.encode()) <= 9_000


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
