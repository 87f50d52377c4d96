"""Contract of the sessions tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.server.contract_core import D, I, R

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_sessions": (["conflicts_only"], [], {R, I}),
    "memory_merge_sessions": (["file", "promote"], ["file"], set()),
    "memory_captured": (["action", "limit"], [], {D}),
}
DATA_TOOLS: set[str] = set()
