"""``curation.plans``: plans describe soft removals only; which entry to keep is a pure
function of the entries (pinned, important, quality, confidence, newer, used; then id)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry
from toon_memory.rules.curation.plans import (
    FORGET,
    SUPERSEDE,
    ConsolidationPlan,
    KeepUpdate,
    Removal,
    by_category,
    by_preference,
    last_change,
    merged_lists,
    pinned,
)


def entry(id_: str, **fields: object) -> Entry:
    base: dict[str, object] = {"category": "knowledge", "key": f"key-{id_}", "content": "c"}
    base.update(fields)
    return Entry(id=id_, **base)  # type: ignore[arg-type]


def test_last_change_is_the_newest_date() -> None:
    assert last_change(entry("1", date="2026-07-01", created="2026-06-01T00:00:00Z",
                             updated="2026-07-09T10:00:00Z")) == "2026-07-09"  # fmt: skip
    assert last_change(entry("1")) == ""


def test_preference_order_criterion_by_criterion() -> None:
    plain = entry("00000009")
    for better in (entry("a", priority=1), entry("b", importance="low"), entry("c", quality=0.1),
                   entry("e", date="2026-01-01"), entry("f", accessed=1)):  # fmt: skip
        assert by_preference([plain, better])[0] is better
    assert by_preference([entry("z", confidence=1.0), entry("y", confidence=0.5)])[0].id == "z"
    assert by_preference([entry("critical", importance="critical"),
                          entry("pinned", priority=1, importance="low")])[0].id == "pinned"  # fmt: skip


MERIT = st.fixed_dictionaries({
    "priority": st.integers(0, 2), "importance": st.sampled_from(["", "low", "high"]),
    "quality": st.sampled_from([0.0, 0.5]), "accessed": st.integers(0, 2),
})  # fmt: skip


@given(st.lists(MERIT, max_size=7), st.randoms())
def test_preference_is_a_pure_function_of_the_entries(rows: list[dict[str, object]],
                                                      rnd: object) -> None:  # fmt: skip
    entries = [entry(f"{n:08x}", **row) for n, row in enumerate(rows)]
    shuffled = list(entries)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert [e.id for e in by_preference(shuffled)] == [e.id for e in by_preference(entries)]
    best = by_preference(entries)
    assert all(best[0].priority >= e.priority for e in entries)


def test_by_category_keeps_the_given_order() -> None:
    a, b, c = entry("1", category="bug"), entry("2"), entry("3", category="bug")
    assert by_category([a, b, c]) == {"bug": [a, c], "knowledge": [b]}


def test_merged_lists_join_tags_and_drop_links_to_the_group() -> None:
    keep = entry("1", key="k", tags=["a"], links=["other"])
    gone = entry("2", key="g", tags=["b", "a"],
                 links=["k", "supersedes:g", "relates:far", "other", "x"])  # fmt: skip
    assert merged_lists(keep, [gone]) == (("a", "b"), ("other", "relates:far", "x"))
    assert merged_lists(keep, []) == (("a",), ("other",))


def test_pinned_is_priority_above_zero() -> None:
    assert (
        pinned(entry("1", priority=1))
        and not pinned(entry("1"))
        and not pinned(entry("1", priority=-1))
    )


def test_plan_truthiness_and_dict_form() -> None:
    keep, old = entry("1", key="new"), entry("2", key="old")
    removal = Removal(old, SUPERSEDE, "near-duplicate of new", keep, 0.666)
    plan = ConsolidationPlan("similar", (removal,), (KeepUpdate(keep, ("t",), ()),))
    assert plan and not ConsolidationPlan("similar")
    assert plan.to_dict() == {
        "mode": "similar",
        "removals": [{"id": "2", "key": "old", "category": "knowledge", "action": "supersede",
                      "reason": "near-duplicate of new", "keep": "new", "similarity": 0.67}],
        "updates": [{"id": "1", "key": "new", "tags": ["t"], "links": []}],
    }  # fmt: skip
    assert Removal(old, FORGET, "low").to_dict()["keep"] == ""
