"""``Memory.export`` (``memory.exporting``): streamed from the on-disk index where it
serves, from the bare state otherwise, the same bytes either way.

Properties: after any history of remembers (a repeated key merges), forgets, pins,
tags, recalls (accesses), summaries and compactions, a one-shot process's export,
streamed from the index without loading the state, is byte for byte the export of the
state as ``Transfer.export`` wrote it before it streamed; an encrypted memory, an index
that cannot be opened and files that moved under the index fall back to the state.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import run_cli
from tests.store.test_export_json import reference
from tests.store.test_index_view import _past_eager_compaction

from toon_memory import Memory
from toon_memory.errors import NotFoundError
from toon_memory.search.corpus import analyse
from toon_memory.store.export_json import export_from_index
from toon_memory.store.index_db import drop_index, index_path
from toon_memory.system.atomic import write_atomic

_KEYS = [f"k{i}" for i in range(5)]
_WORDS = ["redis", "pool", "timeout", "naïve", "line\nbreak", "sep\u2028arator", "a\x85", '"q"']

_remember = st.tuples(st.just("remember"), st.sampled_from(_KEYS),
                      st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4))  # fmt: skip
_summary = st.tuples(st.just("summary"), st.sampled_from(["a.py", "b.py", "ü.py"]),
                     st.sampled_from(_WORDS))  # fmt: skip
_other = st.tuples(st.sampled_from(["soft", "hard", "pin", "tag", "recall", "compact"]),
                   st.sampled_from(_KEYS))  # fmt: skip
_steps = st.lists(st.one_of(_remember, _summary, _other), min_size=1, max_size=12)


def _apply(memory: Memory, step: tuple[object, ...]) -> None:
    kind, name = step[0], str(step[1])
    try:
        if kind == "remember":
            words = step[2]
            assert isinstance(words, list)
            memory.remember("decision", name, " ".join(words))
        elif kind == "summary":
            memory.summary(name, str(step[2]))
        elif kind in ("soft", "hard"):
            memory.forget(name, str(kind))
        elif kind == "pin":
            memory.pin(name, 2)
        elif kind == "tag":
            memory.tag(name, "add", "extra")
        elif kind == "recall":
            memory.recall(name)
        else:
            memory.compact()
    except NotFoundError:
        pass


def _state_export(project: Path) -> bytes:
    state = Memory(project).store.bare_state()
    return reference(list(state.entries.values()), list(state.summaries.values()))


@settings(max_examples=20)
@given(_steps)
def test_a_streamed_export_is_the_states_byte_for_byte(steps: list[tuple[object, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project, out = Path(tmp) / "project", Path(tmp) / "export.json"
        project.mkdir()
        _past_eager_compaction(project, 250)  # writes stay in the journal, on the lean path
        for number, step in enumerate(steps):
            _apply(Memory(project, one_shot=number % 2 == 0), step)
        one = Memory(project, one_shot=True)
        count = one.export(out)
        assert one.store.loaded() is None, "streamed from the index, no state loaded"
        assert out.read_bytes() == _state_export(project)
        assert count == len(Memory(project).store.bare_state().entries)


def test_an_export_never_builds_the_engine_nor_writes_the_cache(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOON_MEMORY_LEAN_BYTES", str(64 * 1024 * 1024))  # the state, not the index
    memory = Memory(project)
    memory.remember("decision", "use-redis", "Use Redis for the session cache")
    memory.summary("app.py", "the app")
    memory.paths.cache.unlink(missing_ok=True)  # (a compaction over the state may write it)
    long_lived = Memory(project)  # a small memory: read from the bare state
    assert long_lived.export(tmp_path / "a.json") == 1
    state = long_lived.store.loaded()
    assert state is not None and state.derived is None
    assert not memory.paths.cache.exists()
    one = Memory(project, one_shot=True)
    assert one.export(tmp_path / "b.json") == 1 and one.store.loaded() is None
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert (tmp_path / "a.json").read_bytes() == _state_export(project)


def test_an_index_that_cannot_be_opened_falls_back_to_the_state(
    project: Path, tmp_path: Path
) -> None:
    memory = Memory(project)
    memory.remember("decision", "use-redis", "Use Redis for the session cache")
    drop_index(memory.paths)
    index_path(memory.paths).mkdir()  # no SQLite file can be made there
    one = Memory(project, one_shot=True)
    assert one.export(tmp_path / "out.json") == 1
    assert one.store.loaded() is not None
    assert (tmp_path / "out.json").read_bytes() == _state_export(project)


def test_files_that_moved_under_the_index_write_nothing(project: Path, tmp_path: Path) -> None:
    """data.toon replaced between the index's sync and the export (a git pull): nothing is
    written and the caller reads the state; a compaction meanwhile moves the index along
    with the files (``index_anchor.reanchor``), so it still serves."""
    _past_eager_compaction(project, 250)
    memory = Memory(project, one_shot=True)
    memory.remember("decision", "use-redis", "Use Redis for the session cache")
    db = memory.store.index(analyse, None)
    assert db is not None
    out = tmp_path / "out.json"
    try:
        Memory(project).compact()
        assert export_from_index(memory.paths, db, out) == 251
        assert out.read_bytes() == _state_export(project)
        out.unlink()
        write_atomic(memory.paths.data, memory.paths.data.read_bytes())  # another file
        assert export_from_index(memory.paths, db, out) is None
    finally:
        db.close()
    assert not out.exists()
    assert memory.export(out) == 251
    assert out.read_bytes() == _state_export(project)


def test_the_cli_streams_an_export_in_a_real_process(project: Path, tmp_path: Path) -> None:
    _past_eager_compaction(project, 300)
    memory = Memory(project)
    memory.remember("decision", "naïve", 'sep\u2028arator \x85 and a "quote"\nnew line')
    memory.summary("ü.py", "a summary")
    memory.forget("filler-3")
    run_cli("recall", "queues", project=project, check=True)  # the index, built once
    memory.paths.cache.unlink(missing_ok=True)
    out = tmp_path / "out.json"
    done = run_cli("export", str(out), project=project, check=True)
    assert "301" in done.stdout
    assert not memory.paths.cache.exists(), "the state was never loaded"
    assert out.read_bytes() == _state_export(project)


@pytest.mark.usefixtures("passphrase")
def test_an_encrypted_memory_exports_from_the_state(project: Path, tmp_path: Path) -> None:
    memory = Memory(project)
    memory.remember("decision", "use-redis", "Use Redis for the session cache")
    memory.summary("app.py", "the app")
    memory.security.encrypt()
    one = Memory(project, one_shot=True)
    assert one.export(tmp_path / "out.json") == 1
    assert one.store.loaded() is not None
    assert not index_path(memory.paths).exists()
    assert (tmp_path / "out.json").read_bytes() == _state_export(project)


@pytest.fixture
def passphrase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOON_MEMORY_KEY", "correct horse battery staple")
