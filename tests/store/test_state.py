"""The state's per-key history reads as a fresh load of the same entries.

Property: after any sequence of puts and deletes, ``State.versions`` lists a key's
superseded versions in file order, exactly as loading the resulting entries anew
does (and as the on-disk index's view, which orders by file position).
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from toon_memory.model.entry import Entry
from toon_memory.store.journal import Op, put
from toon_memory.store.state import State

_IDS = [f"{i:08x}" for i in range(5)]
_op = st.tuples(st.sampled_from(["put", "del"]), st.sampled_from(_IDS),
                st.sampled_from(["k1", "k2"]), st.sampled_from(["active", "superseded"]))  # fmt: skip


def _entry(entry_id: str, key: str, status: str) -> Entry:
    return Entry(id=entry_id, category="decision", key=key, content=f"{key} {entry_id}",
                 date="2026-07-01", status=status)  # fmt: skip


def _ops(steps: list[tuple[str, str, str, str]]) -> list[Op]:
    return [put(_entry(i, k, s).to_row()) if kind == "put" else Op("del", {"id": i})
            for kind, i, k, s in steps]  # fmt: skip


def _history(state: State) -> dict[str, list[str]]:
    return {k: [e.id for e in state.versions(k)] for k in ("k1", "k2")}


@given(st.lists(_op, max_size=16))
@example(
    [
        ("put", "00000000", "k1", "superseded"),
        ("put", "00000001", "k1", "superseded"),
        ("put", "00000000", "k1", "superseded"),
    ]
)  # a version put again keeps its place
@example(
    [
        ("put", "00000000", "k1", "active"),
        ("put", "00000001", "k1", "superseded"),
        ("put", "00000000", "k1", "superseded"),
    ]
)  # an entry that becomes a version
@example(
    [
        ("put", "00000000", "k2", "superseded"),
        ("put", "00000001", "k1", "superseded"),
        ("put", "00000000", "k1", "superseded"),
    ]
)  # a version that changes key
def test_history_is_in_file_order_after_any_puts(steps: list[tuple[str, str, str, str]]) -> None:
    state = State()
    state.apply(_ops(steps))
    fresh = State()
    fresh.load(list(state.each()))
    assert _history(state) == _history(fresh)
    expected = {k: [e.id for e in state.each() if e.key == k and e.status == "superseded"]
                for k in ("k1", "k2")}  # fmt: skip
    assert _history(state) == expected
