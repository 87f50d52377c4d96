"""toon-memory's MCP server (stdio and Streamable HTTP), a thin adapter over ``Memory``.

Invariant: importing this package imports neither ``mcp`` nor the memory, nor
anything beyond ``typing`` (the CLI builds its declared commands from
``specs`` and ``tools/`` on every start);
``serve_stdio``/``serve_http`` import them when called. Whatever way the
server stops (stdin closed, client gone, SIGTERM/SIGHUP, Ctrl-C), the memory
is closed (compacted) before the process exits, unless a call is still
running past a short grace period: then the process exits without waiting
for it (the journal keeps every acknowledged write). stdout carries nothing
but protocol.

Layout: ``specs`` (published tool surface, pure data), ``args`` (argument
checking), ``handlers`` (one per tool), ``views`` (resources and prompt
text), ``app`` (the ``MCPServer``; the only ``mcp`` importer with
``http`` and ``team_http``), ``http`` (bearer token and Origin guard, uvicorn),
``team_http`` (every project of a team database, tokens from its table), ``wire``
(repairing messages the SDK's parser would drop), ``lines`` (the stdio pipes),
``shutdown`` (child processes on a forced stop).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["serve_http", "serve_stdio", "serve_team"]


def _on_signals(handler: Any) -> None:
    """Route SIGTERM, SIGHUP and SIGINT to ``handler``."""
    import signal

    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), handler)


def serve_stdio(project: str | Path | None = None) -> None:
    """Serve MCP over stdin/stdout until the client closes stdin."""
    import anyio

    from toon_memory.adapters.server.app import ToonMemoryServer

    server = ToonMemoryServer(project)
    _on_signals(server.stop_now)
    try:
        anyio.run(server.run_stdio_async)
    except Exception:
        import logging

        logging.getLogger("toon_memory.adapters.server").exception("the server failed")
        server.stop(code=1)
    server.stop()  # exits the process: no thread left behind can hold it


def serve_http(project: str | Path | None, host: str, port: int) -> None:
    """Serve MCP over Streamable HTTP at ``http://host:port/mcp`` (token required).

    uvicorn shuts down on SIGINT/SIGTERM (cancelling requests still running
    after ``app.STOP_WAIT``), then re-raises the signal to the handler it
    found: ours turns it into ``KeyboardInterrupt`` so ``run`` goes on to
    ``stop`` (close the memory, exit 0).
    """
    from toon_memory.adapters.server.http import run

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    _on_signals(interrupt)
    run(project, host, port)


def serve_team(
    database: str, host: str, port: int, root: str | Path | None = None, insecure: bool = False
) -> None:
    """Serve every project of the team database at ``http://host:port/mcp/<project>``
    (tokens from its table; ``root``: the projects' side files, default
    ``~/.toon-memory/team``); as ``serve_http`` on signals."""
    from pathlib import Path

    from toon_memory.adapters.server.team_http import run_team
    from toon_memory.memory.team import Team

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    team = Team(database, Path(root) if root is not None else None)
    _on_signals(interrupt)
    run_team(team, host, port, insecure)
