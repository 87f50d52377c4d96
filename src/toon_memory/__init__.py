"""toon-memory: local, persistent, token-lean memory for AI coding agents.

The public API is ``Memory`` (the one core object every adapter uses), the
``Entry`` model, the result types its methods return, and the error tree.

Invariant: importing the package imports nothing; each public name is loaded
on first access (``toon-memory --help`` and the hooks pay only for what
they use), and ``__all__`` lists exactly the public names.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toon_memory.errors import (
        AccessDeniedError,
        AgentConfigError,
        CorruptFileError,
        DatabaseError,
        EncryptionError,
        FileAccessError,
        ImportFormatError,
        InputError,
        LockTimeoutError,
        NewerFormatError,
        NotFoundError,
        ReadOnlyMemoryError,
        StoreError,
        SyncError,
        ToonMemoryError,
    )
    from toon_memory.memory.api import Memory
    from toon_memory.memory.maintenance import Checkpoint, InitResult
    from toon_memory.memory.recaller import Primer
    from toon_memory.memory.transfer import ImportReport
    from toon_memory.model.entry import CATEGORIES, FIELDS, Entry, Summary
    from toon_memory.rules.archiving import ArchiveResult
    from toon_memory.rules.changes import Diff
    from toon_memory.rules.remember import RememberResult
    from toon_memory.rules.stats import Stats
    from toon_memory.search.options import RecallOptions
    from toon_memory.search.result import Hit, RecallResult

_WHERE: dict[str, str] = {
    "ReadOnlyMemoryError": "errors",
    "NewerFormatError": "errors",
    "FileAccessError": "errors",
    "AgentConfigError": "errors",
    "SyncError": "errors",
    "EncryptionError": "errors",
    "ArchiveResult": "rules.archiving",
    "CATEGORIES": "model.entry",
    "Checkpoint": "memory.maintenance",
    "CorruptFileError": "errors",
    "DatabaseError": "errors",
    "AccessDeniedError": "errors",
    "Diff": "rules.changes",
    "Entry": "model.entry",
    "FIELDS": "model.entry",
    "Hit": "search.result",
    "ImportFormatError": "errors",
    "ImportReport": "memory.transfer",
    "InitResult": "memory.maintenance",
    "InputError": "errors",
    "LockTimeoutError": "errors",
    "Memory": "memory.api",
    "NotFoundError": "errors",
    "Primer": "memory.recaller",
    "RecallOptions": "search.options",
    "RecallResult": "search.result",
    "RememberResult": "rules.remember",
    "Stats": "rules.stats",
    "StoreError": "errors",
    "Summary": "model.entry",
    "ToonMemoryError": "errors",
}

__all__ = [
    "CATEGORIES",
    "FIELDS",
    "AccessDeniedError",
    "AgentConfigError",
    "ArchiveResult",
    "Checkpoint",
    "CorruptFileError",
    "DatabaseError",
    "Diff",
    "EncryptionError",
    "Entry",
    "FileAccessError",
    "Hit",
    "ImportFormatError",
    "ImportReport",
    "InitResult",
    "InputError",
    "LockTimeoutError",
    "Memory",
    "NewerFormatError",
    "NotFoundError",
    "Primer",
    "ReadOnlyMemoryError",
    "RecallOptions",
    "RecallResult",
    "RememberResult",
    "Stats",
    "StoreError",
    "Summary",
    "SyncError",
    "ToonMemoryError",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'toon_memory' has no attribute {name!r}")
    value = getattr(import_module(f"toon_memory.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
