"""The curation tools: consolidate, reflect, promote, compress.

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant
(``model.CONSOLIDATE_MODES``); each tool calls a method of ``Memory.curation``;
each also declares its CLI command (``command``, ``help``, ``Param.cli``).
"""

from __future__ import annotations

from dataclasses import replace

from toon_memory.adapters.server.specs import (
    ALLOW_SECRETS,
    ARRAY,
    KEY,
    LIMIT,
    Param,
    ToolSpec,
    obj_schema,
)
from toon_memory.model.entry import CONSOLIDATE_MODES

#: On the CLI a dry run is the default and ``--apply`` makes the changes (``--dry-run/--apply``).
APPLY_HELP = "--apply makes the changes (default: a dry run that only lists them)."
DRY_RUN = Param("dry_run", "boolean", "Default true: only list").on_cli(
    help=APPLY_HELP, off="--apply"
)

CURATION: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_consolidate",
        "Dedup identical, similar (Jaccard>0.5), low-quality (<min_quality 0.3) or old "
        "versions. Soft; dry_run default.",
        (
            Param("mode", enum=CONSOLIDATE_MODES).on_cli(
                help="identical, similar (Jaccard > 0.5), low-quality, versions.",
                show_default=True,
            ),
            replace(DRY_RUN, doc=""),
            Param("min_quality", "number").on_cli(
                help="low-quality: remove entries below this quality (0..1, default 0.3)."
            ),
        ),
        destructive=True,
        idempotent=True,
        method="curation.consolidate",
        render="curation.consolidated",
        command="consolidate",
        help="Remove duplicates, low-quality entries or older versions (soft, restorable).",
    ),
    ToolSpec(
        "memory_reflect",
        "Entries needing attention (stale, low quality, over-linked), tags used together, "
        "contradictions.",
        (LIMIT.on_cli(flags=("-n",), help="Most entries to list.", show_default=True),),
        read_only=True,
        idempotent=True,
        output=obj_schema(attention=ARRAY),
        method="curation.reflect",
        render="curation.reflected",
        command="reflect",
        help="Entries needing attention (stale, low quality, hubs), tag pairs, contradictions.",
    ),
    ToolSpec(
        "memory_promote",
        "Drafts (confidence <= 0.65) become full entries unless they duplicate one (Jaccard>0.5).",
        (DRY_RUN,),
        idempotent=True,
        method="curation.promote",
        render="curation.promoted",
        command="promote",
        help="Drafts (confidence <= 0.65) become full entries unless they duplicate one.",
    ),
    ToolSpec(
        "memory_compress",
        "Shorten an entry. No summary: get one (local claude/llm CLI) or a prompt; "
        "with summary: replace content, old kept.",
        (
            KEY.on_cli(argument=True),
            Param("summary").on_cli(help="Replace the content (the old version is kept)."),
            Param("timeout", "number").on_cli(
                help="Seconds a local claude/llm CLI may take (default 60).", only=True
            ),
            ALLOW_SECRETS,
        ),
        required=("key",),
        destructive=True,
        method="curation.compress",
        render="curation.compressed",
        command="compress",
        help="Shorten an entry: without --summary, suggest one (local claude/llm CLI, else a prompt).",
    ),
)
