"""Core CLI commands: write, read, maintain and move memories.

Invariant: every command is one ``Memory`` call plus one shared renderer
(``render.results``); no rule of the product lives here. The commands an MCP
tool also offers (remember, forget, pin, unpin, tag, summary, stats, diff,
archive, backup, checkpoint) are built from that tool's declaration
(``adapters.server.tools.core``, by ``cli.declared``); the others (get,
restore, compact, doctor, export, import, demo) are written here. The
commands are collected in ``COMMANDS`` and added to the group by ``cli.group``.
"""

from __future__ import annotations

from pathlib import Path

import click

from toon_memory.adapters.cli.declared import commands
from toon_memory.adapters.cli.invocation import (
    ALLOW_SECRETS_HELP,
    Invocation,
    handles_errors,
    json_option,
    pass_ctx,
    show,
)
from toon_memory.adapters.server.tools.core import CORE
from toon_memory.adapters.server.tools.recall import RECALL_TOOLS
from toon_memory.render import results as render


@click.command()
@click.argument("id_or_key")
@click.option("--history", is_flag=True, help="Show every version of the key.")
@json_option
@pass_ctx
@handles_errors
def get(ctx: Invocation, id_or_key: str, history: bool, as_json: bool) -> None:
    """Show one entry by id or key."""
    entries = ctx.memory.history(id_or_key) if history else [ctx.memory.get(id_or_key)]
    show(render.shown(entries, {}), as_json)


@click.command()
@click.option(
    "--from", "source", default=None, type=click.Path(dir_okay=False), help="A backup file."
)
@json_option
@pass_ctx
@handles_errors
def restore(ctx: Invocation, source: str | None, as_json: bool) -> None:
    """Replace data.toon by the newest good backup (the old file is kept beside it)."""
    show(render.restored(ctx.memory.restore(source), {}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def compact(ctx: Invocation, as_json: bool) -> None:
    """Fold the journal into data.toon so the file alone is complete."""
    show(render.compacted(ctx.memory.compact(), {}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def doctor(ctx: Invocation, as_json: bool) -> None:
    """Check the memory files; exit 1 when one is broken."""
    report = ctx.memory.doctor()
    show(render.doctored(report, {}), as_json)
    if any(level == "error" for level, _ in report):
        raise SystemExit(1)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False), default="toon-memory-export.json")
@json_option
@pass_ctx
@handles_errors
def export(ctx: Invocation, file: str, as_json: bool) -> None:
    """Write every entry to a JSON file (default toon-memory-export.json here)."""
    show(render.exported(ctx.memory.export(file), {"path": file}), as_json)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def import_cmd(ctx: Invocation, file: str, allow_secrets: bool, as_json: bool) -> None:
    """Import a JSON export, a JSON list of entries, or a data.toon (ours or TypeScript)."""
    from toon_memory.adapters.cli.progress import progress_bar

    with progress_bar("import", "entries") as progress:
        report = ctx.memory.import_(file, allow_secrets, progress)
    show(render.imported(report, {}), as_json)


@click.command()
@click.option("--dir", "folder", default=None, type=click.Path(file_okay=False),
              help="Where to build the demo project (default: a new temp folder).")  # fmt: skip
@handles_errors
def demo(folder: str | None) -> None:
    """Build a small demo project, remember a few things and recall them."""
    import tempfile

    from toon_memory.adapters.demo import run_demo

    target = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="toon-memory-demo-"))
    click.echo(run_demo(target))


#: Built from the core tools' declarations (the recall ones are ``recall_commands``').
DECLARED = commands(tuple(spec for spec in CORE if spec not in RECALL_TOOLS))
COMMANDS: tuple[click.Command, ...] = (
    *DECLARED, get, restore, compact, doctor, export, import_cmd, demo,
)  # fmt: skip
