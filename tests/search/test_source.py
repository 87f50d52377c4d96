"""``search.source.SourceCorpus``: the ranker's view over a corpus kept outside the process
offers what the in-memory ``Corpus`` offers, computed the same way, so one ranker gives equal
answers over both (here over the real SQLite ``CorpusSource``, ``store.index_db``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.search.builders import TODAY, entry

from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions
from toon_memory.search.corpus import Corpus, analyse
from toon_memory.search.engine import Ranker
from toon_memory.search.source import SourceCorpus
from toon_memory.store.index_db import IndexDb

ENTRIES = [
    entry("redis-pool", "Redis pool raised to 20 under load", category="bug", priority=1),
    entry("redis-timeout", "Redis timeout on the worker; see [[redis-pool]]"),
    entry("auth-token", "JWT auth token rotates daily", links=["relates:redis-pool"]),
    entry("old-auth", "Sessions in cookies", status="superseded"),
    entry("expiring", "Deploy freeze until the audit", ttl="2026-08-01"),
]


@pytest.fixture
def both(tmp_path: Path) -> tuple[Engine, IndexDb]:
    db = IndexDb.open(tmp_path / "index.sqlite", "test-1")
    assert db is not None
    with db.writing():
        db.load_entries(ENTRIES, analyse, {})
    yield Engine.build(ENTRIES), db
    db.close()


def test_the_view_names_the_same_keys_and_categories(both: tuple[Engine, IndexDb]) -> None:
    _, db = both
    with db.reading():
        view = SourceCorpus(db)
        assert view.ids_of("redis-pool") == [e.id for e in ENTRIES if e.key == "redis-pool"]
        assert view.ids_of("nowhere") == []
        active = [e for e in ENTRIES if e.status == "active"]
        counts = {
            c: sum(1 for e in active if e.category == c) for c in {e.category for e in active}
        }
        assert view.category_counts() == counts
        linked = next(e.id for e in ENTRIES if e.key == "redis-pool")
        ids = [e.id for e in ENTRIES]
        rows_read = ids[:2]  # (the others' degrees are read one by one)
        view.prefetch(rows_read)
        in_memory = Corpus()
        for one in ENTRIES:
            in_memory.entries[one.id] = one
            in_memory.index_entry(one)
        assert view.centralities(ids) == in_memory.centralities(ids)
        assert view.centralities([linked])[linked] == 1.0


@pytest.mark.parametrize("options", [{"query": "redis"}, {"query": "auth", "mode": "graph"},
                                     {"query": ""}, {"query": "redis", "category": "bug"}])  # fmt: skip
def test_one_ranker_answers_alike_over_the_view_and_the_engine(
    both: tuple[Engine, IndexDb], options: dict[str, object]
) -> None:
    engine, db = both
    opts = RecallOptions(limit=5, **options)  # type: ignore[arg-type]
    want = engine.recall(opts, today=TODAY)
    with db.reading():
        got = Ranker(SourceCorpus(db)).recall(opts, today=TODAY)
    assert [(h.entry.key, round(h.score, 9), h.hop) for h in got.hits] == [
        (h.entry.key, round(h.score, 9), h.hop) for h in want.hits
    ]
    assert got.total == want.total


def test_a_query_corpus_is_freed_when_dropped_without_a_collection(
    both: tuple[Engine, IndexDb],
) -> None:
    """No reference cycle: a long-lived server freezes what a call leaves alive, so a corpus in
    a cycle would keep the rows it read until a full collection."""
    import gc
    import weakref

    _, db = both
    gc.disable()
    try:
        with db.reading():
            corpus = SourceCorpus(db)
            Ranker(corpus).recall(RecallOptions(limit=5, query="redis"), today=TODAY)
            assert corpus.entries.seen, "the recall read no rows"
            ref = weakref.ref(corpus)
            del corpus
        assert ref() is None
    finally:
        gc.enable()


def test_a_query_reads_the_entries_of_its_answer_only(tmp_path: Path) -> None:
    """Candidates are ranked from their rows (key, priority, degree, family, the fields of
    the static signals); only the entries the answer shows are read whole."""
    many = [entry(f"redis-{i}", f"redis note {i}", importance="high" if i % 3 else "",
                  priority=i % 5 == 0) for i in range(40)]  # fmt: skip
    db = IndexDb.open(tmp_path / "index.sqlite", "test-1")
    assert db is not None
    try:
        with db.writing():
            db.load_entries(many, analyse, {})
        read: list[str] = []
        by_slot: list[int] = []
        entries_of, entries_at, one = db.entries_of, db.entries_at, db.entry

        def at(slots: list[int]) -> dict[str, Entry]:
            by_slot.extend(slots)
            found = entries_at(slots)
            read.extend(found)
            return found

        db.entries_of = lambda ids: (read.extend(ids), entries_of(ids))[1]  # type: ignore[method-assign]
        db.entries_at = at  # type: ignore[method-assign]
        db.entry = lambda doc_id: (read.append(doc_id), one(doc_id))[1]  # type: ignore[method-assign]
        opts = RecallOptions(limit=4, query="redis note")
        with db.reading():
            got = Ranker(SourceCorpus(db)).recall(opts, today=TODAY)
        assert len(got.hits) == 4
        assert sorted(read) == sorted(h.entry.id for h in got.hits)
        assert sorted(by_slot) == sorted(db.slot(h.entry.id) for h in got.hits)  # (rows read)
        want = Engine.build(many).recall(opts, today=TODAY)
        assert [(h.entry.key, h.score) for h in got.hits] == [
            (h.entry.key, h.score) for h in want.hits
        ]
    finally:
        db.close()
