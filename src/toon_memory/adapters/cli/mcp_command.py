"""The ``toon-memory mcp`` command: serve the memory over MCP (stdio, or HTTP with --http).

Invariant: the command imports nothing of ``mcp`` until it runs, and prints
nothing on stdout itself (stdio mode: stdout is the protocol channel).
"""

from __future__ import annotations

import click

from toon_memory.adapters.cli.invocation import Invocation, handles_errors


@click.command()
@click.option(
    "--project",
    "project_opt",
    type=click.Path(file_okay=False),
    default=None,
    help="Project root (default: the group's --project, TOON_MEMORY_PROJECT or the cwd).",
)
@click.option("--http", "use_http", is_flag=True, help="Serve Streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address.")
@click.option("--port", default=3737, show_default=True, type=int, help="HTTP port.")
@click.pass_obj
@handles_errors
def mcp(obj: Invocation, project_opt: str | None, use_http: bool, host: str, port: int) -> None:
    """Run the MCP server (stdio; --http for Streamable HTTP with a bearer token)."""
    from toon_memory.adapters import server

    project = project_opt or obj.project
    if use_http:
        server.serve_http(project, host, port)
    else:
        server.serve_stdio(project)


COMMANDS: tuple[click.Command, ...] = (mcp,)
