"""The one home of each check (``model.checks``): what each kind accepts, and one message
shape per kind naming the field and quoting what was given."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.checks import (
    MIN_BUDGET_TOKENS,
    check_bool,
    check_budget_tokens,
    check_choice,
    check_fraction,
    check_limit,
    check_number,
    check_whole,
)


def _problem(call: object, *args: object) -> InputError:
    with pytest.raises(InputError) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6), st.integers(-(10**7), 10**7))
def test_whole_accepts_exactly_the_range(low: int, span: int, value: int) -> None:
    high = low + abs(span)
    if low <= value <= high:
        assert check_whole(value, "n", low, high) == value
        assert check_whole(str(value), "n", low, high) == value
        assert check_whole(float(value), "n", low, high) == value
    else:
        error = _problem(check_whole, value, "n", low, high)
        assert error.field == "n"
        assert error.problem == f"must be a whole number from {low} to {high}; got {value}"


@pytest.mark.parametrize("value", [True, False, None, 2.5, math.inf, math.nan, "2.5", "x", "",
                                   [3], {"a": 3}, "9" * 41, b"3"])  # fmt: skip
def test_whole_refuses_what_is_not_a_whole_number(value: object) -> None:
    error = _problem(check_whole, value, "limit", 1, 100)
    assert error.field == "limit" and error.problem.startswith(
        "must be a whole number from 1 to 100; got "
    )


def test_whole_range_words() -> None:
    assert _problem(check_whole, 0, "n", 1).problem == "must be a whole number of at least 1; got 0"
    assert (
        _problem(check_whole, 9, "n", None, 5).problem
        == "must be a whole number of at most 5; got 9"
    )
    assert _problem(check_whole, "x", "n", None).problem == "must be a whole number; got 'x'"
    assert check_whole(" 7 ", "n", None) == 7


def test_limit_is_a_whole_number_from_one() -> None:
    assert check_limit(1, 100) == 1 and check_limit("100", 100) == 100
    error = _problem(check_limit, "abc", 100)
    assert str(error) == "limit: must be a whole number from 1 to 100; got 'abc'"
    for bad in (0, 101, -1, True):
        assert _problem(check_limit, bad, 100).field == "limit"
    assert _problem(check_limit, 0, 5, "top").field == "top"


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_fraction_accepts_exactly_zero_to_one(value: float) -> None:
    if 0.0 <= value <= 1.0:
        assert check_fraction(value, "confidence") == value
        assert check_fraction(repr(value), "confidence") == value
    else:
        error = _problem(check_fraction, value, "confidence")
        assert error.field == "confidence"
        assert error.problem.startswith("must be a number from 0 to 1; got ")


@pytest.mark.parametrize("value", [True, False, None, "half", "", [0.5], "0." + "5" * 50, 10**400])
def test_number_refuses_what_is_not_a_finite_number(value: object) -> None:
    error = _problem(check_number, value, "interval", 0.001, 1440)
    assert error.problem.startswith("must be a number from 0.001 to 1440; got ")


def test_budget_tokens_is_zero_or_at_least_the_minimum() -> None:
    for good in (0, MIN_BUDGET_TOKENS, 1500, "300", 10**6):
        assert check_budget_tokens(good) == int(str(good))
    for bad in (-1, 1, MIN_BUDGET_TOKENS - 1, "many", True, 2.5, None):
        error = _problem(check_budget_tokens, bad)
        assert error.field == "budget_tokens"
        assert error.problem.startswith(
            f"must be 0 (no limit) or a whole number of at least {MIN_BUDGET_TOKENS}; got "
        )


@given(
    st.one_of(st.text(max_size=8), st.integers(), st.floats(), st.none(), st.lists(st.booleans()))
)
def test_bool_takes_real_booleans_only(value: object) -> None:
    error = _problem(check_bool, value, "dry_run")
    assert error.field == "dry_run" and error.problem.startswith("must be true or false; got ")


def test_bool_returns_the_boolean() -> None:
    assert check_bool(True, "x") is True and check_bool(False, "x") is False
    assert (
        _problem(check_bool, "yes", "allow_secrets").problem == "must be true or false; got 'yes'"
    )


@given(st.sampled_from(["soft", "hard"]), st.text(" \t", max_size=2), st.booleans())
def test_choice_forgives_case_and_spaces(word: str, pad: str, upper: bool) -> None:
    given_word = pad + (word.upper() if upper else word) + pad
    assert check_choice(given_word, "action", ("soft", "hard")) == word


@pytest.mark.parametrize("value", ["fuzzy", "", None, 3, ["soft"], "so ft"])
def test_choice_refuses_the_rest(value: object) -> None:
    error = _problem(check_choice, value, "action", ("soft", "hard"))
    assert error.field == "action" and error.problem.startswith("must be one of soft, hard; got ")


def test_a_huge_value_is_quoted_briefly() -> None:
    error = _problem(check_choice, "x" * 100_000, "mode", ("flat",))
    assert len(str(error)) < 120 and "(+99960 more characters)" in str(error)
