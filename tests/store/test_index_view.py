"""A writer's view of the index answers every lookup as the full state does.

Properties: after any sequence of remembers, merges, forgets, pins, tags and recalls
(accesses), ``IndexView`` (``store.index_view``) and the loaded ``State`` agree on
every ``Lookup`` question (``stats`` included); single-entry changes made without the state loaded are
durable and seen by the next process; a change that needs every entry (the
auto-archive cap) still runs, over the state.
"""

from __future__ import annotations

import json
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.conftest import no_entry_cap, run_cli

from toon_memory import Memory
from toon_memory.errors import NotFoundError
from toon_memory.model.entry import Entry
from toon_memory.store.codec import encode_document
from toon_memory.store.compaction import EAGER_COMPACT_BYTES
from toon_memory.store.index_view import IndexView
from toon_memory.store.paths import MemoryPaths
from toon_memory.store.state import Lookup

_KEYS = [f"k{i}" for i in range(6)]


@pytest.fixture(autouse=True)
def lean_at_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes go through the index from the first byte (by default only from 4 MiB on)."""
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", "0")


_WORDS = ["redis", "pool", "timeout", "auth", "token", "deploy", "queue"]

_remember = st.tuples(st.just("remember"), st.sampled_from(_KEYS),
                      st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4),
                      st.sampled_from(["", "2026-08-01", "2026-06-01"]))  # fmt: skip
_other = st.tuples(st.sampled_from(["soft", "hard", "pin", "tag", "recall"]),
                   st.sampled_from(_KEYS))  # fmt: skip
_steps = st.lists(st.one_of(_remember, _other), min_size=1, max_size=14)


def _apply(memory: Memory, step: tuple[object, ...]) -> None:
    kind, key = step[0], str(step[1])
    try:
        if kind == "remember":
            words, ttl = step[2], str(step[3])
            memory.remember("decision", key, " ".join(map(str, words)), ttl=ttl)  # type: ignore[call-overload]
        elif kind in ("soft", "hard"):
            memory.forget(key, str(kind))
        elif kind == "pin":
            memory.pin(key, 2)
        elif kind == "tag":
            memory.tag(key, "add", "extra")
        else:
            memory.recall(key)
    except NotFoundError:
        pass


def _facts(look: Lookup, ids: list[str]) -> dict[str, object]:
    return {
        "each": [e.to_row() for e in look.each()],
        "get": {i: (e.to_row() if (e := look.get(i)) else None) for i in [*ids, "ffffffff"]},
        "by_key": {k: (e.id if (e := look.by_key(k)) else None) for k in _KEYS},
        "with_key": {k: [e.id for e in look.with_key(k)] for k in _KEYS},
        "versions": {k: [e.id for e in look.versions(k)] for k in _KEYS},
        "rows": {e.id: look.persisted_row(e) for e in look.each()},
        "taken": {i: i in look.taken for i in [*ids, "ffffffff"]},
        "active": look.active_count(),
        "stats": repr(look.stats(date(2026, 7, 15), 3)),
    }


def _view(memory: Memory) -> IndexView:
    view = memory._recaller.lean()
    assert view is not None, "a plain memory has a usable index"
    return view


@settings(max_examples=25)
@given(_steps)
@example(
    [
        ("remember", "k1", ["redis"], ""),
        ("remember", "k1", ["pool"], ""),
        ("recall", "k1"),
        ("remember", "k1", ["auth"], "2026-06-01"),
    ]
)  # CI found an order once
def test_the_view_answers_every_lookup_as_the_state(steps: list[tuple[object, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        _past_eager_compaction(project, 250)  # writes stay in the journal, on the lean path
        memory = Memory(project)
        for number, step in enumerate(steps):
            if number % 2 == 0:  # a fresh process now and then: it writes through the index
                memory = Memory(project)
            _apply(memory, step)
        fresh = Memory(project)
        view = _view(fresh)
        assert fresh.store.loaded() is None
        with view.db.reading():
            ids = [e.id for e in view.each()]
            seen = _facts(view, ids)
            exact = min((e.ttl for e in view.each() if e.active and e.ttl), default="")
            assert view.lowest_ttl() == exact
        state = Memory(project).store.state()
        assert seen == _facts(state, ids)
        assert not exact or "" < state.lowest_ttl() <= exact  # the state keeps a lower bound


def _past_eager_compaction(project: Path, n: int = 400) -> None:
    """A data.toon big enough that a write goes to the journal (no compaction after it)."""
    no_entry_cap(project)
    paths = MemoryPaths.for_project(project)
    filler = [Entry(id=f"{i:08x}", category="knowledge", key=f"filler-{i}",
                    content=f"filler entry {i} about queues and workers " * 3, date="2026-07-01",
                    created="2026-07-01T00:00:00Z", updated="2026-07-01T00:00:00Z")
              for i in range(n)]  # fmt: skip
    paths.data.write_text(encode_document(filler, []), encoding="utf-8")
    assert paths.data.stat().st_size > EAGER_COMPACT_BYTES


def test_a_remember_in_a_fresh_process_reads_no_state(project: Path) -> None:
    _past_eager_compaction(project)
    first = Memory(project)
    first.remember("decision", "use-redis", "Use Redis for the session cache")
    first.recall("redis")  # the index is built and current
    second = Memory(project)
    saved = second.remember("decision", "pool-size", "Pool size 20 for the API workers")
    second.remember("decision", "use-redis", "Use Redis 7 for the session cache")
    second.forget("pool-size")
    assert second.store.loaded() is None, "single-entry writes went through the index"
    third = Memory(project)
    assert third.get("use-redis").content == "Use Redis 7 for the session cache"
    assert third.get(saved.entry.id).status == "obsolete"
    assert [e.content for e in third.history("use-redis")][1] == "Use Redis for the session cache"
    assert third.store.state().by_key("use-redis") is not None  # the files agree


def test_the_archive_cap_still_runs_when_writes_go_through_the_index(project: Path) -> None:
    Memory(project).init()
    config = project / ".toon-memory" / "memory" / "config.json"
    config.write_text(json.dumps({"autoArchive": {"maxEntries": 3}}))
    for i in range(5):
        memory = Memory(project)
        memory.recall("warm")  # index current: the next remember starts on the lean path
        memory.remember("knowledge", f"note-{i}", f"note number {i} about queues")
    last = Memory(project)
    assert last.stats().active == 3
    archived = {e.key for e in last.store.read_archive()}
    assert len(archived) == 2 and "note-4" not in archived


@pytest.mark.parametrize("action", ["get", "history"])
def test_an_unknown_key_is_still_a_clear_error_over_the_index(project: Path, action: str) -> None:
    _past_eager_compaction(project)
    memory = Memory(project)
    memory.remember("decision", "known", "a known entry")
    memory.recall("known")
    fresh = Memory(project)
    with pytest.raises(NotFoundError, match="unknown"):
        getattr(fresh, action)("unknown")
    assert fresh.store.loaded() is None


def test_a_small_memory_writes_over_its_state(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under TOON_MEMORY_LEAN_BYTES a long-lived process keeps the state: faster writes."""
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", str(64 * 1024 * 1024))
    _past_eager_compaction(project)
    memory = Memory(project)
    memory.recall("warm")
    memory.remember("decision", "small", "a small memory keeps its state loaded")
    assert memory.store.loaded() is not None
    assert Memory(project).get("small").content == "a small memory keeps its state loaded"


