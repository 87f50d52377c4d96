"""The sealing primitives: round trips, fresh nonces, and any changed byte refused."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toon_memory.errors import EncryptionError
from toon_memory.store import crypto

KEY = crypto.Key(os.urandom(32))
OTHER = crypto.Key(os.urandom(32))


@given(st.binary(max_size=2048), st.sampled_from(["document", "journal", "cache"]))
def test_seal_open_round_trip(data: bytes, purpose: str) -> None:
    sealed = crypto.seal(KEY, data, purpose)
    assert crypto.is_sealed(sealed)
    assert crypto.open_sealed(KEY, sealed, purpose, "f") == data
    assert crypto.seal(KEY, data, purpose) != sealed  # a fresh nonce every time


@settings(max_examples=60)
@given(st.binary(min_size=1, max_size=256), st.data())
def test_any_changed_byte_or_other_key_or_purpose_is_refused(
    data: bytes, pick: st.DataObject
) -> None:
    sealed = bytearray(crypto.seal(KEY, data, "document"))
    where = pick.draw(st.integers(len(crypto.MAGIC), len(sealed) - 1))
    sealed[where] ^= pick.draw(st.integers(1, 255))
    with pytest.raises(EncryptionError, match="changed"):
        crypto.open_sealed(KEY, bytes(sealed), "document", "f")
    good = crypto.seal(KEY, data, "document")
    for key, purpose in ((OTHER, "document"), (KEY, "journal")):
        with pytest.raises(EncryptionError):
            crypto.open_sealed(key, good, purpose, "f")


@given(st.binary(max_size=1024))
def test_a_sealed_line_is_one_line_and_opens(data: bytes) -> None:
    line = crypto.seal_line(KEY, data, "journal")
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and crypto.is_sealed_line(line)
    assert crypto.open_line(KEY, line, "journal", "j") == data
    assert crypto.open_line(KEY, b"~not base64!\n", "journal", "j") is None
    assert crypto.open_line(KEY, line[:20] + b"\n", "journal", "j") is None  # torn


def test_truncated_file_and_key_repr() -> None:
    with pytest.raises(EncryptionError, match="truncated"):
        crypto.open_sealed(KEY, crypto.MAGIC + b"short", "document", "f")
    assert "hidden" in repr(KEY) and KEY.raw.hex() not in repr(KEY)


@given(st.binary(max_size=512), st.data())
def test_a_torn_sealed_line_is_damage_never_an_error(data: bytes, pick: st.DataObject) -> None:
    line = crypto.seal_line(KEY, data, "journal")
    cut = pick.draw(st.integers(1, len(line) - 2))
    assert crypto.open_line(KEY, line[:cut] + b"\n", "journal", "j") is None
