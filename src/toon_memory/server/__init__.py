"""toon-memory's MCP server (stdio and Streamable HTTP), a thin adapter over ``Memory``.

Invariant: importing this package imports neither ``mcp`` nor the memory;
``serve_stdio``/``serve_http`` import them when called. Whatever way the
server stops (stdin closed, client gone, SIGTERM, Ctrl-C), the memory is
closed (compacted) before the process exits, and stdout carries nothing but
protocol.

Layout: ``specs`` (published tool surface, pure data), ``args`` (argument
checking), ``handlers`` (one per tool), ``views`` (resources and prompt
text), ``app`` (the ``MCPServer``; the only ``mcp`` importer with
``http``), ``http`` (bearer token and Origin guard, uvicorn).
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

__all__ = ["serve_http", "serve_stdio"]


def _interrupt_on_term() -> None:
    """Make SIGTERM (and SIGHUP) unwind like Ctrl-C, so ``finally`` blocks run."""

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), interrupt)


def serve_stdio(project: str | Path | None = None) -> None:
    """Serve MCP over stdin/stdout until the client closes stdin."""
    import anyio

    from toon_memory.server.app import ToonMemoryServer

    server = ToonMemoryServer(project)
    _interrupt_on_term()
    try:
        anyio.run(server.run_stdio_async)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


def serve_http(project: str | Path | None, host: str, port: int) -> None:
    """Serve MCP over Streamable HTTP at ``http://host:port/mcp`` (token required)."""
    from toon_memory.server.http import run

    _interrupt_on_term()
    run(project, host, port)
