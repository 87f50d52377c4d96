"""simple-local-memory's ``memory-*`` commands (``toon-memory state`` is in ``state_commands``).

Invariant: each command is a thin call into ``toon_memory.adapters.slm`` plus
printing, with simple-local-memory's names and flags; ``ToonMemoryError``
becomes a message on stderr and exit code 2 (bad input) or 1, and a command
that fails on input writes nothing. ``memory-store`` returns only after the
memory is fsync'd (write-ahead rule). Run the commands as installed scripts
or as ``python -m toon_memory.adapters.cli.slm_commands memory-store ...``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from toon_memory.adapters.cli.invocation import emit, handles_errors, json_option

if TYPE_CHECKING:
    from toon_memory.memory.api import Memory

F = TypeVar("F", bound=Callable[..., Any])
SETTINGS = {"help_option_names": ["-h", "--help"]}


def workspace_option(func: F) -> F:
    return click.option(
        "--workspace", "-w", type=click.Path(file_okay=False), envvar="TOON_MEMORY_PROJECT",
        help="Workspace root (default: found from the working directory).",
    )(func)  # fmt: skip


def open_memory(folder: str | None) -> Memory:
    from toon_memory.memory.api import Memory

    memory = Memory(Path(folder) if folder else None, one_shot=True)
    for note in memory.notices():
        click.echo(f"note: {note}", err=True)
    return memory


def entry_line(entry: Any) -> str:
    from toon_memory.adapters.slm import records as rec

    stamp = rec.timestamp_of(entry)
    tags = " ".join(f"#{t}" for t in rec.user_tags(entry))
    text = " ".join(entry.content.split())
    line = f"[{stamp[:10]} {stamp[11:16]}] {rec.type_of(entry)} ({rec.importance_of(entry):.2f}) {text}"
    return f"{line}  {tags}  <{entry.key}>" if tags else f"{line}  <{entry.key}>"


def entry_json(entry: Any) -> dict[str, Any]:
    from toon_memory.adapters.slm import records as rec

    return {**rec.daily_record(entry), "key": entry.key, "source": rec.source_of(entry)}


@click.command("memory-init", context_settings=SETTINGS)
@workspace_option
@json_option
@handles_errors
def memory_init(workspace: str | None, as_json: bool) -> None:
    """Create SESSION-STATE.json, MEMORY.md and memories/ (existing ones are imported)."""
    from toon_memory.adapters.slm import ops

    report = ops.init_workspace(open_memory(workspace))
    made = ", ".join(report["created"]) or "nothing new (already initialised)"
    text = f"🧠 Memory initialised in {report['workspace']}: created {made}"
    imported = report["imported"]
    if imported["added"] or imported["updated"] or imported["skipped"]:
        text += f"\n📥 Imported {imported['added']} existing memories"
    emit(report, text, as_json)


@click.command("memory-store", context_settings=SETTINGS)
@click.option(
    "--type", "type_", required=True, help="preference, decision, fact, lesson or context."
)
@click.option("--content", required=True, help="The memory itself.")
@click.option("--importance", default=None, help="0..1 (default 0.5).")
@click.option("--tags", default="", help="Tags separated by commas.")
@click.option("--context", default="", help="Why or where this came up.")
@workspace_option
@json_option
@handles_errors
def memory_store(type_: str, content: str, importance: str | None, tags: str, context: str,
                 workspace: str | None, as_json: bool) -> None:  # fmt: skip
    """Store a memory (durable before the command exits)."""
    from toon_memory.adapters.slm import ops

    entry, warnings = ops.store_memory(open_memory(workspace), type_, content, importance,
                                       tags=tags, context=context)  # fmt: skip
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    emit(entry_json(entry), f"✅ Stored: {entry_line(entry)}", as_json)


@click.command("memory-search", context_settings=SETTINGS)
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", default=5, show_default=True, type=int, help="How many results.")
@workspace_option
@json_option
@handles_errors
def memory_search(query: tuple[str, ...], limit: int, workspace: str | None, as_json: bool) -> None:
    """Search memories: relevance + importance + recency."""
    from toon_memory.adapters.slm import ops

    found = ops.search(open_memory(workspace), " ".join(query), limit)
    data = {
        "query": " ".join(query),
        "results": [
            {
                **entry_json(s.entry),
                "totalScore": round(s.total, 4),
                "relevance": round(s.relevance, 4),
                "importanceBoost": s.importance,
                "recencyBoost": round(s.recency, 4),
            }
            for s in found
        ],
    }
    lines = [f"{n}. {entry_line(s.entry)}  score {s.total:.2f}" for n, s in enumerate(found, 1)]
    emit(data, "\n".join(lines) or "No memories found.", as_json)


@click.command("memory-list", context_settings=SETTINGS)
@click.option("--limit", default=None, type=int, help="How many (default 10; 0 = all).")
@click.option("--type", "type_", default="", help="Only this type.")
@click.option("--date", "day", default="", help="today, yesterday or YYYY-MM-DD.")
@workspace_option
@json_option
@handles_errors
def memory_list(limit: int | None, type_: str, day: str, workspace: str | None,
                as_json: bool) -> None:  # fmt: skip
    """List memories, newest first."""
    from toon_memory.adapters.slm import ops

    entries = ops.list_memories(open_memory(workspace), limit=limit, type_=type_, day=day)
    text = "\n".join(entry_line(e) for e in entries) or "No memories."
    emit({"memories": [entry_json(e) for e in entries]}, text, as_json)


@click.command("memory-stats", context_settings=SETTINGS)
@workspace_option
@json_option
@handles_errors
def memory_stats(workspace: str | None, as_json: bool) -> None:
    """Counts by type and source, importance, dates and workspace files."""
    from toon_memory.adapters.slm import ops

    data = ops.stats(open_memory(workspace))
    types = ", ".join(f"{k} {v}" for k, v in data["by_type"].items())
    text = "\n".join([
        f"📊 {data['total']} memories ({types})", f"today: {data['today']}",
        f"average importance: {data['average_importance']}",
        f"oldest: {data['oldest'] or '-'}  newest: {data['newest'] or '-'}",
        f"daily files: {data['daily_files']}  archived: {data['archived']}",
        f"SESSION-STATE.json: {data['session_state'] or 'never updated'}",
    ])  # fmt: skip
    emit(data, text, as_json)


@click.command("memory-export", context_settings=SETTINGS)
@click.option(
    "--format",
    "format_",
    type=click.Choice(["json", "workspace"]),
    default="json",
    show_default=True,
    help="json: one backup file; workspace: MEMORY.md + memories/.",
)
@click.option("--output", required=True, help="File (json) or folder (workspace).")
@workspace_option
@json_option
@handles_errors
def memory_export(format_: str, output: str, workspace: str | None, as_json: bool) -> None:
    """Export every memory as a backup file or as a simple-local-memory workspace."""
    from toon_memory.adapters.slm import ops

    memory = open_memory(workspace)
    if format_ == "json":
        count = ops.export_json(memory, Path(output))
        emit({"exported": count, "output": output}, f"📤 Exported {count} memories to {output}",
             as_json)  # fmt: skip
        return
    files = ops.export_workspace(memory, Path(output))
    emit({"files": files, "output": output}, f"📤 Wrote {len(files)} files to {output}", as_json)


@click.command("memory-import", context_settings=SETTINGS)
@click.option(
    "--file",
    "file_",
    required=True,
    help="A backup, a memories/*.json file, MEMORY.md, a workspace folder or our export.",
)
@workspace_option
@json_option
@handles_errors
def memory_import(file_: str, workspace: str | None, as_json: bool) -> None:
    """Import memories; keys already present are skipped and reported."""
    from toon_memory.adapters.slm import ops

    report = ops.import_path(open_memory(workspace), Path(file_))
    text = f"📥 Imported {report.added}, updated {report.updated}, skipped {report.skipped}"
    emit(report.to_dict(), "\n".join([text, *report.messages]), as_json)


@click.command("memory-archive", context_settings=SETTINGS)
@click.option("--days", default=7, show_default=True, type=int, help="Unused for this many days.")
@workspace_option
@json_option
@handles_errors
def memory_archive(days: int, workspace: str | None, as_json: bool) -> None:
    """Move memories neither created nor recalled for N days to the archive."""
    from toon_memory.adapters.slm import ops

    moved = ops.archive(open_memory(workspace), days)
    emit({"archived": [entry_json(e) for e in moved]}, f"🗄️ Archived {len(moved)} memories",
         as_json)  # fmt: skip


@click.command("memory-deduplicate", context_settings=SETTINGS)
@workspace_option
@json_option
@handles_errors
def memory_deduplicate(workspace: str | None, as_json: bool) -> None:
    """Supersede repeated memories (same type and text), keeping the most important."""
    from toon_memory.adapters.slm import ops

    pairs = ops.deduplicate(open_memory(workspace))
    data = {"removed": [{"key": d.key, "kept": k.key} for d, k in pairs]}
    lines = [f"🧹 Removed {len(pairs)} duplicates"]
    lines += [f"  {d.key} -> {k.key}" for d, k in pairs]
    emit(data, "\n".join(lines), as_json)


@click.command("memory-cleanup", context_settings=SETTINGS)
@click.option(
    "--days", default=30, show_default=True, type=int, help="Daily files older than this."
)
@workspace_option
@json_option
@handles_errors
def memory_cleanup(days: int, workspace: str | None, as_json: bool) -> None:
    """Delete old daily files (memories/YYYY-MM-DD.json); their memories stay searchable."""
    from toon_memory.adapters.slm import ops

    removed = ops.cleanup(open_memory(workspace), days)
    emit({"removed": removed}, f"🧹 Removed {len(removed)} daily files", as_json)


COMMANDS = (memory_init, memory_store, memory_search, memory_list, memory_stats, memory_export,
            memory_import, memory_archive, memory_deduplicate, memory_cleanup)  # fmt: skip


@click.group(context_settings=SETTINGS)
def slm() -> None:
    """simple-local-memory commands (each is also installed as its own script)."""


for _command in COMMANDS:
    slm.add_command(_command)


if __name__ == "__main__":
    slm(prog_name="slm")
