"""The context tools (issue: context briefs, sessions and curation).

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant.
"""

from __future__ import annotations

from toon_memory.server.specs import ToolSpec

CONTEXT: tuple[ToolSpec, ...] = ()
