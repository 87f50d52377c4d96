"""The public surface of the package is exactly what ``__all__`` says."""

from __future__ import annotations

import toon_memory


def test_public_api_is_pinned() -> None:
    assert toon_memory.__all__ == [
        "CATEGORIES",
        "FIELDS",
        "CorruptFileError",
        "Entry",
        "ImportFormatError",
        "InputError",
        "LockTimeoutError",
        "Memory",
        "NotFoundError",
        "StoreError",
        "ToonMemoryError",
    ]
    public = {name for name in dir(toon_memory) if not name.startswith("_")}
    assert set(toon_memory.__all__) <= public


def test_every_error_derives_from_the_root() -> None:
    for name in toon_memory.__all__:
        value = getattr(toon_memory, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, toon_memory.ToonMemoryError)
