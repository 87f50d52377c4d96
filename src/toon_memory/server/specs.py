"""The published surface of every MCP tool: names, parameters, annotations, output schemas.

Invariant: pure data, no I/O and no ``mcp`` import. Each parameter is
published under exactly one spelling (snake_case); ``Param.spellings`` lists
the others a handler also accepts (camelCase and a few legacy names).
Schemas carry no titles and descriptions stay short: ``tools/list`` is paid
for in every agent's context on every session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toon_memory.model import (
    CATEGORIES,
    DIFF_TYPES,
    FORGET_ACTIONS,
    IMPORTANCE_LEVELS,
    RECALL_BUDGETS,
    RECALL_MODES,
    REMEMBER_ORIGINS,
    TAG_ACTIONS,
)
from toon_memory.store.session_state import ACTIONS as STATE_ACTIONS
from toon_memory.store.session_state import FIELDS as STATE_FIELDS


def camel(name: str) -> str:
    """``path_scope`` -> ``pathScope``."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


@dataclass(frozen=True, slots=True)
class Param:
    """One tool parameter. ``kind``: string, integer, number or boolean.

    ``many`` strings also accept a JSON array of strings.
    """

    name: str
    kind: str = "string"
    doc: str = ""
    enum: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    many: bool = False
    aliases: tuple[str, ...] = ()

    @property
    def spellings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.name, camel(self.name), *self.aliases)))

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.doc:
            out["description"] = self.doc
        return out


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool: its description, parameters, annotations and (for data) output schema.

    A call is ``Memory.<method>(**arguments)`` with each published parameter
    passed under its own name, or under ``rename[name]`` where the ``Memory``
    parameter is spelled otherwise.
    """

    name: str
    doc: str
    params: tuple[Param, ...] = ()
    required: tuple[str, ...] = ()
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    output: dict[str, Any] | None = None
    rename: dict[str, str] = field(default_factory=dict)
    method: str = ""

    def __post_init__(self) -> None:
        if not self.method:
            raise ValueError(f"{self.name}: no Memory method")

    @property
    def fields(self) -> dict[str, str]:
        """A ``Memory`` error field -> the published parameter name."""
        return {inner: published for published, inner in self.rename.items()}

    def call_arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Checked published arguments -> keyword arguments of ``Memory.<method>``."""
        return {self.rename.get(name, name): value for name, value in arguments.items()}

    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
        }
        if self.required:
            schema["required"] = list(self.required)
        return schema

    def annotations(self) -> dict[str, bool]:
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": False,
        }


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


_ARRAY: dict[str, Any] = {"type": "array"}
RESULTS = _obj(results=_ARRAY)
STATS = _obj(total={"type": "integer"}, active={"type": "integer"})
DIFF = _obj(since={"type": "string"}, created=_ARRAY, updated=_ARRAY)
PATH = _obj(path=_ARRAY)

# -- shared parameters ----------------------------------------------------------------
KEY = Param("key", doc="Entry key or id")
LIMIT = Param("limit", "integer", "Max results", minimum=1)
HOPS = Param("hops", "integer", "Graph depth", enum=(1, 2))
BUDGET = Param("budget", enum=RECALL_BUDGETS, doc="tiny: top 3, one line each")
BUDGET_TOKENS = Param("budget_tokens", "integer", "Cap output tokens (0: none)", minimum=0)
EXPLAIN = Param("explain", "boolean", "Add a why line per entry")
SESSION_BIAS = Param("session_bias", "boolean", "Boost files changed on this branch")
PATH_SCOPE = Param("path_scope", doc="File being worked on (glob)")
FROM_DATE = Param("from_date", doc="YYYY-MM-DD (archive included)")
TO_DATE = Param("to_date", doc="YYYY-MM-DD")
TAGS = Param("tags", doc="a;b", many=True)

