"""``search.corpus.Corpus``: after any upsert/remove the index, graph and caches describe
exactly the entries held, and the pickled form round-trips (a stale version is refused)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.search.builders import entry

from toon_memory.search.corpus import INDEX_VERSION, Corpus, entry_fields, entry_links


def test_entry_fields_and_links() -> None:
    e = entry("api-port", "The API listens on 8080, see [[db]]", file="src/api.py",
              tags=["http"], links=["supersedes:old"], category="Bug")  # fmt: skip
    fields = entry_fields(e)
    assert set(fields) == {"id", "category", "key", "content", "file", "tags"}
    assert fields["id"] == [e.id] and fields["category"] == ["bug"]
    assert "8080" in fields["content"] and fields["tags"]
    assert entry_links(e) == [("supersedes", "old"), ("relates", "db")]


def state(corpus: Corpus) -> tuple[object, ...]:
    ids = set(corpus.entries)
    return (ids, set(corpus.family), set(corpus.static), set(corpus.usage),
            {i for i in ids if i in corpus.index}, len(corpus.graph))  # fmt: skip


def test_caches_follow_upsert_and_remove() -> None:
    corpus = Corpus()
    pinned = entry("a", "alpha", priority=1, links=["b"])
    expiring = entry("b", "beta", ttl="2026-08-01")
    old = entry("c", "gamma", status="superseded")
    for e in (pinned, expiring, old):
        corpus.upsert(e)
    assert corpus.pinned == {pinned.id} and corpus.conditional == {expiring.id, old.id}
    assert corpus.active_category == {pinned.id: "knowledge", expiring.id: "knowledge"}
    assert corpus.graph.neighbours(pinned.id) == {expiring.id: "relates"}
    corpus.upsert(pinned.copy(priority=0, links=[]))
    assert corpus.pinned == set() and corpus.graph.neighbours(pinned.id) == {}
    corpus.remove(expiring.id)
    corpus.remove("ffffffff")  # unknown: ignored
    assert set(corpus.entries) == {pinned.id, old.id} and corpus.conditional == {old.id}
    assert corpus.ids_of("c") == [old.id] and corpus.ids_of("b") == []


def test_pickle_round_trip_and_stale_versions_refused() -> None:
    corpus = Corpus()
    corpus.upsert(entry("a", "alpha beta", links=["b"]))
    corpus.upsert(entry("b", "beta"))
    clone = pickle.loads(pickle.dumps(corpus))
    assert state(clone) == state(corpus)
    assert clone.graph.neighbours(entry("a", "").id) == corpus.graph.neighbours(entry("a", "").id)
    stale = corpus.__getstate__()
    stale["version"] = INDEX_VERSION - 1
    with pytest.raises(ValueError, match="search cache version"):
        Corpus().__setstate__(stale)


KEYS = st.sampled_from(["k1", "k2", "k3", "k4"])


@given(st.lists(st.tuples(KEYS, st.booleans(), st.sampled_from(["active", "obsolete"]),
                          st.integers(0, 1)), max_size=12))  # fmt: skip
def test_after_any_changes_every_cache_describes_exactly_the_entries(
    ops: list[tuple[str, bool, str, int]],
) -> None:
    corpus = Corpus()
    for key, keep, status, priority in ops:
        e = entry(key, f"text of {key}", status=status, priority=priority, links=["k1"])
        if keep:
            corpus.upsert(e)
        else:
            corpus.remove(e.id)
    held = {e.id: e for e in corpus.entries.values()}
    assert state(corpus) == (set(held), set(held), set(held), set(held), set(held), len(held))
    assert corpus.pinned == {i for i, e in held.items() if e.priority > 0}
    assert corpus.active_category == {i: e.category for i, e in held.items() if e.active}
    assert corpus.conditional == {i for i, e in held.items() if not e.active or e.ttl}
