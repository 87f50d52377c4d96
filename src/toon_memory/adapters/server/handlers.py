"""How an MCP tool call runs: one ``Memory`` call, then one shared renderer.

Invariant: a call is exactly ``Memory.<spec.method>(**spec.call_arguments(args))``
followed by the renderer ``spec.render`` names, the one the CLI uses for the
same operation; nothing here holds a product rule or imports ``mcp``. Errors
propagate as ``ToonMemoryError``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from toon_memory.adapters.server.specs import ToolSpec
    from toon_memory.memory.api import Memory
    from toon_memory.render.results import Rendered

Renderer = Callable[[Any, dict[str, Any]], "Rendered"]


def renderer(spec: ToolSpec) -> Renderer:
    """The function ``spec.render`` names (``module.function`` in ``toon_memory.render``)."""
    module, _, name = spec.render.rpartition(".")
    found: Renderer = getattr(import_module(f"toon_memory.render.{module}"), name)
    return found


def bound_method(memory: Memory, spec: ToolSpec) -> Callable[..., Any]:
    """``memory.<spec.method>``, following a dotted name into a part (``context.brief``)."""
    target: Any = memory
    for name in spec.method.split("."):
        target = getattr(target, name)
    return cast("Callable[..., Any]", target)


def run_tool(memory: Memory, spec: ToolSpec, arguments: dict[str, Any]) -> Rendered:
    """Call the tool's ``Memory`` method with checked arguments and render the result."""
    call = spec.call_arguments(arguments)
    result = bound_method(memory, spec)(**call)
    return renderer(spec)(result, call)
