"""The token budget and the list sizes of the context briefs and the primer.

Invariant: ``check_budget_tokens`` either raises ``InputError`` naming
``budget_tokens`` or returns 0 (no limit) or a budget of at least
``MIN_BUDGET_TOKENS`` (room for a title and the "left out" line, so every
cut can be reported within the budget). Pure: no I/O.
"""

from __future__ import annotations

from toon_memory.errors import InputError, quote

#: The budget of a brief (and of the primer) when the caller names none.
DEFAULT_BUDGET_TOKENS = 1500
MIN_BUDGET_TOKENS = 50
#: Most entries a primer may list at the top and per category.
MAX_PRIMER_LIMIT = 100


def _whole(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise InputError(field, f"expected a whole number, got {quote(value)}")
    try:
        return int(str(value).strip()) if not isinstance(value, int) else value
    except ValueError:
        raise InputError(field, f"expected a whole number, got {quote(value)}") from None


def check_budget_tokens(value: object) -> int:
    """0 (no limit) or a whole number of tokens >= ``MIN_BUDGET_TOKENS``."""
    budget = _whole(value, "budget_tokens")
    if budget != 0 and budget < MIN_BUDGET_TOKENS:
        raise InputError(
            "budget_tokens", f"must be 0 (no limit) or at least {MIN_BUDGET_TOKENS}, got {budget}"
        )
    return budget


def check_limit(value: object, field: str = "limit", most: int = MAX_PRIMER_LIMIT) -> int:
    """A list size between 1 and ``most``."""
    limit = _whole(value, field)
    if not 1 <= limit <= most:
        raise InputError(field, f"must be between 1 and {most}, got {limit}")
    return limit
