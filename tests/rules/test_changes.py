"""``rules.changes.diff_entries`` called directly: created vs updated, never both."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.entry import DIFF_TYPES, Entry
from toon_memory.rules.changes import diff_entries

DAYS = st.sampled_from(["2026-06-01", "2026-06-15", "2026-07-01"])


@given(st.lists(st.tuples(DAYS, DAYS), max_size=8), DAYS, st.sampled_from(DIFF_TYPES))
def test_an_entry_is_created_or_updated_never_both(
    stamps: list[tuple[str, str]], since: str, kind: str
) -> None:
    entries = [Entry(id=str(n), category="bug", key=f"k{n}", content="c", created=f"{a}T00:00:00Z",
                     updated=f"{max(a, b)}T00:00:00Z") for n, (a, b) in enumerate(stamps)]  # fmt: skip
    found = diff_entries(entries, since, kind)
    created, updated = {e.id for e in found.created}, {e.id for e in found.updated}
    assert not created & updated
    for entry in entries:
        if kind in ("all", "created") and entry.created[:10] >= since:
            assert entry.id in created
        elif kind in ("all", "updated") and entry.created[:10] < since <= entry.updated[:10]:
            assert entry.id in updated
        else:
            assert entry.id not in created | updated


def test_an_unknown_type_is_named() -> None:
    with pytest.raises(InputError) as caught:
        diff_entries([], "2026-06-01", "deleted")
    assert caught.value.field == "type"
    assert caught.value.problem == "must be one of all, created, updated; got 'deleted'"
