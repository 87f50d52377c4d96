"""Core CLI commands: write, read, maintain and move memories.

Invariant: every command is a thin call into ``Memory`` plus rendering;
no rule of the product lives here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from toon_memory.cli.main import Context, cli, emit, handles_errors, json_option
from toon_memory.model import CATEGORIES, IMPORTANCE_LEVELS

pass_ctx = click.make_pass_decorator(Context)


@cli.command()
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
@click.option(
    "--origin", default="human", show_default=True, help="human, agent, inferred or import."
)
@click.option("--path-scope", default="", help="Folder or file this memory applies to.")
@json_option
@pass_ctx
@handles_errors
def remember(ctx: Context, category: str, key: str, content: str, file_: str, tags: str,
             links: str, ttl: str, importance: str, confidence: str | None, origin: str,
             path_scope: str, as_json: bool) -> None:  # fmt: skip
    """Save a decision, pattern, bug, knowledge or warning."""
    from toon_memory.render.core import remember_dict, render_remember

    result = ctx.memory.remember(
        category, key, content, file=file_, tags=tags, links=links, ttl=ttl,
        importance=importance, confidence=confidence, origin=origin, path_scope=path_scope,
    )  # fmt: skip
    emit(remember_dict(result), render_remember(result), as_json)


@cli.command()
@click.argument("id_or_key")
@click.option("--history", is_flag=True, help="Show every version of the key.")
@json_option
@pass_ctx
@handles_errors
def get(ctx: Context, id_or_key: str, history: bool, as_json: bool) -> None:
    """Show one entry by id or key."""
    from toon_memory.render.core import render_entries

    entries = ctx.memory.history(id_or_key) if history else [ctx.memory.get(id_or_key)]
    emit({"entries": [e.to_dict() for e in entries]}, render_entries(entries, deep=True), as_json)


@cli.command()
@click.argument("id_or_key")
@click.option("--action", type=click.Choice(["soft", "hard", "restore", "supersede"]), default="soft",
              show_default=True, help="soft: mark obsolete; hard: delete; restore; supersede.")  # fmt: skip
@click.option(
    "--new-key", default="", help="The entry that supersedes this one (with --action supersede)."
)
@json_option
@pass_ctx
@handles_errors
def forget(ctx: Context, id_or_key: str, action: str, new_key: str, as_json: bool) -> None:
    """Forget an entry (soft by default: it stays in history)."""
    entry = ctx.memory.forget(id_or_key, action=action, new_key=new_key)
    emit(
        {"action": action, "entry": entry.to_dict()},
        f"🗑️ {action}: {entry.key} ({entry.id})",
        as_json,
    )


@cli.command()
@click.argument("key")
@click.option("--priority", default=1, show_default=True, type=int, help="1 (first) to 5.")
@json_option
@pass_ctx
@handles_errors
def pin(ctx: Context, key: str, priority: int, as_json: bool) -> None:
    """Pin an entry so it leads every recall."""
    entry = ctx.memory.pin(key, priority)
    emit(entry.to_dict(), f"📌 Pinned {entry.key} (priority {entry.priority})", as_json)


@cli.command()
@click.argument("key")
@json_option
@pass_ctx
@handles_errors
def unpin(ctx: Context, key: str, as_json: bool) -> None:
    """Remove an entry's pin."""
    entry = ctx.memory.unpin(key)
    emit(entry.to_dict(), f"Unpinned {entry.key}", as_json)


@cli.command()
@click.argument("keys")
@click.option(
    "--action", type=click.Choice(["add", "remove", "set"]), default="add", show_default=True
)
@click.option("--tags", required=True, help='Tags separated by ";" or ",".')
@json_option
@pass_ctx
@handles_errors
def tag(ctx: Context, keys: str, action: str, tags: str, as_json: bool) -> None:
    """Add, remove or set tags on entries (keys or ids separated by commas/spaces)."""
    entries = ctx.memory.tag(keys, action, tags)
    text = "\n".join(f"🏷️ {e.key}: {';'.join(e.tags)}" for e in entries)
    emit({"entries": [e.to_dict() for e in entries]}, text, as_json)


@cli.command()
@click.argument("file")
@click.option("--text", default=None, help="Save this summary (omit to show the saved one).")
@json_option
@pass_ctx
@handles_errors
def summary(ctx: Context, file: str, text: str | None, as_json: bool) -> None:
    """Save or show the summary of a file."""
    saved = ctx.memory.summary(file, text)
    if saved is None:
        emit({"summary": None}, f"No summary for {file}.", as_json)
    else:
        emit(saved.to_row(), f"📄 {saved.file} ({saved.date}): {saved.summary}", as_json)


@cli.command()
@json_option
@pass_ctx
@handles_errors
def stats(ctx: Context, as_json: bool) -> None:
    """Counts, TTL, quality, hit rate, duplicates."""
    from toon_memory.render.core import render_stats

    result = ctx.memory.stats()
    emit(result.to_dict(), render_stats(result), as_json)


