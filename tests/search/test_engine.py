"""Engine mechanics: options validation, incremental updates, pickling, graph paths, output."""

from __future__ import annotations

import pickle
import random
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from tests.search.builders import entry, recall

from toon_memory.errors import InputError, NotFoundError
from toon_memory.model.entry import Entry
from toon_memory.render.recall import render_recall
from toon_memory.search import Engine, RecallOptions
from toon_memory.search.budget import estimate_tokens
from toon_memory.search.rank import rrf, rrf_k, shared_ranks

WORDS = [
    "redis",
    "cache",
    "pool",
    "timeout",
    "auth",
    "token",
    "graph",
    "node",
    "edge",
    "deploy",
    "docker",
    "schema",
]


def random_memory(n: int, seed: int) -> list[Entry]:
    rng = random.Random(seed)
    return [
        entry(f"k{i}", " ".join(rng.choices(WORDS, k=6)), links=[f"k{rng.randrange(n)}"],
              tags=rng.sample(WORDS, 2))
        for i in range(n)
    ]  # fmt: skip


def snapshot(engine: Engine) -> list[tuple[str, ...]]:
    out = []
    for query in ("redis cache", "graph edge", "deploy", ""):
        for mode in ("flat", "graph"):
            result = recall(engine, query, mode=mode, hops=2, limit=15)
            out.append(tuple(f"{h.entry.key}:{h.score:.9f}" for h in result.hits))
    return out


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"mode": "fuzzy"}, "mode"),
        ({"hops": 3}, "hops"),
        ({"hops": 0}, "hops"),
        ({"limit": -1}, "limit"),
        ({"budget": "huge"}, "budget"),
        ({"budget_tokens": -5}, "budget_tokens"),
        ({"as_of": "yesterday"}, "as_of"),
        ({"from_date": "2026-13-01"}, "from_date"),
        ({"from_date": "2026-07-02", "to_date": "2026-07-01"}, "to_date"),
    ],
)
def test_bad_options_raise_input_error(options: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as info:
        recall(Engine(), "x", **options)
    assert info.value.field == field


def test_default_limits() -> None:
    assert RecallOptions().validated().limit == 10
    assert RecallOptions(budget="tiny").validated().limit == 3
    assert RecallOptions(budget="deep").validated().limit == 20
    assert RecallOptions(mode="graph").validated().limit == 6
    assert RecallOptions(mode="index").validated().limit == 50
    assert RecallOptions(limit=4).validated().limit == 4


def test_default_hops_live_in_the_options() -> None:
    assert RecallOptions().validated().hops == 1
    assert RecallOptions(mode="graph").validated().hops == 2
    assert RecallOptions(mode="GRAPH").validated().hops == 2
    assert RecallOptions(mode="graph", hops=1).validated().hops == 1
    assert RecallOptions(mode="index").validated().hops == 1


def _chain() -> Engine:
    """seed -> middle -> far: only the seed holds the query word."""
    return Engine.build([
        entry("seed", "Kafka consumer lag alert", links=["middle"]),
        entry("middle", "Partition rebalancing notes", links=["far"]),
        entry("far", "Broker disk sizing"),
    ])  # fmt: skip


def test_engine_used_directly_spreads_two_hops_in_graph_mode() -> None:
    engine = _chain()
    graph = recall(engine, "kafka", mode="graph")
    assert {h.entry.key: h.hop for h in graph.hits} == {"seed": 0, "middle": 1, "far": 2}
    assert graph.options.hops == 2
    assert engine.smart_recall("kafka", today=date(2026, 7, 15)).options.hops == 2
    one = recall(engine, "kafka", mode="graph", hops=1)
    assert {h.entry.key: h.hop for h in one.hits} == {"seed": 0, "middle": 1}
    assert recall(engine, "kafka").keys == ["seed"]


def test_incremental_updates_equal_a_fresh_build() -> None:
    entries = random_memory(60, seed=1)
    engine = Engine.build(entries[:40])
    for e in entries[40:]:
        engine.upsert(e)
    for e in entries[:10]:
        engine.remove(e.id)
    changed = [e.copy(content=e.content + " timeout", links=["k1"]) for e in entries[20:30]]
    for e in changed:
        engine.upsert(e)
    survivors = {e.id: e for e in entries[10:]}
    survivors.update({e.id: e for e in changed})
    fresh = Engine.build(survivors.values())
    assert snapshot(engine) == snapshot(fresh)


def test_pickle_round_trip_answers_identically() -> None:
    engine = Engine.build(random_memory(80, seed=2))
    loaded = pickle.loads(pickle.dumps(engine))
    assert snapshot(loaded) == snapshot(engine)
    extra = entry("fresh-one", "redis cache graph", links=["k3"])
    loaded.upsert(extra)
    engine.upsert(extra)
    assert snapshot(loaded) == snapshot(engine)
    again = pickle.loads(pickle.dumps(loaded))
    again.remove(extra.id)
    engine.remove(extra.id)
    assert snapshot(again) == snapshot(engine)


def test_graph_path_is_shortest_and_checks_ends() -> None:
    engine = Engine.build([
        entry("a", "start", links=["b"]), entry("b", "middle", links=["c"]),
        entry("c", "end [[d]]"), entry("d", "after"), entry("x", "alone"),
    ])  # fmt: skip
    assert [e.key for e in engine.graph_path("a", "d")] == ["a", "b", "c", "d"]
    assert [e.key for e in engine.graph_path("d", "a")] == ["d", "c", "b", "a"]
    assert engine.graph_path("a", "x") == []
    with pytest.raises(NotFoundError):
        engine.graph_path("a", "nope")


def test_shared_ranks_and_rrf() -> None:
    assert shared_ranks({"a": 3.0, "b": 2.0, "c": 2.0, "d": 1.0}) == {
        "a": 1,
        "b": 2,
        "c": 2,
        "d": 3,
    }
    assert rrf_k(1) == 3 and rrf_k(100) == 10 and rrf_k(10_000) == 60
    fused = rrf({"a": 2.0, "b": 1.0}, {"a": 1.0, "b": 0.0})
    assert fused["a"] == pytest.approx(1.0) and fused["b"] < fused["a"]


def _riesgo() -> Engine:
    return Engine.build([
        entry("risk-engine-priority", "The engine prioritizes risk over speed (see [[risk-spec]]).",
              category="decision", file="spec.md:10", tags=["risk", "spec"], links=["engine-arch"],
              accessed=14, last_accessed="2026-07-15", importance="high"),
        entry("risk-spec", "Risk specification for the engine.", links=["engine-arch"]),
        entry("engine-arch", "Engine architecture: " + "modules and layers " * 20,
              category="pattern", tags=["engine"]),
    ])  # fmt: skip


def test_explain_line_is_deterministic() -> None:
    result = recall(_riesgo(), "risk engine", explain=True)
    text = render_recall(result)
    assert "  ↳ 100% relevance · used 14× · used today · importance HIGH · explicit high" in text
    assert text == render_recall(recall(_riesgo(), "risk engine", explain=True))


def test_compact_graph_rendering() -> None:
    result = recall(_riesgo(), "risk speed", mode="graph", hops=2, compact=True)
    text = render_recall(result)
    assert text.startswith("[1] decision/risk-engine-priority\n")
    assert "edges: ->" in text
    assert "(" + result.hits[0].entry.id + ")" not in text
    neighbour = next(h for h in result.hits if h.entry.key == "engine-arch")
    assert neighbour.hop > 0 and "…" in text


def test_index_tiny_deep_and_ids_shapes() -> None:
    engine = _riesgo()
    index = render_recall(recall(engine, "", mode="index"))
    assert index.startswith("📇 Memory index (3 of 3 entries):")
    assert " · decision · 2026-07-01 · " in index
    tiny = render_recall(recall(engine, "risk", budget="tiny"))
    assert all(line.startswith("[") for line in tiny.splitlines())
    deep = render_recall(recall(engine, "risk", budget="deep"))
    assert "importance: high" in deep and "accessed: 14" in deep
    fetched = render_recall(recall(engine, ids="engine-arch,zzz"))
    assert fetched.startswith("Fetched 1 entry:") and fetched.endswith("Not found: zzz")
    assert render_recall(recall(engine, "nothing-matches-this")).startswith("No matching entries")


def test_budget_estimate_counts_non_ascii_heavier() -> None:
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("缓存" * 3) == 4


def test_json_shape_for_the_cli() -> None:
    data = recall(_riesgo(), "risk", mode="graph").to_dict()
    assert data["results"][0]["key"] == "risk-engine-priority"
    assert data["mode"] == "graph" and isinstance(data["edges"], list)


LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo"


@pytest.mark.skipif(not (LOCOMO / "conv-26.json").is_file(), reason="shared LoCoMo data absent")
def test_locomo_graph_mode_beats_the_baseline_on_one_conversation() -> None:
    import json

    from benchmarks.retrieval.common import recall_at
    from benchmarks.retrieval.locomo import load_entries, load_questions

    conv = json.loads((LOCOMO / "conv-26.json").read_text(encoding="utf-8"))
    engine = Engine.build(load_entries(conv, "conv-26"))
    questions = load_questions(conv)
    scores = [
        recall_at(recall(engine, q.text, mode="graph", hops=2, limit=5).keys, q.evidence, 5)
        for q in questions
    ]
    assert sum(scores) / len(scores) > 0.55


def test_common_words_are_skipped_only_when_rarer_words_remain() -> None:
    from toon_memory.search import Engine, RecallOptions
    from toon_memory.search.index import COMMON_MIN_DOCS

    entries = [
        Entry(id=f"{n:08x}", category="knowledge", key=f"note-{n}", content=f"widget note {n}")
        for n in range(COMMON_MIN_DOCS + 10)
    ]
    entries.append(Entry(id="ffffffff", category="knowledge", key="gizmo", content="widget gizmo"))
    engine = Engine.build(entries)
    today = date(2026, 7, 15)
    both = engine.recall(RecallOptions(query="widget gizmo", limit=3), today=today)
    assert both.keys[0] == "gizmo" and len(both.keys) == 1
    alone = engine.recall(RecallOptions(query="widget", limit=3), today=today)
    assert len(alone.keys) == 3


def test_no_query_ranking_follows_folded_accesses(tmp_path: Path) -> None:
    """An access folded in (not a full re-index) still lifts the entry in the no-query ranking."""
    from toon_memory import Memory

    memory = Memory(tmp_path)
    for n in range(4):
        memory.remember("knowledge", f"k{n}", f"note number {n} about things")
    memory.compact()
    before = [e.key for e in memory.primer(limit=4).top]
    low = before[-1]
    for _ in range(30):
        memory.recall(ids=low)
    fresh = Memory(tmp_path)  # a new process reads the access log and folds it in
    assert fresh.primer(limit=4).top[0].key == low
    counts = fresh.primer().counts
    assert counts == {"knowledge": 4}
