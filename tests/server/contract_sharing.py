"""Contract of the sharing tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.server.contract_core import D, I, W

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_export_global": ([], [], {I}),
    "memory_import_global": (["merge"], [], {D, I}),
    "memory_export_gist": (["public"], [], {I, W}),
    "memory_import_gist": (["id"], ["id"], {W}),
}
DATA_TOOLS: set[str] = set()
