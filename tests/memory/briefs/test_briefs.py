"""The six context briefs through the API, on a real git repository with real session files."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from tests.memory.briefs.helpers import ago, spawn_sessions
from tests.project.gitrepo import git

from toon_memory.errors import InputError
from toon_memory.memory.api import Memory
from toon_memory.render import briefs as render
from toon_memory.render.results import primed
from toon_memory.search.budget import estimate_tokens


def _sessions(memory: Memory) -> None:
    """Two live sessions sharing a file, an ended one 2 hours ago, a stale crashed one."""
    folder = memory.paths.folder
    spawn_sessions(
        folder,
        {"id": "claude-1", "agent": "claude", "files": ["src/orders/api.py", "README.md"]},
        {"id": "codex-2", "agent": "codex", "branch": "fix", "files": ["src/orders/api.py"]},
        {"id": "cursor-old", "agent": "cursor", "seen": ago(hours=2), "ended": True,
         "files": ["src/orders/cache.py"], "pid": os.getppid()},
        {"id": "crashed-3", "agent": "aider", "seen": ago(hours=5), "files": ["x.py"]},
    )  # fmt: skip


# -- generate ---------------------------------------------------------------------------------
def test_generate_reads_the_project_git_memory_and_sessions(memory: Memory) -> None:
    _sessions(memory)
    briefing = memory.context.generate()
    assert briefing.project.name == "orders"
    assert briefing.project.package_manager == "uv"
    assert [lang.name for lang in briefing.project.languages] == ["Python", "TypeScript"]
    git_ = briefing.git
    assert (git_.branch, git_.uncommitted) == ("main", 1)
    assert git_.untracked == 2  # notes.md and the memory folder
    assert git_.last_commit is not None and git_.last_commit.subject == "Test cache expiry"
    assert briefing.primer.counts == {"decision": 1, "pattern": 1, "warning": 1, "bug": 1,
                                      "knowledge": 1}  # fmt: skip
    assert sorted(s.id for s in briefing.sessions.sessions) == ["claude-1", "codex-2"]
    assert briefing.sessions.conflicts == {"src/orders/api.py": ["claude-1", "codex-2"]}
    text = render.generated(briefing, {}).text
    for expected in ("## Project", "- Name: orders", "- Package manager: uv", "Python >=3.11",
                     "TypeScript ^5.4.2", "- Branch: main", "- 1 uncommitted, 2 untracked",
                     "Test cache expiry", "- 5 entries", "[decision] cache-ttl",
                     "⚠ src/orders/api.py: touched by claude-1, codex-2",
                     "codex-2 (codex, fix, just now): 1 file: src/orders/api.py"):  # fmt: skip
        assert expected in text, expected
    assert "left out" not in text


def test_generate_outside_a_repository_says_so(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    (root / ".toon-memory").mkdir(parents=True)
    memory = Memory(root)
    text = render.generated(memory.context.generate(), {}).text
    assert "- Not a git repository" in text and "- 0 entries (none)" in text
    assert "Branch (no git)" in text


# -- diff -------------------------------------------------------------------------------------
def test_diff_since_the_last_session(memory: Memory, repo: Path) -> None:
    _sessions(memory)
    memory.remember("decision", "new-idea", "Orders are cached per tenant")
    memory.tag("cache-ttl", "add", "reviewed")
    memory.forget("deploy-day")
    changes = memory.context.diff()
    assert changes.basis.startswith("the last session (cursor-old, cursor; ended ")
    assert [c.subject for c in changes.commits] == ["Test cache expiry", "Cache entries expire"]
    assert set(changes.files) == {"src/orders/api.py", "notes.md", "tests/test_cache.py",
                                  "src/orders/cache.py"}  # fmt: skip
    assert [e.key for e in changes.created] == ["new-idea"]
    assert [e.key for e in changes.updated] == ["cache-ttl"]
    assert [(e.key, e.status) for e in changes.forgotten] == [("deploy-day", "obsolete")]
    text = render.diffed(changes, {}).text
    assert "## Memory (1 new, 1 updated, 1 forgotten)" in text
    assert "- forgotten [knowledge] deploy-day (obsolete)" in text
    assert "## Commits (2)" in text and ".toon-memory" not in text


def test_the_last_session_is_never_an_active_or_own_one(memory: Memory) -> None:
    folder = memory.paths.folder
    spawn_sessions(folder, {"id": "busy", "agent": "codex"},
                   {"id": "mine", "seen": ago(hours=1), "ended": True, "pid": os.getpid()})  # fmt: skip
    changes = memory.context.diff()
    assert changes.basis == "24h (no earlier session on record)"
    assert changes.since == (ago(days=1)).date().isoformat()
    memory.sessions.current = "other"
    spawn_sessions(folder, {"id": "other", "seen": ago(minutes=90), "ended": True,
                            "pid": os.getppid()})  # fmt: skip
    assert memory.context.diff().basis == "24h (no earlier session on record)"


def test_the_last_session_outlives_the_pruning_of_its_file(memory: Memory) -> None:
    folder = memory.paths.folder
    spawn_sessions(folder, {"id": "gone-1", "agent": "claude", "seen": ago(hours=3),
                            "ended": True})  # its process exits: the file is pruned at once  # fmt: skip
    memory.context.brief()
    assert memory.store.sessions().get("gone-1") is None
    assert memory.context.diff().basis.startswith("the last session (gone-1, claude; ended ")
    fresh = Memory(memory.root)  # another process never saw it
    assert fresh.context.diff().basis == "24h (no earlier session on record)"


def test_diff_since_a_window_or_a_date(memory: Memory, repo: Path) -> None:
    week = memory.context.diff(since="7d")
    assert [c.subject for c in week.commits][-1] == "Initial orders service"
    assert week.basis == "7d"
    assert len(week.created) == 5  # the seeded entries, created five days ago
    day = memory.context.diff(since=ago(days=1).date().isoformat())
    assert [c.subject for c in day.commits] == ["Test cache expiry", "Cache entries expire"]
    with pytest.raises(InputError) as caught:
        memory.context.diff(since="last tuesday")
    assert caught.value.field == "since"


# -- focus ------------------------------------------------------------------------------------
def test_focus_gathers_memories_files_callers_and_tests(memory: Memory) -> None:
    focus = memory.context.focus("why is load_order stale in src/orders/service.py?")
    assert focus.entries[0].key in {"service-layer", "stale-orders"}
    assert focus.files[0] == "src/orders/service.py"
    assert "src/orders/cache.py" in focus.files  # named by a matching memory
    assert "src/orders/old_cache.py" not in focus.files  # a memory's missing file
    assert "load_order" in focus.symbols
    callers = {(h.file, h.line) for h in focus.callers}
    assert ("src/orders/api.py", 1) in callers and ("tests/test_service.py", 1) in callers
    assert all("def load_order" not in h.text for h in focus.callers)  # definitions dropped
    assert focus.tests["src/orders/service.py"] == ["tests/test_service.py"]
    assert focus.tests["src/orders/cache.py"] == ["tests/test_cache.py"]
    text = render.focused(focus, {}).text
    assert text.startswith("# Focus: why is load_order stale in src/orders/service.py?")
    assert "- tests/test_service.py (tests src/orders/service.py)" in text
    assert "- src/orders/api.py:1: from orders.service import load_order" in text


@pytest.mark.parametrize("query", ["", "   ", None])
def test_focus_needs_a_query(memory: Memory, query: str | None) -> None:
    with pytest.raises(InputError) as caught:
        memory.context.focus(query)  # type: ignore[arg-type]
    assert caught.value.field == "query"


def test_focus_without_git_or_matches_is_empty_not_an_error(tmp_path: Path) -> None:
    root = tmp_path / "bare"
    (root / ".toon-memory").mkdir(parents=True)
    focus = Memory(root).context.focus("anything at all")
    assert (focus.entries, focus.files, focus.callers, focus.tests) == ((), (), (), {})
    text = render.focused(focus, {}).text
    assert "- none match" in text and "- none named" in text


# -- health -----------------------------------------------------------------------------------
def test_health_finds_every_kind_and_counts_stale_sessions_before_pruning(memory: Memory) -> None:
    _sessions(memory)
    memory.remember("pattern", "copy", "Handlers call load_order() in the service layer, never "
                    "the cache directly", links="service-layer missing-key")  # fmt: skip
    memory.remember("bug", "scoped", "Legacy export breaks", path_scope="src/legacy/*.py")
    memory.import_rows(
        [{"category": "knowledge", "key": "sprint", "content": "Sprint ends", "ttl": "2026-07-01"}]
    )  # expired (a remember would archive it at once)
    report = memory.context.health()
    kinds = report.kinds()
    assert kinds == {"orphan_link": 1, "duplicate": 1, "broken_file": 1, "expired_ttl": 1,
                     "missing_evidence": 1, "stale_session": 1}  # fmt: skip
    assert report.score == 100 - (3 + 3 + 4 + 2 + 2 + 1)
    assert report.stale_sessions == 1
    sessions = {s.id for s in memory.store.sessions().read()}
    assert "crashed-3" not in sessions  # pruned after it was counted
    assert memory.context.health().stale_sessions == 0
    text = render.audited(report, {}).text
    assert text.startswith(f"# Memory health (score: {report.score}/100)")
    assert "- Orphan link: copy -> missing-key (key not found)" in text
    assert "- src/orders/old_cache.py (missing, 1 ref)" in text


def test_health_equals_the_pure_findings(memory: Memory, repo: Path) -> None:
    from toon_memory.model.clock import today
    from toon_memory.rules.curation.health import health_findings

    memory.remember("pattern", "copy", "Never build SQL with f-strings", links="nowhere")
    report = memory.context.health()
    entries = memory.entries(include_inactive=True)
    expected = health_findings(entries, today(), lambda p: (repo / p).exists() or "*" in p)
    assert list(report.findings) == expected


def test_health_cache_follows_the_store(memory: Memory) -> None:
    first = memory.context.health()
    again = memory.context.health()
    assert again.findings == first.findings
    cache = memory.context._findings
    assert cache is not None
    cached = cache.findings(memory.store)[1]
    assert cache.findings(memory.store)[1] is cached  # same state: not recomputed
    memory.remember("warning", "dupe", "Never build SQL with f-strings")
    assert cache.findings(memory.store)[1] is not cached
    kinds = memory.context.health().kinds()
    assert kinds.get("duplicate") == 1
    memory.compact()
    assert memory.context.health().kinds() == kinds


def test_a_new_process_reads_the_findings_from_the_sidecar(memory: Memory) -> None:
    from dataclasses import replace

    from toon_memory.memory.briefs.audit import FindingsCache
    from toon_memory.rules.curation.health import Finding
    from toon_memory.store.sidecar import load_sidecar, save_sidecar, sidecar_path

    memory.context.health()
    path = sidecar_path(memory.paths, "findings")
    key, found = pickle.loads(path.read_bytes())
    assert load_sidecar(path, key) == found
    marked = replace(found, claims=(Finding("stale_claim", "marker", "planted in the sidecar"),))
    save_sidecar(path, key, marked)
    fresh = Memory(memory.root)  # as a new process would: nothing in memory yet
    assert "marker" in [f.key for f in fresh.context.health().findings]
    fresh.remember("knowledge", "new-fact", "Something new")  # a write: the key moves on
    assert "marker" not in [f.key for f in fresh.context.health().findings]
    path.write_bytes(b"damaged")
    again = FindingsCache().findings(Memory(memory.root).store)[1]
    assert again == fresh.context._findings.findings(fresh.store)[1]  # type: ignore[union-attr]


def test_health_sees_a_file_disappear_without_a_write(memory: Memory, repo: Path) -> None:
    assert memory.context.health().kinds().get("broken_file") == 1
    (repo / "src/orders/cache.py").unlink()
    assert memory.context.health().kinds()["broken_file"] == 2


# -- export, brief ------------------------------------------------------------------------------
def test_export_lists_every_entry_by_category(memory: Memory) -> None:
    export = memory.context.export()
    assert len(export.entries) == 5 and export.project == "orders"
    text = render.exported(export, {}).text
    assert text.startswith("# Project memory: orders (5 entries)")
    assert "## Decisions (1)\n- **cache-ttl**: Cached orders expire after 300 s" in text
    assert "(src/orders/cache.py)" in text
    compact = render.exported(memory.context.export(compact=True), {}).text
    assert "- cache-ttl: Cached orders expire" in compact and "**" not in compact
    assert len(compact) < len(text)


def test_brief_has_memory_sessions_and_health(memory: Memory) -> None:
    _sessions(memory)
    brief = memory.context.brief()
    text = render.briefed(brief, {}).text
    assert text.startswith("# Context brief")
    for part in ("## Memory", "## Top entries", "## Sessions", "## Health", "- Score 95/100"):
        assert part in text, part
    data = render.briefed(brief, {}).data
    assert data["kind"] == "brief" and data["sessions"] == 2 and data["left_out"] == {}
    json.dumps(data)


# -- budgets ------------------------------------------------------------------------------------
def _all(memory: Memory, budget: int) -> list[str]:
    c = memory.context
    return [
        render.briefed(c.brief(budget), {}).text,
        render.generated(c.generate(budget), {}).text,
        render.diffed(c.diff("7d", budget), {}).text,
        render.focused(c.focus("load_order cache service", budget), {}).text,
        render.audited(c.health(budget), {}).text,
        render.exported(c.export(False, budget), {}).text,
        primed(memory.primer(10, budget), {}).text,
    ]


@pytest.mark.parametrize("budget", [50, 80, 150, 300])
def test_every_brief_fits_its_budget_and_says_what_it_left_out(memory: Memory, budget: int) -> None:
    _sessions(memory)
    for i in range(40):
        memory.remember("knowledge", f"fact-{i}", f"Fact number {i} about load_order and the "
                        f"cache in src/orders/cache.py, with detail {i * 7}")  # fmt: skip
    full = _all(memory, 0)
    for text, unlimited in zip(_all(memory, budget), full, strict=True):
        assert estimate_tokens(text) <= budget, text
        if estimate_tokens(unlimited) > budget:
            assert f"left out to fit the {budget}-token budget" in text or (
                f"left out (budget {budget})" in text
            ), text
        else:
            assert text == unlimited


def test_the_default_budget_bounds_a_large_memory(memory: Memory) -> None:
    rows = [{"category": "knowledge", "key": f"k{i}", "content": f"Entry {i} " + "words " * 30}
            for i in range(400)]  # fmt: skip
    memory.import_rows(rows)
    for text in _all(memory, 1500):
        assert estimate_tokens(text) <= 1500
    export = render.exported(memory.context.export(), {})
    assert export.data["left_out"]["entry"] > 300
    assert estimate_tokens(render.exported(memory.context.export(budget_tokens=0), {}).text) > 5000


@pytest.mark.parametrize("budget", [-5, 10, "lots"])
def test_a_bad_budget_is_refused_by_every_brief(memory: Memory, budget: object) -> None:
    c = memory.context
    calls = [lambda: c.brief(budget), lambda: c.generate(budget), lambda: c.diff(None, budget),
             lambda: c.focus("x", budget), lambda: c.health(budget), lambda: c.export(False, budget),
             lambda: memory.primer(10, budget)]  # type: ignore[arg-type]  # fmt: skip
    for call in calls:
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.field == "budget_tokens"


# -- primer -------------------------------------------------------------------------------------
def test_primer_lists_the_files_changed_in_this_session(memory: Memory, repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src/orders/new.py").write_text("x = 1\n")
    git(repo, "add", "src/orders/new.py")
    git(repo, "commit", "-q", "-m", "New module")
    primer = memory.primer()
    assert primer.session_files == ["notes.md", "src/orders/api.py", "src/orders/new.py"]
    rendered = primed(primer, {})
    assert "## Files changed in this session\n- notes.md" in rendered.text
    assert rendered.data["session_files"] == primer.session_files
    with pytest.raises(InputError, match="limit"):
        memory.primer(0)


def test_health_reads_the_entries_bare_and_lets_them_go(tmp_path: Path) -> None:
    """A process over the on-disk index (every process, by default) that asks for health
    or a brief builds no search engine, writes no pickle and keeps no state afterwards:
    at 100,000 entries that was a 13 s engine build and ~800 MB kept by a server."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    writer = Memory(project)
    for i in range(12):
        writer.remember("knowledge", f"fact-{i}", f"Fact number {i} about the orders service")
    writer.remember("warning", "dupe", "Fact number 3 about the orders service")
    writer.paths.cache.unlink(missing_ok=True)
    memory = Memory(project)
    assert memory.store.loaded() is None
    kinds = memory.context.health().kinds()
    assert kinds.get("duplicate")
    assert memory.context.brief().health.findings
    assert memory.store.loaded() is None and not memory.paths.cache.exists()
    loaded = Memory(project)
    loaded.store.state()  # a process that has its state keeps it
    assert loaded.context.health().kinds() == kinds and loaded.store.loaded() is not None
