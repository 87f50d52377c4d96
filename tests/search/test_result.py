"""``search.result``: hits in rank order, edges naming hits by position, and ``to_dict``
JSON-ready in that order."""

from __future__ import annotations

import json

from tests.search.builders import entry

from toon_memory.search.options import RecallOptions
from toon_memory.search.result import Edge, Hit, RecallResult


def make() -> RecallResult:
    a = entry("api-port", "API on 8080", priority=2, tags=["api"], links=["db"])
    b = entry("db", "Postgres 15", importance="high")
    hits = (Hit(a, 1.234567891, 90, hop=-1, reasons=("pinned",)),
            Hit(b, 0.5, 40, hop=1, via="api-port"))  # fmt: skip
    edges = (Edge(0, 1, "relates"), Edge(1, 0, "relates"))
    return RecallResult(RecallOptions(query="api", mode="graph").validated(), hits, edges, 7,
                        ("zzz",), 3)  # fmt: skip


def test_accessors() -> None:
    result = make()
    assert len(result) == 2 and result.keys == ["api-port", "db"]
    assert [e.key for e in result.entries] == result.keys
    assert result.edges_of(0) == [Edge(0, 1, "relates")] and result.edges_of(5) == []
    first, second = result.hits
    assert first.pinned and not first.seed and second.pinned is False and not second.seed
    assert Hit(second.entry, 0.0, 0).seed


def test_to_dict_is_json_ready_in_rank_order() -> None:
    data = json.loads(json.dumps(make().to_dict()))
    assert (data["query"], data["mode"], data["total"], data["dropped"]) == ("api", "graph", 7, 3)
    assert data["missing"] == ["zzz"]
    assert [r["key"] for r in data["results"]] == ["api-port", "db"]
    first = data["results"][0]
    assert first["score"] == 1.234568 and first["pinned"] is True and first["priority"] == 2
    assert first["tags"] == ["api"] and first["links"] == ["db"] and first["reasons"] == ["pinned"]
    assert data["results"][1]["via"] == "api-port" and data["results"][1]["hop"] == 1
    assert data["edges"] == [{"from": "api-port", "to": "db", "type": "relates"},
                             {"from": "db", "to": "api-port", "type": "relates"}]  # fmt: skip


def test_an_ids_lookup_reports_mode_ids() -> None:
    opts = RecallOptions(ids="a1b2c3d4").validated()
    assert RecallResult(opts).to_dict()["mode"] == "ids"
