"""Reflect (attention, tag pairs, contradictions) and promote (drafts to full entries)."""

from __future__ import annotations

from datetime import date

from tests.search.builders import entry

from toon_memory.rules.curation import plan_promotion, reflect
from toon_memory.rules.curation.reflect import (
    HUB_DEGREE,
    PROMOTED_CONFIDENCE,
    contradictions,
    link_degrees,
    needs_attention,
    tag_cooccurrence,
)
from toon_memory.rules.scoring import find_conflicts

TODAY = date(2026, 7, 15)


def test_attention_ranks_stale_low_quality_and_hubs() -> None:
    fresh_good = entry("fresh", "fine", date="2026-07-10", quality=0.9)
    stale_bad = entry("stale-bad", "old vague", date="2025-01-01", quality=0.1)
    stale_good = entry("stale-good", "old detailed", date="2025-12-01", quality=0.9)
    recalled = entry(
        "recalled", "old but used", date="2025-01-01", quality=0.9, last_accessed="2026-07-01"
    )
    leaves = [entry(f"leaf-{n}", "x", date="2026-07-10", quality=0.9) for n in range(HUB_DEGREE)]
    hub = entry(
        "hub",
        "links everything",
        date="2026-07-10",
        quality=0.9,
        links=[leaf.key for leaf in leaves] + ["missing-key"],
    )
    obsolete = entry("obsolete", "x", date="2020-01-01", quality=0.0, status="obsolete")
    found = needs_attention(
        [fresh_good, stale_bad, stale_good, recalled, hub, obsolete, *leaves], TODAY
    )
    assert [a.entry.key for a in found] == ["stale-bad", "stale-good", "hub"]
    assert found[0].reasons == ("stale: 560 days untouched", "low quality 0.10")
    assert found[1].days_idle == 226
    assert found[2].reasons == (f"hub: {HUB_DEGREE} links",) and found[2].degree == HUB_DEGREE
    assert found[0].score > found[1].score > found[2].score
    assert needs_attention([stale_bad, stale_good], TODAY, limit=1)[0].entry.key == "stale-bad"


def test_link_degrees_count_both_ends_once() -> None:
    a = entry("a", "x", links=["b", "supersedes:c", "b", "nowhere"])
    b = entry("b", "y", links=["a"])
    c = entry("c", "z")
    assert link_degrees([a, b, c]) == {a.id: 3, b.id: 2, c.id: 1}  # out {b, c} + in {b}


def test_tag_cooccurrence() -> None:
    entries = [
        entry("1", "x", tags=["db", "redis", "perf"]),
        entry("2", "x", tags=["redis", "db"]),
        entry("3", "x", tags=["perf", "db"]),
        entry("4", "x", tags=["db", "redis"], status="obsolete"),
    ]
    assert tag_cooccurrence(entries) == [("db", "perf", 2), ("db", "redis", 2)]
    assert tag_cooccurrence(entries, min_count=1)[2] == ("perf", "redis", 1)


def test_contradictions_are_find_conflicts_pairs() -> None:
    warning = entry(
        "no-orm", "Never use an ORM for the reporting queries, write SQL", category="warning"
    )
    decision = entry(
        "use-orm", "Use an ORM for the reporting queries to save time", category="decision"
    )
    critical = entry(
        "pg",
        "Postgres is the only database for reporting",
        category="decision",
        importance="critical",
    )
    other = entry("mysql", "MySQL holds the reporting database replica")
    unrelated = entry("css", "Buttons use the brand colour")
    reconciled = entry("orm-ok", "An ORM is fine for admin reporting queries", links=["no-orm"])
    second_warning = entry(
        "no-orm-2", "Do not use an ORM for reporting queries", category="warning"
    )
    entries = [warning, decision, critical, other, unrelated, reconciled, second_warning]
    found = {(a.key, b.key) for a, b in contradictions(entries)}
    brute = {
        (e.key, g.key)
        for e in entries
        for g in find_conflicts(e, entries)
        if not (e.category == g.category == "warning") and (e.key, g.key) != ("orm-ok", "no-orm")
    }
    assert found == brute
    assert ("use-orm", "no-orm") in found
    assert ("css", "no-orm") not in found
    assert ("orm-ok", "no-orm") not in found  # linked: someone reconciled them
    assert ("no-orm-2", "no-orm") not in found  # two warnings agree


def test_reflect_bundles_the_three() -> None:
    entries = [
        entry("a", "x", date="2025-01-01", quality=0.1, tags=["p", "q"]),
        entry("b", "y", tags=["p", "q"], quality=0.9),
    ]
    result = reflect(entries, TODAY)
    assert [a.entry.key for a in result.attention] == ["a"]
    assert result.tag_pairs == (("p", "q", 2),)
    assert result.contradictions == ()
    assert result.attention[0].to_dict()["reasons"][0].startswith("stale")


def test_promote_drafts_unless_they_duplicate() -> None:
    kept = entry("pool", "Redis pool size stays at ten connections", confidence=1.0)
    dup_draft = entry("pool-draft", "the redis pool size stays at ten connections", confidence=0.5)
    fresh_draft = entry("queue", "Jobs retry three times with backoff", confidence=0.6, quality=0.8)
    twin_draft = entry(
        "queue-2", "jobs retry three times with a backoff", confidence=0.65, quality=0.2
    )
    confident = entry("deploy", "Deploys go out on Tuesdays", confidence=0.7)
    obsolete_draft = entry("old", "whatever", confidence=0.3, status="obsolete")
    plan = plan_promotion([kept, dup_draft, fresh_draft, twin_draft, confident, obsolete_draft])
    assert [e.key for e in plan.promote] == ["queue"]
    assert sorted((d.key, o.key) for d, o, _ in plan.duplicates) == [
        ("pool-draft", "pool"),
        ("queue-2", "queue"),
    ]
    assert all(score > 0.5 for _, _, score in plan.duplicates)
    assert plan.confidence == PROMOTED_CONFIDENCE
    assert {d["duplicate_of"] for d in plan.to_dict()["duplicates"]} == {"pool", "queue"}
