"""A server that owns its process freezes what each call leaves alive (``system.garbage``);
one run inside another program's process (here, the test's) leaves collection alone."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp.client import Client

from toon_memory.adapters.server.app import ToonMemoryServer


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def _after_a_call(server: ToonMemoryServer) -> int:
    async def run() -> int:
        async with Client(server) as client:
            result = await client.call_tool("memory_recall", {"query": "redis"})
            assert not result.is_error
            return gc.get_freeze_count()

    return anyio.run(run)


@pytest.mark.parametrize("owns", [False, True])
def test_only_a_server_that_owns_its_process_freezes(project: Path, owns: bool) -> None:
    server = ToonMemoryServer(project)
    if owns:
        server.own_process()
    assert (_after_a_call(server) > 0) is owns
