"""Damaged copies of a blob, for the tests that a damaged pack is refused or read as
well-formed, never a crash (``store.row_pack``, ``search.term_data``)."""

from __future__ import annotations


def damaged(blob: bytes, cut: int, flip: int, byte: int) -> list[bytes]:
    """``blob`` cut short at ``cut``, grown by a byte, and with the byte at ``flip`` set to
    ``byte`` (positions taken modulo its length); copies equal to ``blob`` left out."""
    copies = [blob[: cut % (len(blob) + 1)], blob + b"\x00"]
    if blob:
        at = flip % len(blob)
        copies.append(blob[:at] + bytes([byte]) + blob[at + 1 :])
    return [copy for copy in copies if copy != blob]
