"""``Memory.refresh``: what a memory holds (its loaded state, else the on-disk index a call
opened) catches up with writes made through another ``Memory``, with no query; what was
never opened stays unopened. Over the files and over a team database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from toon_memory.memory.api import Memory
from toon_memory.store.index_db import index_path
from toon_memory.store.team import team_index


def _position(index: Path) -> str:
    with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as conn:
        found = conn.execute("SELECT v FROM meta WHERE k = 'position'").fetchone()
    return str(found[0]) if found else ""


def _tree(root: Path, home: Path) -> list[str]:
    return sorted(str(p) for base in (root, home) for p in base.rglob("*"))


def test_refresh_of_a_memory_never_used_opens_nothing(project: Path, tmp_path: Path) -> None:
    before = _tree(project, tmp_path / "home")
    memory = Memory(project)
    memory.refresh()
    assert memory.store.loaded() is None
    assert _tree(project, tmp_path / "home") == before


def test_refresh_catches_a_loaded_state_up_with_the_files(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", str(64 * 1024 * 1024))  # the state, not the index
    writer, reader = Memory(project), Memory(project)
    writer.remember("decision", "db", "postgres for the team")
    assert [e.key for e in reader.entries()] == ["db"]  # a small memory: the state loads
    writer.remember("warning", "freeze", "deploy freeze on fridays")
    reader.refresh()
    state = reader.store.loaded()
    assert state is not None
    assert sorted(e.key for e in state.entries.values()) == ["db", "freeze"]
    reader.refresh()  # nothing new: still the same
    assert reader.store.loaded() is state


def test_refresh_catches_an_opened_index_up_with_the_files(project: Path) -> None:
    writer, reader = Memory(project), Memory(project)
    writer.remember("decision", "db", "postgres for the team")
    assert reader.recall("postgres").keys == ["db"]  # ranked over the on-disk index
    assert reader.store.loaded() is None
    index = index_path(reader.paths)
    writer.remember("warning", "freeze", "deploy freeze on fridays")
    behind = _position(index)
    reader.refresh()
    caught_up = _position(index)
    assert caught_up != behind
    assert reader.store.loaded() is None  # the index was caught up, no state loaded
    assert Memory(project).recall("freeze").keys == ["freeze"]
    assert _position(index) == caught_up  # a new reader found nothing left to apply


def test_refresh_brings_a_team_index_to_the_databases_head(
    team_database: str, tmp_path: Path
) -> None:
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    one = Memory(tmp_path / "one", database=team_database, name="acme")
    two = Memory(tmp_path / "two", database=team_database, name="acme")
    assert two.recall("rollout").keys == []  # two opens its index
    one.remember("decision", "rollout-plan", "canary rollout first")
    one.remember("decision", "rollback", "roll back on any canary error")
    index = team_index.index_file(two.paths, team_database, "acme")
    with psycopg.connect(team_database) as conn:
        found = conn.execute("SELECT rev FROM projects WHERE name = 'acme'").fetchone()
    assert found is not None
    before = team_index.decode(_position(index))
    assert before is not None and before[1] < found[0]
    two.refresh()
    position = team_index.decode(_position(index))
    assert position is not None and position[1] == found[0]
    assert two.store.loaded() is None
