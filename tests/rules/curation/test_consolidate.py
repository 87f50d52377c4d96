"""``curation.consolidate``: only active entries are considered, removals are soft, pinned
entries are never removed, no entry is both kept and removed, and in a merge every removed
entry is directly similar to the one kept in its place (no chains)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.entry import Entry
from toon_memory.rules.curation.consolidate import (
    MODES,
    check_min_quality,
    identical_groups,
    near_duplicate_pairs,
    normalized_content,
    plan_consolidation,
    plan_identical,
    plan_low_quality,
    plan_similar,
)
from toon_memory.rules.curation.plans import FORGET, SUPERSEDE, ConsolidationPlan, by_preference
from toon_memory.rules.curation.similarity import DUPLICATE_JACCARD, jaccard, term_set


def entry(n: int, content: str, **fields: object) -> Entry:
    base: dict[str, object] = {"category": "knowledge", "key": f"k{n}", "content": content}
    base.update(fields)
    return Entry(id=f"{n:08x}", **base)  # type: ignore[arg-type]


def assert_plan_rules(plan: ConsolidationPlan, entries: list[Entry]) -> None:
    removed = [r.entry.id for r in plan.removals]
    assert len(removed) == len(set(removed)), "an entry removed twice"
    kept = {r.keep.id for r in plan.removals if r.keep} | {u.entry.id for u in plan.updates}
    assert not kept & set(removed), "an entry both kept and removed"
    by_id = {e.id: e for e in entries}
    for removal in plan.removals:
        assert removal.action in (FORGET, SUPERSEDE)
        assert by_id[removal.entry.id].active and removal.entry.priority <= 0


def test_normalized_content_folds_case_and_space() -> None:
    assert normalized_content("  Use  PNPM\n\tplease ") == "use pnpm please"


def test_identical_keeps_the_best_and_merges_tags() -> None:
    entries = [entry(1, "Use pnpm", tags=["a"]), entry(2, "use  PNPM", quality=0.9, tags=["b"]),
               entry(3, "use pnpm", status="obsolete"), entry(4, "Use yarn"),
               entry(5, "USE PNPM", priority=0, category="decision")]  # fmt: skip
    plan = plan_identical(entries)
    assert {r.entry.id for r in plan.removals} == {entries[0].id, entries[4].id}
    assert all(r.keep is entries[1] and r.similarity == 1.0 for r in plan.removals)
    assert all(r.reason == "identical content of k2" for r in plan.removals)
    assert [u.tags for u in plan.updates] == [("b", "a")]
    assert_plan_rules(plan, entries)


def test_a_pinned_duplicate_is_never_removed_but_can_be_kept() -> None:
    entries = [entry(1, "same", priority=1), entry(2, "same", priority=2), entry(3, "same")]
    groups = identical_groups(entries)
    assert [(keep.id, [e.id for e in rest]) for keep, rest in groups] == [
        (entries[1].id, [entries[2].id])
    ]


def test_similar_merges_without_chains() -> None:
    a = entry(1, "alpha beta gamma delta", quality=0.9)
    b = entry(2, "alpha beta gamma delta epsilon", quality=0.5)
    c = entry(3, "beta gamma delta epsilon zeta", quality=0.1)
    other_category = entry(4, "alpha beta gamma delta", category="bug")
    plan = plan_similar([a, b, c, other_category])
    dropped = {r.entry.id: r.keep.id for r in plan.removals if r.keep}
    assert dropped and set(dropped.values()) <= {a.id, b.id}
    for gone, keep in dropped.items():
        ids = {a.id: a, b.id: b, c.id: c}
        assert jaccard(term_set(ids[gone].content), term_set(ids[keep].content)) > 0.5
    assert other_category.id not in dropped and a.id not in dropped
    assert_plan_rules(plan, [a, b, c, other_category])


def test_near_duplicate_pairs_are_ordered_by_score_and_preference() -> None:
    a = entry(1, "alpha beta gamma delta", quality=0.9)
    b = entry(2, "alpha beta gamma delta", quality=0.5)
    c = entry(3, "alpha beta gamma delta epsilon")
    pairs = near_duplicate_pairs([c, b, a])
    assert (pairs[0][0].id, pairs[0][1].id) == (a.id, b.id)
    assert [p[2] for p in pairs] == sorted((p[2] for p in pairs), reverse=True)


def test_low_quality_spares_pinned_and_important() -> None:
    entries = [entry(1, "x", quality=0.1), entry(2, "y", quality=0.1, priority=1),
               entry(3, "z", quality=0.1, importance="high"),
               entry(4, "w", quality=0.1, importance="critical"),
               entry(5, "v", quality=0.29, importance="medium"), entry(6, "u", quality=0.3),
               entry(7, "t", quality=0.0, status="obsolete")]  # fmt: skip
    plan = plan_low_quality(entries)
    assert [r.entry.key for r in plan.removals] == ["k1", "k5"]
    assert all(r.action == FORGET and r.keep is None for r in plan.removals)
    assert plan.removals[0].reason == "quality 0.10 < 0.30"


@pytest.mark.parametrize("value", [-0.1, 1.5, "lots", None])
def test_min_quality_is_a_fraction_named(value: object) -> None:
    with pytest.raises(InputError) as caught:
        check_min_quality(value)
    assert caught.value.field == "min_quality"


def test_plan_consolidation_dispatches_each_mode_and_names_a_bad_one() -> None:
    entries = [entry(1, "same", quality=0.1), entry(2, "same", quality=0.2)]
    assert {plan_consolidation(entries, mode).mode for mode in MODES} == set(MODES)
    assert plan_consolidation(entries, "low-quality", 0.15).removals[0].entry.id == entries[0].id
    with pytest.raises(InputError) as caught:
        plan_consolidation(entries, "fuzzy")
    assert caught.value.field == "mode" and "identical" in caught.value.problem


WORD = st.sampled_from(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta"])
ROW = st.tuples(st.lists(WORD, min_size=1, max_size=5), st.integers(0, 1),
                st.sampled_from(["bug", "knowledge"]), st.booleans(),
                st.integers(0, 9))  # fmt: skip


@given(st.lists(ROW, max_size=9))
def test_every_plan_obeys_the_rules(rows: list[tuple[list[str], int, str, bool, int]]) -> None:
    entries = [entry(n, " ".join(words), priority=p, category=cat, quality=q / 10,
                     status="active" if live else "obsolete")
               for n, (words, p, cat, live, q) in enumerate(rows)]  # fmt: skip
    for mode in MODES:
        assert_plan_rules(plan_consolidation(entries, mode), entries)
    for removal in plan_similar(entries).removals:
        assert removal.keep is not None and removal.keep.category == removal.entry.category
        assert removal.similarity > DUPLICATE_JACCARD
        assert jaccard(term_set(removal.entry.content), term_set(removal.keep.content)) > 0.5


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["Use pnpm", "use  PNPM", "Use yarn", " use yarn ", "", "pnpm use"]),
            st.integers(0, 1), st.sampled_from(["active", "obsolete"]), st.integers(0, 9),
        ),
        max_size=12,
    )
)  # fmt: skip
def test_identical_groups_are_the_groups_of_equal_normalized_text(
    rows: list[tuple[str, int, str, int]],
) -> None:
    """Contents met by digest then compared whole: the groups a plain grouping by the
    normalized text gives, in the order their best entry comes."""
    entries = [entry(n, text, priority=pin, status=status, quality=q / 10)
               for n, (text, pin, status, q) in enumerate(rows)]  # fmt: skip
    by_text: dict[str, list[Entry]] = {}
    for e in by_preference([e for e in entries if e.active]):
        if normalized_content(e.content):
            by_text.setdefault(normalized_content(e.content), []).append(e)
    expected = [(m[0], [e for e in m[1:] if e.priority <= 0]) for m in by_text.values()]
    assert identical_groups(entries) == [(keep, rest) for keep, rest in expected if rest]
