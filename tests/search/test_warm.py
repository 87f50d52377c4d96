"""What a warm process keeps between queries (``search.warm.Warm`` over the real SQLite
source's ``term_version`` and ``row_changes``): a warm reader answers exactly as a fresh one after any write of
another connection (another process), access folds, deletes, rebuilds and trims of the
change log; what did not change is not read again."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY
from tests.store.test_index_db import _KEYS, _OPTIONS, _QUERIES, _apply, _entry, _new_db, _writes

from toon_memory.search import Engine, RecallOptions, RecallResult, pipeline
from toon_memory.search import warm as warm_module
from toon_memory.search.corpus import analyse
from toon_memory.search.engine import Ranker
from toon_memory.search.source import SourceCorpus
from toon_memory.store import index_db, index_packs
from toon_memory.store.index_db import IndexDb

_steps = st.lists(st.one_of(
    _writes, st.sampled_from(_KEYS), st.just("rebuild"),
    st.tuples(st.just("access"), st.sampled_from(_KEYS), st.sampled_from(["2026-07-01", "2026-07-14"])),
), max_size=20)  # fmt: skip


def _summary(result: RecallResult) -> list[object]:
    hits = [(h.entry.id, h.entry.accessed, h.entry.last_accessed, h.entry.content,
             h.entry.priority, round(h.score, 9), h.relevance, h.hop) for h in result.hits]  # fmt: skip
    return [hits, result.edges, result.total]


def _answers(db: IndexDb) -> list[object]:
    out: list[object] = []
    for query in _QUERIES:
        for extra in [*_OPTIONS, {"smart": True}]:
            opts = RecallOptions(query=query, limit=6, **extra)  # type: ignore[arg-type]
            with db.reading():
                out.append(_summary(Ranker(SourceCorpus(db)).recall(opts, today=TODAY)))
    return out


_A = _entry("k1", ["redis", "timeout"], ["k2"], {})
_B = _entry("k2", ["redis"], [], {"priority": 1})
_C = _entry("k3", ["redis", "cache"], ["k1"], {})


@given(
    steps=_steps,
    kept=st.sampled_from([4, 50_000]),
    same=st.booleans(),
    every=st.sampled_from([1, 3]),
)
@example(steps=[_A, _B, _C, "k1", "rebuild"], kept=50_000, same=True, every=1)  # slots renumbered
@example(
    steps=[_A, _B, ("access", "k2", "2026-07-14"), "rebuild"], kept=50_000, same=False, every=1
)  # the rebuild drops a folded access
@example(steps=[_A, _B, _C, ("access", "k2", "2026-07-14"), _A, _C], kept=4, same=False, every=3)
@settings(max_examples=50, deadline=None)
def test_a_warm_reader_answers_as_a_fresh_one_after_any_write(steps, kept, same, every) -> None:  # type: ignore[no-untyped-def]
    """``same``: the writes come through the reader's own connection, else another's;
    ``kept`` 4 trims the change log past a reader that ``every`` 3 steps falls behind
    (then it reads all again)."""
    old = index_db.CHANGES_KEPT
    index_db.CHANGES_KEPT = kept
    engine = Engine()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            warm = _new_db(Path(tmp))
            writer = warm if same else _new_db(Path(tmp))
            _answers(warm)  # empty: every later query starts warm
            for i, step in enumerate(steps, start=1):
                _apply(step, engine, writer)
                if i % every and i < len(steps):
                    continue
                fresh = _new_db(Path(tmp))  # a new process: nothing kept
                assert _answers(warm) == _answers(fresh)
                fresh.close()
            for db in {id(warm): warm, id(writer): writer}.values():
                db.close()
    finally:
        index_db.CHANGES_KEPT = old


def _recorded(db: IndexDb, name: str) -> list[Any]:
    """The first argument of every call of ``db``'s method ``name`` from now on."""
    calls: list[Any] = []
    method = getattr(db, name)

    def counted(first, *rest):  # type: ignore[no-untyped-def]
        calls.append(first)
        return method(first, *rest)

    setattr(db, name, counted)
    return calls


