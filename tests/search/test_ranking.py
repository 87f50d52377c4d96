"""Rankings asserted on small hand-built memories."""

from __future__ import annotations

from typing import Any

from tests.search.builders import TODAY, entry, recall

from toon_memory.search import Engine, RecallOptions


def keys(engine: Engine, query: str = "", **options: Any) -> list[str]:
    return recall(engine, query, **options).keys


def _billing() -> Engine:
    spokes = ["payment-retry", "invoice-format", "refund-flow", "tax-rules", "ledger-export"]
    contents = {
        "payment-retry": "Retry Stripe webhooks with exponential backoff",
        "invoice-format": "Invoices are numbered per year, PDF via weasyprint",
        "refund-flow": "Refunds need a second approval above 500 EUR",
        "tax-rules": "VAT is computed per customer country",
        "ledger-export": "Nightly export of the ledger to the accounting team",
    }
    entries = [entry(k, contents[k], links=["billing-architecture"]) for k in spokes]
    entries.append(entry("billing-architecture", "Overview of the money flow: modules and owners"))
    entries.append(entry("stripe-api-version", "Pinned the Stripe API version to 2024-06"))
    return Engine.build(entries)


def test_hub_without_query_word_surfaces_in_graph_mode() -> None:
    engine = _billing()
    assert "billing-architecture" not in keys(engine, "stripe")
    graph = keys(engine, "stripe", mode="graph")
    assert "billing-architecture" in graph
    assert graph.index("billing-architecture") <= 2
    hit = next(h for h in recall(engine, "stripe", mode="graph").hits
               if h.entry.key == "billing-architecture")  # fmt: skip
    assert hit.hop == 1 and hit.via == "payment-retry"


def test_two_hops_reach_further_than_one() -> None:
    engine = _billing()
    one = keys(engine, "stripe webhooks", mode="graph", hops=1, limit=20)
    two = keys(engine, "stripe webhooks", mode="graph", hops=2, limit=20)
    assert "invoice-format" not in one
    assert "invoice-format" in two
    assert len(two) > len(one)


def test_warning_outranks_an_equal_note() -> None:
    text = "Never run the migration twice on the orders table"
    engine = Engine.build([
        entry("note-migration", text, category="knowledge"),
        entry("warn-migration", text, category="warning"),
    ])  # fmt: skip
    assert keys(engine, "migration orders") == ["warn-migration", "note-migration"]


def test_explicit_importance_orders_equal_entries() -> None:
    text = "Cache invalidation happens on every deploy"
    engine = Engine.build([
        entry("a-low", text, importance="low"),
        entry("b-plain", text),
        entry("c-critical", text, importance="critical"),
    ])  # fmt: skip
    assert keys(engine, "cache deploy") == ["c-critical", "b-plain", "a-low"]


def test_expired_entry_never_appears() -> None:
    engine = Engine.build([
        entry("sprint-deadline", "Sprint deadline is July 10", ttl="2026-07-10"),
        entry("sprint-goal", "Sprint goal: ship the deadline reminder", links=["sprint-deadline"]),
        entry("pinned-old", "deadline pinned but expired", ttl="2026-07-01", priority=3),
    ])  # fmt: skip
    for mode in ("flat", "graph", "index"):
        assert "sprint-deadline" not in keys(engine, "sprint deadline", mode=mode, hops=2)
        assert "pinned-old" not in keys(engine, "", mode=mode)
    assert keys(engine, "sprint deadline") == ["sprint-goal"]


def test_obsolete_and_superseded_are_excluded_and_as_of_brings_back() -> None:
    engine = Engine.build([
        entry("db-choice-v1", "Database: use MySQL", status="superseded",
              superseded_on="2026-05-01", created="2026-01-10T10:00:00Z", date="2026-01-10"),
        entry("db-choice-v2", "Database: use Postgres", links=["supersedes:db-choice-v1"],
              created="2026-05-01T10:00:00Z", date="2026-05-01"),
        entry("db-trash", "Database: use Mongo", status="obsolete", date="2026-01-01"),
    ])  # fmt: skip
    assert keys(engine, "database") == ["db-choice-v2"]
    assert keys(engine, "database", as_of="2026-03-01") == ["db-choice-v1"]
    assert keys(engine, "database", as_of="2026-06-01") == ["db-choice-v2"]
    assert keys(engine, "database", as_of="2026-03-01", mode="graph") == ["db-choice-v1"]


def test_pinned_first_even_without_match_by_priority() -> None:
    engine = Engine.build([
        entry("redis-pool", "Redis pool size is 20"),
        entry("house-rules", "Always run tests before pushing", priority=1),
        entry("top-rule", "Never commit secrets", priority=5),
    ])  # fmt: skip
    assert keys(engine, "redis") == ["top-rule", "house-rules", "redis-pool"]
    assert recall(engine, "redis").hits[0].hop == -1


def test_ids_fetch_keeps_order_and_reports_missing() -> None:
    a, b, c = entry("alpha", "first"), entry("beta", "second"), entry("gamma", "third")
    engine = Engine.build([a, b, c])
    result = recall(engine, ids=f"{c.id}, alpha;nope beta")
    assert result.keys == ["gamma", "alpha", "beta"]
    assert result.missing == ("nope",)


