"""The viewer command: the memory graph in the browser, live or as one static file.

Invariant: the page's data is ``viewer.payload.graph_payload(memory)`` (the
``Memory`` public API) in both forms; what an export wrote is rendered by
``render.viewer.page_exported`` (text, or ``--json``); the live server binds 127.0.0.1 only
and returns when stopped (Ctrl+C, its terminal or parent gone). Listed in
``COMMANDS`` and added to the group by ``cli.main``; the viewer package is
imported only when the command runs.
"""

from __future__ import annotations

from pathlib import Path

import click

from toon_memory.adapters.cli.invocation import Invocation, handles_errors, pass_ctx, show

DEFAULT_EXPORT = "toon-memory-viewer.html"


@click.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    help="Port on 127.0.0.1 (default: a free one).",
)
@click.option("--no-open", is_flag=True, help="Print the URL without opening a browser.")
@click.option(
    "--export",
    "export",
    is_flag=False,
    flag_value=DEFAULT_EXPORT,
    default=None,
    metavar="[FILE]",
    help=f"Write one self-contained HTML file instead (default {DEFAULT_EXPORT}).",
)
@click.option("--json", "as_json", is_flag=True, help="With --export: print JSON instead of text.")
@pass_ctx
@handles_errors
def viewer(ctx: Invocation, /, port: int, no_open: bool, export: str | None, as_json: bool) -> None:
    """Open the memory graph viewer (live in the browser), or --export it as static HTML."""
    from toon_memory.adapters.viewer.payload import graph_payload

    if export is not None:
        from toon_memory.adapters.viewer.page import write_export
        from toon_memory.render.viewer import page_exported

        payload = graph_payload(ctx.memory)
        path = write_export(payload, Path(export))
        ctx.print_notices()
        show(page_exported(payload, {"path": path}), as_json)
        return
    if as_json:
        raise click.UsageError("--json goes with --export (the live viewer prints its address)")
    from toon_memory.adapters.viewer.run import serve

    memory = ctx.memory
    ctx.print_notices()
    try:
        serve(memory, port=port, open_browser=not no_open)
    except OSError as exc:
        raise click.UsageError(f"--port {port}: {exc.strerror or exc}") from exc


COMMANDS: tuple[click.Command, ...] = (viewer,)
