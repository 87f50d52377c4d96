"""The security tools: encryption at rest and the secrets vault.

Invariant: pure data (no I/O, no ``mcp``); the ``action`` enum is the core
constant ``model.SECRET_ACTIONS``; each tool calls a method of
``Memory.security``. Key material never travels as a parameter: the
passphrase is read from ``TOON_MEMORY_KEY`` in the server's environment.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import Param, ToolSpec
from toon_memory.model.entry import SECRET_ACTIONS

SECURITY: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_encrypt",
        "Encrypt this memory at rest (AES-256-GCM) with the passphrase in TOON_MEMORY_KEY.",
        method="security.encrypt",
        render="security.converted",
    ),
    ToolSpec(
        "memory_decrypt",
        "Write an encrypted memory in clear again (needs TOON_MEMORY_KEY).",
        destructive=True,
        method="security.decrypt",
        render="security.converted",
    ),
    ToolSpec(
        "memory_secret",
        "Keep a credential out of memory: store/get/list/forget it in an encrypted vault.",
        (
            Param("action", enum=SECRET_ACTIONS),
            Param("name"),
            Param("value", doc="store only"),
        ),
        required=("action",),
        destructive=True,
        method="security.secret",
        render="security.secret",
    ),
)
