"""Imported entries keep their time and their category.

A TypeScript ``data.toon`` row's ``date`` becomes ``created``/``updated`` at that
day (``lastAccessed`` kept), simple-local-memory timestamps are kept, our own JSON
export round-trips exactly, and the import time goes to ``meta`` only. A category
we do not have is kept as a tag and in ``meta``, reported in one line per import.
The two real TypeScript samples are read when ``../shared`` is present.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import SHARED, STORES, open_memory, run_cli

from toon_memory import Memory

SAMPLES = SHARED / "datasets" / "ts-samples"
TS_HEADER = (
    "entries[{n}|]{{id|category|key|content|file|tags|date|ttl|accessed|links|quality|"
    "confidence|lastAccessed}}:"
)


def ts_file(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "data.toon"
    lines = ["version: 1", TS_HEADER.format(n=len(rows)), *(f"  {row}" for row in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


ROWS = [
    "a1000001|decision|queue-broker|Las tareas en segundo plano usan RabbitMQ como broker."
    "||queue;rabbitmq|2026-06-02||3||0.8|1|2026-06-20",
    "a1000002|architecture|monorepo-layout|Arquitectura: monorepo con npm workspaces; backend "
    "por módulos verticales.||monorepo|2026-06-10||0||||",
    "a1000003|architecture|frontend-features|El frontend se organiza por funcionalidades en "
    "src/features.||frontend;architecture|2026-06-11||0||||",
    "a1000004|Pattern|api-errors|Los errores de la API siguen RFC 7807.||api|2026-07-01||0||||",
]


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, project: Path) -> Memory:
    return open_memory(request, project)


def test_ts_rows_keep_their_day_and_last_access(memory: Memory, tmp_path: Path) -> None:
    report = memory.import_(ts_file(tmp_path, ROWS))
    assert report.added == 4
    broker = memory.get("queue-broker")
    assert (broker.created, broker.updated) == ("2026-06-02T00:00:00Z", "2026-06-02T00:00:00Z")
    assert broker.last_accessed == "2026-06-20" and broker.accessed == 3
    assert broker.date == "2026-06-02"
    assert broker.meta["imported"].startswith("2026-07-15T")  # the test's fixed today
    assert memory.get("api-errors").category == "pattern"  # case folded, not foreign


def test_as_of_finds_an_imported_entry_from_its_day_on(memory: Memory, tmp_path: Path) -> None:
    memory.import_(ts_file(tmp_path, ROWS))
    assert "queue-broker" in memory.recall("rabbitmq broker", as_of="2026-06-03").keys
    assert "queue-broker" in memory.recall("rabbitmq broker", as_of="2026-06-02").keys
    assert memory.recall("rabbitmq broker", as_of="2026-06-01").keys == []


def test_diff_since_lists_only_what_is_new(project: Path, tmp_path: Path) -> None:
    run_cli("import", str(ts_file(tmp_path, ROWS)), project=project, check=True)
    done = run_cli("diff", "--since", "2026-06-11", "--json", project=project, check=True)
    data = json.loads(done.stdout)
    assert sorted(e["key"] for e in data["created"]) == ["api-errors", "frontend-features"]
    assert data["updated"] == []
    nothing = run_cli("diff", "--since", "2026-07-02", "--json", project=project, check=True)
    assert json.loads(nothing.stdout)["created"] == []


def test_foreign_category_is_a_tag_and_meta_reported_once(memory: Memory, tmp_path: Path) -> None:
    report = memory.import_(ts_file(tmp_path, ROWS))
    layout = memory.get("monorepo-layout")
    assert layout.category == "knowledge" and layout.meta["category"] == "architecture"
    assert layout.tags == ["monorepo", "architecture"]
    assert memory.get("frontend-features").tags == ["frontend", "architecture"]  # not twice
    notices = [m for m in report.messages if "category" in m]
    assert notices == [
        "2 entries with a category toon-memory does not have (architecture ×2): stored as "
        "knowledge, the original kept as a tag and in meta.category"
    ]
    assert report.repaired == 2
    assert memory.recall("architecture").keys[:2] == ["frontend-features", "monorepo-layout"]


def test_category_notice_counts_each_name(memory: Memory, tmp_path: Path) -> None:
    rows = [f"b100000{n}|{cat}|k{n}|contenido {n}||t|2026-05-0{n}||0||||"
            for n, cat in enumerate(["architecture", "architecture", "Spec Notes", "todo"], 1)]  # fmt: skip
    report = memory.import_(ts_file(tmp_path, rows))
    (notice,) = [m for m in report.messages if "category" in m]
    assert notice.startswith("4 entries with a category toon-memory does not have "
                             "(architecture ×2, Spec Notes ×1, todo ×1)")  # fmt: skip
    assert memory.get("k3").tags == ["t", "spec-notes"]
    assert memory.get("k3").meta["category"] == "Spec Notes"


def test_a_row_with_a_full_timestamp_keeps_it_in_utc(memory: Memory) -> None:
    memory.import_rows([{"key": "k", "content": "c", "date": "2026-05-03T23:30:00-02:00"}])
    assert memory.get("k").created == "2026-05-04T01:30:00Z"


def test_a_row_without_any_date_is_stamped_now(memory: Memory) -> None:
    memory.import_rows([{"key": "k", "content": "c"}])
    entry = memory.get("k")
    assert entry.date == "2026-07-15" and entry.created.startswith("2026-07-15T")
    assert entry.meta["imported"] == entry.created


def test_own_export_round_trips_exactly(memory: Memory, tmp_path: Path) -> None:
    memory.import_(ts_file(tmp_path, ROWS))
    memory.remember("decision", "cache", "Redis is the cache", tags="redis", links="queue-broker")
    memory.remember("decision", "cache", "Valkey is the cache now")
    memory.pin("cache")
    first = tmp_path / "first.json"
    memory.export(first)
    other = Memory(tmp_path / "other")
    report = other.import_(first)
    assert report.added == 6 and report.messages == []
    second = tmp_path / "second.json"
    other.export(second)
    assert json.loads(second.read_text()) == json.loads(first.read_text())


def test_simple_local_memory_timestamps_are_kept(memory: Memory, tmp_path: Path) -> None:
    from toon_memory.adapters.slm.ops import import_path

    backup = {"version": 1, "memories": [
        {"id": "1", "type": "fact", "content": "deploy target is fly.io", "importance": 0.6,
         "timestamp": "2026-03-04T08:15:00Z"},
        {"id": "2", "type": "lesson", "content": "pin the node version", "importance": 0.7,
         "timestamp": "2026-04-05T10:00:00+02:00"},
    ]}  # fmt: skip
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    import_path(memory, path)
    found = {e.content: e for e in memory.entries()}
    fact = found["deploy target is fly.io"]
    assert (fact.created, fact.updated, fact.date) == ("2026-03-04T08:15:00Z",) * 2 + (
        "2026-03-04",
    )
    assert found["pin the node version"].created == "2026-04-05T08:00:00Z"
    assert memory.recall("deploy target", as_of="2026-03-03").keys == []
    assert memory.recall("deploy target", as_of="2026-03-05").entries == [fact]


def sample(name: str) -> Path:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared TypeScript samples live outside the repo)")
    return path


@pytest.mark.parametrize("name", ["sgp-data.toon", "opencode-data.toon"])
def test_real_samples_keep_each_rows_day(memory: Memory, name: str) -> None:
    from toon_memory.store.ts_reader import read_ts_toon

    path = sample(name)
    rows = read_ts_toon(path.read_text(encoding="utf-8"), source=name).rows
    memory.import_(path)
    for entry in memory.entries(include_inactive=True):
        assert entry.created == f"{entry.date}T00:00:00Z" == entry.updated
        assert "imported" in entry.meta
    assert {e.date for e in memory.entries(include_inactive=True)} == {r["date"] for r in rows}


def test_real_sample_as_of_and_diff(project: Path) -> None:
    path = sample("sgp-data.toon")
    run_cli("import", str(path), project=project, check=True)
    memory = Memory(project)
    dated = {e.key: e.date for e in memory.entries()}
    key, day = "docker-services-ports", dated["docker-services-ports"]
    before = _shift(day, -1)
    after = _shift(day, 1)
    assert key in memory.recall("docker compose services ports", as_of=after).keys
    assert key not in memory.recall("docker compose services ports", as_of=before).keys
    done = run_cli("diff", "--since", after, "--json", project=project, check=True)
    created = {e["key"] for e in json.loads(done.stdout)["created"]}
    assert created == {k for k, d in dated.items() if d >= after}
    assert key not in created


def _shift(day: str, days: int) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()
