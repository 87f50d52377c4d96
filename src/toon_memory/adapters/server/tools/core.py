"""The core tools: remember, forget, pin, tag, stats, backups, session state, and (from
``tools.recall``) the recall tools, in ``tools/list`` order.

Invariant: pure data (no I/O, no ``mcp``, no click); each spec is the one
declaration of a tool and of its CLI command (``command``, ``help``,
``Param.cli``); every enum is a core constant.
"""

from __future__ import annotations

from dataclasses import replace

from toon_memory.adapters.server.specs import (
    ALLOW_SECRETS,
    ALLOW_SECRETS_HELP,
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
    ORIGINS,
    REMEMBER_ORIGINS,
    STATE_ACTIONS,
    STATE_FIELDS,
    TAG_ACTIONS,
)

#: Hot session state; the CLI's ``state`` subcommands are ``STATE_COMMANDS``.
STATE = ToolSpec(
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
)

CORE: tuple[ToolSpec, ...] = (
    ToolSpec(
        "memory_remember",
        "Save a decision, pattern, bug, knowledge or warning (don't-do-this). Same key merges; "
        "tags inferred when empty; [[key]] in content links.",
        (
            Param("category", enum=CATEGORIES).on_cli(
                help=f"One of: {', '.join(CATEGORIES)}.", flags=("-c",), choice=False
            ),
            Param("key", doc="Unique slug, no spaces").on_cli(
                help="Unique name; saving the same key merges.", flags=("-k",)
            ),
            Param("content").on_cli(help="The memory itself.", flags=("-m",)),
            Param("file", doc="path or path:line").on_cli(
                help="File it concerns (path or path:line)."
            ),
            TAGS.on_cli(help='Tags separated by ";" (inferred when empty).'),
            Param("links", doc="Related keys (type:key ok)", many=True).on_cli(
                help='Related keys separated by spaces or ";" (type:key allowed).'
            ),
            Param("ttl", doc="7d, 24h or YYYY-MM-DD").on_cli(
                help="Expiry: 7d, 24h, 30d or YYYY-MM-DD."
            ),
            Param("importance", enum=IMPORTANCE_LEVELS).on_cli(
                help=f"One of: {', '.join(IMPORTANCE_LEVELS)}.", choice=False
            ),
            Param("confidence", "number", "0..1").on_cli(help="0..1 (default 1.0, inferred 0.7)."),
            Param("origin", enum=REMEMBER_ORIGINS).on_cli(
                help=f"One of: {', '.join(ORIGINS)}.",
                default="human",
                show_default=True,
                choice=False,
            ),
            PATH_SCOPE.on_cli(help="Folder or file this memory applies to."),
            Param("allow_secrets", "boolean", "Keep a credential (else memory_secret)").on_cli(
                help=ALLOW_SECRETS_HELP
            ),
        ),
        required=("category", "key", "content"),
        method="remember",
        render="results.remembered",
        command="remember",
        help="Save a decision, pattern, bug, knowledge or warning.",
    ),
    RECALL,
    SMART_RECALL,
    SEARCH,
    SUGGEST,
    ToolSpec(
        "memory_forget",
        "soft (default): mark obsolete; hard: delete; restore; supersede by new_key.",
        (
            KEY.on_cli(argument=True, metavar="ID_OR_KEY"),
            Param("action", enum=FORGET_ACTIONS).on_cli(
                help="soft: mark obsolete; hard: delete; restore; supersede.", show_default=True
            ),
            Param("new_key", doc="Successor (supersede)").on_cli(
                help="The entry that supersedes this one (with --action supersede)."
            ),
        ),
        required=("key",),
        destructive=True,
        rename={"key": "id_or_key"},
        method="forget",
        render="results.forgotten",
        command="forget",
        help="Forget an entry (soft by default: it stays in history).",
    ),
    ToolSpec(
        "memory_stats",
        "Counts by category, status, TTL, quality; cold entries; hit and duplicate rates.",
        read_only=True,
        idempotent=True,
        output=STATS,
        method="stats",
        render="results.statistics",
        command="stats",
        help="Counts, TTL, quality, hit rate, duplicates.",
    ),
    ToolSpec(
        "memory_summary",
        "Save a file's summary (with summary) or get it (without).",
        (
            Param("file").on_cli(argument=True),
            Param("summary", aliases=("text",)).on_cli(
                help="Save this summary (omit to show the saved one).", flags=("--text",)
            ),
            ALLOW_SECRETS,
        ),
        required=("file",),
        destructive=True,
        idempotent=True,
        rename={"summary": "text"},
        method="summary",
        render="results.summarised",
        command="summary",
        help="Save or show the summary of a file.",
    ),
    ToolSpec(
        "memory_archive",
        "Move expired and stale (>30 days unused) entries to the archive.",
        (
            Param("older_than_days", "integer").on_cli(
                help="Archive entries unused for this many days (default 30).", only=True
            ),
        ),
        destructive=True,
        idempotent=True,
        method="archive",
        render="results.archived",
        command="archive",
        help="Move stale (30+ days unused) and expired entries to archive.toon.",
    ),
    ToolSpec(
        "memory_diff",
        "Entries created or updated since 24h, 7d or YYYY-MM-DD.",
        (
            Param("since", doc="Default 24h").on_cli(
                help="24h, 7d or YYYY-MM-DD.", show_default=True
            ),
            Param("type", enum=DIFF_TYPES).on_cli(show_default=True),
        ),
        read_only=True,
        idempotent=True,
        output=DIFF,
        method="diff",
        render="results.changed",
        command="diff",
        help="Entries created or updated since a date.",
    ),
    ToolSpec(
        "memory_pin",
        "Pin an entry: it leads every recall, by priority (1 first).",
        (
            KEY.on_cli(argument=True),
            Param("priority", "integer", minimum=1, maximum=5).on_cli(
                help="1 (first) to 5.", show_default=True
            ),
        ),
        required=("key",),
        idempotent=True,
        method="pin",
        render="results.pinned",
        command="pin",
        help="Pin an entry so it leads every recall.",
    ),
    ToolSpec(
        "memory_unpin",
        "Unpin an entry.",
        (KEY.on_cli(argument=True),),
        required=("key",),
        idempotent=True,
        method="unpin",
        render="results.unpinned",
        command="unpin",
        help="Remove an entry's pin.",
    ),
    ToolSpec(
        "memory_tag",
        "Add, remove or set tags on entries given by key or id.",
        (
            Param("keys", doc="Keys or ids, comma separated", many=True).on_cli(argument=True),
            Param("action", enum=TAG_ACTIONS).on_cli(default="add", show_default=True),
            TAGS.on_cli(help='Tags separated by ";" or ",".'),
            ALLOW_SECRETS,
        ),
        required=("keys", "action", "tags"),
        destructive=True,
        idempotent=True,
        method="tag",
        render="results.tagged",
        command="tag",
        help="Add, remove or set tags on entries (keys or ids separated by commas/spaces).",
    ),
    GRAPH_PATH,
    ToolSpec(
        "memory_backup",
        "Timestamped full backup (newest 10 kept).",
        method="backup",
        render="results.backed_up",
        command="backup",
        help="Write a timestamped backup (the newest 10 are kept).",
    ),
    ToolSpec(
        "memory_checkpoint",
        "Checkpoint a long session: a backup plus a 7-day entry naming it.",
        (Param("note", doc="What state this is").on_cli(help="What state this is."), ALLOW_SECRETS),
        method="checkpoint",
        render="results.checkpointed",
        command="checkpoint",
        help="A restorable backup plus a 7-day knowledge entry that names it.",
    ),
    STATE,
)


