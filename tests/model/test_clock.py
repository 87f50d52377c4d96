"""``model.clock``: today honours TOON_MEMORY_TODAY, dates are exactly YYYY-MM-DD, spans are
exactly <n>h|d|w|m|y, and a span past the calendar is an InputError naming the field."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toon_memory.errors import InputError
from toon_memory.model.clock import (
    file_stamp,
    is_expired,
    now_iso,
    parse_date,
    relative_span,
    resolve_since,
    resolve_ttl,
    today,
)

TODAY = date(2026, 7, 15)  # tests/conftest.py fixes TOON_MEMORY_TODAY to this day
UNIT_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}


def test_today_and_stamps_follow_the_fixed_day() -> None:
    assert today() == TODAY
    assert re.fullmatch(r"2026-07-15T\d{2}:\d{2}:\d{2}Z", now_iso())
    assert re.fullmatch(r"20260715-\d{6}-\d{6}", file_stamp())


def test_a_bad_fixed_day_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOON_MEMORY_TODAY", "15/07/2026")
    with pytest.raises(InputError) as caught:
        today()
    assert caught.value.field == "TOON_MEMORY_TODAY" and "15/07/2026" in caught.value.problem


@given(st.dates())
def test_parse_date_round_trips_every_calendar_date(day: date) -> None:
    text = day.isoformat()
    if len(text) == 10:  # years before 1000 are not 4 digits in isoformat()
        assert parse_date(text, "on") == day
        assert parse_date(f"  {text} ", "on") == day


@pytest.mark.parametrize(
    "value", ["2026-7-15", "2026-02-30", "20260715", "2026-07-15T10:00:00Z", "", "tomorrow"]
)
def test_parse_date_refuses_anything_but_an_exact_date(value: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_date(value, "as_of")
    assert caught.value.field == "as_of" and "YYYY-MM-DD" in caught.value.problem


@given(st.integers(0, 10**5), st.sampled_from("hdwmyHDWMY"), st.sampled_from(["", " "]))
def test_relative_span_reads_every_unit(amount: int, unit: str, pad: str) -> None:
    span = relative_span(f"{pad}{amount}{pad}{unit}{pad}")
    if unit.lower() == "h":
        assert span == timedelta(hours=amount)
    else:
        assert span == timedelta(days=amount * UNIT_DAYS[unit.lower()])


@given(st.text())
def test_relative_span_is_none_for_anything_not_a_span(text: str) -> None:
    if not re.fullmatch(r"\s*\d+\s*[hdwmyHDWMY]\s*", text):
        assert relative_span(text) is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [("7d", "2026-07-22"), ("24h", "2026-07-16"), ("1h", "2026-07-16"), ("2w", "2026-07-29"),
     ("1m", "2026-08-14"), ("1y", "2027-07-15"), ("2030-01-01", "2030-01-01"), ("", ""),
     ("  ", "")],
)  # fmt: skip
def test_resolve_ttl(value: str, expected: str) -> None:
    assert resolve_ttl(value) == expected


@pytest.mark.parametrize(
    ("value", "needle"),
    [("0d", "positive"), ("0h", "positive"), ("99999999999y", "9999"), ("9000y", "9999"),
     ("soon", "7d, 24h"), ("2026-13-01", "YYYY-MM-DD"), ("-3d", "7d, 24h")],
)  # fmt: skip
def test_resolve_ttl_refuses_naming_the_field(value: str, needle: str) -> None:
    with pytest.raises(InputError) as caught:
        resolve_ttl(value, "expires")
    assert caught.value.field == "expires" and needle in caught.value.problem


@given(st.integers(1, 10**4), st.sampled_from("hdwmy"))
def test_resolve_ttl_is_never_before_tomorrow(amount: int, unit: str) -> None:
    try:
        expiry = date.fromisoformat(resolve_ttl(f"{amount}{unit}"))
    except InputError as error:  # a span past the year 9999 is refused, never an overflow
        assert error.field == "ttl"
        return
    assert expiry >= TODAY + timedelta(days=1)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", date(2026, 7, 14)), ("24h", date(2026, 7, 14)), ("1h", date(2026, 7, 14)),
     ("48h", date(2026, 7, 13)), ("7d", date(2026, 7, 8)), ("1w", date(2026, 7, 8)),
     ("2026-01-02", date(2026, 1, 2))],
)  # fmt: skip
def test_resolve_since(value: str, expected: date) -> None:
    assert resolve_since(value) == expected


@pytest.mark.parametrize("value", ["99999999y", "800000d", "yesterday", "2026/01/01"])
def test_resolve_since_refuses_naming_the_field(value: str) -> None:
    with pytest.raises(InputError) as caught:
        resolve_since(value, "window")
    assert caught.value.field == "window"


def test_is_expired_compares_to_the_day_given_or_today() -> None:
    assert is_expired("2026-07-14") and not is_expired("2026-07-15")
    assert not is_expired("2026-07-16")
    assert is_expired("2026-07-16", on=date(2026, 7, 17))
    assert is_expired("2026-07-14T23:59:59Z")  # only the date part counts
    assert not is_expired("") and not is_expired("never")
