"""Renderers of the security results: encrypt/decrypt and the secrets vault.

Invariant: the CLI and the MCP server show these results only through the
functions here, each ``(result, call) -> Rendered``. A secret value is shown
only for ``action="get"`` (the one call that asks for it); ``call`` is never
echoed, so a stored value never reaches the output. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toon_memory.render.results import Rendered

if TYPE_CHECKING:
    from toon_memory.memory.security import SecretResult
    from toon_memory.store.sealing import Conversion

Call = Mapping[str, Any]


def converted(report: Conversion, call: Call) -> Rendered:
    """What ``encrypt`` or ``decrypt`` wrote."""
    done = "encrypted" if report.action == "encrypt" else "decrypted (now in clear)"
    files = len(report.files)
    lines = [f"🔒 {report.folder}: {done}; {files} file{'s' if files != 1 else ''} rewritten, "
             f"{report.entries} entries kept."]  # fmt: skip
    if report.caches_removed:
        lines.append(f"Removed {report.caches_removed} derived cache file(s) under the home "
                     "folder; they are rebuilt on the next read.")  # fmt: skip
    if report.action == "encrypt":
        lines.append("Every process that opens this memory needs TOON_MEMORY_KEY set to the "
                     "same passphrase; without it nothing can be read back.")  # fmt: skip
    return Rendered("\n".join(lines), report.to_dict())


def secret(result: SecretResult, call: Call) -> Rendered:
    """A vault action; the value appears only when it was asked for (``get``)."""
    if result.action == "list":
        if not result.names:
            text = "🔑 no secrets stored (memory_secret action=store adds one)."
        else:
            rows = [f"  {name} (updated {day})" for name, day in result.names]
            text = "\n".join([f"🔑 {len(rows)} secret(s):", *rows])
    elif result.action == "get":
        text = result.value or ""
    elif result.action == "store":
        text = (
            f"🔑 {'replaced' if result.replaced else 'stored'} secret {result.name!r} (encrypted)."
        )
    else:
        text = f"🔑 forgot secret {result.name!r}."
    return Rendered(text, result.to_dict())