TOOLS: tuple[ToolSpec, ...] = (
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
        ),
        required=("category", "key", "content"),
        method="remember",
    ),
    ToolSpec(
        "memory_recall",
        "Search memory before reading files. mode graph follows links, index lists one line "
        "per entry; ids fetches in order; as_of adds superseded versions.",
        (
            Param("query"),
            Param("mode", enum=RECALL_MODES),
            HOPS,
            LIMIT,
            Param("ids", doc="Ids or keys, comma separated", many=True),
            BUDGET,
            Param("compact", "boolean", "Denser output"),
            BUDGET_TOKENS,
            EXPLAIN,
            Param("rrf", "boolean", "false: linear score"),
            SESSION_BIAS,
            PATH_SCOPE,
            Param("as_of", doc="YYYY-MM-DD"),
            FROM_DATE,
            TO_DATE,
        ),
        read_only=True,
        idempotent=True,
        output=RESULTS,
        method="recall",
    ),
    ToolSpec(
        "memory_smart_recall",
        "Best first call of a task: BM25 + graph + quality + freshness in one.",
        (
            Param("intent", doc="What you are about to do"),
            HOPS,
            EXPLAIN,
            BUDGET_TOKENS,
            Param("session_bias", "boolean", "Boost branch files (default true)"),
            LIMIT,
        ),
        required=("intent",),
        read_only=True,
        idempotent=True,
        output=RESULTS,
        method="smart_recall",
    ),
    ToolSpec(
        "memory_search",
        "Recall with filters: category, tags (all must match), dates, path scope.",
        (
            Param("query"),
            Param("category", enum=CATEGORIES),
            TAGS,
            FROM_DATE,
            TO_DATE,
            PATH_SCOPE,
            BUDGET,
            SESSION_BIAS,
            LIMIT,
        ),
        read_only=True,
        idempotent=True,
        output=RESULTS,
        method="search",
    ),
    ToolSpec(
        "memory_suggest",
        "Entries related to a free-text context.",
        (Param("context"), Param("limit", "integer", "Max results (5)", minimum=1)),
        required=("context",),
        read_only=True,
        idempotent=True,
        output=RESULTS,
        method="suggest",
    ),
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
    ),
    ToolSpec(
        "memory_stats",
        "Counts by category, status, TTL, quality; cold entries; hit and duplicate rates.",
        read_only=True,
        idempotent=True,
        output=STATS,
        method="stats",
    ),
    ToolSpec(
        "memory_summary",
        "Save a file's summary (with summary) or get it (without).",
        (Param("file"), Param("summary", aliases=("text",))),
        required=("file",),
        destructive=True,
        idempotent=True,
        rename={"summary": "text"},
        method="summary",
    ),
    ToolSpec(
        "memory_archive",
        "Move expired and stale (>30 days unused) entries to the archive.",
        destructive=True,
        idempotent=True,
        method="archive",
    ),
    ToolSpec(
        "memory_diff",
        "Entries created or updated since 24h, 7d or YYYY-MM-DD.",
        (Param("since", doc="Default 24h"), Param("type", enum=DIFF_TYPES)),
        read_only=True,
        idempotent=True,
        output=DIFF,
        method="diff",
    ),
    ToolSpec(
        "memory_pin",
        "Pin an entry: it leads every recall, by priority (1 first).",
        (KEY, Param("priority", "integer", minimum=1, maximum=5)),
        required=("key",),
        idempotent=True,
        method="pin",
    ),
    ToolSpec(
        "memory_unpin",
        "Unpin an entry.",
        (KEY,),
        required=("key",),
        idempotent=True,
        method="unpin",
    ),
    ToolSpec(
        "memory_tag",
        "Add, remove or set tags on entries given by key or id.",
        (
            Param("keys", doc="Keys or ids, comma separated", many=True),
            Param("action", enum=TAG_ACTIONS),
            TAGS,
        ),
        required=("keys", "action", "tags"),
        destructive=True,
        idempotent=True,
        method="tag",
    ),
    ToolSpec(
        "memory_graph_path",
        "Shortest chain of links between two entries.",
        (Param("from_key", aliases=("from",)), Param("to_key", aliases=("to",))),
        required=("from_key", "to_key"),
        read_only=True,
        idempotent=True,
        output=PATH,
        method="graph_path",
    ),
    ToolSpec("memory_backup", "Timestamped full backup (newest 10 kept).", method="backup"),
    ToolSpec(
        "memory_checkpoint",
        "Checkpoint a long session: a backup plus a 7-day entry naming it.",
        (Param("note", doc="What state this is"),),
        method="checkpoint",
    ),
    ToolSpec(
        "memory_state",
        "Hot session state (SESSION-STATE.json): show it, or set/add/clear current_task, "
        "key_context, pending_actions, recent_decisions. Update it before replying.",
        (
            Param("action", enum=STATE_ACTIONS),
            Param("field", enum=STATE_FIELDS),
            Param("value", doc="Text; list fields take an array", many=True),
        ),
        destructive=True,
        output=_obj(current_task={"type": "string"}, key_context=_ARRAY),
        method="session_state",
    ),
)

BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}
