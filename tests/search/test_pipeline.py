"""``search.pipeline``: query groups with ids written in the query, the eligibility predicate,
the query's temporal intent as options, edges among hits, and ``rank_entries``' order (pinned
first, then score, ties by key then id; at most ``limit``). The engine-level fuzzing is in
test_pipeline_fuzz.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry

from toon_memory.search.corpus import Corpus
from toon_memory.search.intent import NONE
from toon_memory.search.options import RecallOptions
from toon_memory.search.pipeline import (
    allowed_test,
    hit_edges,
    query_terms,
    rank_entries,
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
