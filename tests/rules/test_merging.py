"""The pure entry-by-entry merge: three versions (git) and two (imports), rule by rule,
plus properties over generated memories (no loss, one active entry per key, symmetry)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.model.entry import Entry, Summary
from toon_memory.rules.merging import (
    clean_incoming,
    derive_id,
    merge_entries2,
    merge_entries3,
    merge_sets,
    merge_summaries3,
)


def entry(id_: str, key: str, content: str, updated: str = "2026-07-01T10:00:00Z",
          **fields: object) -> Entry:  # fmt: skip
    return Entry(id=id_, category=str(fields.pop("category", "knowledge")), key=key,
                 content=content, date=updated[:10], created="2026-06-01T00:00:00Z",
                 updated=updated, **fields)  # type: ignore[arg-type]  # fmt: skip


def by_key(entries: list[Entry]) -> dict[str, Entry]:
    active = [e for e in entries if e.active]
    assert len({e.key for e in active}) == len(active), "two active entries share a key"
    return {e.key: e for e in active}


def rows(entries: list[Entry]) -> list[str]:
    return sorted(json.dumps(e.to_row(), sort_keys=True) for e in entries)


BASE = [entry("aaaa0001", "api-port", "API on 8080", tags=["api"]),
        entry("aaaa0002", "db", "Postgres 15"),
        entry("aaaa0003", "old-note", "Use yarn")]  # fmt: skip


def test_one_side_changed_takes_that_side() -> None:
    theirs = [e.copy() for e in BASE]
    theirs[1].content, theirs[1].updated = "Postgres 16", "2026-07-02T00:00:00Z"
    merged = merge_entries3(BASE, BASE, theirs).entries
    assert by_key(merged)["db"].content == "Postgres 16"
    assert len(merged) == 3  # no history made: only one side wrote


def test_same_key_edited_on_both_sides_newest_wins_other_kept_as_history() -> None:
    ours = [e.copy() for e in BASE]
    theirs = [e.copy() for e in BASE]
    ours[0] = ours[0].copy(content="API on 9090", updated="2026-07-03T00:00:00Z",
                           tags=["api", "ports"], confidence=0.6)  # fmt: skip
    theirs[0] = theirs[0].copy(content="API on 7070", updated="2026-07-02T00:00:00Z",
                               tags=["api", "http"], confidence=0.9)  # fmt: skip
    result = merge_entries3(BASE, ours, theirs)
    api = by_key(result.entries)["api-port"]
    assert api.content == "API on 9090" and api.id == "aaaa0001"
    assert api.tags == ["api", "ports", "http"] and api.confidence == 0.9
    history = [e for e in result.entries if e.key == "api-port" and not e.active]
    assert [h.content for h in history] == ["API on 7070"]
    assert history[0].status == "superseded" and "superseded_by:api-port" in history[0].links


def test_a_tag_removed_on_one_side_stays_removed() -> None:
    base = [entry("aaaa0001", "k", "text", tags=["a", "b"])]
    ours = [base[0].copy(tags=["a"], updated="2026-07-02T00:00:00Z")]
    theirs = [base[0].copy(tags=["a", "b", "c"], updated="2026-07-03T00:00:00Z")]
    assert by_key(merge_entries3(base, ours, theirs).entries)["k"].tags == ["a", "c"]


def test_soft_forget_on_one_side_is_honoured_even_against_a_newer_edit() -> None:
    ours = [e.copy() for e in BASE]
    theirs = [e.copy() for e in BASE]
    ours[2] = ours[2].copy(status="obsolete", updated="2026-07-02T00:00:00Z")
    theirs[2] = theirs[2].copy(content="Use pnpm", updated="2026-07-05T00:00:00Z")
    merged = {e.id: e for e in merge_entries3(BASE, ours, theirs).entries}
    assert merged["aaaa0003"].status == "obsolete"
    assert merged["aaaa0003"].content == "Use pnpm"  # the edit is not lost, just not active


def test_hard_forget_wins_over_an_untouched_entry_and_keeps_an_edited_one_obsolete() -> None:
    ours = [e for e in BASE if e.key not in ("old-note", "db")]
    theirs = [e.copy() for e in BASE]
    theirs[1].content = "Postgres 16"
    result = merge_entries3(BASE, ours, theirs)
    keys = {e.key: e.status for e in result.entries}
    assert "old-note" not in keys
    assert keys["db"] == "obsolete" and any("deleted on one side" in n for n in result.notes)


def test_both_add_the_same_new_key() -> None:
    ours = [*BASE, entry("bbbb0001", "lint", "ruff", "2026-07-02T00:00:00Z", tags=["py"])]
    theirs = [*BASE, entry("cccc0001", "lint", "flake8", "2026-07-04T00:00:00Z", tags=["ci"])]
    result = merge_entries3(BASE, ours, theirs)
    lint = by_key(result.entries)["lint"]
    assert (lint.content, lint.id, lint.tags) == ("flake8", "cccc0001", ["ci", "py"])
    old = next(e for e in result.entries if e.id == "bbbb0001")
    assert old.status == "superseded" and old.content == "ruff"


def test_both_add_the_same_entry_text_keeps_one() -> None:
    ours = [*BASE, entry("bbbb0001", "lint", "ruff", "2026-07-02T00:00:00Z")]
    theirs = [*BASE, entry("cccc0001", "lint", "ruff", "2026-07-04T00:00:00Z", tags=["ci"])]
    merged = merge_entries3(BASE, ours, theirs).entries
    assert [e.id for e in merged if e.key == "lint"] == ["bbbb0001"]
    assert by_key(merged)["lint"].tags == ["ci"]


def test_history_both_sides_made_from_the_same_old_text_is_kept_once() -> None:
    h_ours = entry("dddd0001", "db", "Postgres 15", status="superseded")
    h_theirs = entry("eeee0001", "db", "Postgres 15", status="superseded")
    ours = [BASE[0], BASE[1].copy(content="Postgres 16", updated="2026-07-02T00:00:00Z"), h_ours]
    theirs = [BASE[0], BASE[1].copy(content="Postgres 17", updated="2026-07-03T00:00:00Z"),
              h_theirs]  # fmt: skip
    merged = merge_entries3(BASE, ours, theirs).entries
    contents = sorted(e.content for e in merged if e.key == "db")
    assert contents == ["Postgres 15", "Postgres 16", "Postgres 17"]
    assert by_key(merged)["db"].content == "Postgres 17"


def test_colliding_ids_for_different_keys_keep_both() -> None:
    ours = [entry("abcd0001", "one", "first")]
    theirs = [entry("abcd0001", "two", "second")]
    merged = merge_entries3([], ours, theirs)
    assert sorted(by_key(merged.entries)) == ["one", "two"]
    assert len({e.id for e in merged.entries}) == 2 and merged.notes


def test_access_counts_add_up_with_a_base_and_take_the_max_without() -> None:
    base = [entry("aaaa0001", "k", "t", accessed=3)]
    ours = [base[0].copy(accessed=5, updated="2026-07-02T00:00:00Z")]
    theirs = [base[0].copy(accessed=4, updated="2026-07-03T00:00:00Z")]
    assert merge_entries3(base, ours, theirs).entries[0].accessed == 6
    assert merge_entries2(ours, theirs).entries[0].accessed == 5


def test_two_way_import_never_deletes_and_is_idempotent() -> None:
    mine = [e.copy() for e in BASE]
    incoming = [entry("ffff0001", "new", "from elsewhere"), BASE[0].copy(tags=["remote"])]
    once = merge_entries2(mine, incoming).entries
    assert {e.key for e in once} >= {e.key for e in BASE} | {"new"}
    assert rows(merge_entries2(once, incoming).entries) == rows(once)


def test_meta_merges_key_by_key() -> None:
    base = [entry("aaaa0001", "k", "t", meta={"a": 1, "b": 2})]
    ours = [base[0].copy(meta={"a": 1, "b": 3}, updated="2026-07-02T00:00:00Z")]
    theirs = [base[0].copy(meta={"a": 1, "b": 2, "c": 4}, updated="2026-07-03T00:00:00Z")]
    assert merge_entries3(base, ours, theirs).entries[0].meta == {"a": 1, "b": 3, "c": 4}


def test_summaries_three_way() -> None:
    base = [Summary("a.py", "old", "2026-07-01"), Summary("b.py", "b", "2026-07-01")]
    ours = [Summary("a.py", "ours", "2026-07-02"), Summary("b.py", "b", "2026-07-01")]
    theirs = [Summary("a.py", "theirs", "2026-07-03"), Summary("c.py", "c", "2026-07-03")]
    merged = {s.file: s.summary for s in merge_summaries3(base, ours, theirs)}
    assert merged == {"a.py": "theirs", "c.py": "c"}  # b.py deleted on one side, unchanged


def test_merge_sets_and_derived_ids() -> None:
    assert merge_sets(["a", "b"], ["a", "c"], ["a", "b", "d"]) == ["a", "c", "d"]
    assert merge_sets(None, ["x"], ["y", "x"]) == ["x", "y"]
    one = derive_id("seed", set())
    assert one == derive_id("seed", set()) and len(one) == 8
    assert derive_id("seed", {one}) != one


def test_clean_incoming_skips_and_repairs_and_says_so() -> None:
    bad = [entry("zz", "k", "t", category="opinion"), entry("aaaa0001", "", "t"),
           entry("aaaa0002", "k2", "t"), entry("aaaa0002", "k3", "t")]  # fmt: skip
    kept, notes = clean_incoming(bad)
    assert [e.key for e in kept] == ["k", "k2", "k3"]
    assert kept[0].category == "knowledge" and len({e.id for e in kept}) == 3
    assert any("skipped" in n for n in notes) and any("opinion" in n for n in notes)


# -- properties ---------------------------------------------------------------
KEYS = st.sampled_from(["a", "b", "c", "d"])
TEXTS = st.sampled_from(["one", "two", "three"])
STAMPS = st.sampled_from([f"2026-07-0{d}T00:00:00Z" for d in range(1, 6)])


@st.composite
def memory(draw: st.DrawFn, prefix: str) -> list[Entry]:
    keys = draw(st.lists(KEYS, unique=True, max_size=4))
    out = []
    for n, key in enumerate(keys):
        out.append(entry(f"{prefix}{n:06d}"[-8:].rjust(8, "0"), key, draw(TEXTS), draw(STAMPS),
                         tags=draw(st.lists(st.sampled_from(["x", "y", "z"]), unique=True))))  # fmt: skip
    return out


@st.composite
def edited(draw: st.DrawFn, base: list[Entry], prefix: str) -> list[Entry]:
    out = []
    for item in base:
        choice = draw(st.sampled_from(["keep", "edit", "forget", "drop"]))
        if choice == "keep":
            out.append(item.copy())
        elif choice == "edit":
            out.append(item.copy(content=draw(TEXTS) + "!", updated=draw(STAMPS),
                                 tags=draw(st.lists(st.sampled_from(["x", "w"]), unique=True))))  # fmt: skip
        elif choice == "forget":
            out.append(item.copy(status="obsolete", updated=draw(STAMPS)))
    taken = {e.key for e in out if e.active}
    out += [e for e in draw(memory(prefix)) if e.key not in taken]
    return out


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_merge_properties(data: st.DataObject) -> None:
    base = data.draw(memory("0"))
    ours = data.draw(edited(base, "1"))
    theirs = data.draw(edited(base, "2"))
    result = merge_entries3(base, ours, theirs).entries
    by_key(result)  # at most one active entry per key
    texts = {(e.key, e.content) for e in result}
    base_by_id = {e.id: e for e in base}
    merged_by_id = {e.id: e for e in result}
    for side in (ours, theirs):
        for item in side:
            was = base_by_id.get(item.id)
            if was is None or item.content != was.content:  # content a side wrote survives
                assert (item.key, item.content) in texts, f"lost {item.key}: {item.content}"
            if was is not None and was.active and not item.active:  # a forget is honoured
                assert not merged_by_id[item.id].active
    assert rows(merge_entries3(base, ours, ours).entries) == rows(ours)
    assert rows(merge_entries3(base, base, theirs).entries) == rows(theirs)
    swapped = merge_entries3(base, theirs, ours).entries
    assert shapes(result) == shapes(swapped)


def shapes(entries: list[Entry]) -> list[tuple[str, ...]]:
    """Entries without ids, tags and links in order: what must not depend on the side."""
    return sorted((e.key, e.content, e.status, ";".join(sorted(e.tags)), e.updated)
                  for e in entries)  # fmt: skip


ITEMS = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), unique=True, max_size=5)


@given(ITEMS, ITEMS, ITEMS)
def test_merge_sets_properties(base: list[str], ours: list[str], theirs: list[str]) -> None:
    merged = merge_sets(base, ours, theirs)
    assert len(merged) == len(set(merged))
    for item in set(ours) | set(theirs):
        if item not in base:  # an addition on either side is kept
            assert item in merged
    for item in base:  # kept exactly when neither side removed it
        assert (item in merged) == (item in ours and item in theirs)
    assert merge_sets(base, ours, ours) == ours  # a side merged with itself is itself
    assert set(merge_sets(base, base, theirs)) == set(theirs)  # ours first, then theirs
    assert set(merge_sets(base, theirs, ours)) == set(merged)


SUMMARIES = st.lists(st.builds(Summary, st.sampled_from(["a.py", "b.py", "c.py"]),
                               st.sampled_from(["one", "two", "three"]),
                               st.sampled_from(["2026-07-01", "2026-07-02"])),
                     unique_by=lambda s: s.file, max_size=3)  # fmt: skip


@given(SUMMARIES, SUMMARIES, SUMMARIES)
def test_merge_summaries_properties(base: list[Summary], ours: list[Summary],
                                    theirs: list[Summary]) -> None:  # fmt: skip
    merged = merge_summaries3(base, ours, theirs)
    assert len({s.file for s in merged}) == len(merged)
    same = {s.file: s for s in merge_summaries3(base, ours, ours)}
    assert same == {s.file: s for s in ours}
    was = {s.file: s for s in base}
    for side, other in ((ours, theirs), (theirs, ours)):
        others = {s.file: s for s in other}
        for summary in side:  # a change made on one side only wins
            if summary != was.get(summary.file) and others.get(summary.file) == was.get(
                summary.file
            ):
                assert summary in merged
