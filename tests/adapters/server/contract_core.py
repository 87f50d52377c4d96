"""Contract of the core tools (name -> (parameters in order, required, true hints))."""

from __future__ import annotations

R, D, I = "readOnly", "destructive", "idempotent"  # noqa: E741
W = "openWorld"  # the tool reaches a service outside this machine
RECALL = ["query", "mode", "hops", "limit", "ids", "budget", "compact", "budget_tokens",
          "explain", "rrf", "session_bias", "path_scope", "as_of", "from_date", "to_date"]  # fmt: skip
# name -> (parameters in order, required, hints that are true)
CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_remember": (["category", "key", "content", "file", "tags", "links", "ttl",
                         "importance", "confidence", "origin", "path_scope", "allow_secrets"],
                        ["category", "key", "content"], set()),
    "memory_recall": (RECALL, [], {R, I}),
    "memory_smart_recall": (["intent", "hops", "explain", "budget_tokens", "session_bias", "limit"],
                            ["intent"], {R, I}),
    "memory_search": (["query", "category", "tags", "from_date", "to_date", "path_scope", "budget",
                       "session_bias", "limit"], [], {R, I}),
    "memory_suggest": (["context", "limit"], ["context"], {R, I}),
    "memory_forget": (["key", "action", "new_key"], ["key"], {D}),
    "memory_stats": ([], [], {R, I}),
    "memory_summary": (["file", "summary", "allow_secrets"], ["file"], {D, I}),
    "memory_archive": ([], [], {D, I}),
    "memory_diff": (["since", "type"], [], {R, I}),
    "memory_pin": (["key", "priority"], ["key"], {I}),
    "memory_unpin": (["key"], ["key"], {I}),
    "memory_tag": (["keys", "action", "tags", "allow_secrets"], ["keys", "action", "tags"], {D, I}),
    "memory_graph_path": (["from_key", "to_key"], ["from_key", "to_key"], {R, I}),
    "memory_backup": ([], [], set()),
    "memory_checkpoint": (["note", "allow_secrets"], [], set()),
    "memory_state": (["action", "field", "value", "allow_secrets"], [], {D}),
}  # fmt: skip
DATA_TOOLS = {"memory_recall", "memory_smart_recall", "memory_search", "memory_suggest",
              "memory_stats", "memory_diff", "memory_graph_path", "memory_state"}  # fmt: skip
