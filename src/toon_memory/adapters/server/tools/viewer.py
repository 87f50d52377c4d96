"""The viewer tool (``memory_visualize``, MCP Apps).

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant.
``memory_visualize`` is ``Memory.search(query)`` rendered by
``render.viewer.visualized``; its tool entry names ``VIEWER_URI`` as its UI
(``_meta.ui.resourceUri``), a ``ui://`` resource ``server.app`` builds fresh
from the memory on every read.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import RESULTS, Param, ToolSpec

VIEWER_URI = "ui://toon-memory/viewer"
#: Tool name -> the ``ui://`` resource that renders its result in MCP Apps hosts.
UI_RESOURCES: dict[str, str] = {"memory_visualize": VIEWER_URI}

VIEWER: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_visualize",
        "Memory graph inline (MCP Apps hosts), query matches highlighted. "
        "Else run `toon-memory viewer`.",
        (Param("query"),),
        read_only=True,
        idempotent=True,
        output=RESULTS,
        method="visualize",
        render="viewer.visualized",
    ),
)
