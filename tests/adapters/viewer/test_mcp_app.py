"""``memory_visualize`` and its ``ui://`` resource, through a real MCP client (in-process).

The panel itself, in a browser playing the host, is tested in ``test_app_panel.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client
from tests.adapters.viewer.helpers import build_fixture

from toon_memory.adapters.server.app import ToonMemoryServer
from toon_memory.adapters.server.tools.viewer import VIEWER_URI
from toon_memory.memory.api import Memory

APP_MIME = "text/html;profile=mcp-app"


def _data_of(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="toon-data">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_tool_names_its_ui_resource_and_the_extension_is_advertised(project: Path) -> None:
    async def run() -> tuple[Any, Any, Any]:
        async with Client(ToonMemoryServer(project)) as client:
            tools = (await client.list_tools()).tools
            resources = (await client.list_resources()).resources
            tool = next(t for t in tools if t.name == "memory_visualize")
            return tool, resources, client.server_capabilities

    tool, resources, capabilities = anyio.run(run)
    assert capabilities.extensions == {"io.modelcontextprotocol/ui": {}}
    assert tool.meta == {"ui": {"resourceUri": VIEWER_URI}}
    listed = next(r for r in resources if str(r.uri) == VIEWER_URI)
    assert listed.mime_type == APP_MIME


def test_the_ui_resource_is_built_fresh_on_each_read(project: Path) -> None:
    memory = build_fixture(project)
    count = len(memory.entries())

    async def run() -> tuple[str, str]:
        async with Client(ToonMemoryServer(project)) as client:
            first = (await client.read_resource(VIEWER_URI)).contents[0]
            assert first.mime_type == APP_MIME
            await client.call_tool("memory_remember", {
                "category": "decision", "key": "fresh-one", "content": "Added between two reads.",
            })  # fmt: skip
            second = (await client.read_resource(VIEWER_URI)).contents[0]
            return first.text, second.text

    first, second = anyio.run(run)
    assert len(_data_of(first)["entries"]) == count
    assert len(_data_of(second)["entries"]) == count + 1
    assert '<meta name="toon-viewer-mode" content="app">' in second
    assert "</script><script>window.__pwned" not in second  # content is escaped JSON


def test_a_host_without_apps_gets_text_naming_the_command(project: Path) -> None:
    Memory(project).remember("knowledge", "session-store", "Sessions live in redis.")

    async def run(arguments: dict[str, Any]) -> Any:
        async with Client(ToonMemoryServer(project)) as client:
            return await client.call_tool("memory_visualize", arguments)

    plain = anyio.run(run, {})
    assert not plain.is_error
    assert "`toon-memory viewer`" in plain.content[0].text
    found = anyio.run(run, {"query": "redis"})
    text = found.content[0].text
    assert '1 entry matches "redis": session-store' in text and "`toon-memory viewer`" in text
    assert [r["key"] for r in found.structured_content["results"]] == ["session-store"]
    none = anyio.run(run, {"query": "kubernetes"})
    assert none.content[0].text.startswith('🧠 No entries match "kubernetes".')
