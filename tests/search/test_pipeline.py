"""``search.pipeline``: query groups with ids written in the query, the eligibility predicate,
the query's temporal intent as options, edges among hits, and ``rank_entries``' order (pinned
first, then score, ties by key then id; at most ``limit``). The engine-level fuzzing is in
test_pipeline_fuzz.py."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry
from tests.store.test_index_category import OPTIONS, QUERIES, plain_writes, reference
from tests.store.test_index_db import _summary
from tests.store.test_index_db import _writes as _index_writes

from toon_memory.model.entry import Entry
from toon_memory.search.corpus import Corpus
from toon_memory.search.intent import NONE
from toon_memory.search.options import RecallOptions
from toon_memory.search.pipeline import (
    allowed_test,
    hit_edges,
    query_terms,
    rank_entries,
    rarest,
    read_intent,
)
from toon_memory.search.result import Edge, Hit


def corpus(*entries: object) -> Corpus:
    made = Corpus()
    for e in entries:
        made.upsert(e)  # type: ignore[arg-type]
    return made


def test_query_terms_add_written_ids_once() -> None:
    groups = query_terms("port of 0123abcd and 0123ABCD")
    assert groups.count(("0123abcd",)) == 1
    assert query_terms("") == []


def test_allowed_test_checks_ttl_and_status_and_filters() -> None:
    live = entry("live", "x", category="bug")
    gone = entry("gone", "x", status="obsolete")
    expired = entry("expired", "x", ttl="2026-07-01")
    c = corpus(live, gone, expired)
    plain = allowed_test(c, RecallOptions().validated(), TODAY)
    assert [plain(e.id) for e in (live, gone, expired)] == [True, False, False]
    filtered = allowed_test(c, RecallOptions(category="warning").validated(), TODAY)
    assert not filtered(live.id)


def test_read_intent() -> None:
    plain = RecallOptions(query="db port").validated()
    assert read_intent(plain, TODAY) == (plain, NONE, "")
    off = RecallOptions(query="latest db port", intent=False).validated()
    assert read_intent(off, TODAY)[1] == NONE
    _, latest, history = read_intent(RecallOptions(query="latest db port").validated(), TODAY)
    assert latest.latest and history == ""


def test_hit_edges_both_directions_from_links_and_mentions() -> None:
    a = entry("a", "see [[c]]", links=["supersedes:b"])
    b = entry("b", "old")
    c = entry("c", "other")
    hits = [Hit(a, 1.0, 100), Hit(b, 0.5, 50), Hit(c, 0.2, 20)]
    assert hit_edges(hits) == (Edge(0, 1, "supersedes"), Edge(0, 2, "relates"),
                               Edge(1, 0, "superseded_by"), Edge(2, 0, "relates"))  # fmt: skip
    assert hit_edges([Hit(entry("s", "[[s]]"), 1.0, 1)]) == ()


ROW = st.tuples(st.sampled_from(["postgres port", "redis cache", "postgres cache", "lint"]),
                st.integers(0, 2), st.booleans())  # fmt: skip


@given(st.lists(ROW, max_size=8), st.sampled_from(["", "postgres", "cache port"]),
       st.integers(1, 5))  # fmt: skip
def test_rank_entries_order_and_limit(rows: list[tuple[str, int, bool]], query: str,
                                      limit: int) -> None:  # fmt: skip
    entries = [entry(f"k{i}", text, priority=p, status="active" if live else "obsolete")
               for i, (text, p, live) in enumerate(rows)]  # fmt: skip
    result = rank_entries(corpus(*entries), RecallOptions(query=query, limit=limit).validated(),
                          TODAY, ())  # fmt: skip
    assert len(result.hits) <= limit
    assert all(h.entry.active for h in result.hits)
    keys = [(-h.entry.priority, -h.score, h.entry.key, h.entry.id) for h in result.hits]
    assert keys == sorted(keys)
    assert all(0 <= h.relevance <= 100 for h in result.hits)
    assert len({h.entry.id for h in result.hits}) == len(result.hits)


_SUPERSEDED_THEN = [  # a version valid on 2026-06-01: ``as_of`` admits it
    entry("old-bug", "redis timeout old version", category="bug", status="superseded",
          created="2026-05-01T00:00:00Z", date="2026-05-01", superseded_on="2026-06-20"),
    entry("old-bug", "redis timeout current version", category="bug", id="0000abcd",
          created="2026-06-20T00:00:00Z", date="2026-06-20"),
]  # fmt: skip


@given(st.lists(_index_writes, max_size=20), st.sampled_from(["bug", "decision", "pattern"]),
       st.sampled_from(["", "2026-06-01"]))  # fmt: skip
@example(_SUPERSEDED_THEN, "bug", "2026-06-01")
def test_the_category_hint_changes_no_answer(
    entries: list[Entry], category: str, as_of: str
) -> None:
    """A category filter drops other matches from derived data before any entry is read
    (``_only_category``); the answers are those of checking every match's entry."""
    from unittest.mock import patch

    from toon_memory.search import Engine, pipeline

    engine = Engine.build(entries)
    for query in ("redis timeout", "auth token pool", "cache"):
        opts = RecallOptions(query=query, limit=6, category=category, as_of=as_of)
        hinted = engine.recall(opts, today=TODAY)
        with patch.object(pipeline, "_only_category", lambda o, history: ""):
            plain = engine.recall(opts, today=TODAY)
        assert [(h.entry.id, h.score) for h in hinted.hits] == [
            (h.entry.id, h.score) for h in plain.hits
        ]
        assert hinted.total == plain.total
        assert all(h.entry.category == category for h in hinted.hits)
    if entries is _SUPERSEDED_THEN:  # the example: the old version is what as_of finds
        found = engine.recall(RecallOptions(query="redis", category="bug", as_of=as_of),
                              today=TODAY)  # fmt: skip
        assert "superseded" in {h.entry.status for h in found.hits}


