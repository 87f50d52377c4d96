"""Contract of the context tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
``memory_primer`` closes the core tools' list, so it comes first here.
"""

from __future__ import annotations

from tests.adapters.server.contract_core import D, I, R  # noqa: F401

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_primer": (["limit", "budget_tokens"], [], {R, I}),
    "context_brief": (["budget_tokens"], [], {R, I}),
    "context_generate": (["budget_tokens"], [], {R, I}),
    "context_diff": (["since", "budget_tokens"], [], {R, I}),
    "context_focus": (["query", "budget_tokens"], ["query"], {R, I}),
    "context_health": (["budget_tokens"], [], {R, I}),
    "context_export": (["compact", "budget_tokens"], [], {R, I}),
}
DATA_TOOLS: set[str] = set()
