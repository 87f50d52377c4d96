"""Contract of the curation tools (name -> (parameters in order, required, true hints)).

Imported by test_contract.py, which checks every registered tool against the union.
"""

from __future__ import annotations

from tests.adapters.server.contract_core import D, I, R

CONTRACT: dict[str, tuple[list[str], list[str], set[str]]] = {
    "memory_consolidate": (["mode", "dry_run", "min_quality"], [], {D, I}),
    "memory_reflect": (["limit"], [], {R, I}),
    "memory_promote": (["dry_run"], [], {I}),
    "memory_compress": (["key", "summary", "allow_secrets"], ["key"], {D}),
}
DATA_TOOLS: set[str] = {"memory_reflect"}
