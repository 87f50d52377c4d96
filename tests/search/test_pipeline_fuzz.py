"""Any query text with any valid options ranks without error, over a memory that has it all.

The memory holds versions (a supersedes link), an obsolete and an expired
entry, files, tags, German, Spanish and Chinese text and a critical warning;
queries mix time words, paths, compounds and free text. Properties: no
exception, no duplicate, the limit kept, obsolete and expired entries never
returned, nothing written after ``as_of``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.search.builders import TODAY, entry

from toon_memory.search import Engine, RecallOptions

_ENTRIES = [
    entry("map-provider-v1", "Maps use Google Maps.", date="2026-01-16", status="superseded",
          superseded_on="2026-05-02", tags=["maps"]),
    entry("map-provider", "Maps switched to MapLibre.", date="2026-05-02",
          links=["supersedes:map-provider-v1"], tags=["maps"]),
    entry("oom", "Die Worker-Pods wurden beendet; Speicherlimit erhöht.", category="bug",
          file="src/k8s/workers.yaml"),
    entry("dhl", "DHL returns local times.", file="src/carriers/dhl.py", category="warning",
          importance="critical"),
    entry("iva", "La facturación aplica IVA según el país.", date="2026-03-02"),
    entry("sf", "顺丰速运 的接口需要每天刷新访问令牌", date="2026-06-15"),
    entry("old", "We evaluated Amazon SQS.", status="obsolete"),
    entry("sprint", "Sprint goal: SSO.", ttl="2026-07-10"),
]  # fmt: skip
_ENGINE = Engine.build(_ENTRIES)
_WORDS = ["latest", "first", "before", "June", "2026-03-01", "as", "of", "antes", "de", "mayo",
          "maps", "provider", "Speicherlimit", "memory", "limit", "src/carriers/dhl.py", "dhl.py:3",
          "IVA", "invoice", "顺丰", "token", "previously", "used", "to", "most", "recent", "SQS",
          "a.b.c", "../..", "*", "Zugriffstoken", "at", "oldest", ""]  # fmt: skip


@given(
    words=st.lists(st.sampled_from(_WORDS), max_size=7),
    mode=st.sampled_from(["flat", "graph"]),
    as_of=st.sampled_from(["", "2026-02-01", "2026-06-15"]),
    limit=st.sampled_from([None, 1, 3]),
    rrf=st.booleans(),
    smart=st.booleans(),
    intent=st.booleans(),
    path_scope=st.sampled_from(["", "src/carriers", "src/**/*.py"]),
    budget_tokens=st.sampled_from([0, 60]),
)
@settings(max_examples=400, deadline=None)
def test_any_query_with_any_options_ranks_without_error(
    words: list[str], mode: str, as_of: str, limit: int | None, rrf: bool, smart: bool,
    intent: bool, path_scope: str, budget_tokens: int,
) -> None:  # fmt: skip
    opts = RecallOptions(query=" ".join(words), mode=mode, as_of=as_of, limit=limit, rrf=rrf,
                         smart=smart, intent=intent, path_scope=path_scope,
                         budget_tokens=budget_tokens)  # fmt: skip
    found = _ENGINE.recall(opts, today=TODAY)
    ids = [hit.entry.id for hit in found.hits]
    assert len(ids) == len(set(ids))
    assert limit is None or len(ids) <= limit
    keys = set(found.keys)
    assert "old" not in keys and "sprint" not in keys  # obsolete, expired: never
    if as_of == "2026-02-01":
        assert not keys & {"map-provider", "iva", "sf"}  # written after as_of
