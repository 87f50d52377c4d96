"""The core tools: remember, forget, pin, tag, stats, backups, session state, and (from
``tools.recall``) the recall tools, in ``tools/list`` order.

Invariant: pure data (no I/O, no ``mcp``); every enum is a core constant.
"""

from __future__ import annotations

from toon_memory.adapters.server.specs import (
    ALLOW_SECRETS,
    ARRAY,
    DIFF,
    KEY,
    PATH_SCOPE,
    STATS,
    TAGS,
    Param,
    ToolSpec,
    obj_schema,
)
from toon_memory.adapters.server.tools.recall import (
    GRAPH_PATH,
    PRIMER,
    RECALL,
    SEARCH,
    SMART_RECALL,
    SUGGEST,
)
from toon_memory.model.entry import (
    CATEGORIES,
    DIFF_TYPES,
    FORGET_ACTIONS,
    IMPORTANCE_LEVELS,
    REMEMBER_ORIGINS,
    STATE_ACTIONS,
    STATE_FIELDS,
    TAG_ACTIONS,
)

CORE: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_remember",
        "Save a decision, pattern, bug, knowledge or warning (don't-do-this). Same key merges; "
        "tags inferred when empty; [[key]] in content links.",
        (
            Param("category", enum=CATEGORIES),
            Param("key", doc="Unique slug, no spaces"),
            Param("content"),
            Param("file", doc="path or path:line"),
            TAGS,
            Param("links", doc="Related keys (type:key ok)", many=True),
            Param("ttl", doc="7d, 24h or YYYY-MM-DD"),
            Param("importance", enum=IMPORTANCE_LEVELS),
            Param("confidence", "number", "0..1"),
            Param("origin", enum=REMEMBER_ORIGINS),
            PATH_SCOPE,
            Param("allow_secrets", "boolean", "Keep a credential (else memory_secret)"),
        ),
        required=("category", "key", "content"),
        method="remember",
        render="results.remembered",
    ),
    RECALL,
    SMART_RECALL,
    SEARCH,
    SUGGEST,
    ToolSpec(
        "memory_forget",
        "soft (default): mark obsolete; hard: delete; restore; supersede by new_key.",
        (
            KEY,
            Param("action", enum=FORGET_ACTIONS),
            Param("new_key", doc="Successor (supersede)"),
        ),
        required=("key",),
        destructive=True,
        rename={"key": "id_or_key"},
        method="forget",
        render="results.forgotten",
    ),
    ToolSpec(
        "memory_stats",
        "Counts by category, status, TTL, quality; cold entries; hit and duplicate rates.",
        read_only=True,
        idempotent=True,
        output=STATS,
        method="stats",
        render="results.statistics",
    ),
    ToolSpec(
        "memory_summary",
        "Save a file's summary (with summary) or get it (without).",
        (Param("file"), Param("summary", aliases=("text",)), ALLOW_SECRETS),
        required=("file",),
        destructive=True,
        idempotent=True,
        rename={"summary": "text"},
        method="summary",
        render="results.summarised",
    ),
    ToolSpec(
        "memory_archive",
        "Move expired and stale (>30 days unused) entries to the archive.",
        destructive=True,
        idempotent=True,
        method="archive",
        render="results.archived",
    ),
    ToolSpec(
        "memory_diff",
        "Entries created or updated since 24h, 7d or YYYY-MM-DD.",
        (Param("since", doc="Default 24h"), Param("type", enum=DIFF_TYPES)),
        read_only=True,
        idempotent=True,
        output=DIFF,
        method="diff",
        render="results.changed",
    ),
    ToolSpec(
        "memory_pin",
        "Pin an entry: it leads every recall, by priority (1 first).",
        (KEY, Param("priority", "integer", minimum=1, maximum=5)),
        required=("key",),
        idempotent=True,
        method="pin",
        render="results.pinned",
    ),
    ToolSpec(
        "memory_unpin",
        "Unpin an entry.",
        (KEY,),
        required=("key",),
        idempotent=True,
        method="unpin",
        render="results.unpinned",
    ),
    ToolSpec(
        "memory_tag",
        "Add, remove or set tags on entries given by key or id.",
        (
            Param("keys", doc="Keys or ids, comma separated", many=True),
            Param("action", enum=TAG_ACTIONS),
            TAGS,
            ALLOW_SECRETS,
        ),
        required=("keys", "action", "tags"),
        destructive=True,
        idempotent=True,
        method="tag",
        render="results.tagged",
    ),
    GRAPH_PATH,
    ToolSpec(
        "memory_backup",
        "Timestamped full backup (newest 10 kept).",
        method="backup",
        render="results.backed_up",
    ),
    ToolSpec(
        "memory_checkpoint",
        "Checkpoint a long session: a backup plus a 7-day entry naming it.",
        (Param("note", doc="What state this is"), ALLOW_SECRETS),
        method="checkpoint",
        render="results.checkpointed",
    ),
    ToolSpec(
        "memory_state",
        "Hot session state (SESSION-STATE.json): show it, or set/add/clear current_task, "
        "key_context, pending_actions, recent_decisions. Update it before replying.",
        (
            Param("action", enum=STATE_ACTIONS),
            Param("field", enum=STATE_FIELDS),
            Param("value", doc="Text; list fields take an array", many=True),
            ALLOW_SECRETS,
        ),
        destructive=True,
        output=obj_schema(current_task={"type": "string"}, key_context=ARRAY),
        method="session_state",
        render="results.session_state",
    ),
)

CORE = (*CORE, PRIMER)
