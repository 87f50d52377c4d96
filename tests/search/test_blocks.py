"""``search.blocks.hit_block``: a pure function of a result and a position, in the shape the
options ask for (normal, deep, tiny, compact, index)."""

from __future__ import annotations

from typing import Any

from tests.search.builders import entry

from toon_memory.search.blocks import NEIGHBOUR_CHARS, TINY_CHARS, hit_block
from toon_memory.search.options import RecallOptions
from toon_memory.search.result import Edge, Hit, RecallResult

SEED = entry("api-port", "API listens on 8080.\nSecond line.", file="src/api.py",
             tags=["api", "http"], links=["db"], priority=1, importance="high",
             meta={"owner": "ana"})  # fmt: skip
NEIGHBOUR = entry("db", "Postgres " + "x" * 200)


def result(**options: Any) -> RecallResult:
    hits = (Hit(SEED, 0.75, 92, reasons=("92% relevance", "used 3×")),
            Hit(NEIGHBOUR, 0.2, 30, hop=1, via="api-port"))  # fmt: skip
    edges = (Edge(0, 1, "relates"), Edge(1, 0, "relates"))
    return RecallResult(RecallOptions(**options).validated(), hits, edges, 2)


def test_normal_block() -> None:
    assert hit_block(result(), 0) == "\n".join([
        f"[knowledge] api-port ({SEED.id}) 📌1", "  API listens on 8080.\nSecond line.",
        "  File: src/api.py | Tags: api;http | Date: 2026-07-01", "  links: db",
    ])  # fmt: skip


def test_explain_adds_the_reasons_line_only_when_asked() -> None:
    assert hit_block(result(explain=True), 0).endswith("\n  ↳ 92% relevance · used 3×")
    assert "↳" not in hit_block(result(explain=True), 1)  # no reasons, no line


def test_deep_adds_every_other_set_field_and_the_score() -> None:
    block = hit_block(result(budget="deep"), 0)
    assert block.startswith(hit_block(result(), 0))
    assert "  importance: high" in block and "  priority: 1" in block
    meta = [line for line in block.splitlines() if line.startswith("  meta: ")]
    assert len(meta) == 1 and "owner" in meta[0] and "ana" in meta[0]
    assert "  score: 0.7500 · relevance 92%" in block
    assert "  ttl:" not in block


def test_tiny_is_one_line_with_the_first_line_cut() -> None:
    assert hit_block(result(budget="tiny"), 0) == "[knowledge] api-port — API listens on 8080."
    line = hit_block(result(budget="tiny"), 1)
    assert "\n" not in line and line.endswith("…")
    assert len(line.split(" — ", 1)[1]) == TINY_CHARS


def test_compact_numbers_hits_cuts_neighbours_and_lists_edges() -> None:
    seed = hit_block(result(compact=True), 0)
    assert seed == ("[1] knowledge/api-port\n  API listens on 8080. Second line.\n"
                    "  tags: api;http · edges: ->2")  # fmt: skip
    neighbour = hit_block(result(compact=True), 1).splitlines()
    assert neighbour[0] == "[2] knowledge/db" and len(neighbour[1].strip()) == NEIGHBOUR_CHARS
    assert neighbour[2] == "  edges: ->1"


def test_index_line_unless_ids_are_asked() -> None:
    assert (
        hit_block(result(mode="index"), 1)
        == f"[2] db ({NEIGHBOUR.id}) · knowledge · 2026-07-01 · 30%"
    )
    assert hit_block(result(mode="index", ids="x"), 0) == hit_block(result(ids="x"), 0)


def test_same_result_same_text() -> None:
    assert hit_block(result(), 1) == hit_block(result(), 1)