def test_a_one_shot_process_writes_a_small_memory_over_the_index(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under TOON_MEMORY_LEAN_BYTES a CLI command (``Memory(one_shot=True)``) still reads and
    writes single entries over the index, in real subprocesses: it never loads the whole
    state, so it writes no pickle of every entry; a long-lived process then reads it all."""
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", str(64 * 1024 * 1024))
    _past_eager_compaction(project)
    memory = Memory(project)
    memory.recall("warm")  # the index, built once
    memory.paths.cache.unlink(missing_ok=True)
    for args in (
        ["remember", "-c", "decision", "-k", "cli-made", "-m", "made by one call"],
        ["get", "filler-3"],
        ["forget", "filler-4"],
        ["pin", "filler-5"],
        ["stats"],
    ):
        run_cli(*args, project=project, check=True)
        assert not memory.paths.cache.exists(), args  # the state was never loaded
    one = Memory(project, one_shot=True)
    one.remember("decision", "in-process", "one call, one process")
    assert one.get("filler-5").priority and one.store.loaded() is None
    lasting = Memory(project)  # a long-lived process loads a small memory's state once
    lasting.remember("decision", "lasting", "kept in memory")
    assert lasting.store.loaded() is not None
    assert lasting.get("cli-made").content == "made by one call"
    assert lasting.get("in-process").content == "one call, one process"
    assert lasting.get("filler-4").status != "active"
    assert lasting.stats().total == Memory(project, one_shot=True).stats().total == 403
