"""A rebuilt index reads data.toon a row at a time, then the logs, and answers as the state.

Properties: for any data.toon, journal and access log, the index a process rebuilds
without loading the state (``index_sync._streamed``: the file's rows, then the logs'
operations and access lines caught up) holds every entry exactly as the state has
it (access counts and the journal's changes included) and ranks exactly as the
engine over the whole state, in every mode. A data.toon it cannot stream (an id
twice, a comment, Windows line ends, a TypeScript file) is read whole: the same
answers; a row no reader accepts is the same error as before, and leaves no index
behind. Real files in a temp folder, real processes' views (a fresh ``Memory``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY
from tests.store.test_index_db import _KEYS, _OPTIONS, _QUERIES, _WORDS, _entry, _extras

from toon_memory import Memory
from toon_memory.errors import CorruptFileError
from toon_memory.model.entry import Entry
from toon_memory.search import RecallOptions, RecallResult
from toon_memory.search.corpus import analyse
from toon_memory.search.engine import Ranker
from toon_memory.search.source import SourceCorpus
from toon_memory.store import journal
from toon_memory.store.codec import encode_document
from toon_memory.store.index_db import IndexDb
from toon_memory.store.store import Store

_DAYS = st.sampled_from(["2026-07-01", "2026-07-14", "2026-06-30"])


@st.composite
def _history(draw: st.DrawFn) -> tuple[list[Entry], list[journal.Op], list[tuple[int, str]]]:
    """data.toon's entries (distinct ids), journal operations over them and new ones, and
    access-log lines (an index into the ids seen, or past them: an unknown id)."""
    words, links = (
        st.lists(st.sampled_from(_WORDS), max_size=6),
        st.lists(st.sampled_from(_KEYS), max_size=3),
    )
    entries = st.builds(_entry, st.sampled_from(_KEYS), words, links, _extras)
    snapshot = list({e.id: e for e in draw(st.lists(entries, max_size=10))}.values())
    ops: list[journal.Op] = []
    for step in draw(
        st.lists(st.one_of(entries, st.sampled_from(_KEYS), st.just("sum")), max_size=10)
    ):
        if isinstance(step, Entry):
            ops.append(journal.put(step.to_row()))
        elif step == "sum":
            ops.append(journal.put_summary("src/a.py", "a summary", "2026-07-01"))
        else:
            ops.append(journal.delete(_entry(step, [], [], {}).id))
    accesses = draw(st.lists(st.tuples(st.integers(0, 20), _DAYS), max_size=8))
    return snapshot, ops, accesses


def _write(
    project: Path, history: tuple[list[Entry], list[journal.Op], list[tuple[int, str]]]
) -> Memory:
    snapshot, ops, accesses = history
    memory = Memory(project, one_shot=True)
    paths = memory.paths
    paths.folder.mkdir(parents=True, exist_ok=True)
    paths.data.write_text(encode_document(snapshot, []), encoding="utf-8")
    if ops:
        journal.append_ops(paths.journal, ops)
    ids = [e.id for e in snapshot] + [str(op.data["entry"]["id"]) for op in ops if op.kind == "put"]
    lines = [f"{ids[i] if i < len(ids) else 'ffffffff'} {day}\n" for i, day in accesses]
    paths.access_log.write_text("".join(lines), encoding="utf-8")
    return memory


def _streamed_index(memory: Memory) -> IndexDb:
    """The index this fresh process rebuilds, its state never read (it would raise)."""

    def refused(*_args: object, **_kw: object) -> object:
        raise AssertionError("the rebuild read the whole state")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Store, "state", refused)
        db = memory.store.index(analyse, None)
    assert db is not None and memory.store.loaded() is None
    return db


def _summary(result: RecallResult) -> list[object]:
    hits = [(h.entry.id, round(h.score, 9), h.relevance, h.hop, h.via) for h in result.hits]
    return [hits, result.edges, result.total]


def _same_as_the_state(project: Path, db: IndexDb) -> None:
    state = Memory(project).store.state()
    with db.reading():
        rows = {e.id: e.to_row() for e in (db.entry(i) for i in state.entries) if e is not None}
        assert rows == {e.id: e.to_row() for e in state.entries.values()}
        assert db.count() == len(state.entries)
        for query in _QUERIES:
            for extra in _OPTIONS:
                opts = RecallOptions(query=query, limit=6, **extra)  # type: ignore[arg-type]
                got = Ranker(SourceCorpus(db)).recall(opts, today=TODAY)
                want = state.derived.recall(opts, today=TODAY)
                assert _summary(got) == _summary(want), (query, extra)


@given(history=_history())
@settings(max_examples=40, deadline=None)
def test_a_rebuild_from_the_files_holds_and_ranks_as_the_state(
    tmp_path_factory: pytest.TempPathFactory,
    history: tuple[list[Entry], list[journal.Op], list[tuple[int, str]]],
) -> None:
    project = tmp_path_factory.mktemp("project")
    db = _streamed_index(_write(project, history))
    try:
        assert db.builds() == 1
        _same_as_the_state(project, db)
    finally:
        db.close()


def _hand_edited(project: Path, edit: str) -> Memory:
    entries = [_entry(key, ["redis", "timeout", key], [], {}) for key in _KEYS[:4]]
    if edit == "an id twice":  # the whole read keeps the last row at the first's place
        entries.append(entries[0].copy(content="auth token k0"))
    update = journal.put(entries[1].copy(content="worker pool").to_row())
    memory = _write(project, (entries, [update], [(0, "2026-07-14")]))
    text = memory.paths.data.read_text(encoding="utf-8")
    if edit == "a comment":
        text = "# kept by hand\n" + text
    elif edit == "windows line ends":
        text = text.replace("\n", "\r\n")
    memory.paths.data.write_text(text, encoding="utf-8", newline="")
    return memory


@pytest.mark.parametrize("edit", ["an id twice", "a comment", "windows line ends"])
def test_a_file_it_cannot_stream_is_read_whole_with_the_same_answers(
    project: Path, edit: str
) -> None:
    memory = _hand_edited(project, edit)
    db = memory.store.index(analyse, None)
    assert db is not None
    try:
        _same_as_the_state(project, db)
    finally:
        db.close()


def test_a_row_no_reader_accepts_is_the_same_error_and_leaves_no_index(project: Path) -> None:
    entries = [_entry(key, ["redis"], [], {"accessed": 3}) for key in _KEYS[:3]]
    memory = _write(project, (entries, [], []))
    data = memory.paths.data
    data.write_text(data.read_text(encoding="utf-8").replace("|3|", "|three|", 1), encoding="utf-8")
    with pytest.raises(CorruptFileError, match="accessed"):
        Memory(project).store.state()
    assert Memory(project, one_shot=True).store.index(analyse, None) is None
    with pytest.raises(CorruptFileError, match="accessed"):
        Memory(project, one_shot=True).recall("redis")
