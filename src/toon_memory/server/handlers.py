"""How an MCP tool call runs: one ``Memory`` call, then one shared renderer.

Invariant: a call is exactly ``Memory.<spec.method>(**spec.call_arguments(args))``
followed by the renderer of ``render.results`` that the CLI uses for the same
operation; nothing here holds a product rule or imports ``mcp``. Errors
propagate as ``ToonMemoryError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toon_memory.render import results as render

if TYPE_CHECKING:
    from toon_memory.memory import Memory
    from toon_memory.server.specs import ToolSpec

Renderer = Callable[[Any, dict[str, Any]], render.Rendered]

RENDERERS: dict[str, Renderer] = {
    "memory_remember": render.remembered,
    "memory_recall": render.recalled,
    "memory_smart_recall": render.recalled,
    "memory_search": render.recalled,
    "memory_suggest": render.suggested,
    "memory_forget": render.forgotten,
    "memory_stats": render.statistics,
    "memory_summary": render.summarised,
    "memory_archive": render.archived,
    "memory_diff": render.changed,
    "memory_pin": render.pinned,
    "memory_unpin": render.unpinned,
    "memory_tag": render.tagged,
    "memory_graph_path": render.path_found,
    "memory_backup": render.backed_up,
    "memory_checkpoint": render.checkpointed,
    "memory_state": render.session_state,
}


def run_tool(memory: Memory, spec: ToolSpec, arguments: dict[str, Any]) -> render.Rendered:
    """Call the tool's ``Memory`` method with checked arguments and render the result."""
    call = spec.call_arguments(arguments)
    result = getattr(memory, spec.method)(**call)
    return RENDERERS[spec.name](result, call)
