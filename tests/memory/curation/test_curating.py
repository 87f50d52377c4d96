"""``Memory.curation`` through the API: consolidate, reflect, promote, compress on real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import STORES, open_memory
from tests.memory.curation.curating_helpers import seed, store_bytes

from toon_memory import Memory
from toon_memory.errors import InputError, NotFoundError
from toon_memory.model.entry import CONSOLIDATE_MODES


@pytest.fixture(params=STORES)
def memory(request: pytest.FixtureRequest, project: Path) -> Memory:
    mem = open_memory(request, project)
    seed(mem)
    return mem


def status(memory: Memory, key: str) -> str:
    return memory.history(key)[0].status


def test_modes_are_one_constant() -> None:
    from toon_memory.rules.curation import MODES

    assert CONSOLIDATE_MODES == MODES


@pytest.mark.parametrize("mode", CONSOLIDATE_MODES)
def test_a_dry_run_lists_and_writes_nothing(memory: Memory, project: Path, mode: str) -> None:
    before = store_bytes(project)
    report = memory.curation.consolidate(mode)
    assert report.dry_run and report.plan.removals, mode
    assert store_bytes(project) == before
    assert report.to_dict()["applied"] == 0


def test_identical_copies_are_superseded_and_the_kept_entry_gains_their_tags(
    memory: Memory,
) -> None:
    plan = memory.curation.consolidate("identical").plan
    [(gone, keep, score)] = [
        (r.entry.key, r.keep.key, r.similarity) for r in plan.removals if r.keep
    ]
    assert {gone, keep} == {"deploy-main", "deploy-from-tag"} and score == 1.0
    memory.curation.consolidate("identical", dry_run=False)
    assert status(memory, gone) == "superseded"
    kept = memory.get(keep)
    assert {"deploy", "ci"} <= set(kept.tags)
    assert f"supersedes:{gone}" in kept.links
    assert f"superseded_by:{keep}" in memory.history(gone)[0].links
    assert memory.curation.consolidate("identical").plan.removals == ()


def test_similar_pairs_carry_their_similarity_and_merge(memory: Memory) -> None:
    plan = memory.curation.consolidate("similar").plan
    (removal,) = plan.removals
    assert removal.keep is not None
    pair = {removal.entry.key, removal.keep.key}
    assert pair == {"redis-pool", "redis-pool-size"}
    assert removal.keep.quality >= removal.entry.quality
    assert 0.5 < removal.similarity < 1.0
    report = memory.curation.consolidate("similar", dry_run=False)
    assert report.to_dict()["applied"] == 1
    kept = memory.get(removal.keep.key)
    assert {"redis", "perf"} <= set(kept.tags) and "deploy-main" in kept.links
    assert status(memory, removal.entry.key) == "superseded"


def test_restore_brings_back_anything_consolidate_removed(memory: Memory) -> None:
    removed = []
    for mode in CONSOLIDATE_MODES:
        removed += [r.entry.key for r in memory.curation.consolidate(mode, False).plan.removals]
    assert len(removed) >= 4
    assert not {e.key for e in memory.entries()} & set(removed)
    for key in removed:
        assert memory.forget(key, action="restore").status == "active"
    assert set(removed) <= {e.key for e in memory.entries()}


def test_low_quality_forgets_below_the_floor_but_spares_critical_entries(
    memory: Memory,
) -> None:
    memory.remember("warning", "thin-warning", "flaky", importance="critical", origin="inferred")
    plan = memory.curation.consolidate("low-quality", min_quality=0.2).plan
    assert [r.entry.key for r in plan.removals] == ["vague-note"]
    assert memory.curation.consolidate("low-quality", min_quality=0.0).plan.removals == ()
    memory.curation.consolidate("low-quality", dry_run=False, min_quality=0.2)
    assert status(memory, "vague-note") == "obsolete"
    assert memory.get("thin-warning").active
    assert "low-quality" in memory.history("vague-note")[0].meta["consolidated"]


def test_versions_supersede_react_18_by_react_19_and_leave_ports_alone(memory: Memory) -> None:
    memory.remember("knowledge", "stack", "uses React 18")
    memory.remember("knowledge", "stack-now", "uses React 19")
    plan = memory.curation.consolidate("versions").plan
    pairs = {(r.entry.key, r.keep.key if r.keep else "") for r in plan.removals}
    assert pairs == {("react-setup", "react-upgrade"), ("stack", "stack-now")}
    assert all("react 18 -> 19" in r.reason for r in plan.removals)
    memory.curation.consolidate("versions", dry_run=False)
    assert status(memory, "react-setup") == status(memory, "stack") == "superseded"
    assert memory.get("react-upgrade").active and memory.get("stack-now").active
    assert memory.get("api-port").active and memory.get("api-port-dev").active


def test_one_write_even_when_a_kept_entry_absorbs_several(project: Path) -> None:
    """Past the eager-compaction size the journal shows the write: each entry changed once."""
    memory = Memory(project)
    filler = [{"category": "knowledge", "key": f"note-{n}", "content": f"Filler {n} " + "x" * 300}
              for n in range(250)]  # fmt: skip
    rows = [{"category": "knowledge", "key": k, "content": "Lint runs with ruff before commits",
             "tags": k} for k in ("a", "b", "c")]  # fmt: skip
    memory.import_rows(filler + rows)
    memory.compact()
    journal = memory.paths.journal
    lines = len(journal.read_bytes().splitlines()) if journal.exists() else 0
    plan = memory.curation.consolidate("identical", dry_run=False).plan
    assert len(plan.removals) == 2
    assert len(journal.read_bytes().splitlines()) == lines + 3  # two removed, one kept, once each
    (kept,) = [e for e in memory.entries() if e.key in "abc"]
    assert set(kept.tags) == {"a", "b", "c"}


def test_apply_plans_on_the_fresh_state(project: Path) -> None:
    """A duplicate written by another process after this one last read is still consolidated."""
    mine, theirs = Memory(project), Memory(project)
    mine.remember("knowledge", "one", "CI caches the pip wheels between runs")
    assert mine.curation.consolidate("identical").plan.removals == ()
    theirs.remember("bug", "two", "CI caches the pip wheels between runs")
    applied = mine.curation.consolidate("identical", dry_run=False).plan
    assert len(applied.removals) == 1
    assert {applied.removals[0].entry.key, applied.removals[0].keep.key} == {"one", "two"}  # type: ignore[union-attr]
    assert len(Memory(project).entries()) == 1


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"mode": "fuzzy"}, "mode"),
        ({"mode": "similar", "min_quality": 2}, "min_quality"),
        ({"mode": "low-quality", "min_quality": "high"}, "min_quality"),
        ({"dry_run": "maybe"}, "dry_run"),
    ],
)
def test_bad_consolidate_arguments_name_the_field_and_write_nothing(
    memory: Memory, project: Path, arguments: dict[str, object], field: str
) -> None:
    before = store_bytes(project)
    with pytest.raises(InputError) as caught:
        memory.curation.consolidate(**{"dry_run": False, **arguments})  # type: ignore[arg-type]
    assert caught.value.field == field
    assert store_bytes(project) == before


def test_reflect_ranks_stale_low_quality_and_hub_entries(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = Memory(project)
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2025-11-01")
    memory.remember("decision", "old-orm", "We chose SQLAlchemy 1.4 for the ORM in src/db.py",
                    tags="db;orm", file="src/db.py")  # fmt: skip
    monkeypatch.setenv("TOON_MEMORY_TODAY", "2026-07-15")
    seed(memory)
    spokes = [f"module-{n}" for n in range(9)]
    for key in spokes:
        memory.remember("knowledge", key, f"The {key} module talks to the API gateway",
                        tags="api;gateway")  # fmt: skip
    memory.remember("knowledge", "gateway", "The API gateway routes every module", links=spokes)
    memory.remember("knowledge", "keys-script", "Our cleanup script runs the redis KEYS command "
                    "in production every night")  # fmt: skip
    before = store_bytes(project)
    found = memory.curation.reflect(limit=50)
    assert store_bytes(project) == before
    reasons = {a.entry.key: " ".join(a.reasons) for a in found.attention}
    assert "stale: 256 days" in reasons["old-orm"]
    assert "low quality" in reasons["vague-note"]
    assert "hub: 9 links" in reasons["gateway"]
    assert found.attention[0].score >= found.attention[-1].score
    assert ("api", "gateway", 9) in found.tag_pairs
    assert ("keys-script", "no-keys-command") in {(e.key, g.key) for e, g in found.contradictions}
    assert len(memory.curation.reflect(limit=1).attention) == 1


@pytest.mark.parametrize("limit", [0, -3, "many", 10_000])
def test_reflect_rejects_a_bad_limit(memory: Memory, limit: object) -> None:
    with pytest.raises(InputError) as caught:
        memory.curation.reflect(limit)  # type: ignore[arg-type]
    assert caught.value.field == "limit"


def test_promote_graduates_drafts_unless_they_duplicate(memory: Memory, project: Path) -> None:
    memory.remember("knowledge", "ttl-guess", "Session cache TTL is probably five minutes",
                    confidence=0.5)  # fmt: skip
    memory.remember("pattern", "pool-guess", "Redis connection pool must stay at ten connections "
                    "for the worker processes", confidence=0.6)  # fmt: skip
    memory.remember("knowledge", "sure-enough", "Logs go to stdout as JSON", confidence=0.7)
    before = store_bytes(project)
    dry = memory.curation.promote()
    assert store_bytes(project) == before
    assert [e.key for e in dry.plan.promote] == ["ttl-guess"]
    assert [(d.key, o.key) for d, o, _ in dry.plan.duplicates] == [("pool-guess", "redis-pool")]
    done = memory.curation.promote(dry_run=False)
    assert done.to_dict()["applied"] == 1
    assert memory.get("ttl-guess").confidence == done.plan.confidence == 0.75
    assert memory.get("pool-guess").confidence == 0.6
    assert memory.get("sure-enough").confidence == 0.7
    assert memory.curation.promote().plan.promote == ()
    with pytest.raises(InputError) as caught:
        memory.curation.promote(dry_run="perhaps")  # type: ignore[arg-type]
    assert caught.value.field == "dry_run"


def test_compress_with_a_summary_keeps_the_old_version_as_history(
    memory: Memory, project: Path
) -> None:
    memory.pin("redis-pool", 2)
    old = memory.get("redis-pool")
    result = memory.curation.compress("redis-pool", "  Redis pool: max 10 connections (worker).  ")
    assert result.applied and result.history is not None
    now, then = memory.history("redis-pool")
    assert (now.content, now.status) == ("Redis pool: max 10 connections (worker).", "active")
    assert (then.content, then.status, then.id) == (old.content, "superseded", result.history.id)
    assert now.id == old.id and now.priority == 2 and now.tags == old.tags
    assert memory.recall("redis pool").hits[0].entry.content == now.content
    assert result.to_dict()["chars_before"] == len(old.content)


@pytest.mark.parametrize(
    ("key", "summary", "field", "error"),
    [
        ("redis-pool", "   ", "summary", InputError),
        ("redis-pool", "x" * 5000, "summary", InputError),
        ("redis-pool", "Redis connection pool must stay at ten connections for the worker",
         "summary", InputError),
        ("no-such-entry", "short", "key", NotFoundError),
        ("", "short", "key", InputError),
    ],
)  # fmt: skip
def test_bad_compress_arguments_write_nothing(
    memory: Memory, project: Path, key: str, summary: str, field: str, error: type[Exception]
) -> None:
    before = store_bytes(project)
    with pytest.raises(error) as caught:
        memory.curation.compress(key, summary)
    assert getattr(caught.value, "field", None) == field
    assert store_bytes(project) == before


def test_an_entry_consolidated_away_cannot_be_compressed(memory: Memory) -> None:
    (removal,) = memory.curation.consolidate("similar", dry_run=False).plan.removals
    for summary in (None, "shorter"):
        with pytest.raises(InputError) as caught:
            memory.curation.compress(removal.entry.key, summary)
        assert caught.value.field == "key" and "superseded" in caught.value.problem


def test_the_report_names_the_quality_floor_it_used(memory: Memory) -> None:
    assert memory.curation.consolidate("low-quality").to_dict()["min_quality"] == 0.3
    assert memory.curation.consolidate("identical").to_dict()["min_quality"] is None


def test_a_long_plan_is_cut_in_text_but_whole_in_data(project: Path) -> None:
    from toon_memory.render.curation import MAX_LINES, consolidated

    memory = Memory(project)
    rows = [{"category": "knowledge", "key": f"copy-{n}", "content": "Run make lint before pushing"}
            for n in range(MAX_LINES + 6)]  # fmt: skip
    memory.import_rows(rows)
    shown = consolidated(memory.curation.consolidate("identical"), {})
    assert "… 5 more removals" in shown.text
    assert len(shown.data["removals"]) == MAX_LINES + 5


def test_reading_passes_build_no_engine_and_keep_no_state(project: Path) -> None:
    """A dry run, reflect and promote's plan read every entry bare: a process with no state
    loaded builds no search engine for them, writes no pickle and keeps nothing after."""
    seed(Memory(project))
    Memory(project).paths.cache.unlink(missing_ok=True)
    loaded = Memory(project)
    loaded.store.state()
    want = (loaded.curation.consolidate("similar").plan.removals,
            loaded.curation.reflect(), loaded.curation.promote().plan)  # fmt: skip
    loaded.paths.cache.unlink()
    memory = Memory(project)
    got = (memory.curation.consolidate("similar").plan.removals,
           memory.curation.reflect(), memory.curation.promote().plan)  # fmt: skip
    assert got == want and want[0]
    assert memory.store.loaded() is None and not memory.paths.cache.exists()


def test_a_whole_memory_write_of_a_lasting_process_keeps_no_state(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long-lived process (an MCP server) over the on-disk index that applies a
    consolidation (and the compaction after it) reads the state bare and lets it go: no
    search engine built, none kept, and what it wrote is what a fresh process reads."""
    from toon_memory.memory import api

    seed(Memory(project))

    def refused(_entries: object) -> object:
        raise AssertionError("a search engine was built")

    monkeypatch.setattr(api, "_build_engine", refused)
    server = Memory(project)
    report = server.curation.consolidate("identical", dry_run=False)
    assert report.plan.removals and not report.dry_run
    assert server.store.loaded() is None
    gone = {removal.entry.key for removal in report.plan.removals}
    assert {status(server, key) for key in gone} == {"superseded"}
    assert {status(Memory(project), key) for key in gone} == {"superseded"}
