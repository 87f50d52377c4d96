"""The curation tools: consolidate, reflect, promote, compress.

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant
(``model.CONSOLIDATE_MODES``); each tool calls a method of ``Memory.curation``.
"""

from __future__ import annotations

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

DRY_RUN = Param("dry_run", "boolean", "Default true: only list")

CURATION: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_consolidate",
        "Dedup identical, similar (Jaccard>0.5), low-quality (<min_quality 0.3) or old "
        "versions. Soft; dry_run default.",
        (
            Param("mode", enum=CONSOLIDATE_MODES),
            Param("dry_run", "boolean"),
            Param("min_quality", "number"),
        ),
        destructive=True,
        idempotent=True,
        method="curation.consolidate",
        render="curation.consolidated",
    ),
    ToolSpec(
        "memory_reflect",
        "Entries needing attention (stale, low quality, over-linked), tags used together, "
        "contradictions.",
        (LIMIT,),
        read_only=True,
        idempotent=True,
        output=obj_schema(attention=ARRAY),
        method="curation.reflect",
        render="curation.reflected",
    ),
    ToolSpec(
        "memory_promote",
        "Drafts (confidence <= 0.65) become full entries unless they duplicate one (Jaccard>0.5).",
        (DRY_RUN,),
        idempotent=True,
        method="curation.promote",
        render="curation.promoted",
    ),
    ToolSpec(
        "memory_compress",
        "Shorten an entry. No summary: get one (local claude/llm CLI) or a prompt; "
        "with summary: replace content, old kept.",
        (KEY, Param("summary"), ALLOW_SECRETS),
        required=("key",),
        destructive=True,
        method="curation.compress",
        render="curation.compressed",
    ),
)
