"""The Memory API on a real project folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests.conftest import FIXTURES, STORES, open_memory

from toon_memory import InputError, Memory, NotFoundError

#: For a test of what the files hold: it runs over the file store only.
FILES_ONLY = pytest.mark.parametrize("memory", ["file"], indirect=True)


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, project: Path) -> Memory:
    return open_memory(request, project)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"category": "nope"}, "category"),
        ({"key": ""}, "key"),
        ({"key": "has space"}, "key"),
        ({"content": "   "}, "content"),
        ({"ttl": "soon"}, "ttl"),
        ({"ttl": "-3d"}, "ttl"),
        ({"importance": "urgent"}, "importance"),
        ({"confidence": "2"}, "confidence"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(
    memory: Memory, kwargs: dict[str, str], field: str
) -> None:
    args = {"category": "decision", "key": "k", "content": "c", **kwargs}
    with pytest.raises(InputError) as caught:
        memory.remember(args.pop("category"), args.pop("key"), args.pop("content"), **args)
    assert caught.value.field == field
    assert not memory.paths.data.exists()


def test_remember_sets_quality_confidence_evidence_and_tags(memory: Memory, project: Path) -> None:
    (project / "src").mkdir()
    (project / "src" / "cache.py").write_text("x = 1\n")
    result = memory.remember(
        "bug", "redis-timeout", "Redis connection timeout: raised pool size", file="src/cache.py:10"
    )
    entry = result.entry
    assert len(entry.id) == 8 and int(entry.id, 16) >= 0
    assert "redis" in result.inferred_tags and entry.tags == result.inferred_tags
    assert entry.evidence == "verified" and entry.confidence == 1.0
    assert 0 < entry.quality <= 1
    other = memory.remember(
        "knowledge", "guess", "maybe the pool is too small", origin="inferred", file="gone.py"
    )
    assert other.entry.evidence == "unverified" and other.entry.confidence == 0.7


def test_same_key_merges_and_keeps_history(memory: Memory) -> None:
    first = memory.remember(
        "decision", "db", "Use Postgres", tags="db", links="infra", importance="low"
    )
    second = memory.remember("decision", "db", "Use Postgres 16 with pgvector", tags="vector",
                             links="search", importance="high")  # fmt: skip
    assert second.merged and not second.created
    entry = memory.get("db")
    assert entry.id == first.entry.id
    assert entry.content == "Use Postgres 16 with pgvector"
    assert entry.tags == ["db", "vector"] and entry.links == ["infra", "search"]
    assert entry.importance == "high"
    versions = memory.history("db")
    assert [v.content for v in versions] == ["Use Postgres 16 with pgvector", "Use Postgres"]
    assert versions[1].status == "superseded" and versions[1].superseded_on == "2026-07-15"
    assert len([e for e in memory.entries() if e.key == "db"]) == 1


def test_keep_first_setting_keeps_content(memory: Memory) -> None:
    memory.paths.folder.mkdir(parents=True)
    memory.paths.config.write_text(json.dumps({"merge": "keep-first"}))
    memory.remember("decision", "db", "Use Postgres")
    result = memory.remember("decision", "db", "Use MySQL", tags="db")
    assert result.history is None
    assert memory.get("db").content == "Use Postgres" and memory.get("db").tags == ["db"]


def test_contradiction_is_flagged_but_written(memory: Memory) -> None:
    memory.remember("warning", "no-raw-sql", "Never build SQL queries with string concatenation")
    result = memory.remember(
        "pattern", "sql-concat", "Build SQL queries with string concatenation for speed"
    )
    assert result.entry.evidence == "conflict"
    assert any("CONTRADICTION" in w and "no-raw-sql" in w for w in result.warnings)
    assert memory.get("sql-concat").evidence == "conflict"


def test_forget_actions(memory: Memory) -> None:
    memory.remember("decision", "old", "Use REST")
    memory.remember("decision", "new", "Use gRPC")
    assert memory.forget("old").status == "obsolete"
    assert [e.key for e in memory.entries()] == ["new"]
    assert memory.forget("old", action="restore").status == "active"
    memory.forget("old", action="supersede", new_key="new")
    assert memory.get("old").status == "superseded"
    assert "supersedes:old" in memory.get("new").links
    memory.forget("new", action="hard")
    with pytest.raises(NotFoundError):
        memory.get("new")
    with pytest.raises(InputError) as caught:
        memory.forget("old", action="supersede")
    assert caught.value.field == "new_key"
    with pytest.raises(InputError):
        memory.forget("old", action="explode")


def test_pin_tag_summary(memory: Memory) -> None:
    memory.remember("pattern", "a", "alpha", tags="x")
    memory.remember("pattern", "b", "beta", tags="y")
    assert memory.pin("a", 2).priority == 2
    with pytest.raises(InputError):
        memory.pin("a", 9)
    assert memory.unpin("a").entry.priority == 0 and not memory.unpin("a").was_pinned
    memory.tag("a,b", "add", "shared")
    assert memory.get("b").tags == ["y", "shared"]
    memory.tag(["a"], "remove", "x")
    assert memory.get("a").tags == ["shared"]
    memory.tag("b", "set", "only")
    assert memory.get("b").tags == ["only"]
    memory.summary("src/app.py", "Entry point; wires routes")
    saved = memory.summary("src/app.py")
    assert saved is not None and saved.summary == "Entry point; wires routes"
    assert Memory(memory.root).summary("src/app.py") is not None


def test_stats_and_diff(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    memory.paths.folder.mkdir(parents=True)
    memory.paths.config.write_text(json.dumps({"autoArchive": {"expired": False}}))
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-01")
    memory.remember("decision", "early", "Same words here", ttl="7d")
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    memory.remember("bug", "late", "Same words here")
    memory.remember("warning", "gone", "temporary")
    memory.forget("gone")
    stats = memory.stats()
    assert stats.active == 2 and stats.total == 3
    assert stats.by_category == {"decision": 1, "bug": 1}
    assert stats.expired == 1 and stats.duplicate_rate == 1.0
    assert stats.obsolete_rate == round(1 / 3, 2)
    recent = memory.diff("24h")
    assert [e.key for e in recent.created] == ["late"]
    assert [e.key for e in memory.diff("2026-06-30").created] == ["early", "late"]


def test_archive_moves_stale_and_expired_and_restores(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-05-01")
    memory.remember("knowledge", "ancient", "old knowledge")
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    memory.remember("knowledge", "fresh", "new knowledge")
    result = memory.archive()
    assert [e.key for e in result.moved] == ["ancient"] and result.remaining == 1
    assert [e.key for e in memory.store.read_archive()] == ["ancient"]
    assert memory.stats().archived == 1
    assert memory.forget("ancient", action="restore").status == "active"
    assert sorted(e.key for e in memory.entries()) == ["ancient", "fresh"]


def test_auto_archive_of_expired_is_reported(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-01")
    memory.remember("knowledge", "sprint", "Sprint ends soon", ttl="7d")
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    result = memory.remember("knowledge", "next", "Next sprint plan")
    assert [e.key for e in result.archived] == ["sprint"]


def test_export_import_round_trip(memory: Memory, tmp_path: Path) -> None:
    memory.remember("decision", "a", "alpha | pipe", tags="t1;t2", links="b")
    memory.remember("pattern", "b", "beta\nline two")
    memory.remember("pattern", "b", "beta changed")
    out = tmp_path / "export.json"
    assert memory.export(out) == 3
    data = json.loads(out.read_text())
    assert data["version"] == 1 and {e["key"] for e in data["entries"]} == {"a", "b"}
    other = Memory(tmp_path / "other")
    report = other.import_(out)
    assert (report.added, report.skipped) == (3, 0)
    assert other.get("a").content == "alpha | pipe" and other.get("a").tags == ["t1", "t2"]
    assert len(other.history("b")) == 2
    again = other.import_(out)
    assert again.added == 0 and again.skipped == 3


def test_import_plain_list_reports_skips(memory: Memory, tmp_path: Path) -> None:
    source = tmp_path / "list.json"
    source.write_text(json.dumps([
        {"key": "one", "content": "first", "tags": ["a", "b"]},
        {"key": "two", "content": ""},
        {"key": "three", "content": "third", "category": "preference"},
        "junk",
    ]))  # fmt: skip
    report = memory.import_(source)
    assert report.added == 2 and report.skipped == 2
    assert memory.get("one").tags == ["a", "b"] and memory.get("one").category == "knowledge"
    assert memory.get("three").meta["category"] == "preference"
    assert any("two" in m for m in report.messages)


@FILES_ONLY
def test_reads_do_not_write_data(memory: Memory) -> None:
    memory.remember("decision", "cache", "Use Redis for the cache")
    before = memory.paths.data.read_bytes()
    assert memory.recall("redis cache").keys == ["cache"]
    assert Memory(memory.root).get("cache").accessed == 1
    assert memory.paths.data.read_bytes() == before


@FILES_ONLY
def test_restore_brings_back_newest_good_backup(memory: Memory) -> None:
    memory.remember("decision", "kept", "This survives")
    memory.backup()
    memory.paths.data.write_text(memory.paths.data.read_text()[:-40] + '"broken\n')
    report = dict((msg, level) for level, msg in memory.doctor())
    assert "error" in report.values()
    _used, kept = Memory(memory.root).restore()
    assert kept is not None and kept.exists()
    assert Memory(memory.root).get("kept").content == "This survives"


def test_opening_a_typescript_file_migrates_it_and_keeps_the_original(project: Path) -> None:
    import shutil

    import toon_format

    fixture = FIXTURES / "ts" / "wide_rows.toon"
    folder = project / ".toon-memory" / "memory"
    folder.mkdir(parents=True)
    shutil.copy(fixture, folder / "data.toon")
    memory = Memory(project)
    keys = [e.key for e in memory.entries(include_inactive=True)]
    assert "use-zod" in keys and "pool-fix" in keys
    assert memory.get("use-zod").quality == 0.65
    notes = memory.notices()
    assert any("migrated" in n for n in notes)
    originals = list((folder / "backups").glob("ts-original-*"))
    assert originals and originals[0].read_bytes() == fixture.read_bytes()
    data = toon_format.loads((folder / "data.toon").read_text(), strict=True)
    assert sorted(row["key"] for row in data["entries"]) == sorted(keys)


def test_graph_mode_spreads_two_hops_by_default(memory: Memory) -> None:
    memory.remember(
        "decision", "risk-engine", "The engine prioritizes risk over speed", links="spec"
    )
    memory.remember("knowledge", "spec", "Specification document", links="arch")
    memory.remember("pattern", "arch", "Layered architecture")
    graph = memory.recall("risk", mode="graph")
    assert graph.options.hops == 2 and "arch" in graph.keys
    assert memory.recall("risk").options.hops == 1
    assert "arch" not in memory.recall("risk", mode="graph", hops=1).keys


def test_archive_older_than_and_import_rows(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-05")
    memory.remember("knowledge", "ten-days", "ten days old")
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    assert memory.archive().moved == []
    assert [e.key for e in memory.archive(older_than_days=7).moved] == ["ten-days"]
    with pytest.raises(InputError) as caught:
        memory.archive(older_than_days=0)
    assert caught.value.field == "older_than_days"
    report = memory.import_rows(
        [{"key": "row", "content": "from a list"}, {"key": "", "content": "x"}]
    )
    assert (report.added, report.skipped) == (1, 1) and memory.get("row").content == "from a list"


def test_archived_entries_are_searchable_with_dates(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-04-01")
    memory.remember("bug", "old-kafka-lag", "Kafka consumer lag fixed by raising partitions")
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    memory.archive()
    assert memory.recall("kafka lag").keys == []
    dated = memory.recall("kafka lag", from_date="2026-03-01", to_date="2026-04-30")
    assert dated.keys == ["old-kafka-lag"]


def test_backups_keep_the_newest_ten(memory: Memory) -> None:
    memory.remember("decision", "a", "alpha")
    made = [memory.backup() for _ in range(12)]
    kept = memory.backups()
    assert len(kept) == 10 and kept[0] == made[-1] and made[0] not in kept


def test_session_bias_boosts_files_changed_on_the_branch(project: Path) -> None:
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True,
                       env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})  # fmt: skip

    (project / ".git").rmdir()
    git("init", "-q", "-b", "main")
    for name in ("a.py", "b.py"):
        (project / name).write_text("x = 1\n")
    git("add", ".")
    git("commit", "-q", "-m", "init")
    (project / "b.py").write_text("x = 2\n")
    memory = Memory(project)
    memory.remember("knowledge", "cache-a", "Cache layer keeps sessions warm", file="a.py")
    memory.remember("knowledge", "cache-b", "Cache layer keeps sessions warm", file="b.py")
    plain = memory.recall("cache layer sessions")
    biased = memory.recall("cache layer sessions", session_bias=True)
    assert biased.keys[0] == "cache-b"
    assert biased.hits[0].score > next(h.score for h in plain.hits if h.entry.key == "cache-b")


def test_doctor_counts_the_entries_of_data_toon_whichever_way_it_reads_it(project: Path) -> None:
    """A file in our own shape is counted a row at a time (none kept); any other (here a
    comment line) is read whole: the same count either way."""
    memory = Memory(project)
    for i in range(5):
        memory.remember("decision", f"k-{i}", f"decision {i}")
    memory.compact()
    line = f"{memory.paths.data.name}: valid TOON, 5 entries"
    assert ("ok", line) in memory.doctor()
    memory.paths.data.write_text("# kept by hand\n" + memory.paths.data.read_text())
    assert ("ok", line) in Memory(project).doctor()
