"""Core CLI commands: write, read, maintain and move memories.

Invariant: every command is one ``Memory`` call plus one shared renderer
(``render.results``); no rule of the product lives here. Choices come from
the core's constants. The commands are collected in ``COMMANDS`` and added
to the group by ``cli.main``.
"""

from __future__ import annotations

from pathlib import Path

import click

from toon_memory.adapters.cli.invocation import (
    ALLOW_SECRETS_HELP,
    Context,
    handles_errors,
    json_option,
    pass_ctx,
    show,
)
from toon_memory.model.entry import (
    CATEGORIES,
    DIFF_TYPES,
    FORGET_ACTIONS,
    IMPORTANCE_LEVELS,
    ORIGINS,
    TAG_ACTIONS,
)
from toon_memory.render import results as render


@click.command()
@click.option("--category", "-c", required=True, help=f"One of: {', '.join(CATEGORIES)}.")
@click.option("--key", "-k", required=True, help="Unique name; saving the same key merges.")
@click.option("--content", "-m", required=True, help="The memory itself.")
@click.option("--file", "file_", default="", help="File it concerns (path or path:line).")
@click.option("--tags", default="", help='Tags separated by ";" (inferred when empty).')
@click.option(
    "--links", default="", help='Related keys separated by spaces or ";" (type:key allowed).'
)
@click.option("--ttl", default="", help="Expiry: 7d, 24h, 30d or YYYY-MM-DD.")
@click.option("--importance", default="", help=f"One of: {', '.join(IMPORTANCE_LEVELS)}.")
@click.option("--confidence", default=None, help="0..1 (default 1.0, inferred 0.7).")
@click.option("--origin", default="human", show_default=True, help=f"One of: {', '.join(ORIGINS)}.")
@click.option("--path-scope", default="", help="Folder or file this memory applies to.")
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def remember(ctx: Context, category: str, key: str, content: str, file_: str, tags: str,
             links: str, ttl: str, importance: str, confidence: str | None, origin: str,
             path_scope: str, allow_secrets: bool, as_json: bool) -> None:  # fmt: skip
    """Save a decision, pattern, bug, knowledge or warning."""
    result = ctx.memory.remember(
        category, key, content, file=file_, tags=tags, links=links, ttl=ttl,
        importance=importance, confidence=confidence, origin=origin, path_scope=path_scope,
        allow_secrets=allow_secrets,
    )  # fmt: skip
    show(render.remembered(result, {}), as_json)


@click.command()
@click.argument("id_or_key")
@click.option("--history", is_flag=True, help="Show every version of the key.")
@json_option
@pass_ctx
@handles_errors
def get(ctx: Context, id_or_key: str, history: bool, as_json: bool) -> None:
    """Show one entry by id or key."""
    entries = ctx.memory.history(id_or_key) if history else [ctx.memory.get(id_or_key)]
    show(render.shown(entries, {}), as_json)


@click.command()
@click.argument("id_or_key")
@click.option("--action", type=click.Choice(FORGET_ACTIONS), default="soft", show_default=True,
              help="soft: mark obsolete; hard: delete; restore; supersede.")  # fmt: skip
@click.option(
    "--new-key", default="", help="The entry that supersedes this one (with --action supersede)."
)
@json_option
@pass_ctx
@handles_errors
def forget(ctx: Context, id_or_key: str, action: str, new_key: str, as_json: bool) -> None:
    """Forget an entry (soft by default: it stays in history)."""
    entry = ctx.memory.forget(id_or_key, action=action, new_key=new_key)
    show(render.forgotten(entry, {"action": action}), as_json)


@click.command()
@click.argument("key")
@click.option("--priority", default=1, show_default=True, type=int, help="1 (first) to 5.")
@json_option
@pass_ctx
@handles_errors
def pin(ctx: Context, key: str, priority: int, as_json: bool) -> None:
    """Pin an entry so it leads every recall."""
    show(render.pinned(ctx.memory.pin(key, priority), {}), as_json)


@click.command()
@click.argument("key")
@json_option
@pass_ctx
@handles_errors
def unpin(ctx: Context, key: str, as_json: bool) -> None:
    """Remove an entry's pin."""
    show(render.unpinned(ctx.memory.unpin(key), {}), as_json)