def test_kept_rows_are_read_again_only_when_they_changed(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    entries = [_entry(f"k{i}", ["redis", "timeout"], [], {}) for i in range(8)]
    with db.writing():
        for e in entries:
            db.upsert(e, analyse)
    _answers(db)
    asked = _recorded(db, "rows_at")  # each call's slots

    def read() -> list[int]:
        return [slot for slots in asked for slot in slots]

    _answers(db)
    assert read() == []  # nothing changed: every row kept
    other = _new_db(tmp_path)
    with other.writing():
        other.fold_access(entries[2].id, "2026-07-14")
    _answers(db)
    assert read() == []  # an access changes no row (its use counts are not in it): kept
    with other.writing():  # a new entry linking to k2: k2's degree changes
        other.upsert(_entry("k9", ["redis", "timeout"], ["k2"], {}), analyse)
    other.close()
    _answers(db)
    assert set(read()) == {db.slot(entries[2].id), db.slot(db.ids_with_key("k9")[0])}


def test_past_the_rows_kept_they_are_dropped_and_the_answers_stay(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    """A process keeps at most ``ROWS_KEPT`` rows: past it the kept ones go (those of the
    read that went past stay) and are read again when asked for; no answer changes."""
    monkeypatch.setattr(warm_module, "ROWS_KEPT", 5)
    db = _new_db(tmp_path)
    with db.writing():
        for i in range(8):
            db.upsert(_entry(f"k{i}", ["redis", "timeout"], [], {}), analyse)
    first = _answers(db)
    asked = _recorded(db, "rows_at")
    assert _answers(db) == first
    assert len({slot for slots in asked for slot in slots}) > 5  # read again, not kept
    fresh = _new_db(tmp_path)
    assert _answers(fresh) == first
    fresh.close()


def test_a_lasting_source_reads_its_rows_pack_with_its_first_rows(tmp_path: Path) -> None:
    """A server's source (``lasting``) reads its first query's rows from the rows pack;
    another reads them one by one (until it has read one in ``RENT`` entries'). Both
    answer as a fresh reader."""
    from toon_memory.search.term_data import pack_postings

    db = _new_db(tmp_path)
    with db.writing():
        for i in range(200):
            db.upsert(_entry(f"k{i}", ["redis", "timeout"], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)
    opts = RecallOptions(query="redis", limit=6)
    with db.reading():
        want = _summary(Ranker(SourceCorpus(db)).recall(opts, today=TODAY))
    for lasting in (False, True):
        reader = _new_db(tmp_path)
        reader.lasting = lasting
        one_by_one, packs = _recorded(reader, "rows_at"), _recorded(reader, "packed")
        with reader.reading():
            assert _summary(Ranker(SourceCorpus(reader)).recall(opts, today=TODAY)) == want
        assert (index_packs.ROWS in packs) is lasting
        assert (one_by_one == []) is lasting


def test_a_lasting_source_reads_its_most_common_terms_with_its_rows_pack(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    """With its rows pack, a server's source reads the packs of its most common terms, as
    many as ``COMMON_BYTES`` holds at ~2 bytes a slot: a later query of them reads no pack.
    Another source reads only its queries' terms. Every answer is a fresh reader's."""
    from toon_memory.search.term_data import pack_postings

    monkeypatch.setattr(index_packs, "PACK_FROM", 8)
    monkeypatch.setattr(pipeline, "PRUNE_FROM", 1)  # (terms read as the pruned path reads them)
    db = _new_db(tmp_path)
    with db.writing():  # "redis" in every entry, "timeout" in half, "cache" in a quarter,
        for i in range(40):  # "queue" in five (too few for a pack)
            words = ["redis", *(["timeout"] if i % 2 else []), *(["cache"] if i % 4 == 0 else [])]
            db.upsert(_entry(f"k{i}", [*words, *(["queue"] if i % 8 == 0 else [])], [], {}),
                      analyse)  # fmt: skip
    db.keep_packs_fresh(pack_postings)
    monkeypatch.setattr(warm_module, "COMMON_BYTES", 2 * 40 * 3)  # three terms' worth

    def asked(reader: IndexDb, query: str) -> list[object]:
        opts = RecallOptions(query=query, limit=6)
        with reader.reading():
            return _summary(Ranker(SourceCorpus(reader)).recall(opts, today=TODAY))

    want = {query: asked(db, query) for query in ("queue", "timeout", "redis timeout")}
    with db.reading():
        common = db.common_terms(3)
    assert len(common) == 3
    for lasting in (False, True):
        reader = _new_db(tmp_path)
        reader.lasting = lasting
        packs = _recorded(reader, "packed")
        assert asked(reader, "queue") == want["queue"]  # (no common term asked)
        assert all(term in packs for term in common) is lasting
        assert db.common_terms(4)[3] not in packs  # (past COMMON_BYTES: not read)
        packs.clear()
        assert asked(reader, "timeout") == want["timeout"]
        assert asked(reader, "redis timeout") == want["redis timeout"]
        assert ("timeout" in common) and ("timeout" in packs) is not lasting  # kept if lasting
        reader.close()
    with db.writing():  # the common terms' packs damaged: none is read at once from postings
        db.conn.execute("UPDATE packs SET data = substr(data, 2) WHERE term NOT IN (?, ?)",
                        (index_packs.LENGTHS, index_packs.ROWS))  # fmt: skip
    reader = _new_db(tmp_path)
    reader.lasting = True
    postings = _recorded(reader, "postings")
    assert asked(reader, "queue") == want["queue"]
    assert not set(common) & set(postings)  # (left for the query that asks for them)
    assert asked(reader, "timeout") == want["timeout"]
    assert "timeout" in postings
    reader.close()


def test_a_kept_state_lets_its_source_go(tmp_path: Path) -> None:
    import gc
    import weakref

    from toon_memory.search import warm

    db = _new_db(tmp_path)
    with db.writing():
        db.upsert(_A, analyse)
    _answers(db)
    assert db in warm._WARM
    db.close()
    alive = weakref.ref(db)
    del db
    gc.collect()
    assert alive() is None  # nothing kept holds the source alive


def test_a_term_no_entry_holds_is_asked_once_until_a_write_brings_it(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    """A query's words no entry has (and their expansions into other languages) are looked
    up with the others in one read and kept as absent: their postings, packs and versions
    are never read, until a write, this process's or another's, adds them."""
    from toon_memory.search import pipeline

    monkeypatch.setattr(pipeline, "PRUNE_FROM", 0)  # the warm path at any size
    db = _new_db(tmp_path)
    with db.writing():
        for i in range(8):
            db.upsert(_entry(f"k{i}", ["redis", "timeout"], [], {}), analyse)
    asked = _recorded(db, "postings")
    looked_up = _recorded(db, "term_facts")
    versions, packs = _recorded(db, "term_version"), _recorded(db, "packed")
    opts = RecallOptions(query="redis zeppelin", limit=6)

    def keys() -> list[str]:
        with db.reading():
            return Ranker(SourceCorpus(db)).recall(opts, today=TODAY).keys

    keys()
    read = {*asked, *versions, *packs}
    with db.reading():
        absent = {t for terms in looked_up for t in terms if db.term_version(t) is None}
    assert any(t.startswith("zeppelin") for t in absent)
    assert len(looked_up) == 1  # every term of the query in one read
    assert not absent & read  # nothing more read of them
    asked.clear()
    assert keys() and not asked  # every term kept, the absent ones too
    other = _new_db(tmp_path)  # another process's connection
    with other.writing():
        other.upsert(_entry("k9", ["zeppelin"], [], {}), analyse)
    other.close()
    assert "k9" in keys()
    assert absent & set(asked)  # the term a write brought is read, once
    asked.clear()
    assert "k9" in keys() and not asked


def _unpacked_db(folder: Path) -> IndexDb:
    """A new connection that never reads a pack (the postings alone)."""
    db = _new_db(folder)
    db.packed = lambda term: None  # type: ignore[method-assign]
    return db


@given(
    steps=_steps,
    stale=st.sampled_from([0, 2, 4096]),
    repack=st.sampled_from([1, 1000]),
    every=st.sampled_from([1, 3]),
    same=st.booleans(),
    zipped=st.booleans(),
)
@example(steps=[_A, _B, _C, "k1", _A], stale=4096, repack=1000, every=1, same=False, zipped=True)
@example(
    steps=[_A, _B, _C, _entry("k1", ["redis", "timeout", "cache", "auth", "token"], [], {})],
    stale=4096,
    repack=1,
    every=1,
    same=False,
    zipped=False,
)  # an entry grows: new length
@settings(max_examples=60, deadline=None)
def test_terms_read_from_packs_answer_as_their_postings(  # type: ignore[no-untyped-def]
    steps, stale, repack, every, same, zipped
) -> None:
    """Every term packed (``PACK_FROM`` 1) every ``every`` steps, or made again only after
    ``repack`` changed entries (``repack`` 1000: the packs fall behind and are patched
    with the changed slots; ``stale`` 0 or 2: refused past that many): a warm reader and
    a new one reading packs answer exactly as a new one reading postings, on the pruned
    path."""
    from toon_memory.search import pipeline
    from toon_memory.search.term_data import pack_postings
    from toon_memory.store import index_packs

    saved = (pipeline.PRUNE_FROM, index_packs.PACK_FROM, index_packs.STALE_SLOTS,
             index_packs.REPACK_AFTER, index_packs.CHECK_AFTER, index_packs.ZIP_FROM)  # fmt: skip
    pipeline.PRUNE_FROM, index_packs.PACK_FROM, index_packs.STALE_SLOTS = 0, 1, stale
    index_packs.REPACK_AFTER, index_packs.CHECK_AFTER = repack, 1
    index_packs.ZIP_FROM = 0 if zipped else 1 << 30
    engine = Engine()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            warm = _new_db(folder)
            writer = warm if same else _new_db(folder)
            for i, step in enumerate(steps, start=1):
                _apply(step, engine, writer)
                if i % every == 0:
                    writer.keep_packs_fresh(pack_postings)
                cold, plain = _new_db(folder), _unpacked_db(folder)
                want = _answers(plain)
                assert _answers(warm) == want
                assert _answers(cold) == want
                cold.close()
                plain.close()
            for db in {id(warm): warm, id(writer): writer}.values():
                db.close()
    finally:
        (pipeline.PRUNE_FROM, index_packs.PACK_FROM, index_packs.STALE_SLOTS,
         index_packs.REPACK_AFTER, index_packs.CHECK_AFTER, index_packs.ZIP_FROM) = saved  # fmt: skip


def test_a_damaged_pack_is_not_read(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A pack whose bytes were changed is refused (read from the postings), never an error."""
    from toon_memory.search.term_data import pack_postings

    monkeypatch.setattr(pipeline, "PRUNE_FROM", 0)
    monkeypatch.setattr(index_packs, "PACK_FROM", 1)
    db = _new_db(tmp_path)
    with db.writing():
        for i in range(8):
            db.upsert(_entry(f"k{i}", ["redis", "timeout"], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)
    with db.writing():
        assert db.conn.execute("SELECT count(*) FROM packs WHERE term != ''").fetchone()[0]
        db.conn.execute(
            "UPDATE packs SET data = substr(data, 1, length(data) - 3) WHERE term != ''"
        )
    asked = _recorded(db, "postings")
    want = _answers(_unpacked_db(tmp_path))
    assert _answers(db) == want
    assert asked, "the damaged packs were read as if whole"


def test_a_warm_reader_keeps_every_length_current_after_other_writes(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    """Lengths read whole from the lengths pack follow another process's writes: a term
    first read from a pack made after an entry grew scores that entry with its new length."""
    from toon_memory.search import pipeline
    from toon_memory.search.term_data import pack_postings
    from toon_memory.store import index_packs

    monkeypatch.setattr(pipeline, "PRUNE_FROM", 0)
    monkeypatch.setattr(index_packs, "PACK_FROM", 1)
    monkeypatch.setattr(index_packs, "CHECK_AFTER", 1)
    monkeypatch.setattr(index_packs, "REPACK_AFTER", 1)
    db = _new_db(tmp_path)
    with db.writing():
        for i in range(6):
            db.upsert(_entry(f"k{i}", ["redis", "cache", "timeout"][: 1 + i % 3], [], {}), analyse)
    db.keep_packs_fresh(pack_postings)

    def keys_scores(reader: IndexDb, query: str) -> list[tuple[str, float]]:
        with reader.reading():
            hits = Ranker(SourceCorpus(reader)).recall(RecallOptions(query=query, limit=6),
                                                       today=TODAY).hits  # fmt: skip
        return [(h.entry.key, round(h.score, 9)) for h in hits]

    keys_scores(db, "redis")  # lengths read whole; "cache" not read yet
    other = _new_db(tmp_path)
    with other.writing():
        other.upsert(_entry("k2", ["redis", "cache", "timeout", "worker", "pool", "queue"], [], {}),
                     analyse)  # fmt: skip
    other.keep_packs_fresh(pack_postings)
    other.close()
    assert keys_scores(db, "cache") == keys_scores(_unpacked_db(tmp_path), "cache")
