"""search.term_data: bitmaps, and a kept term patched with its postings' changes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.damaged import damaged

from toon_memory.search import term_data


@given(st.sets(st.integers(0, 5000), max_size=200))
def test_bitmaps_round_trip(slots: set[int]) -> None:
    assert term_data.slots_of(term_data.bits_of(slots)) == sorted(slots)


_postings = st.dictionaries(st.integers(0, 300), st.tuples(st.sampled_from([1.0, 2.5, 3.0, 4.5]),
                                                            st.sampled_from([3.0, 7.5, 12.0])),
                            max_size=60)  # fmt: skip
_changes = st.lists(st.tuples(st.integers(0, 320), st.sampled_from([None, 1.0, 2.5, 5.5, 6.0]),
                              st.sampled_from([2.0, 7.5, 20.0])), max_size=30)  # fmt: skip


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(postings=_postings, changes=_changes, small=st.sampled_from([0, 4096]),
       tiered=st.sampled_from([1, 256]))  # fmt: skip
def test_patched_term_data_holds_what_the_changed_postings_hold(  # type: ignore[no-untyped-def]
    monkeypatch, postings, changes, small, tiered
) -> None:
    """A kept term patched with its postings' changes has the slots, tfs and df of one
    built from the changed postings, and every tier bound still bounds its slots."""
    monkeypatch.setattr(term_data, "SMALL", small)  # both tf layouts (dict, one byte per slot)
    monkeypatch.setattr(term_data, "_TIERED", tiered)
    rows = {slot: (tf, length) for slot, (tf, length) in postings.items()}
    lengths: list[float] = []
    data = term_data.TermData([(s, tf, n) for s, (tf, n) in sorted(rows.items())], lengths)
    for slot, tf, length in changes:
        rows.pop(slot, None)
        if tf is not None:
            rows[slot] = (tf, length)
    patched = data.patched(changes, lengths)
    assert patched is not None
    fresh = term_data.TermData([(s, tf, n) for s, (tf, n) in sorted(rows.items())], None)
    assert (
        (patched.bits, patched.df) == (fresh.bits, fresh.df) == (term_data.bits_of(rows), len(rows))
    )
    assert sorted(patched.slots()) == sorted(rows)
    assert all(patched.tf(s) == rows[s][0] for s in rows)
    assert all(patched.tf(s) is None for s in range(330) if s not in rows)
    assert all(lengths[s] == rows[s][1] for s in rows)
    covered = 0
    for bits, pairs in patched.tiers:
        covered |= bits
        for slot in term_data.slots_of(bits):  # some (tf, length) of the tier is at least as good
            tf, length = rows[slot]
            assert any(t == tf and n <= length for t, n in pairs)
    assert covered == patched.bits


def _fields(data: term_data.TermData) -> tuple[object, ...]:
    return (data.df, data.bits, data.order, data.tiers, data.slots() and sorted(data.slots()),
            [data.tf(s) for s in range(330)])  # fmt: skip


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(postings=_postings, small=st.sampled_from([0, 4096]), tiered=st.sampled_from([1, 256]),
       many_tfs=st.booleans())  # fmt: skip
def test_a_packed_term_unpacks_to_the_same_term(  # type: ignore[no-untyped-def]
    monkeypatch, postings, small, tiered, many_tfs
) -> None:
    monkeypatch.setattr(term_data, "SMALL", small)
    monkeypatch.setattr(term_data, "_TIERED", tiered)
    rows = [(s, tf + (s / 1000 if many_tfs else 0.0), n) for s, (tf, n) in sorted(postings.items())]
    data = term_data.TermData(rows, None)
    back = term_data.TermData.unpacked(data.packed())
    assert _fields(back) == _fields(data)
    assert back.tfs(sorted(back.slots())) == data.tfs(sorted(data.slots()))
    assert back.packed() == data.packed()


@given(postings=_postings, cut=st.integers(0, 10_000), flip=st.integers(0, 10_000),
       byte=st.integers(0, 255))  # fmt: skip
def test_damaged_packs_are_refused_or_read_whole_never_a_crash(
    postings: dict[int, tuple[float, float]], cut: int, flip: int, byte: int
) -> None:
    """A pack cut short, grown or with a byte changed: ValueError, or a term whose counts
    agree (a changed tf or bound is a different but well-formed term)."""
    packed = term_data.TermData([(s, tf, n) for s, (tf, n) in sorted(postings.items())],
                                None).packed()  # fmt: skip
    for data in damaged(packed, cut, flip, byte):
        try:
            back = term_data.TermData.unpacked(data)
        except ValueError:
            continue
        assert back.bits.bit_count() == back.df
        slots = list(back.slots())
        assert len(slots) == back.df
        assert len(back.tfs(slots)) == len([back.tf(s) for s in slots]) == back.df


def test_postings_out_of_slot_order_are_not_packed() -> None:
    import pytest

    with pytest.raises(ValueError, match="slot order"):
        term_data.TermData([(5, 1.0, 3.0), (2, 1.0, 3.0)], None).packed()
