"""A category filter through the pruned top-k: the same answer as checking every match.

Properties: after any sequence of writes (an entry changing category or status
included), deletes and rebuilds, a query with a category filter ranked through
``search.topk`` restricted to the category's slots (``SourceCorpus.category_bits``,
kept across snapshots as a fact of the index, ``search.warm``) returns the
hits, scores and count of the in-memory engine's exhaustive path that checks every
match's entry (no category hint); the bitmap is read once per index state, and a
term not kept yet is read for the category's entries alone, then whole and kept.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry
from tests.store.test_index_db import _apply, _new_db, _summary

from toon_memory.model.entry import Entry
from toon_memory.search import Engine, RecallOptions, pipeline
from toon_memory.search.corpus import analyse
from toon_memory.search.engine import Ranker
from toon_memory.search.source import SourceCorpus
from toon_memory.store.index_db import IndexDb

_WORDS = ["redis", "redis", "cache", "timeout", "auth", "pool", "queue"]
_KEYS = [f"k{i}" for i in range(16)]
#: Mostly plain active entries, so that the matches outnumber the conditional ones (else
#: the pruned path leaves them to the exhaustive one).
_extras = st.fixed_dictionaries({
    "category": st.sampled_from(["bug", "decision", "pattern"]),
    "status": st.sampled_from(["active"] * 6 + ["superseded", "obsolete"]),
    "ttl": st.sampled_from([""] * 8 + ["2026-07-01", "2026-08-01"]),
    "created": st.sampled_from(["2026-05-01T00:00:00Z", "2026-06-20T00:00:00Z"]),
    "superseded_on": st.sampled_from(["", "2026-06-10"]),
})  # fmt: skip
plain_writes = st.builds(
    lambda key, words, extra: entry(key, " ".join(words), **extra),
    st.sampled_from(_KEYS), st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5), _extras,
)  # fmt: skip
_steps = st.lists(st.one_of(plain_writes, plain_writes, st.sampled_from(_KEYS),
                            st.just("rebuild")), max_size=30)  # fmt: skip
QUERIES = ["redis", "redis timeout", "cache pool", "latest redis", "redis before"]
OPTIONS = [{"category": "bug"}, {"category": "decision", "rrf": False},
           {"category": "bug", "mode": "graph", "hops": 2},
           {"category": "bug", "as_of": "2026-06-01"}, {}]  # fmt: skip
#: The example's history: a bug superseded on 2026-06-10 that ``as_of`` 2026-06-01 finds.
_THEN = [entry(f"k{i}", "redis timeout", category="bug") for i in range(6)] + [
    entry("k9", "redis timeout old", category="bug", status="superseded",
          created="2026-05-01T00:00:00Z", superseded_on="2026-06-10"),
]  # fmt: skip


@contextmanager
def exhaustive() -> Iterator[None]:
    """The reference: every match scored, and every match's entry checked (no hint)."""
    with (patch.object(pipeline, "PRUNE_FROM", 10**9),
          patch.object(pipeline, "_only_category", lambda o, history: "")):  # fmt: skip
        yield


def reference(engine: Engine) -> list[object]:
    with exhaustive():
        return [_summary(engine.recall(RecallOptions(query=q, limit=6, **x), today=TODAY))  # type: ignore[arg-type]
                for q in QUERIES for x in OPTIONS]  # fmt: skip


def _pruned(db: IndexDb) -> list[object]:
    with patch.object(pipeline, "PRUNE_FROM", 0):
        out: list[object] = []
        for query in QUERIES:
            for extra in OPTIONS:
                opts = RecallOptions(query=query, limit=6, **extra)  # type: ignore[arg-type]
                with db.reading():
                    out.append(_summary(Ranker(SourceCorpus(db)).recall(opts, today=TODAY)))
        return out


@given(steps=_steps)
@example(steps=[*_THEN, "rebuild"])
@settings(max_examples=40, deadline=None)
def test_a_category_query_pruned_over_the_index_answers_as_checking_every_match(
    steps: list[object],
) -> None:
    engine = Engine()
    with tempfile.TemporaryDirectory() as tmp:
        db = _new_db(Path(tmp))
        for step in steps:
            _apply(step, engine, db)
            assert _pruned(db) == reference(engine)
        db.close()


def _counted(db: IndexDb, name: str = "category_slots") -> list[str]:
    """The first argument of each call of ``db``'s method ``name`` from now on."""
    read: list[str] = []
    real = getattr(db, name)

    def counted(first: str, *rest: str) -> object:
        read.append(first)
        return real(first, *rest)

    setattr(db, name, counted)
    return read


def _write(db: IndexDb, engine: Engine, step: Entry) -> None:
    engine.upsert(step)
    with db.writing():
        db.upsert(step, analyse)


def test_the_category_slots_are_read_once_per_index_state(tmp_path: Path) -> None:
    engine, db = Engine(), _new_db(tmp_path)
    for i in range(10):
        _write(db, engine, entry(f"k{i}", "redis timeout", category=["bug", "pattern"][i % 2]))
    read = _counted(db)
    assert _pruned(db) == reference(engine)
    assert sorted(set(read)) == ["bug", "decision"] and len(read) == 2  # kept across queries
    _write(db, engine, entry("k1", "redis timeout", category="bug"))  # a pattern becomes a bug
    assert _pruned(db) == reference(engine) and len(read) == 4
    other = _new_db(tmp_path)  # another process's connection to the same file
    step = entry("k2", "redis", category="bug", status="obsolete")
    engine.upsert(step)
    with other.writing():
        other.upsert(step, analyse)
    other.close()
    assert _pruned(db) == reference(engine) and len(read) == 6
    db.close()


def test_a_term_not_kept_is_read_for_the_category_alone_then_whole(tmp_path: Path) -> None:
    engine, db = Engine(), _new_db(tmp_path)
    for i in range(10):
        _write(db, engine, entry(f"k{i}", "redis timeout", category=["bug", "pattern"][i % 2]))
    db.close()
    db = _new_db(tmp_path)  # a cold process: nothing kept
    partial, whole = _counted(db, "postings_in"), _counted(db, "postings")
    opts = RecallOptions(query="redis", limit=6, category="bug")
    with exhaustive():
        want = _summary(engine.recall(opts, today=TODAY))
    with patch.object(pipeline, "PRUNE_FROM", 0):
        for reads in ((1, 0), (1, 1), (1, 1)):
            with db.reading():
                assert _summary(Ranker(SourceCorpus(db)).recall(opts, today=TODAY)) == want
            assert (len(partial), len(whole)) == reads  # then kept: not read again
    db.close()
