"""Contract of the viewer tool (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.adapters.server.contract_core import D, I, R  # noqa: F401

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_visualize": (["query"], [], {R, I}),
}
DATA_TOOLS: set[str] = {"memory_visualize"}
