"""Pseudo-relevance feedback (graph mode, long questions) and bonuses that scale with a match."""

from __future__ import annotations

from typing import Any

import pytest
from tests.search.builders import entry, recall

from toon_memory.search import Engine, feedback
from toon_memory.search.index import BM25Index


def keys(engine: Engine, query: str, **options: Any) -> list[str]:
    return recall(engine, query, **options).keys


def _index(docs: dict[str, list[str]]) -> BM25Index:
    index = BM25Index({"content": 1.0})
    for doc_id, terms in docs.items():
        index.add(doc_id, {"content": terms})
    return index


def _first_pass(index: BM25Index, groups: list[tuple[str, ...]]) -> dict[int, float]:
    return {slot: score for slot, score in
            zip(map(index.slot, index.score(groups)), index.score(groups).values(), strict=True)
            if slot is not None}  # fmt: skip


def _filler(n: int) -> dict[str, list[str]]:
    return {f"f{i}": [f"word{i}", f"other{i}"] for i in range(n)}


def test_feedback_borrows_the_rare_words_of_the_best_matches() -> None:
    index = _index({
        "a": ["picnic", "church", "friend", "charad", "scaveng"],
        "b": ["charad", "scaveng", "laugh"],
        "c": ["picnic", "weather"],
        **_filler(40),
    })  # fmt: skip
    groups = [("picnic",), ("church",), ("friend",), ("activ",)]
    extra, weights = feedback.feedback_groups(index, _first_pass(index, groups), groups)
    borrowed = [group[0] for group in extra]
    assert borrowed[:2] == ["charad", "scaveng"]  # in two documents, from the best match
    assert "weather" not in borrowed  # only in one document
    assert all(w == {g[0]: feedback.FEEDBACK_WEIGHT} for g, w in zip(extra, weights, strict=True))


def test_no_feedback_for_short_queries() -> None:
    index = _index({"a": ["picnic", "charad"], "b": ["charad"], **_filler(10)})
    groups = [("picnic",), ("church",)]
    assert feedback.feedback_groups(index, _first_pass(index, groups), groups) == ([], [])


def _picnic() -> Engine:
    turns = [
        ("t1", "Maria: last weekend I had a picnic with some friends from church.", []),
        ("t2", "John: sounds great, what did you do there?", ["t1", "t3"]),
        ("t3", "Maria: charades and a scavenger hunt, we laughed a lot.", ["t2"]),
        ("t9", "Tim: my kids love charades and scavenger hunts at parties.", []),
        *[(f"x{i}", f"John: the basketball match number {i} was fun.", []) for i in range(30)],
    ]
    return Engine.build([entry(key, text, links=links, id=f"{n:08x}")
                         for n, (key, text, links) in enumerate(turns)])  # fmt: skip


def test_feedback_only_in_graph_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    question = "what did Maria play at the picnic with her church friends"
    engine = _picnic()
    with_feedback = keys(engine, question, mode="graph", limit=10)
    assert "t9" in with_feedback  # reached through the words t3 and t1's neighbours share
    monkeypatch.setattr(feedback, "FEEDBACK_WEIGHT", 0.0)
    assert "t9" not in keys(engine, question, mode="graph", limit=10)
    assert "t9" not in keys(engine, question, limit=10)


def test_a_bonus_helps_as_much_as_the_entry_matches() -> None:
    engine = Engine.build([
        entry("audit-2026-07", "Security audit: one high finding in SAML assertions, fixed."),
        entry("audit-2026-03", "Security audit: two medium findings, both fixed."),
        entry("secrets-in-logs", "Never log request bodies: security keys inside.",
              category="warning", importance="critical"),
    ])  # fmt: skip
    assert keys(engine, "security audit findings")[-1] == "secrets-in-logs"
    assert keys(engine, "security")[0] == "secrets-in-logs"  # an equal match: the bonus decides
