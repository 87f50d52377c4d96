"""The rows pack (``store.row_pack``): every slot's ranking row in columns, read back as
the index reads them; what it cannot say exactly is not packed, a damaged pack is refused
or read as well-formed rows, never an error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tests.damaged import damaged

from toon_memory.store.row_pack import RowColumns, pack_rows

_text = st.text(max_size=12)
_words = st.sampled_from(["", "latin", "cjk", "normal", "high", "décision", "警告"])
_row = st.tuples(
    st.text(min_size=1, max_size=12), _text, st.integers(-(2**31), 2**31 - 1),
    st.integers(0, 2**31 - 1), _words, st.floats(allow_nan=False), _words, _words, _words,
)  # fmt: skip
_rows = st.dictionaries(st.integers(0, 300), _row, max_size=40).map(
    lambda by_slot: [(slot, *row) for slot, row in sorted(by_slot.items())]
)


@given(rows=_rows)
def test_packed_rows_read_back_as_they_were(rows: list[tuple]) -> None:  # type: ignore[type-arg]
    packed = pack_rows(rows)
    assert packed is not None
    columns = RowColumns.unpacked(packed)
    everywhere = range(-2, 305)  # unknown slots, on both sides, are left out
    assert columns.rows_at(everywhere) == rows
    picked = [row[0] for row in rows[::2]]
    assert columns.rows_at(picked) == [row for row in rows[::2]]  # in the order asked


def test_what_a_pack_cannot_say_exactly_is_not_packed() -> None:
    row = (0, "id0", "k", 0, 1, "latin", 0.5, "normal", "", "decision")
    assert pack_rows([row]) is not None
    assert pack_rows([(0, "", *row[2:])]) is None  # an empty id reads as an empty slot
    assert pack_rows([(0, "id0", "k", 2**40, *row[4:])]) is None  # past 32 bits
    assert pack_rows([(-1, *row[1:])]) is None
    assert pack_rows([(1, *row[1:]), row]) is None  # out of slot order
    assert pack_rows([row, row]) is None  # a slot twice
    assert pack_rows([(0, "id0", "k", 1.5, *row[4:])]) is None  # not a whole number
    many = [(i, f"id{i}", "k", 0, 0, f"family-{i}", 0.5, "", "", "note") for i in range(256)]
    assert pack_rows(many[:255]) is not None
    assert pack_rows(many) is None  # 256 distinct values of one field


@given(rows=_rows, cut=st.integers(0, 10_000), flip=st.integers(0, 10_000),
       byte=st.integers(0, 255))  # fmt: skip
def test_a_damaged_pack_is_refused_or_well_formed(
    rows: list[tuple],  # type: ignore[type-arg]
    cut: int,
    flip: int,
    byte: int,
) -> None:
    packed = pack_rows(rows)
    assert packed is not None
    for data in [*damaged(packed, cut, flip, byte), b"", b"RP2\x00" * 20]:
        try:
            columns = RowColumns.unpacked(data)
        except ValueError:
            continue
        for row in columns.rows_at(range(-1, columns.size + 1)):
            assert [type(v) for v in row] == [int, str, str, int, int, str, float, str, str, str]
            assert row[1]  # a present slot has an id