@given(st.lists(plain_writes, min_size=1, max_size=25))
@example([*_SUPERSEDED_THEN, *(entry(f"k{i}", "redis timeout", category="bug") for i in range(4))])
@settings(max_examples=60, deadline=None)
def test_a_category_query_through_the_pruned_path_answers_as_checking_every_match(
    entries: list[Entry],
) -> None:
    """A category filter alone runs ``search.topk`` restricted to the category's slots
    (``Corpus.category_bits``, kept until an entry changes); the answers are those of
    scoring every match and checking every match's entry (no hint), after each write."""
    from unittest.mock import patch

    from toon_memory.search import Engine, pipeline

    engine = Engine()
    for step in entries:
        engine.upsert(step)
        with patch.object(pipeline, "PRUNE_FROM", 0):
            pruned = [_summary(engine.recall(RecallOptions(query=q, limit=6, **x), today=TODAY))  # type: ignore[arg-type]
                      for q in QUERIES for x in OPTIONS]  # fmt: skip
        assert pruned == reference(engine)


def test_the_rarest_words_ask_in_query_order() -> None:
    """``RecallOptions.words``: the groups whose word is in the fewest entries, a word in
    none last, ties to the earlier word, kept in the query's order."""
    made = corpus(*(entry(f"k{i}", "redis pool " + ("cache " if i < 3 else "")
                          + ("worker" if i == 0 else "")) for i in range(6)))  # fmt: skip
    groups = query_terms("redis nowhere cache pool worker")
    assert groups == [("redi",), ("nowher",), ("cach",), ("pool",), ("worker",)]
    assert rarest(made.index, groups, 2) == [("cach",), ("worker",)]
    assert rarest(made.index, groups, 4) == [("redi",), ("cach",), ("pool",), ("worker",)]
    assert rarest(made.index, groups, 5) == groups


def test_a_long_context_asks_with_its_distinctive_words() -> None:
    """``Engine.suggest`` ranks a context by its ``SUGGEST_WORDS`` rarest words: the most
    common word of a longer context asks for nothing (an entry matching it alone is not
    found), where a recall of every word finds that entry."""
    from toon_memory.search import Engine
    from toon_memory.search.engine import SUGGEST_WORDS

    rare = [f"rare{i}" for i in range(SUGGEST_WORDS)]
    entries = [entry(f"r{i}", f"{word} wcommon") for i, word in enumerate(rare)]
    entries += [entry(f"c{i}", "wcommon filler") for i in range(8)]
    entries.append(entry("only-common", "wcommon"))
    engine = Engine.build(entries)
    context = " ".join(rare) + " wcommon"
    found = {e.key for e in engine.suggest(context, limit=50, today=TODAY)}
    assert found == {f"r{i}" for i in range(SUGGEST_WORDS)}
    every = RecallOptions(query=context, limit=50, intent=False, pins=False)
    assert "only-common" in {h.entry.key for h in engine.recall(every, today=TODAY).hits}


def test_only_the_pool_of_best_matches_is_fused(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``pool``: the best matches by relevance fused with the other signals. ``w2`` ties
    ``a2`` on relevance and leads it on centrality (four entries link to it): fused from
    the default pool it comes second; from a pool of 2 it is not a candidate. A suggest
    fuses ``SUGGEST_POOL``."""
    from toon_memory.search import Engine
    from toon_memory.search.engine import SUGGEST_POOL
    from toon_memory.search.options import POOL

    entries = [entry("a1", "alpha alpha alpha"), entry("a2", "alpha beta gamma"),
               entry("w2", "alpha beta gamma")]  # fmt: skip
    entries += [entry(f"l{i}", f"note {i}", links=["w2"]) for i in range(4)]
    engine = Engine.build(entries)

    def keys(pool: int) -> list[str]:
        opts = RecallOptions(query="alpha", limit=2, pins=False, pool=pool)
        return [h.entry.key for h in engine.recall(opts, today=TODAY).hits]

    assert keys(POOL) == keys(SUGGEST_POOL) == ["a1", "w2"]
    assert keys(2) == ["a1", "a2"]
    assert keys(1) == ["a1"]  # no more than the pool, whatever the limit
    from toon_memory.search import engine as engine_module

    assert [e.key for e in engine.suggest("alpha", limit=2, today=TODAY)] == ["a1", "w2"]
    monkeypatch.setattr(engine_module, "SUGGEST_POOL", 2)
    assert [e.key for e in engine.suggest("alpha", limit=2, today=TODAY)] == ["a1", "a2"]
