"""The checks of a caller's value, one per kind, each with one message shape.

Invariant: every check here either returns the value in its canonical type or
raises ``InputError(field, problem)`` whose problem says what the value must
be and quotes what was given (``errors.quote``), in one shape per kind:

- whole number in a range: ``must be a whole number from 1 to 100; got 'abc'``
  (``of at least 1`` when there is no upper end); ``limit`` is this kind;
- number in a range (0..1 and the like): ``must be a number from 0 to 1; got 1.5``;
- token budget: ``must be 0 (no limit) or a whole number of at least 50; got 10``;
- boolean, real booleans only: ``must be true or false; got 'yes'`` (MCP takes
  JSON booleans, the CLI's ``--flag/--no-flag`` gives booleans, so nothing
  needs the strings "true" or "yes");
- enum member (case and surrounding spaces forgiven): ``must be one of a, b; got 'c'``.

Every layer above ``model`` checks these kinds only through this module (a test
keeps second copies out). Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from toon_memory.errors import InputError, quote

#: The smallest non-zero token budget: room for a title and the "left out" line.
MIN_BUDGET_TOKENS = 50
#: A number given as text longer than this is refused unread (int() of a huge text is slow).
MAX_NUMBER_TEXT = 40


def _whole_or_none(value: object) -> int | None:
    """``value`` as an int when it is one exactly (an integral float, a short integer text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str) and len(value) <= MAX_NUMBER_TEXT:
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


def _number_or_none(value: object) -> float | None:
    """``value`` as a finite float (a number or a short number text), else None."""
    if isinstance(value, bool):
        return None
    number: float | None = None
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            return None
    elif isinstance(value, str) and len(value) <= MAX_NUMBER_TEXT:
        try:
            number = float(value.strip())
        except ValueError:
            return None
    return number if number is not None and math.isfinite(number) else None


def whole_range(low: int | None, high: int | None) -> str:
    """`` from 1 to 100``, `` of at least 1``, `` of at most 5`` or ``""``: the range part
    of a whole-number message."""
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None or high is not None:
        return f" of at least {low}" if low is not None else f" of at most {high}"
    return ""


def check_whole(value: object, field: str, low: int | None, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (no end where None); an integral float and
    a short integer text are read."""
    number = _whole_or_none(value)
    if (number is None or (low is not None and number < low)
            or (high is not None and number > high)):  # fmt: skip
        raise InputError(
            field, f"must be a whole number{whole_range(low, high)}; got {quote(value)}"
        )
    return number


def check_limit(value: object, most: int, field: str = "limit") -> int:
    """A list size: a whole number from 1 to ``most``."""
    return check_whole(value, field, 1, most)


def check_number(value: object, field: str, low: float, high: float) -> float:
    """A finite number from ``low`` to ``high`` (a short number text is read)."""
    number = _number_or_none(value)
    if number is None or not low <= number <= high:
        raise InputError(field, f"must be a number from {low:g} to {high:g}; got {quote(value)}")
    return number


def check_fraction(value: object, field: str) -> float:
    """A number from 0 to 1 (a confidence, a quality, an importance)."""
    return check_number(value, field, 0.0, 1.0)


def check_budget_tokens(value: object, field: str = "budget_tokens") -> int:
    """0 (no limit) or a whole number of tokens of at least ``MIN_BUDGET_TOKENS``."""
    budget = _whole_or_none(value)
    if budget is None or (budget != 0 and budget < MIN_BUDGET_TOKENS):
        raise InputError(
            field,
            f"must be 0 (no limit) or a whole number of at least {MIN_BUDGET_TOKENS}; "
            f"got {quote(value)}",
        )
    return budget


def check_bool(value: object, field: str) -> bool:
    """A real boolean: ``True`` or ``False``, never a string, a number or None."""
    if not isinstance(value, bool):
        raise InputError(field, f"must be true or false; got {quote(value)}")
    return value


def check_choice(value: object, field: str, allowed: Iterable[str]) -> str:
    """One of ``allowed`` (compared lower-cased, surrounding spaces dropped)."""
    choices = tuple(allowed)
    text = value.strip().lower() if isinstance(value, str) else ""
    if not isinstance(value, str) or text not in choices:
        raise InputError(field, f"must be one of {', '.join(choices)}; got {quote(value)}")
    return text
