"""The brief and primer numbers (``rules.budgets``): the default budget, the primer's list
size check, and the budget check they share with recall (``model.checks``)."""

from __future__ import annotations

import pytest

from toon_memory.errors import InputError
from toon_memory.model import checks
from toon_memory.rules import budgets


def test_the_budget_check_is_the_one_in_model_checks() -> None:
    assert budgets.check_budget_tokens is checks.check_budget_tokens
    assert budgets.MIN_BUDGET_TOKENS == checks.MIN_BUDGET_TOKENS
    assert budgets.DEFAULT_BUDGET_TOKENS >= budgets.MIN_BUDGET_TOKENS


@pytest.mark.parametrize("value", [1, "7", budgets.MAX_PRIMER_LIMIT])
def test_primer_limit_accepted(value: object) -> None:
    assert budgets.check_primer_limit(value) == int(str(value))


@pytest.mark.parametrize("value", [0, budgets.MAX_PRIMER_LIMIT + 1, "x", True, 2.5, None])
def test_primer_limit_refused_in_the_one_shape(value: object) -> None:
    with pytest.raises(InputError) as caught:
        budgets.check_primer_limit(value)
    assert caught.value.field == "limit"
    assert caught.value.problem.startswith(
        f"must be a whole number from 1 to {budgets.MAX_PRIMER_LIMIT}; got "
    )