def test_budget_tokens_cuts_the_tail() -> None:
    from toon_memory.render.recall import render_recall
    from toon_memory.search.budget import estimate_tokens

    engine = Engine.build(
        [entry(f"redis-note-{i}", "Redis " + "detail " * 30 + str(i)) for i in range(10)]
    )
    full = recall(engine, "redis")
    cut = recall(engine, "redis", budget_tokens=150)
    assert 0 < len(cut) < len(full)
    assert cut.keys == full.keys[: len(cut)]
    assert cut.dropped == len(full) - len(cut)
    body = render_recall(cut).rsplit("\n…", 1)[0]
    assert estimate_tokens(body) <= 150


def test_spanish_query_matches_inflected_spanish_content() -> None:
    engine = Engine.build([
        entry("pool-conexiones", "Aumentamos el pool de conexiones de la base de datos a 20"),
        entry("deploy-notes", "Deploy happens on Fridays"),
    ])  # fmt: skip
    assert keys(engine, "conexión base de datos") == ["pool-conexiones"]
    assert keys(engine, "database connection pool")[0] == "pool-conexiones"


def test_cjk_query() -> None:
    engine = Engine.build([
        entry("cache-zh", "使用 Redis 缓存配置 会话"),
        entry("db-zh", "数据库迁移 必须 按顺序"),
    ])  # fmt: skip
    assert keys(engine, "缓存配置") == ["cache-zh"]
    assert keys(engine, "数据库") == ["db-zh"]


def test_session_bias_boosts_session_files() -> None:

    text = "Retry logic for the HTTP client"
    engine = Engine.build([
        entry("a-retry", text, file="src/a.py"), entry("b-retry", text, file="src/b.py"),
    ])  # fmt: skip
    opts = RecallOptions(query="retry", session_bias=True)
    assert engine.recall(opts, today=TODAY, session_files={"src/b.py"}).keys[0] == "b-retry"
    assert engine.recall(opts, today=TODAY).keys[0] == "a-retry"


def test_path_scope_filters_and_dates_filter() -> None:
    engine = Engine.build([
        entry("lib-graph", "graph layout", file="src/lib/graph.ts", date="2026-06-01"),
        entry("app-graph", "graph page", file="src/app/page.ts", date="2026-07-01"),
        entry("scoped", "graph rules for lib", path_scope="src/lib/", date="2026-07-02"),
    ])  # fmt: skip
    assert set(keys(engine, "graph", path_scope="src/lib/graph.ts")) == {"lib-graph", "scoped"}
    assert set(keys(engine, "graph", path_scope="src/lib/**")) == {"lib-graph", "scoped"}
    assert keys(engine, "graph", from_date="2026-06-15", to_date="2026-07-01") == ["app-graph"]


def test_linear_fallback_ranks_the_same_matches() -> None:
    engine = _billing()
    assert set(keys(engine, "stripe", rrf=False)) == set(keys(engine, "stripe"))
    assert keys(engine, "stripe", rrf=False)[0] in {"payment-retry", "stripe-api-version"}


def test_quality_weighting_breaks_equal_scores() -> None:
    text = "Feature flags live in LaunchDarkly"
    engine = Engine.build([entry("a", text, quality=0.1), entry("b", text, quality=0.9)])
    assert keys(engine, "feature flags") == ["b", "a"]


def test_search_filters_category_and_all_tags() -> None:
    engine = Engine.build([
        entry("one", "api auth token", category="decision", tags=["api", "auth"]),
        entry("two", "api auth cookie", category="decision", tags=["api"]),
        entry("three", "api auth header", category="bug", tags=["api", "auth"]),
    ])  # fmt: skip
    found = engine.search("api", today=TODAY, category="decision", tags=["api", "auth"])
    assert found.keys == ["one"]
    assert engine.suggest("auth token for the api", today=TODAY)[0].key == "one"


def test_smart_recall_prefers_fresh_entries() -> None:
    text = "Logging goes to stdout in JSON"
    engine = Engine.build([
        entry("old-logging", text, date="2024-01-01"),
        entry("new-logging", text, date="2026-07-10"),
    ])  # fmt: skip
    assert engine.smart_recall("logging json", today=TODAY).keys[0] == "new-logging"


def test_empty_query_lists_by_use_and_recency() -> None:
    engine = Engine.build([
        entry("cold", "never used", date="2025-01-01"),
        entry("hot", "used a lot", accessed=40, last_accessed="2026-07-14"),
    ])  # fmt: skip
    assert keys(engine, "") == ["hot", "cold"]
    assert keys(engine, "", mode="index") == ["hot", "cold"]


def test_to_dict_keeps_rank_order() -> None:
    engine = _billing()
    result = recall(engine, "stripe", mode="graph")
    data = result.to_dict()
    assert [r["key"] for r in data["results"]] == result.keys
    assert {"key", "id", "category", "content", "score"} <= set(data["results"][0])
