"""A real ``toon-memory mcp`` process, idle: the accesses its recalls left beside its index
(``store.index_lag``) are folded in once no call came for ``system.garbage.IDLE`` seconds,
so other processes (a hook, a CLI command) find the index current."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.adapters.server.helpers import make_project
from tests.adapters.server.rawstdio import RawServer

from toon_memory import Memory
from toon_memory.store.compaction import inode_size
from toon_memory.store.index_anchor import decode_position
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_sync import index_path


def _behind(memory: Memory) -> int:
    """Access-log bytes the index's position has not folded in."""
    db = IndexDb.open(index_path(memory.paths), memory.store.derived_key)
    assert db is not None
    try:
        have = decode_position(db.position())
    finally:
        db.close()
    assert have is not None
    return inode_size(memory.paths.access_log)[1] - have.access_offset


def test_an_idle_server_folds_what_its_recalls_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home = make_project(tmp_path)
    monkeypatch.setenv("TOON_MEMORY_HOME", str(home))
    memory = Memory(project)
    for i in range(12):
        memory.remember("knowledge", f"topic-{i}", f"redis pool {i} timeout worker {i % 3}")
    memory.close()
    with RawServer(project, home) as server:
        for query in ("redis worker", "pool timeout", "redis worker"):
            assert not server.tool("memory_recall", {"query": query})["result"]["isError"]
        assert _behind(memory) > 0  # left beside the index while calls come
        deadline = time.monotonic() + 30
        while _behind(memory) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _behind(memory) == 0  # folded once idle
        server.ping()
        assert not server.tool("memory_recall", {"query": "redis"})["result"]["isError"]
        assert server.close() == 0
