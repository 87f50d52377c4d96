"""The public surface of the package is exactly what ``__all__`` says, both ways."""

from __future__ import annotations

import subprocess
import sys
import types

import toon_memory

PINNED = [
    "FileAccessError",
    "NewerFormatError",
    "ReadOnlyMemoryError",
    "AgentConfigError",
    "SyncError",
    "EncryptionError",
    "ArchiveResult",
    "CATEGORIES",
    "Checkpoint",
    "CorruptFileError",
    "DatabaseError",
    "AccessDeniedError",
    "Diff",
    "Entry",
    "FIELDS",
    "Hit",
    "ImportFormatError",
    "ImportReport",
    "InitResult",
    "InputError",
    "LockTimeoutError",
    "Memory",
    "NotFoundError",
    "Primer",
    "RecallOptions",
    "RecallResult",
    "RememberResult",
    "Stats",
    "StoreError",
    "Summary",
    "ToonMemoryError",
]


def test_public_api_is_pinned() -> None:
    assert sorted(toon_memory.__all__) == sorted(PINNED)
    assert len(set(toon_memory.__all__)) == len(toon_memory.__all__)
    assert sorted(toon_memory._WHERE) == sorted(PINNED)


def test_every_name_in_all_resolves_and_nothing_else_is_public() -> None:
    for name in toon_memory.__all__:
        assert getattr(toon_memory, name) is not None
    public = {
        name
        for name, value in vars(toon_memory).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name not in ("annotations", "import_module", "TYPE_CHECKING", "Any")
    }
    assert public <= set(toon_memory.__all__)
    assert set(dir(toon_memory)) == set(toon_memory.__all__)


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        toon_memory.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_importing_the_package_imports_nothing_else() -> None:
    code = "import sys, toon_memory; print(sorted(m for m in sys.modules if m.startswith('toon_memory')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['toon_memory']"


def test_every_error_derives_from_the_root() -> None:
    for name in toon_memory.__all__:
        value = getattr(toon_memory, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, toon_memory.ToonMemoryError)
