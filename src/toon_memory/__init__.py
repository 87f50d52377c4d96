"""toon-memory: local, persistent, token-lean memory for AI coding agents.

The public API is ``Memory`` (the one core object every adapter uses), the
``Entry`` model and the error tree.
"""

from toon_memory.errors import (
    CorruptFileError,
    ImportFormatError,
    InputError,
    LockTimeoutError,
    NotFoundError,
    StoreError,
    ToonMemoryError,
)
from toon_memory.memory import Memory
from toon_memory.model import CATEGORIES, FIELDS, Entry

__all__ = [
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
