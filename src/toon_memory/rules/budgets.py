"""The token budget and the list sizes of the context briefs and the primer.

Invariant: the numbers of a brief and the primer live here (the default budget,
the most entries a primer lists); their checks are ``model.checks``' (a budget
is 0 for no limit or at least ``MIN_BUDGET_TOKENS``: room for a title and the
"left out" line, so every cut can be reported within the budget). Pure: no I/O.
"""

from __future__ import annotations

from toon_memory.model.checks import MIN_BUDGET_TOKENS, check_budget_tokens, check_limit

#: The budget of a brief (and of the primer) when the caller names none.
DEFAULT_BUDGET_TOKENS = 1500
#: Most entries a primer may list at the top and per category.
MAX_PRIMER_LIMIT = 100

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "MAX_PRIMER_LIMIT",
    "MIN_BUDGET_TOKENS",
    "check_budget_tokens",
    "check_primer_limit",
]


def check_primer_limit(value: object) -> int:
    """How many entries a primer lists at the top: a whole number from 1 to ``MAX_PRIMER_LIMIT``."""
    return check_limit(value, MAX_PRIMER_LIMIT)
