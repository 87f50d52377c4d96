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
@click.option(
    "--database", default=None, metavar="URL",
    help="With --http: serve every project of this team database (PostgreSQL) at "
    "/mcp/<project> (/mcp is 'default'), tokens from `team token create`.",
)  # fmt: skip
@click.option(
    "--root", type=click.Path(file_okay=False), default=None,
    help="With --database: the folder of each project's side files (sessions, settings), "
    "one subfolder per project (default: ~/.toon-memory/team, under TOON_MEMORY_HOME).",
)  # fmt: skip
@click.option(
    "--insecure-http", is_flag=True,
    help="With --database: serve plain HTTP on a host other than loopback (else refused: "
    "put TLS in front).",
)  # fmt: skip
@click.pass_obj
@handles_errors
def mcp(
    obj: Invocation, project_opt: str | None, use_http: bool, host: str, port: int,
    database: str | None, root: str | None, insecure_http: bool,
) -> None:  # fmt: skip
    """Run the MCP server (stdio; --http for Streamable HTTP with a bearer token; --http
    --database URL for a team server over every project of a database)."""
    from toon_memory.adapters import server
    from toon_memory.errors import InputError

    project = project_opt or obj.project
    if database is not None:
        if not use_http:
            raise InputError("database", "a team server serves over HTTP: add --http")
        server.serve_team(database, host, port, root, insecure_http)
    elif use_http:
        server.serve_http(project, host, port)
    else:
        server.serve_stdio(project)


COMMANDS: tuple[click.Command, ...] = (mcp,)
