"""Consolidation plans: identical, similar, low-quality and versions; soft removals only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.search.builders import entry

from toon_memory.errors import InputError
from toon_memory.model.entry import Entry
from toon_memory.rules.curation import FORGET, SUPERSEDE, plan_consolidation
from toon_memory.rules.curation.consolidate import (
    identical_groups,
    near_duplicate_pairs,
    plan_low_quality,
    plan_similar,
)
from toon_memory.rules.curation.similarity import jaccard, term_set
from toon_memory.rules.curation.versions import plan_versions, version_mentions


def keys(plan_removals: object) -> list[str]:
    return [r.entry.key for r in plan_removals]  # type: ignore[attr-defined]


def test_identical_content_keeps_the_best_and_merges_tags_and_links() -> None:
    best = entry("pool-a", "Redis pool size is 10", quality=0.9, tags=["redis"])
    copy = entry("pool-b", "redis  POOL size is 10", quality=0.4, tags=["perf"], links=["db"])
    other_category = entry("pool-c", "Redis pool size is 10", category="warning", quality=0.2)
    gone = entry("pool-d", "Redis pool size is 10", status="obsolete")
    different = entry("pool-e", "Redis pool size is 12")
    plan = plan_consolidation([copy, best, other_category, gone, different], "identical")
    assert keys(plan.removals) == ["pool-b", "pool-c"]
    assert all(r.action == SUPERSEDE and r.keep is best for r in plan.removals)
    (update,) = plan.updates
    assert update.entry is best
    assert update.tags == ("redis", "perf")
    assert update.links == ("db",)
    assert plan.to_dict()["removals"][0]["keep"] == "pool-a"


def test_a_pinned_entry_is_kept_even_when_worse() -> None:
    pinned = entry("pinned", "Use Zod for validation", priority=2, quality=0.1)
    better = entry("better", "use zod for validation", quality=0.9)
    plan = plan_consolidation([better, pinned], "identical")
    assert keys(plan.removals) == ["better"]
    assert plan.removals[0].keep is pinned
    both = entry("both", "use zod for validation", priority=1)
    assert identical_groups([pinned, both]) == []  # two pinned: nothing removed


def test_similar_merges_near_duplicates_of_one_category() -> None:
    a = entry("a", "Redis connection pool must stay at ten connections for the worker", quality=0.8)
    b = entry("b", "The redis connection pool must stay at ten connections", quality=0.5)
    c = entry(
        "c", "Redis connection pool must stay at ten connections for the worker", category="warning"
    )
    d = entry("d", "Deploys run from the main branch only")
    pairs = near_duplicate_pairs([a, b, c, d])
    assert [(p[0].key, p[1].key) for p in pairs] == [("a", "b")]
    assert pairs[0][2] > 0.5
    plan = plan_consolidation([a, b, c, d], "similar")
    assert keys(plan.removals) == ["b"]
    assert plan.removals[0].keep is a and plan.removals[0].similarity == pairs[0][2]


def test_similar_never_chains() -> None:
    # a~b and b~c, but a and c share too little: c must not be dropped for a
    a = entry("a", "alpha beta gamma delta epsilon", quality=0.9)
    b = entry("b", "alpha beta gamma delta epsilon zeta eta", quality=0.5)
    c = entry("c", "gamma delta epsilon zeta eta theta", quality=0.1)
    sets = {e.key: term_set(e.content) for e in (a, b, c)}
    assert jaccard(sets["a"], sets["b"]) > 0.5 and jaccard(sets["b"], sets["c"]) > 0.5
    assert jaccard(sets["a"], sets["c"]) <= 0.5
    plan = plan_similar([a, b, c])
    assert keys(plan.removals) == ["b"]


WORDS = ("redis", "pool", "cache", "token", "session", "deploy", "branch", "worker", "queue")


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
            st.floats(0, 1),
            st.integers(0, 1),
        ),
        max_size=12,
    )
)
def test_every_similar_removal_is_directly_similar_to_its_keep(
    specs: list[tuple[list[str], float, int]],
) -> None:
    entries = [
        Entry(
            id=f"{n:08x}",
            category="knowledge",
            key=f"k{n}",
            content=" ".join(words),
            quality=quality,
            priority=prio,
        )
        for n, (words, quality, prio) in enumerate(specs)
    ]
    plan = plan_similar(entries)
    removed = [r.entry.id for r in plan.removals]
    kept = {r.keep.id for r in plan.removals if r.keep}
    assert len(removed) == len(set(removed))
    assert not kept & set(removed)
    for r in plan.removals:
        assert r.keep is not None and r.entry.priority == 0
        assert jaccard(term_set(r.entry.content), term_set(r.keep.content)) > 0.5


def test_low_quality_forgets_below_the_floor_but_spares_pinned_and_important() -> None:
    entries = [
        entry("vague", "stuff", quality=0.1),
        entry("meh", "some things", quality=0.29),
        entry("fine", "a detailed note", quality=0.3),
        entry("pinned", "x", quality=0.0, priority=1),
        entry("critical", "y", quality=0.0, importance="critical"),
        entry("old", "z", quality=0.0, status="superseded"),
    ]
    plan = plan_consolidation(entries, "low-quality")
    assert keys(plan.removals) == ["vague", "meh"]
    assert {r.action for r in plan.removals} == {FORGET}
    assert plan.removals[0].reason == "quality 0.10 < 0.30"
    assert keys(plan_low_quality(entries, 0.5).removals) == ["vague", "meh", "fine"]
    assert not plan_low_quality(entries, 0.0)


@pytest.mark.parametrize("value", [-0.1, 1.5, "high"])
def test_bad_min_quality_names_the_field(value: object) -> None:
    with pytest.raises(InputError) as caught:
        plan_consolidation([], "low-quality", min_quality=value)  # type: ignore[arg-type]
    assert caught.value.field == "min_quality"


def test_unknown_mode_names_the_field() -> None:
    with pytest.raises(InputError) as caught:
        plan_consolidation([], "everything")
    assert caught.value.field == "mode"


def test_versions_supersede_the_older_library_note() -> None:
    old = entry("frontend-stack", "The app uses React 18 with Vite", date="2025-01-01")
    new = entry("ui-library", "The app uses React 19 with Vite", date="2026-05-01")
    plan = plan_consolidation([old, new], "versions")
    (removal,) = plan.removals
    assert removal.entry is old and removal.keep is new and removal.action == SUPERSEDE
    assert removal.reason == "react 18 -> 19"


def test_versions_by_key_and_dotted_versions() -> None:
    a = entry("next-13", "Next.js 13.4 app router needs the experimental flag", quality=0.9)
    b = entry("next-14", "next.js v14.1 ships server actions by default")
    c = entry("next-14-copy", "Next.js 14.1 is what ci installs", quality=0.1)
    plan = plan_versions([a, b, c])
    assert [(r.entry.key, r.keep.key if r.keep else "") for r in plan.removals] == [
        ("next-13", "next-14"),
    ]


def test_versions_leave_unrelated_notes_and_quantities_alone() -> None:
    entries = [
        entry("enzyme-bug", "React 18 breaks enzyme shallow rendering in tests"),
        entry("server-components", "Adopt React 19 server components for the dashboard"),
        entry("timeout", "Request timeout is 30 seconds"),
        entry("timeout-new", "Request timeout is 60 seconds"),
        entry("port", "Dev server listens on port 3000"),
        entry("port-new", "Dev server listens on port 8080"),
        entry("pinned-old", "uses Python 3.10", priority=1),
        entry("py-new", "uses Python 3.12"),
        entry("gone", "uses Vue 2", status="obsolete"),
        entry("vue", "uses Vue 3"),
    ]
    assert not plan_versions(entries)


def test_version_mentions() -> None:
    found = [
        (m.subject, m.version[:2])
        for m in version_mentions("react@18.2.0, Next.js v14, vite ^5.0.0, 30 seconds, port 8080")
    ]
    assert found == [("react", (18, 2)), ("nextjs", (14, 0)), ("vite", (5, 0))]
    assert version_mentions("retry 3 times after 500 ms; HTTP 2; step 4") == []
