"""The sharing tools (global store and GitHub Gist).

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant.
"""

from __future__ import annotations

from toon_memory.server.specs import ToolSpec

SHARING: tuple[ToolSpec, ...] = ()
