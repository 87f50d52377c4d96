"""``search.index.BM25Index``: after any sequence of add/remove, ``score`` equals a fresh
index built from the surviving documents, and the pickled form scores identically."""

from __future__ import annotations

import math
import pickle

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.search.index import BM25Index

WEIGHTS = {"key": 3.0, "content": 1.0}
TERMS = st.lists(st.sampled_from(["db", "port", "api", "cache", "lint"]), max_size=4)
DOC = st.fixed_dictionaries({"key": TERMS, "content": TERMS})
GROUPS = [("db",), ("port", "api"), ("cache",), ("lint", "db")]


def close(a: dict[str, float], b: dict[str, float]) -> bool:
    return a.keys() == b.keys() and all(math.isclose(a[k], b[k], rel_tol=1e-9) for k in a)


def test_bm25f_formula_on_a_tiny_corpus() -> None:
    index = BM25Index(WEIGHTS)
    index.add("d1", {"key": ["db"], "content": ["db", "port"]})
    index.add("d2", {"key": [], "content": ["port"]})
    n, df, avg = 2, 1, (5 + 1) / 2  # weighted lengths 3+1+1 and 1
    tf, length = 3.0 + 1.0, 5.0
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    expected = idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * length / avg))
    assert math.isclose(index.score([("db",)])["d1"], expected)
    assert set(index.score([("port",)])) == {"d1", "d2"}
    assert index.score([("nothing",)]) == {} and BM25Index(WEIGHTS).score([("db",)]) == {}
    assert index.doc_freq("port") == 2 and index.doc_freq("zzz") == 0
    assert len(index) == 2 and "d1" in index and "d9" not in index


def test_a_group_scores_its_best_term_and_weights_scale_it() -> None:
    index = BM25Index(WEIGHTS)
    index.add("d1", {"content": ["db"]})
    index.add("d2", {"content": ["api"]})
    index.add("d3", {"content": ["lint"]})
    alone = index.score([("db",)])["d1"]
    assert math.isclose(index.score([("db", "api")])["d1"], alone)
    assert math.isclose(index.score([("db", "api")], [{"db": 0.5}])["d1"], alone * 0.5)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.none() | DOC), max_size=14))
def test_incremental_equals_fresh_and_pickle(
    ops: list[tuple[str, dict[str, list[str]] | None]],
) -> None:
    index = BM25Index(WEIGHTS)
    docs: dict[str, dict[str, list[str]]] = {}
    for doc_id, fields in ops:
        if fields is None:
            index.remove(doc_id)
            docs.pop(doc_id, None)
        else:
            index.add(doc_id, fields)
            docs[doc_id] = fields
    fresh = BM25Index(WEIGHTS)
    for doc_id, fields in docs.items():
        fresh.add(doc_id, fields)
    loaded = pickle.loads(pickle.dumps(index))
    for group in GROUPS:
        assert close(index.score([group]), fresh.score([group]))
        assert close(loaded.score([group]), index.score([group]))
    assert close(index.score(GROUPS), fresh.score(GROUPS))
    assert len(index) == len(loaded) == len(docs)
    for doc_id in docs:
        slot = index.slot(doc_id)
        assert slot is not None and index.doc_id(slot) == doc_id