@cli.command()
@click.option("--since", default="24h", show_default=True, help="24h, 7d or YYYY-MM-DD.")
@click.option("--type", "type_", type=click.Choice(["all", "created", "updated"]), default="all")
@json_option
@pass_ctx
@handles_errors
def diff(ctx: Context, since: str, type_: str, as_json: bool) -> None:
    """Entries created or updated since a date."""
    from toon_memory.render.core import render_diff

    result = ctx.memory.diff(since, type_)
    data = {**result, "created": [e.to_dict() for e in result["created"]],
            "updated": [e.to_dict() for e in result["updated"]]}  # fmt: skip
    emit(data, render_diff(result), as_json)


@cli.command()
@json_option
@pass_ctx
@handles_errors
def archive(ctx: Context, as_json: bool) -> None:
    """Move stale (30+ days unused) and expired entries to archive.toon."""
    result = ctx.memory.archive()
    text = f"📦 Archived {len(result.moved)} entries\n📋 {result.remaining} active entries remain"
    emit({"archived": [e.key for e in result.moved], "remaining": result.remaining}, text, as_json)


@cli.command()
@json_option
@pass_ctx
@handles_errors
def backup(ctx: Context, as_json: bool) -> None:
    """Write a timestamped backup (the newest 10 are kept)."""
    path = ctx.memory.backup()
    emit({"backup": str(path)}, f"💾 Backup: {path}", as_json)


@cli.command()
@click.option(
    "--from", "source", default=None, type=click.Path(dir_okay=False), help="A backup file."
)
@json_option
@pass_ctx
@handles_errors
def restore(ctx: Context, source: str | None, as_json: bool) -> None:
    """Replace data.toon by the newest good backup (the old file is kept beside it)."""
    used, kept = ctx.memory.restore(source)
    text = f"♻️ Restored {used}" + (f"\n   previous data.toon kept as {kept}" if kept else "")
    emit({"restored": str(used), "kept": str(kept) if kept else None}, text, as_json)


@cli.command()
@pass_ctx
@handles_errors
def compact(ctx: Context) -> None:
    """Fold the journal into data.toon so the file alone is complete."""
    done = ctx.memory.compact()
    click.echo(
        "✅ data.toon is complete" if done else "another process compacted first; nothing to do"
    )


@cli.command()
@json_option
@pass_ctx
@handles_errors
def doctor(ctx: Context, as_json: bool) -> None:
    """Check the memory files; exit 1 when one is broken."""
    report = ctx.memory.doctor()
    icons = {"ok": "✅", "warn": "⚠️", "error": "❌"}
    emit([{"level": lv, "message": msg} for lv, msg in report],
         "\n".join(f"{icons[lv]} {msg}" for lv, msg in report), as_json)  # fmt: skip
    if any(level == "error" for level, _ in report):
        raise SystemExit(1)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@pass_ctx
@handles_errors
def export(ctx: Context, file: str, as_json: bool) -> None:
    """Write every entry to a JSON file."""
    count = ctx.memory.export(file)
    emit({"exported": count, "file": file}, f"📤 Exported {count} entries to {file}", as_json)


@cli.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@pass_ctx
@handles_errors
def import_cmd(ctx: Context, file: str, as_json: bool) -> None:
    """Import a JSON export, a JSON list of entries, or a data.toon (ours or TypeScript)."""
    report = ctx.memory.import_(file)
    lines = [f"📥 Imported {report.added}, skipped {report.skipped}, repaired {report.repaired}"]
    lines.extend(f"  {message}" for message in report.messages)
    emit(report.to_dict(), "\n".join(lines), as_json)


@cli.command()
@json_option
@pass_ctx
@handles_errors
def init(ctx: Context, as_json: bool) -> None:
    """Create the memory folder and scan dependency manifests into the tag vocabulary."""
    from toon_memory.config import update_config
    from toon_memory.project.manifests import scan_vocab

    memory = ctx.memory
    memory.store.ensure_folder()
    vocab = scan_vocab(memory.root)
    update_config(memory.paths.config, {"vocab": vocab})
    data: dict[str, Any] = {"folder": str(memory.paths.folder), "vocab": sorted(vocab)}
    emit(data, f"✅ Memory at {memory.paths.folder} ({len(vocab)} vocabulary terms)", as_json)


@cli.command()
@click.option("--dir", "folder", default=None, type=click.Path(file_okay=False),
              help="Where to build the demo project (default: a new temp folder).")  # fmt: skip
@handles_errors
def demo(folder: str | None) -> None:
    """Build a small demo project, remember a few things and recall them."""
    import tempfile

    from toon_memory.demo import run_demo

    target = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="toon-memory-demo-"))
    click.echo(run_demo(target))
