"""Contract of the security tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.adapters.server.contract_core import D

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_encrypt": ([], [], set()),
    "memory_decrypt": ([], [], {D}),
    "memory_secret": (["action", "name", "value"], ["action"], {D}),
}
DATA_TOOLS: set[str] = set()
