"""The SQLite index ranks exactly like the in-memory engine, and is never trusted blindly.

Properties: after any sequence of writes, deletes and rebuilds, the one ranker over
the index (``search.source.SourceCorpus``) returns the same hits, scores, hops and
edges as over the in-memory engine that took the same changes, in every mode; a
damaged, foreign or other-version index file is replaced, never read, never a crash.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry

from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions, RecallResult
from toon_memory.search.corpus import analyse
from toon_memory.search.engine import Ranker
from toon_memory.search.source import SourceCorpus
from toon_memory.store.index_db import IndexDb

_WORDS = ["redis", "cache", "timeout", "auth", "token", "deploy", "Speicherlimit", "worker",
          "pods", "顺丰速运", "api", "pool", "queue", "retry"]  # fmt: skip
_KEYS = [f"k{i}" for i in range(12)]
_QUERIES = ["redis timeout", "auth token", "worker pool queue", "顺丰", "deploy k3", "cache",
            "latest redis", "", "before editing src/a.py redis"]  # fmt: skip
_OPTIONS = [{}, {"rrf": False}, {"mode": "graph", "hops": 2}, {"smart": True, "mode": "graph"},
            {"category": "bug"}, {"as_of": "2026-06-01"},
            {"category": "decision", "as_of": "2026-06-01"}, {"pins": False},
            {"path_scope": "src"}, {"words": 1}]  # fmt: skip


def _entry(key: str, words: list[str], links: list[str], extra: dict[str, object]) -> Entry:
    text = " ".join(words) + "".join(f" [[{link}]]" for link in links[:1])
    return entry(key, text, links=[f"relates:{t}" for t in links[1:]], **extra)


_extras = st.fixed_dictionaries({}, optional={
    "category": st.sampled_from(["bug", "decision", "pattern", "warning"]),
    "status": st.sampled_from(["active", "superseded", "obsolete"]),
    "priority": st.sampled_from([0, 1, 2, -1]),  # -1: a hand edit (the order reads it)
    "evidence": st.sampled_from(["verified", "conflict"]),
    "quality": st.sampled_from([0.0, 0.35, 1.0]),
    "file": st.sampled_from(["src/a.py", "lib/b.py"]),
    "path_scope": st.sampled_from(["src", "lib/b.py"]),
    "ttl": st.sampled_from(["2026-07-01", "2026-08-01"]),
    "date": st.sampled_from(["2026-01-10", "2026-05-20", "2026-07-14"]),
    "importance": st.sampled_from(["critical", "low"]),
    "accessed": st.integers(0, 30),
})  # fmt: skip
_writes = st.builds(_entry, st.sampled_from(_KEYS), st.lists(st.sampled_from(_WORDS), max_size=6),
                    st.lists(st.sampled_from(_KEYS), max_size=3), _extras)  # fmt: skip
_steps = st.lists(st.one_of(_writes, st.sampled_from(_KEYS), st.just("rebuild")), max_size=25)


def _summary(result: RecallResult) -> list[object]:
    hits = [(h.entry.id, round(h.score, 9), h.relevance, h.hop, h.via) for h in result.hits]
    return [hits, result.edges, result.total]


def _compare(engine: Engine, db: IndexDb) -> None:
    for query in _QUERIES:
        for extra in _OPTIONS:
            opts = RecallOptions(query=query, limit=6, **extra)  # type: ignore[arg-type]
            want = engine.recall(opts, today=TODAY)
            with db.reading():
                got = Ranker(SourceCorpus(db)).recall(opts, today=TODAY)
            assert _summary(got) == _summary(want), (query, extra)


def _apply(step: object, engine: Engine, db: IndexDb) -> None:
    """One step of a random history on both engines: an upsert, a rebuild, a delete or
    (``("access", key, day)``, the index alone) an access folded in."""
    with db.writing():
        if isinstance(step, Entry):
            engine.upsert(step)
            db.upsert(step, analyse)
        elif step == "rebuild":
            db.clear()
            db.load(engine.export(), {e.id: e for e in engine.entries}, {})
        elif isinstance(step, tuple):
            for e in engine.entries:
                if e.key == step[1]:
                    db.fold_access(e.id, step[2])
        else:
            for entry_id in [e.id for e in engine.entries if e.key == step]:
                engine.remove(entry_id)
                db.remove(entry_id)


def _new_db(folder: Path) -> IndexDb:
    db = IndexDb.open(folder / "index.sqlite", "test-1")
    assert db is not None
    return db


@given(steps=_steps)
@settings(max_examples=60, deadline=None)
def test_index_ranks_like_the_engine_after_writes_deletes_and_rebuilds(steps: list[object]) -> None:
    engine = Engine()
    with tempfile.TemporaryDirectory() as tmp:
        db = _new_db(Path(tmp))
        for step in steps:
            _apply(step, engine, db)
        _compare(engine, db)
        db.close()


def test_a_fresh_load_by_analysis_matches_the_engine(tmp_path: Path) -> None:
    entries = [
        _entry("k1", ["redis", "timeout"], ["k2"], {"category": "bug"}),
        _entry("k2", ["redis", "pool"], ["k1", "k3"], {"priority": 1}),
        _entry("k3", ["auth", "token", "redis"], [], {"status": "superseded"}),
        _entry("k4", ["worker", "pods", "Speicherlimit"], ["k3"], {"ttl": "2026-07-01"}),
    ]
    engine = Engine.build(entries)
    db = _new_db(tmp_path)
    with db.writing():
        db.load_entries(entries, analyse, {})
    _compare(engine, db)
    with db.reading():
        assert db.category_counts() == engine.category_counts()


def test_access_folding_counts_like_the_state(tmp_path: Path) -> None:
    e = _entry("k1", ["redis"], [], {"accessed": 2})
    db = _new_db(tmp_path)
    with db.writing():
        db.load_entries([e], analyse, {})
        db.fold_access(e.id, "2026-07-10")
        db.fold_access(e.id, "2026-07-02")
        # A journal row carries the persisted count only (``State.persisted_row``).
        db.upsert(e.copy(content="redis again", last_accessed="2026-07-10"), analyse)
    found = db.entry(e.id)
    assert found is not None
    assert (found.accessed, found.last_accessed) == (4, "2026-07-10")


def test_a_damaged_file_is_replaced_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    db = IndexDb.open(path, "test-1")
    assert db is not None
    assert db.position() == "" and db.count() == 0


def test_a_foreign_or_other_version_file_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    foreign = sqlite3.connect(path)
    foreign.execute("CREATE TABLE docs (x)")
    foreign.execute("INSERT INTO docs VALUES (1)")
    foreign.commit()
    foreign.close()
    db = IndexDb.open(path, "test-1")
    assert db is not None and db.count() == 0
    with db.writing():
        db.set_position("somewhere")
    db.close()
    same = IndexDb.open(path, "test-1")
    assert same is not None and same.position() == "somewhere"
    same.close()
    other = IndexDb.open(path, "test-2")
    assert other is not None and other.position() == ""


def test_no_index_where_no_file_can_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert IndexDb.open(blocker / "index.sqlite", "test-1") is None


def _answers(engine: Engine, db: IndexDb, prune_from: int) -> list[object]:
    from toon_memory.search import pipeline

    kept = pipeline.PRUNE_FROM
    pipeline.PRUNE_FROM = prune_from
    try:
        out: list[object] = []
        for query in _QUERIES:
            for extra in _OPTIONS:
                opts = RecallOptions(query=query, limit=6, **extra)  # type: ignore[arg-type]
                with db.reading():
                    out.append(_summary(Ranker(SourceCorpus(db)).recall(opts, today=TODAY)))
                out.append(_summary(engine.recall(opts, today=TODAY)))
        return out
    finally:
        pipeline.PRUNE_FROM = kept


@given(steps=_steps)
@settings(max_examples=40, deadline=None)
def test_the_pruned_path_answers_as_the_exhaustive_one_across_writes(steps: list[object]) -> None:
    """search.topk over a warm index (its terms kept between snapshots) and in memory
    gives the exhaustive answer after every write, delete and rebuild."""
    engine = Engine()
    with tempfile.TemporaryDirectory() as tmp:
        db = _new_db(Path(tmp))
        for step in [*steps, "rebuild"]:
            _apply(step, engine, db)
            assert _answers(engine, db, 0) == _answers(engine, db, 10**9)
        db.close()


def test_a_terms_version_changes_with_its_postings(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    first = _entry("k1", ["redis", "timeout"], [], {})
    terms = list(analyse(first)[0])
    with db.writing():
        db.upsert(first, analyse)
    with db.reading():
        versions = {term: db.term_version(term) for term in terms}
    assert None not in versions.values()
    redis, timeout = (next(t for t in terms if t.startswith(w)) for w in ("redi", "timeout"))
    with db.writing():
        db.upsert(_entry("k2", ["redis"], [], {}), analyse)
    with db.reading():
        assert db.term_version(redis) != versions[redis]
        assert db.term_version(timeout) == versions[timeout]
        assert db.term_version("absent") is None
    db.close()


def _postings_reads(monkeypatch) -> list[object]:  # type: ignore[no-untyped-def]
    """The terms whose postings a warm source reads whole from now on (``TermData`` built
    from them, not patched)."""
    from toon_memory.search import term_data, warm

    read: list[object] = []

    def counted(postings, lengths):  # type: ignore[no-untyped-def]
        rows = list(postings)
        read.extend(rows[:1])
        return term_data.TermData(rows, lengths)

    monkeypatch.setattr(warm, "TermData", counted)
    return read


def test_a_kept_term_follows_this_process_s_writes_without_a_re_read(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    from toon_memory.search import pipeline

    monkeypatch.setattr(pipeline, "PRUNE_FROM", 0)
    engine, db = Engine(), _new_db(tmp_path)
    for i in range(30):
        step = _entry(f"k{i}", ["redis", "timeout", _WORDS[i % len(_WORDS)]], [], {})
        engine.upsert(step)
        with db.writing():
            db.upsert(step, analyse)
    assert _answers(engine, db, 0)  # every query's terms are kept warm now
    read = _postings_reads(monkeypatch)
    changed = _entry("k3", ["redis", "pool", "pool"], [], {})  # k3 replaced, k31 added
    added = _entry("k31", ["timeout", "redis", "queue"], [], {})
    for step in (changed, added):
        engine.upsert(step)
        with db.writing():
            db.upsert(step, analyse)
    for entry_id in [e.id for e in engine.entries if e.key == "k7"]:
        engine.remove(entry_id)
        with db.writing():
            db.remove(entry_id)
    answers = _answers(engine, db, 0)
    assert answers[0::2] == answers[1::2]  # the index answers as the engine
    assert read == []  # every changed term was patched: no postings read again


def test_a_write_of_another_process_makes_a_kept_term_read_again(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    from toon_memory.search import pipeline

    monkeypatch.setattr(pipeline, "PRUNE_FROM", 0)
    engine, db = Engine(), _new_db(tmp_path)
    for i in range(12):
        step = _entry(f"k{i}", ["redis", "timeout"], [], {})
        engine.upsert(step)
        with db.writing():
            db.upsert(step, analyse)
    _answers(engine, db, 0)
    other = _new_db(tmp_path)  # another process's connection to the same file
    step = _entry("k20", ["redis", "redis"], [], {})
    engine.upsert(step)
    with other.writing():
        other.upsert(step, analyse)
    other.close()
    read = _postings_reads(monkeypatch)
    answers = _answers(engine, db, 0)
    assert answers[0::2] == answers[1::2]
    assert read  # the other connection's change was not in this one's log: read again


def test_a_rolled_back_write_leaves_nothing_to_patch_with(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    first = _entry("k1", ["redis"], [], {})
    with db.writing():
        db.upsert(first, analyse)
    term = next(t for t in analyse(first)[0] if t.startswith("redi"))
    with db.reading():
        have = db.term_version(term)
    try:
        with db.writing():
            db.upsert(_entry("k2", ["redis"], [], {}), analyse)
            raise RuntimeError("interrupted")
    except RuntimeError:
        pass
    third = _entry("k3", ["redis"], [], {})
    with db.writing():
        db.upsert(third, analyse)
    with db.reading():
        now = db.term_version(term)
        changes = db.term_changes(term, have, now)
        assert changes is not None  # the rolled-back step was forgotten, the log restarts:
        assert [slot for slot, _tf, _n in changes] == [db.slot(third.id)]
    db.close()


@given(steps=_steps)
@settings(max_examples=40, deadline=None)
def test_the_index_finds_the_engine_s_shortest_path_between_any_two_entries(
    steps: list[object],
) -> None:
    """``graph_path`` over the index (its links read a BFS level at a time) is the engine's:
    the same chain, or no chain, or the same unknown end, for every pair of keys."""
    from toon_memory.errors import NotFoundError

    engine = Engine()
    with tempfile.TemporaryDirectory() as tmp:
        db = _new_db(Path(tmp))
        for step in steps:
            _apply(step, engine, db)
        for start in _KEYS[:6]:
            for goal in _KEYS[:6]:
                answers = []
                for ranker in (engine, None):
                    try:
                        if ranker is None:
                            with db.reading():
                                path = Ranker(SourceCorpus(db)).graph_path(start, goal)
                        else:
                            path = ranker.graph_path(start, goal)
                        answers.append([e.id for e in path])
                    except NotFoundError as exc:
                        answers.append(str(exc))
                assert answers[0] == answers[1], (start, goal)
        db.close()


def test_entries_read_by_slot_are_those_read_by_id(tmp_path: Path) -> None:
    """``entries_at``: the entries at these slots, as ``entries_of`` their ids reads them
    (an unfolded use added alike); unknown slots left out."""
    db = _new_db(tmp_path)
    entries = [_entry(f"k{i}", ["redis", "timeout"], [], {"accessed": i}) for i in range(6)]
    with db.writing():
        for one in entries:
            db.upsert(one, analyse)
        db.remove(entries[2].id)
    ids = [one.id for one in entries if one.id != entries[2].id]
    slots = [db.slot(doc_id) for doc_id in ids]
    assert None not in slots
    db.uses = {ids[0]: (2, "2026-07-20")}
    with db.reading():
        by_id, by_slot = db.entries_of(ids), db.entries_at([*slots, 999, -1])  # type: ignore[list-item]
    assert list(by_slot) == ids and by_slot == by_id
    assert by_slot[ids[0]].accessed == 2 and by_slot[ids[0]].last_accessed == "2026-07-20"
