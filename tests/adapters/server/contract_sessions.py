"""Contract of the sessions tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.adapters.server.contract_core import D, I, R

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_sessions": (["conflicts_only"], [], {R, I}),
    "memory_merge_sessions": (["file", "promote"], ["file"], set()),
    "memory_captured": (["action", "limit"], [], {D}),
}
DATA_TOOLS: set[str] = set()
#: Rows for ``test_stdio_e2e.SCRIPT`` (tool, invalid arguments, the parameter its error names,
#: valid arguments); they run after the core rows, on the same server.
E2E: list[tuple[str, dict[str, object], str, dict[str, object]]] = [
    ("memory_sessions", {"conflicts_only": "maybe"}, "conflicts_only", {"conflictsOnly": False}),
    ("memory_merge_sessions", {"file": "  "}, "file", {"file": "src/types.ts"}),
    ("memory_captured", {"action": "purge"}, "action", {"action": "list", "limit": 5}),
]