@click.command()
@click.argument("keys")
@click.option("--action", type=click.Choice(TAG_ACTIONS), default="add", show_default=True)
@click.option("--tags", required=True, help='Tags separated by ";" or ",".')
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def tag(
    ctx: Context, keys: str, action: str, tags: str, allow_secrets: bool, as_json: bool
) -> None:
    """Add, remove or set tags on entries (keys or ids separated by commas/spaces)."""
    show(render.tagged(ctx.memory.tag(keys, action, tags, allow_secrets), {}), as_json)


@click.command()
@click.argument("file")
@click.option("--text", default=None, help="Save this summary (omit to show the saved one).")
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def summary(ctx: Context, file: str, text: str | None, allow_secrets: bool, as_json: bool) -> None:
    """Save or show the summary of a file."""
    saved = ctx.memory.summary(file, text, allow_secrets)
    show(render.summarised(saved, {"file": file, "text": text}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def stats(ctx: Context, as_json: bool) -> None:
    """Counts, TTL, quality, hit rate, duplicates."""
    show(render.statistics(ctx.memory.stats(), {}), as_json)


@click.command()
@click.option("--since", default="24h", show_default=True, help="24h, 7d or YYYY-MM-DD.")
@click.option("--type", "type_", type=click.Choice(DIFF_TYPES), default="all", show_default=True)
@json_option
@pass_ctx
@handles_errors
def diff(ctx: Context, since: str, type_: str, as_json: bool) -> None:
    """Entries created or updated since a date."""
    show(render.changed(ctx.memory.diff(since, type_), {}), as_json)


@click.command()
@click.option("--older-than-days", type=int, default=None,
              help="Archive entries unused for this many days (default 30).")  # fmt: skip
@json_option
@pass_ctx
@handles_errors
def archive(ctx: Context, older_than_days: int | None, as_json: bool) -> None:
    """Move stale (30+ days unused) and expired entries to archive.toon."""
    show(render.archived(ctx.memory.archive(older_than_days), {}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def backup(ctx: Context, as_json: bool) -> None:
    """Write a timestamped backup (the newest 10 are kept)."""
    show(render.backed_up(ctx.memory.backup(), {}), as_json)


@click.command()
@click.option("--note", default="", help="What state this is.")
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def checkpoint(ctx: Context, note: str, allow_secrets: bool, as_json: bool) -> None:
    """A restorable backup plus a 7-day knowledge entry that names it."""
    show(render.checkpointed(ctx.memory.checkpoint(note, allow_secrets), {}), as_json)


@click.command()
@click.option(
    "--from", "source", default=None, type=click.Path(dir_okay=False), help="A backup file."
)
@json_option
@pass_ctx
@handles_errors
def restore(ctx: Context, source: str | None, as_json: bool) -> None:
    """Replace data.toon by the newest good backup (the old file is kept beside it)."""
    show(render.restored(ctx.memory.restore(source), {}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def compact(ctx: Context, as_json: bool) -> None:
    """Fold the journal into data.toon so the file alone is complete."""
    show(render.compacted(ctx.memory.compact(), {}), as_json)


@click.command()
@json_option
@pass_ctx
@handles_errors
def doctor(ctx: Context, as_json: bool) -> None:
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
def export(ctx: Context, file: str, as_json: bool) -> None:
    """Write every entry to a JSON file (default toon-memory-export.json here)."""
    show(render.exported(ctx.memory.export(file), {"path": file}), as_json)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--allow-secrets", is_flag=True, help=ALLOW_SECRETS_HELP)
@json_option
@pass_ctx
@handles_errors
def import_cmd(ctx: Context, file: str, allow_secrets: bool, as_json: bool) -> None:
    """Import a JSON export, a JSON list of entries, or a data.toon (ours or TypeScript)."""
    show(render.imported(ctx.memory.import_(file, allow_secrets), {}), as_json)


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


COMMANDS: tuple[click.Command, ...] = (
    remember, get, forget, pin, unpin, tag, summary, stats, diff, archive, backup, checkpoint,
    restore, compact, doctor, export, import_cmd, demo,
)  # fmt: skip
