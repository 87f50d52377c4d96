"""Contract of the sharing tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.adapters.server.contract_core import D, I, W

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_export_global": (["allow_secrets"], [], {I}),
    "memory_import_global": (["merge", "allow_secrets"], [], {D, I}),
    "memory_export_gist": (["public"], [], {I, W}),
    "memory_import_gist": (["id", "allow_secrets"], ["id"], {W}),
}
DATA_TOOLS: set[str] = set()
