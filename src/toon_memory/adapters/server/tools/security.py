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
        command="encrypt",
        help="Encrypt this memory at rest with the passphrase in TOON_MEMORY_KEY.",
    ),
    ToolSpec(
        "memory_decrypt",
        "Write an encrypted memory in clear again (needs TOON_MEMORY_KEY).",
        destructive=True,
        method="security.decrypt",
        render="security.converted",
        command="decrypt",
        help="Write an encrypted memory in clear again (needs TOON_MEMORY_KEY).",
    ),
    ToolSpec(
        "memory_secret",
        "Keep a credential out of memory: store/get/list/forget it in an encrypted vault.",
        (
            Param("action", enum=SECRET_ACTIONS).on_cli(argument=True),
            Param("name").on_cli(argument=True),
            Param("value", doc="store only").on_cli(help="The value to store (action store only)."),
        ),
        required=("action",),
        destructive=True,
        method="security.secret",
        render="security.secret",
        command="secret",
        help="Keep credentials out of memory: store|get|list|forget NAME in the encrypted vault.",
    ),
)