def _state_command(action: str, text: str, *params: Param) -> ToolSpec:
    """``state <action>``: ``memory_state`` with ``action`` fixed, ``params`` on the CLI."""
    fixed = STATE.params[0].on_cli(default=action, fixed=True)
    required = ("field", "value") if action in ("set", "add") else ()
    return replace(STATE, params=(fixed, *params), required=required,
                   command=f"state {action}", help=text)  # fmt: skip


_FIELD = STATE.params[1].on_cli(argument=True, choice=False)
_VALUES = STATE.params[2].on_cli(argument=True, metavar="VALUES...")
_ALLOW = STATE.params[3]
#: The ``state`` subcommands (the CLI's only: MCP publishes ``STATE`` alone).
STATE_COMMANDS: tuple[ToolSpec, ...] = (
    _state_command("show", "Print the session state."),
    _state_command("set", "Set current_task, or replace a list field with VALUES.",
                   _FIELD, _VALUES, _ALLOW),
    _state_command("add", "Append VALUES to key_context, pending_actions or recent_decisions.",
                   _FIELD, _VALUES, _ALLOW),
    _state_command("clear", "Clear the named fields (all documented fields when none are named).",
                   STATE.params[2].on_cli(argument=True, metavar="[FIELDS]...")),
)  # fmt: skip

CORE = (*CORE, PRIMER)
