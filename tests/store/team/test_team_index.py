"""A team project's local index (``store.team.team_index``) over a real PostgreSQL cluster:
recall and single-entry changes without the whole state, the same answers as the state,
caught up in file order, and rebuilt whenever its position cannot be trusted."""

from __future__ import annotations

import random
from pathlib import Path

from toon_memory import Memory
from toon_memory.search.corpus import analyse
from toon_memory.store.index_db import IndexDb
from toon_memory.store.index_view import IndexView
from toon_memory.store.team import team_index
from toon_memory.store.team.team_store import TeamStore

WORDS = [
    "postgres",
    "index",
    "ranking",
    "token",
    "server",
    "agent",
    "session",
    "cache",
    "schema",
    "lock",
    "commit",
    "journal",
    "merge",
    "recall",
    "budget",
    "primer",
    "hook",
    "python",
    "sqlite",
    "writer",
    "reader",
]


def _open(project: Path, url: str) -> Memory:
    return Memory(project, database=url, name="acme")


def _team(memory: Memory) -> TeamStore:
    assert isinstance(memory.store, TeamStore)
    return memory.store


def _fill(memory: Memory, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for i in range(count):
        words = " ".join(rng.choice(WORDS) for _ in range(8))
        memory.remember(rng.choice(("decision", "pattern", "bug")), f"k{i}", f"{words} {i}")


def _index(memory: Memory) -> IndexDb:
    db = _team(memory).index(analyse, None)
    assert db is not None
    return db


def _index_order(memory: Memory) -> list[str]:
    db = _index(memory)
    with db.reading():
        return [entry.id for entry in IndexView(db, None).each()]


def test_recall_over_the_index_answers_as_the_state_and_loads_no_state(
    team_database: str, project: Path
) -> None:
    _fill(_open(project, team_database), 60)
    lean, full = _open(project, team_database), _open(project, team_database)
    full.store.state()  # this one ranks over its loaded state
    for query in ("postgres ranking", "session cache lock", "python sqlite writer", "k17"):
        over_index = lean.recall(query, limit=8)
        over_state = full.recall(query, limit=8)
        assert over_index.keys == over_state.keys, query
        assert [h.score for h in over_index.hits] == [h.score for h in over_state.hits]
    assert lean.store.loaded() is None
    assert lean.get("k3").content == full.get("k3").content


def test_stats_over_the_index_are_the_stats_of_the_state_and_load_no_state(
    team_database: str, project: Path, tmp_path: Path
) -> None:
    writer = _open(project, team_database)
    _fill(writer, 30)
    writer.remember("warning", "k3", "postgres lock timeout, changed")  # k3's old version
    writer.remember("decision", "twin", writer.get("k4").content)  # another entry's content
    writer.forget("k5")
    writer.pin("k7", 2)
    writer.recall("postgres ranking")  # accesses, folded by the next reader's index
    lean = Memory(tmp_path / "lean", database=team_database, name="acme")
    got = lean.stats()
    assert lean.store.loaded() is None, "counted from the index's grouped rows"
    full = Memory(tmp_path / "full", database=team_database, name="acme")
    full.store.state()
    assert repr(got) == repr(full.stats())
    assert (got.total, got.pinned, got.by_status["obsolete"]) == (32, 1, 1)
    assert got.hit_rate > 0 and got.duplicate_rate > 0, got


def test_a_remember_goes_through_the_index_and_another_server_sees_it_at_once(
    team_database: str, project: Path, tmp_path: Path
) -> None:
    one = _open(project, team_database)
    _fill(one, 10)
    other = Memory(tmp_path / "elsewhere", database=team_database, name="acme")
    assert other.recall("deploy freeze").keys == []
    one.remember("warning", "freeze", "deploy freeze every friday afternoon")
    assert one.store.loaded() is None  # written over the index's view, not the state
    assert other.recall("deploy freeze").keys == ["freeze"]
    one.remember("warning", "freeze", "deploy freeze on fridays, release train on monday")
    assert "monday" in other.get("freeze").content
    assert len(other.history("freeze")) == 2
    assert other.store.loaded() is None


def test_accesses_through_one_server_count_in_another_servers_index(
    team_database: str, project: Path, tmp_path: Path
) -> None:
    one = _open(project, team_database)
    one.remember("decision", "db", "postgres holds the team memory")
    other = Memory(tmp_path / "elsewhere", database=team_database, name="acme")
    assert other.get("db").accessed == 0
    one.recall("postgres team")
    one.recall("postgres memory")
    assert other.get("db").accessed == 2
    loaded = _open(project, team_database)
    assert loaded.store.state().entries[loaded.get("db").id].accessed == 2


def test_a_caught_up_index_and_state_keep_the_order_of_a_fresh_load(
    team_database: str, project: Path, tmp_path: Path
) -> None:
    writer = _open(project, team_database)
    for key in ("a", "b", "c"):
        writer.remember("decision", key, f"entry {key} about the schema")
    behind = Memory(tmp_path / "behind", database=team_database, name="acme")
    behind_state = Memory(tmp_path / "state", database=team_database, name="acme")
    _index_order(behind)
    behind_state.store.state()
    writer.remember("decision", "d", "entry d about the schema")
    writer.remember("decision", "e", "entry e about the schema")
    writer.remember("decision", "d", "entry d changed after e was written")  # d's row: newest
    writer.forget("b")
    writer.remember("decision", "b", "entry b again, after it was forgotten")
    fresh = Memory(tmp_path / "fresh", database=team_database, name="acme")
    expected = list(fresh.store.state().entries)
    assert _index_order(behind) == expected
    assert list(behind_state.store.state().entries) == expected


def test_an_index_whose_position_cannot_be_trusted_is_rebuilt(
    team_database: str, project: Path
) -> None:
    memory = _open(project, team_database)
    _fill(memory, 5)
    db = _index(memory)
    builds = db.builds()
    ident, rev, arev = team_index.decode(db.position()) or ("", 0, 0)
    for wrong in (("1.2", rev, arev), (ident, rev + 5, arev), (ident, rev, arev + 3)):
        with db.writing():
            db.set_position(team_index.encode(wrong))
        again = _index(_open(project, team_database))
        assert again.builds() == builds + 1
        builds += 1
        assert team_index.decode(again.position()) == (ident, rev, arev)
    assert _open(project, team_database).recall("k2").keys[:1] == ["k2"]


def test_a_damaged_index_file_is_replaced_and_recall_still_answers(
    team_database: str, project: Path
) -> None:
    memory = _open(project, team_database)
    _fill(memory, 5)
    path = team_index.index_file(memory.paths, team_database, "acme")
    _index(memory).close()
    assert path.exists()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"not a sqlite file at all" * 100)
    assert _open(project, team_database).recall("k4").keys[:1] == ["k4"]


def test_the_team_index_lives_apart_from_the_file_index_of_the_same_folder(
    team_database: str, project: Path
) -> None:
    from toon_memory.store.index_db import index_path

    memory = _open(project, team_database)
    other = Memory(project, database=team_database, name="beta")
    paths = memory.paths
    mine = team_index.index_file(paths, team_database, "acme")
    assert mine != index_path(paths)
    assert mine != team_index.index_file(paths, team_database, "beta")
    assert mine.parent == index_path(paths).parent  # under the home, never in the project
    assert project not in mine.parents
    assert other.recall("anything").keys == []
