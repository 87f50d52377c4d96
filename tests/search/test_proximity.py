"""Word proximity, compounds and graph coverage, asserted on small hand-built memories."""

from __future__ import annotations

import pickle

import pytest
from tests.search.builders import entry, recall

from toon_memory.search import Engine, phrases, rank
from toon_memory.search.index import BM25Index
from toon_memory.search.phrases import document_pairs, query_pairs
from toon_memory.search.tokenize import query_groups

# Same words, same length: only where the two query words stand differs.
TOGETHER = "We watched the meteor shower from the hill, then cooked pasta by the lake"
APART = "We watched the meteor from the hill, then took a shower by the lake cabin"


def _pair_engine() -> Engine:
    return Engine.build([entry("apart", APART), entry("together", TOGETHER)])


def test_words_written_together_outrank_the_same_words_apart() -> None:
    for mode in ("flat", "graph"):
        assert recall(_pair_engine(), "meteor shower", mode=mode).keys[0] == "together"


def test_without_pair_weight_the_two_entries_tie_on_the_words() -> None:
    engine = _pair_engine()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(phrases, "PAIR_WEIGHT", 0.0)
        hits = recall(engine, "meteor shower").hits
    assert hits[0].score == pytest.approx(hits[1].score)
    with_pairs = recall(engine, "meteor shower").hits
    assert with_pairs[0].score > with_pairs[1].score


def test_pairs_skip_number_pairs_and_stay_within_the_window() -> None:
    groups = [("stage",), ("url",), ("2026",), ("03",), ("01",)]
    pairs = document_pairs(groups)
    assert "stage~url" in pairs and "stage~2026" in pairs
    assert "2026~03" not in pairs and "03~01" not in pairs
    assert "stage~03" not in pairs  # three words apart
    extra, weights = query_pairs([("meteor",), ("shower", "ducha")], [{}, {"ducha": 0.8}])
    assert extra == [("meteor~shower", "meteor~ducha")]
    assert weights[0]["meteor~ducha"] == pytest.approx(phrases.PAIR_WEIGHT * 0.8)


def test_pairs_do_not_change_document_length() -> None:
    plain, paired = (
        BM25Index({"content": 1.0}),
        BM25Index({"content": 1.0, "pairs": 1.0}, ["pairs"]),
    )
    for doc, words in (("a", ["retry", "webhook"]), ("b", ["retry", "queue", "worker", "cron"])):
        plain.add(doc, {"content": words})
        paired.add(doc, {"content": words, "pairs": document_pairs([(w,) for w in words])})
    assert paired.score([("retry",)]) == pytest.approx(plain.score([("retry",)]))
    loaded = pickle.loads(pickle.dumps(paired))
    assert loaded.score([("retry~webhook",)]) == pytest.approx(paired.score([("retry~webhook",)]))
    assert loaded.score([("retry~webhook",)]).keys() == {"a"}


def test_adjacent_query_words_also_ask_for_their_compound() -> None:
    groups = query_groups("road trip accident")
    assert "roadtrip" in groups[0] and "roadtrip" in groups[1]
    engine = Engine.build([
        entry("trip-report", "The roadtrip last weekend went fine"),
        entry("road-works", "Road closed for works, detour via the bridge"),
    ])  # fmt: skip
    assert recall(engine, "road trip").keys[0] == "trip-report"


def test_stopword_breaks_a_compound() -> None:
    assert all(len(group) == 1 for group in query_groups("road to nowhere"))


def test_coverage_scales_relevance_by_words_matched() -> None:
    graph = Engine.build([])._corpus.graph
    parts = [{"a": 2.0, "b": 2.0}, {"a": 1.0}]
    hop = {"a": 0, "b": 0}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rank, "COVERAGE_EXPONENT", 0.0)
        flat = rank.spread(graph, parts, ["a", "b"], hop, lambda _: True)
    covered = rank.spread(graph, parts, ["a", "b"], hop, lambda _: True)
    assert flat == {"a": 3.0, "b": 2.0}
    assert covered["a"] == pytest.approx(3.0)
    assert covered["b"] == pytest.approx(2.0 * 0.5**rank.COVERAGE_EXPONENT)
    # groups past ``words`` (pairs) add relevance but are not counted for coverage
    extra = rank.spread(graph, [*parts, {"b": 1.0}], ["a", "b"], hop, lambda _: True, 2)
    assert extra["b"] == pytest.approx(3.0 * 0.5**rank.COVERAGE_EXPONENT)
